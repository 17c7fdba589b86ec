/*
 * The string conversions the ghc-events library applies when it shows
 * events: Haskell's `show` of string lists and the printable form of
 * binary messages (the buffer, numbers, lenient UTF-8 and JSON strings
 * are lib/common/text.c's).
 */
#include "show_internal.h"

/* ---- Haskell's show (GHC.Show.showLitString) ---- */

static const char *const ascii_names[32] = {
	"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "a",
	"b", "t", "n", "v", "f", "r", "SO", "SI",
	"DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB",
	"CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US"
};

/* Appends the escape for `c`; *protect says what a following character
 * must not be without a "\&" between: 1 a digit, 2 an 'H'. */
static void put_haskell_char(ev_text *t, uint32_t c, int *protect)
{
	*protect = 0;
	if (c == '"') {
		evi_puts(t, "\\\"");
	} else if (c == '\\') {
		evi_puts(t, "\\\\");
	} else if (c >= ' ' && c < 0x7f) {
		evi_putc(t, (char)c);
	} else if (c == 0x7f) {
		evi_puts(t, "\\DEL");
	} else if (c > 0x7f) {
		evi_putc(t, '\\');
		evi_put_u64(t, c);
		*protect = 1;
	} else {
		evi_putc(t, '\\');
		evi_puts(t, ascii_names[c]);
		*protect = c == 14 ? 2 : 0; /* "\SO" then 'H' reads "\SOH" */
	}
}

static void put_haskell_string(ev_text *t, const uint8_t *p, size_t len)
{
	int protect = 0;

	evi_putc(t, '"');
	for (size_t i = 0; i < len;) {
		unsigned n;
		int32_t cp = evi_utf8_next(p + i, len - i, &n);
		uint32_t c = cp < 0 ? EVI_UTF8_REPLACEMENT : (uint32_t)cp;
		if ((protect == 1 && c >= '0' && c <= '9') ||
		    (protect == 2 && c == 'H'))
			evi_puts(t, "\\&");
		put_haskell_char(t, c, &protect);
		i += n;
	}
	evi_putc(t, '"');
}

void evi_put_string_list(ev_text *t, const uint8_t *p, size_t len,
			 evi_put_string_fn put)
{
	size_t start = 0;

	/* ghc-events: splitOn "\0" (dropWhileEnd (== '\0') s) */
	while (len > 0 && p[len - 1] == 0)
		len--;
	evi_putc(t, '[');
	for (size_t i = 0; i <= len; i++) {
		if (i < len && p[i] != 0)
			continue;
		if (start)
			evi_putc(t, ',');
		put(t, p + start, i - start);
		start = i + 1;
	}
	evi_putc(t, ']');
}

void evi_put_haskell_list(ev_text *t, const uint8_t *p, size_t len)
{
	evi_put_string_list(t, p, len, put_haskell_string);
}

/* ---- printable characters (Data.Char.isPrint) ---- */

/* Format characters (Cf), as Unicode lists them. */
static int is_format(uint32_t c)
{
	return c == 0xad || (c >= 0x600 && c <= 0x605) || c == 0x61c ||
	       c == 0x6dd || c == 0x70f || c == 0x180e ||
	       (c >= 0x200b && c <= 0x200f) || (c >= 0x202a && c <= 0x202e) ||
	       (c >= 0x2060 && c <= 0x2064) || (c >= 0x2066 && c <= 0x206f) ||
	       c == 0xfeff || (c >= 0xfff9 && c <= 0xfffb) || c == 0x110bd ||
	       (c >= 0x1d173 && c <= 0x1d17a) || c == 0xe0001 ||
	       (c >= 0xe0020 && c <= 0xe007f);
}

/* isPrint is false for controls, format characters, line and paragraph
 * separators, private use and unassigned code points. Unassigned ones
 * are recognised only where they are permanently so (noncharacters). */
static int is_print(uint32_t c)
{
	if (c < 0x20 || (c >= 0x7f && c < 0xa0))
		return 0;
	if (c == 0x2028 || c == 0x2029 || is_format(c))
		return 0;
	if ((c >= 0xe000 && c <= 0xf8ff) || c >= 0xf0000)
		return 0;
	return !((c & 0xfffe) == 0xfffe || (c >= 0xfdd0 && c <= 0xfdef));
}

void evi_put_printable(ev_text *t, const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len;) {
		unsigned n;
		int32_t cp = evi_utf8_next(p + i, len - i, &n);
		if (cp < 0 || !is_print((uint32_t)cp))
			evi_putc(t, '.');
		else
			evi_put(t, p + i, n);
		i += n;
	}
}
