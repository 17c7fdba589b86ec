/*
 * Shared by the renderers of show.h: appending to an ev_text, and the
 * string conversions ghc-events applies (show_strings.c).
 */
#ifndef EVTOOL_LIB_SHOW_INTERNAL_H
#define EVTOOL_LIB_SHOW_INTERNAL_H

#include <string.h>

#include "evtool/decode.h"
#include "evtool/show.h"

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

/* The next code point of UTF-8 at p[0, len): its value and length. An
 * invalid or cut sequence gives -1 for one byte (ghc-events' lenient
 * decoding replaces each such byte). */
int32_t evi_utf8_next(const uint8_t *p, size_t len, unsigned *bytes);

/* Text as ghc-events decodes it: UTF-8, invalid bytes as U+FFFD. */
void evi_put_text(ev_text *t, const uint8_t *p, size_t len);

/* Writes one string of a list. */
typedef void (*evi_put_string_fn)(ev_text *t, const uint8_t *p, size_t len);

/* NUL-separated strings as ghc-events splits them (trailing NULs dropped,
 * then split at every NUL), as a list "[a,b]" whose items `put` writes. */
void evi_put_string_list(ev_text *t, const uint8_t *p, size_t len,
			 evi_put_string_fn put);

/* Haskell's `show` of a list of strings: NUL-separated strings (trailing
 * NULs dropped) as ["a","b\955"]. */
void evi_put_haskell_list(ev_text *t, const uint8_t *p, size_t len);

/* A binary message as ghc-events shows it: UTF-8 with every invalid byte
 * and every character that is not printable replaced by '.'. */
void evi_put_printable(ev_text *t, const uint8_t *p, size_t len);

/* A JSON string literal of lenient UTF-8 text (invalid bytes as U+FFFD). */
void evi_put_json_string(ev_text *t, const uint8_t *p, size_t len);

/* The NDJSON rendering of one event of a session whose header is `h`
 * (show_json.c); `ghc782`: the log numbers STOP_THREAD statuses as GHC
 * 7.8.2 did. */
void evi_show_json_event(const ev_event *ev, const ev_header *h, int ghc782,
			 ev_text *out);

/* A STOP_THREAD status code as ghc-events reads it, 0 to 20 (show_stop.c);
 * `ghc782`: the log numbers them as GHC 7.8.2 did. */
unsigned evi_stop_status(uint64_t code, int ghc782);

/* ghc-events' name (ThreadStopStatus constructor) of a STOP_THREAD status
 * code, "BlockedOnBlackHoleOwnedBy" for code 8 with the owner field. */
const char *evi_stop_status_name(uint64_t code, int has_info, int ghc782);

#endif
