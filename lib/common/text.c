/*
 * The text primitives every renderer writes with (text.h): the growable
 * ev_text buffer (its type is public, in show.h), decimal and hexadecimal
 * numbers, lenient UTF-8 (each invalid byte as U+FFFD, as ghc-events
 * decodes text) and the one JSON string writer (ev_json_string). show,
 * export and the commands' --json all write through these.
 */
#include <stdlib.h>

#include "text.h"

void ev_text_free(ev_text *t)
{
	free(t->data);
	t->data = NULL;
	t->len = t->cap = 0;
	t->failed = 0;
}

int evi_text_room(ev_text *t, size_t n)
{
	size_t cap = t->cap ? t->cap : 4096;
	char *grown;

	if (t->failed)
		return 0;
	while (cap - t->len < n)
		cap *= 2;
	if (!(grown = realloc(t->data, cap))) {
		t->failed = 1;
		return 0;
	}
	t->data = grown;
	t->cap = cap;
	return 1;
}

/* Two digits at a time: timestamps have 8 to 12 digits, and formatting
 * them is most of the cost of a line. */
static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324"
	"25262728293031323334353637383940414243444546474849"
	"50515253545556575859606162636465666768697071727374"
	"75767778798081828384858687888990919293949596979899";

/* The number of decimal digits of v: from its bit length, then one
 * comparison (the first entry is 0 so that 0 and 1 have one digit). */
static unsigned count_digits(uint64_t v)
{
	static const uint64_t pow10[] = {
		0u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u,
		100000000u, 1000000000u, 10000000000u, 100000000000u,
		1000000000000u, 10000000000000u, 100000000000000u,
		1000000000000000u, 10000000000000000u, 100000000000000000u,
		1000000000000000000u, 10000000000000000000u
	};
	unsigned log = (unsigned)(64 - __builtin_clzll(v | 1)) * 1233u >> 12;

	return log + 1 - (v < pow10[log]);
}

char *evi_fmt_u64(char *p, uint64_t v)
{
	char *end;

	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	end = p + count_digits(v);
	p = end;
	while (v >= 100) {
		uint64_t q = v / 100;
		p -= 2;
		memcpy(p, &digit_pairs[2 * (v - q * 100)], 2);
		v = q;
	}
	if (v >= 10)
		memcpy(p - 2, &digit_pairs[2 * v], 2);
	else
		p[-1] = (char)('0' + v);
	return end;
}

char *evi_fmt_2digits(char *p, unsigned v)
{
	memcpy(p, &digit_pairs[2 * (v % 100)], 2);
	return p + 2;
}

/* Writes the digits straight into the buffer. */
void evi_put_u64(ev_text *t, uint64_t v)
{
	if (t->cap - t->len < EVI_U64_MAX && !evi_text_room(t, EVI_U64_MAX))
		return;
	t->len = (size_t)(evi_fmt_u64(t->data + t->len, v) - t->data);
}

void evi_put_hex(ev_text *t, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char digits[16];
	size_t n = 0;

	do
		digits[sizeof digits - ++n] = hex[v & 15];
	while ((v >>= 4) != 0);
	evi_put(t, digits + sizeof digits - n, n);
}

int32_t evi_utf8_next(const uint8_t *p, size_t len, unsigned *bytes)
{
	uint32_t cp, min;
	unsigned n;

	*bytes = 1;
	if (p[0] < 0x80)
		return p[0];
	if ((p[0] & 0xe0) == 0xc0)
		n = 2, cp = p[0] & 0x1fu, min = 0x80;
	else if ((p[0] & 0xf0) == 0xe0)
		n = 3, cp = p[0] & 0x0fu, min = 0x800;
	else if ((p[0] & 0xf8) == 0xf0)
		n = 4, cp = p[0] & 0x07u, min = 0x10000;
	else
		return -1;
	if (len < n)
		return -1;
	for (unsigned i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (p[i] & 0x3fu);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*bytes = n;
	return (int32_t)cp;
}

static void put_utf8(ev_text *t, uint32_t cp)
{
	char b[4];

	if (cp < 0x80) {
		evi_putc(t, (char)cp);
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		evi_put(t, b, 2);
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		evi_put(t, b, 3);
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		evi_put(t, b, 4);
	}
}

void evi_put_text(ev_text *t, const uint8_t *p, size_t len)
{
	size_t start = 0, i = 0;

	/* Runs of valid UTF-8 are copied as they are. */
	while (i < len) {
		unsigned n;
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		if (evi_utf8_next(p + i, len - i, &n) >= 0) {
			i += n;
			continue;
		}
		evi_put(t, p + start, i - start);
		put_utf8(t, EVI_UTF8_REPLACEMENT);
		start = ++i;
	}
	evi_put(t, p + start, len - start);
}

size_t evi_text_cut(const void *p, size_t len, size_t max)
{
	const uint8_t *s = p;

	if (len > max) {
		len = max;
		while (len > 0 && (s[len] & 0xc0) == 0x80)
			len--;
	}
	return len;
}

char *evi_text_copy(const void *p, size_t len, size_t max, size_t *out_len)
{
	const uint8_t *s = p;
	char *copy;

	len = evi_text_cut(p, len, max);
	if (!(copy = malloc(len + 1)))
		return NULL;
	memcpy(copy, s, len);
	copy[len] = '\0';
	if (out_len)
		*out_len = len;
	return copy;
}

/* ---- JSON ---- */

void evi_put_json_string(ev_text *t, const uint8_t *p, size_t len)
{
	evi_putc(t, '"');
	for (size_t i = 0; i < len;) {
		unsigned n;
		int32_t cp = evi_utf8_next(p + i, len - i, &n);
		if (cp < 0) {
			put_utf8(t, EVI_UTF8_REPLACEMENT);
		} else if (cp == '"' || cp == '\\') {
			evi_putc(t, '\\');
			evi_putc(t, (char)cp);
		} else if (cp == '\n') {
			evi_puts(t, "\\n");
		} else if (cp == '\t') {
			evi_puts(t, "\\t");
		} else if (cp == '\r') {
			evi_puts(t, "\\r");
		} else if (cp < 0x20) {
			evi_puts(t, "\\u00");
			evi_putc(t, "0123456789abcdef"[cp >> 4]);
			evi_putc(t, "0123456789abcdef"[cp & 15]);
		} else {
			evi_put(t, p + i, n);
		}
		i += n;
	}
	evi_putc(t, '"');
}

int ev_json_string(ev_text *out, const void *s, size_t len)
{
	if (!out || (!s && len))
		return EV_EINVAL;
	evi_put_json_string(out, s, len);
	return out->failed ? EV_ENOMEM : EV_OK;
}
