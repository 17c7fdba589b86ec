#include "evtool/common.h"

const char *ev_strerror(int status)
{
	switch (status) {
	case EV_OK:
		return "success";
	case EV_END:
		return "end of data";
	case EV_ETRUNCATED:
		return "truncated input";
	case EV_EFORMAT:
		return "malformed eventlog";
	case EV_EIO:
		return "input/output error";
	case EV_ENOMEM:
		return "out of memory";
	case EV_EINVAL:
		return "invalid argument";
	case EV_ELIMIT:
		return "resource limit exceeded";
	default:
		return "unknown status";
	}
}

const char *ev_version(void)
{
	return EV_VERSION_STRING;
}

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common_internal.h"

int evi_vfail(ev_diag *d, ev_origin origin, unsigned input, int status,
	      uint64_t offset, uint64_t index, const char *fmt, va_list ap)
{
	d->status = status;
	d->origin = origin;
	d->reason = EV_REASON_NONE;
	d->input = input;
	d->offset = offset;
	d->event_index = index;
	vsnprintf(d->message, sizeof d->message, fmt, ap);
	return status;
}

int evi_fail(ev_diag *d, int status, uint64_t offset, uint64_t index,
	     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	evi_vfail(d, EV_ORIGIN_NONE, 0, status, offset, index, fmt, ap);
	va_end(ap);
	return status;
}

int evi_fail_at(ev_diag *d, ev_origin origin, int status, uint64_t offset,
		uint64_t index, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	evi_vfail(d, origin, 0, status, offset, index, fmt, ap);
	va_end(ap);
	return status;
}

int evi_because(ev_diag *d, ev_reason why)
{
	d->reason = why;
	return d->status;
}

void evi_quote_magic(const uint8_t *p, size_t n, char *out, size_t out_len)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < n && used + 5 < out_len; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
			out[used++] = (char)p[i];
		else
			used += (size_t)snprintf(out + used, out_len - used,
						 "\\x%02x", p[i]);
		out[used] = '\0';
	}
}

int evi_grow(void *items, size_t *cap, size_t need, size_t size)
{
	size_t want = *cap ? *cap : 8;
	char *old, *grown;

	if (need <= *cap)
		return EV_OK;
	while (want < need) {
		if (want > SIZE_MAX / 2)
			return EV_ENOMEM;
		want *= 2;
	}
	/* The caller's pointer is copied as bytes: it is a T *, not a
	 * char *. */
	memcpy(&old, items, sizeof old);
	if (want > SIZE_MAX / size || !(grown = realloc(old, want * size)))
		return EV_ENOMEM;
	memcpy(items, &grown, sizeof grown);
	*cap = want;
	return EV_OK;
}

int evi_grow_zeroed(ev_diag *d, void *items, size_t *n, size_t i,
		    size_t size)
{
	size_t had = *n;
	char *p;

	if (i < *n)
		return EV_OK;
	if (evi_grow(items, n, i + 1, size) < 0)
		return evi_fail(d, EV_ENOMEM, 0, 0, "out of memory");
	memcpy(&p, items, sizeof p);
	memset(p + had * size, 0, (*n - had) * size);
	return EV_OK;
}
