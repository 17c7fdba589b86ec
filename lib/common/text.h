/*
 * Text primitives (text.c): appending to an ev_text, numbers in decimal
 * and hexadecimal, lenient UTF-8 and JSON string literals. The renderers
 * above lib/format (show, export) write their text with these.
 */
#ifndef EVTOOL_LIB_TEXT_H
#define EVTOOL_LIB_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "evtool/show.h" /* ev_text, ev_json_string */

/* Makes room for `n` more bytes; 0 (and t->failed) when out of memory. */
int evi_text_room(ev_text *t, size_t n);

static inline void evi_put(ev_text *t, const void *p, size_t n)
{
	if (t->cap - t->len < n && !evi_text_room(t, n))
		return;
	memcpy(t->data + t->len, p, n);
	t->len += n;
}

static inline void evi_puts(ev_text *t, const char *s)
{
	evi_put(t, s, strlen(s));
}

static inline void evi_putc(ev_text *t, char c)
{
	if (t->cap == t->len && !evi_text_room(t, 1))
		return;
	t->data[t->len++] = c;
}

/* The most digits of a u64 in decimal. */
#define EVI_U64_MAX 20u

/* Writes v in decimal at p (room for EVI_U64_MAX bytes); returns the end. */
char *evi_fmt_u64(char *p, uint64_t v);

/* Writes v % 100 as two digits at p; returns p + 2. */
char *evi_fmt_2digits(char *p, unsigned v);

void evi_put_u64(ev_text *t, uint64_t v);
void evi_put_hex(ev_text *t, uint64_t v);

/* U+FFFD, what an invalid UTF-8 byte becomes. */
#define EVI_UTF8_REPLACEMENT 0xfffdu

/* The next code point of UTF-8 at p[0, len): its value and length. An
 * invalid or cut sequence gives -1 for one byte (ghc-events' lenient
 * decoding replaces each such byte). */
int32_t evi_utf8_next(const uint8_t *p, size_t len, unsigned *bytes);

/* Text as ghc-events decodes it: UTF-8, invalid bytes as U+FFFD. */
void evi_put_text(ev_text *t, const uint8_t *p, size_t len);

/* The length of the `len` bytes at `p` cut to at most `max` bytes at a
 * UTF-8 character boundary, as evi_text_copy cuts them. */
size_t evi_text_cut(const void *p, size_t len, size_t max);

/* A NUL-terminated copy of the `len` bytes at `p`, cut to at most `max`
 * bytes at a UTF-8 character boundary; its length in *out_len (when not
 * NULL). NULL when out of memory. */
char *evi_text_copy(const void *p, size_t len, size_t max, size_t *out_len);

/* A JSON string literal of lenient UTF-8 text (invalid bytes as U+FFFD);
 * ev_json_string checks its arguments and calls this. */
void evi_put_json_string(ev_text *t, const uint8_t *p, size_t len);

#endif
