/*
 * lib/common's declarations shared by every layer above it: recording a
 * failure in an ev_diag, growing arrays, short copies; not installed.
 */
#ifndef EVTOOL_LIB_COMMON_INTERNAL_H
#define EVTOOL_LIB_COMMON_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "evtool/common.h"

/* The one way the library records a failure: fills all of `d` with what
 * it concerns (`origin`, `input` for an operation with several inputs),
 * the status, the position and a printf-style message, and clears its
 * reason; returns the status so that callers can `return evi_vfail(...)`.
 * Every failure helper of a handle ends here. */
int evi_vfail(ev_diag *d, ev_origin origin, unsigned input, int status,
	      uint64_t offset, uint64_t index, const char *fmt, va_list ap)
	__attribute__((format(printf, 7, 0)));

/* evi_vfail for a failure of what `d` belongs to: EV_ORIGIN_NONE. */
int evi_fail(ev_diag *d, int status, uint64_t offset, uint64_t index,
	     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* evi_vfail with an origin, for helpers of one file and few arguments. */
int evi_fail_at(ev_diag *d, ev_origin origin, int status, uint64_t offset,
		uint64_t index, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Says what was wrong with the failure just recorded in `d` (see
 * ev_reason), where it is recorded: `return evi_because(d, why)` after
 * the evi_fail* call or the handle's failure helper. Returns d->status. */
int evi_because(ev_diag *d, ev_reason why);

/* Copies `n` bytes between buffers that do not overlap. Events and their
 * payloads are mostly 4 to 32 bytes (doc/format.md section 5: thread and
 * GC events), where two fixed-size copies that may overlap each other cost
 * less than a call to memcpy; neither reads or writes outside the n bytes.
 * The writer, merge and export's pipe copy events with it. */
static inline void evi_copy_short(uint8_t *dst, const uint8_t *src,
				  size_t n)
{
	uint8_t a[16], b[16];

	if (n >= 8 && n <= 16) {
		memcpy(a, src, 8);
		memcpy(b, src + n - 8, 8);
		memcpy(dst, a, 8);
		memcpy(dst + n - 8, b, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(a, src, 4);
		memcpy(b, src + n - 4, 4);
		memcpy(dst, a, 4);
		memcpy(dst + n - 4, b, 4);
	} else if (n > 16 && n <= 32) {
		memcpy(a, src, 16);
		memcpy(b, src + n - 16, 16);
		memcpy(dst, a, 16);
		memcpy(dst + n - 16, b, 16);
	} else if (n) {
		memcpy(dst, src, n);
	}
}

/* Makes room for `need` elements of `size` bytes in the array at *items
 * (a pointer to a T *) of *cap elements, as git's ALLOC_GROW: the count
 * doubles from 8 until it covers `need`. EV_OK, or EV_ENOMEM with the
 * array unchanged. The one way lib/ grows an array. */
int evi_grow(void *items, size_t *cap, size_t need, size_t size);

/* Grows the array at *items (a pointer to a T * whose *n elements have
 * `size` bytes each) so that index `i` is in it: the count doubles from 8
 * until it covers i, the new elements are zeroed. EV_OK, or EV_ENOMEM
 * recorded in `d` (the array unchanged). For tables indexed by a
 * capability or another small id that grow on first sight. */
int evi_grow_zeroed(ev_diag *d, void *items, size_t *n, size_t i,
		    size_t size);

/* Printable rendering of four magic bytes, e.g. "hdrb" or "\x1f\x8b..". */
void evi_quote_magic(const uint8_t *p, size_t n, char *out, size_t out_len);

#endif
