/*
 * The validator's findings (delivered to the caller's function, their
 * severity lowered for logs not written by GHC's runtime), the per-cap
 * state of a session and the names of event types.
 *
 * Layering: the bottom of the validator with validate_table.c
 * (validate.c -> validate_sched.c -> this file). It calls no function of
 * validate.c or validate_sched.c; these helpers live here because both
 * use them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "evtool/catalog.h"
#include "validate_internal.h"

/* ------------------------------------------------------------------------
 * Names
 * ---------------------------------------------------------------------- */

const char *evv_type_name(uint16_t type)
{
	const ev_type_info *info = ev_catalog_find(type);
	return info ? info->name : "UNKNOWN";
}

/* ------------------------------------------------------------------------
 * Findings
 * ---------------------------------------------------------------------- */

/* Checks that hold for any writer: the format itself. */
static int format_check(const char *check)
{
	static const char *const format[] = {
		"header", "undeclared-type", "block-size", "block-end",
		"truncated", "trailing-data", "input", "not-sorted", "limit"
	};

	for (size_t i = 0; i < sizeof format / sizeof format[0]; i++)
		if (strcmp(check, format[i]) == 0)
			return 1;
	return 0;
}

static void deliver(evv *v, ev_finding *f, const char *fmt, va_list ap)
{
	char message[320];

	if (v->stop)
		return;
	/* The rest describe what GHC's runtime does; a log whose header GHC
	 * would not write (a GHC id declared in the other kind: Mercury's
	 * runtime writes the format too) only gets warnings from them. */
	if (!v->ghc_writer && f->severity == EV_SEVERITY_ERROR &&
	    !format_check(f->check))
		f->severity = EV_SEVERITY_WARNING;
	vsnprintf(message, sizeof message, fmt, ap);
	f->message = message;
	f->session = v->session;
	if (f->severity == EV_SEVERITY_WARNING)
		v->res->warnings++;
	else
		v->res->errors++;
	if (v->fn && v->fn(f, v->ctx) != 0) {
		v->stop = 1;
		v->res->stopped = 1;
	}
}

void evv_report(evv *v, ev_severity sev, const char *check,
		const ev_event *ev, uint64_t offset, const char *fmt, ...)
{
	ev_finding f = { sev, check, ev ? ev->offset : offset, 0, ev != NULL,
			 0, 0, EV_NO_CAP, 0, NULL };
	va_list ap;

	if (ev) {
		f.event_index = ev->index;
		f.event_type = ev->type;
		f.cap = ev->cap;
		f.time = ev->time;
	}
	va_start(ap, fmt);
	deliver(v, &f, fmt, ap);
	va_end(ap);
}

void evv_report_at(evv *v, ev_severity sev, const char *check,
		   const evv_where *w, const char *fmt, ...)
{
	ev_finding f = { sev, check, w->offset, 0, w->has_event, w->index,
			 w->type, w->cap, w->time, NULL };
	va_list ap;

	va_start(ap, fmt);
	deliver(v, &f, fmt, ap);
	va_end(ap);
}

uint64_t evv_offset(const evv *v)
{
	return v->r ? ev_reader_offset(v->r) : v->tail;
}

/* ------------------------------------------------------------------------
 * Per-cap state
 * ---------------------------------------------------------------------- */

evv_cap *evv_cap_state(evv *v, uint16_t cap)
{
	uint8_t bit = (uint8_t)(1u << (cap % 8));

	if (!(v->touched[cap / 8] & bit)) {
		memset(&v->caps[cap], 0, sizeof v->caps[cap]);
		v->touched[cap / 8] |= bit;
	}
	return &v->caps[cap];
}
