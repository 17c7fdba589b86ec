/*
 * evtool: text the library writes into, for every renderer of the
 * library (show, export) and for callers that print what it gives.
 *
 * An ev_text is a growable byte buffer; ev_json_string appends a JSON
 * string literal that is valid UTF-8 whatever the bytes it is given.
 *
 *     ev_text out = EV_TEXT_INIT;
 *     ev_json_string(&out, name, strlen(name));
 *     if (!out.failed) fwrite(out.data, 1, out.len, stdout);
 *     ev_text_free(&out);
 */
#ifndef EVTOOL_TEXT_H
#define EVTOOL_TEXT_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A growable byte buffer that rendering appends to. */
typedef struct ev_text {
	char *data;   /**< len bytes (not NUL-terminated); owned */
	size_t len;
	size_t cap;
	int failed;   /**< an allocation failed; data holds what fitted */
} ev_text;

/** An empty ev_text, ready to append to (it owns nothing yet). */
#define EV_TEXT_INIT { NULL, 0, 0, 0 }

/** Frees the buffer's memory and empties it. */
EV_API void ev_text_free(ev_text *t);

/**
 * Appends `len` bytes of text at `s` as one JSON string literal, quotes
 * included: the writer of every JSON string evtool prints (NDJSON and the
 * commands' --json). Valid UTF-8 is copied; each byte that is not part of
 * a valid UTF-8 sequence (a cut sequence, an overlong form, a surrogate)
 * becomes U+FFFD, as ghc-events decodes text, so the output is valid
 * UTF-8 JSON whatever the bytes. A quote and a backslash are escaped,
 * control characters written as `\n`, `\t`, `\r` or `\u00XX`. EV_OK;
 * EV_EINVAL for a NULL `out` (or NULL `s` with a length); EV_ENOMEM
 * (`out` then holds what fitted and has `failed` set).
 */
EV_API int ev_json_string(ev_text *out, const void *s, size_t len);

#ifdef __cplusplus
}
#endif

#endif
