/*
 * Shared by the renderers of show.h: the string conversions ghc-events
 * applies (show_strings.c) and the NDJSON rendering; the text primitives
 * are lib/common/text.h's, the STOP_THREAD statuses stop_status.c's.
 */
#ifndef EVTOOL_LIB_SHOW_INTERNAL_H
#define EVTOOL_LIB_SHOW_INTERNAL_H

#include "evtool/decode.h"
#include "evtool/show.h"
#include "text.h"

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

/* ghc-events' CapsetType constructor of a CAPSET_CREATE type, as both
 * forms show it: "CapsetOsProcess", "CapsetUnknown" for an unknown type
 * (show_json.c). */
const char *evi_capset_type_name(uint64_t type);

/* The NDJSON rendering of one event of a session whose header is `h`
 * (show_json.c); `quirks`: evi_header_quirks(h), which number its
 * STOP_THREAD statuses. */
void evi_show_json_event(const ev_event *ev, const ev_header *h,
			 unsigned quirks, ev_text *out);

#endif
