/*
 * The user's spans in `evtool view`'s index (include/evtool/view.h): the
 * index's ev_stats pairs the START/STOP user messages as `evtool stats
 * --spans` does (lib/stats/stats_spans.c, the one pairing of the
 * library) and calls back as each span ends; the first EV_VIEW_MAX_SPANS
 * are kept, later ones counted.
 *
 * The pairing needs the thread running on a message's capability, which
 * stats learns from RUN_THREAD and STOP_THREAD by the same rule as the
 * index (view_index.c: a run from RUN_THREAD to the same thread's
 * STOP_THREAD). Rather than every run (the most frequent events of a
 * log), it is told, before each message, what changed on that capability
 * since the last: a RUN_THREAD of the thread the index has running there,
 * or a STOP_THREAD of the one it was told of when none runs.
 *
 * Layering: called by view_index.c (events, new, free) and the queries
 * below; it calls stats' public API (the view->stats use of call_cycles).
 */
#include <stdlib.h>
#include <string.h>

#include "evtool/stats_spans.h"
#include "internal.h"
#include "view_internal.h"

/* ev_stats_on_span: one span kept, by its name's index. */
static void on_span(void *ctx, const ev_stats_span_end *s)
{
	ev_view_index *ix = ctx;
	long name;
	view_span *k;

	if (ix->n_spans >= EV_VIEW_MAX_SPANS) {
		ix->spans_dropped++;
		return;
	}
	name = ev_stats_span_find(ix->span_stats, s->span->name,
				  strlen(s->span->name), s->span->kind);
	if (name < 0 || evi_grow(&ix->spans, &ix->spans_cap, ix->n_spans + 1,
				 sizeof *ix->spans) < 0) {
		ix->spans_dropped++;
		return;
	}
	k = &ix->spans[ix->n_spans++];
	k->start = s->start_ns;
	k->duration = s->duration_ns;
	k->tid = s->tid;
	k->cap = s->cap;
	k->name = (uint32_t)name;
}

int evi_view_spans_new(ev_view_index *ix)
{
	if (ev_stats_new(&ix->span_stats, NULL) < 0 ||
	    ev_stats_keep_spans(ix->span_stats, EV_STATS_SPANS_EVENTS) < 0)
		return EV_ENOMEM;
	ev_stats_on_span(ix->span_stats, on_span, ix);
	return EV_OK;
}

void evi_view_spans_free(ev_view_index *ix)
{
	ev_stats_free(ix->span_stats);
	free(ix->spans);
	free(ix->told);
}

static int feed(ev_view_index *ix, const ev_event *ev)
{
	if (ev_stats_add(ix->span_stats, ev) < 0)
		return evi_fail(&ix->diag, ev_stats_diag(ix->span_stats)->status,
				ev->offset, ev->index, "%s",
				ev_stats_diag(ix->span_stats)->message);
	return EV_OK;
}

/* Tells the pairing that `tid` runs on the message's cap (RUN_THREAD) or
 * that `tid` stopped (STOP_THREAD, status 0), at the message's time. */
static int tell(ev_view_index *ix, const ev_event *msg, uint16_t type,
		uint32_t tid)
{
	uint8_t payload[6] = { 0 };
	ev_event ev = *msg;

	ev_store32(payload, tid);
	ev.type = type;
	ev.payload = payload;
	ev.size = type == EV_STOP_THREAD ? 6 : 4;
	return feed(ix, &ev);
}

int evi_view_spans_message(ev_view_index *ix, const ev_event *ev,
			   const view_open *now)
{
	uint32_t *told;
	int rc;

	if (ev->cap == EV_NO_CAP)
		return feed(ix, ev);
	if (ev->cap >= ix->n_told && evi_grow_zeroed(&ix->diag, &ix->told,
						     &ix->n_told, ev->cap,
						     sizeof *ix->told) < 0)
		return ix->diag.status;
	told = &ix->told[ev->cap];
	/* told: 1 + the thread stats has running there, 0: none. */
	if (now && now->running && *told != (uint64_t)now->tid + 1) {
		if ((rc = tell(ix, ev, EV_RUN_THREAD, now->tid)) < 0)
			return rc;
		*told = now->tid + 1;
	} else if ((!now || !now->running) && *told) {
		if ((rc = tell(ix, ev, EV_STOP_THREAD, *told - 1)) < 0)
			return rc;
		*told = 0;
	}
	return feed(ix, ev);
}

int evi_view_spans_name(ev_view_index *ix, const char *name)
{
	size_t len = strlen(name);
	uint8_t text[5 + EV_STATS_MAX_SPAN_NAME];
	ev_event ev = { 0 };

	if (len > EV_STATS_MAX_SPAN_NAME)
		return EV_EINVAL;
	memcpy(text, "STOP ", 5);
	memcpy(text + 5, name, len);
	ev.type = EV_USER_MSG;
	ev.cap = EV_NO_CAP;
	ev.payload = text;
	ev.size = (uint32_t)(5 + len);
	return feed(ix, &ev);
}

size_t ev_view_span_count(const ev_view_index *ix)
{
	return ix->n_spans;
}

uint64_t ev_view_spans_dropped(const ev_view_index *ix)
{
	return ix->spans_dropped;
}

int ev_view_span_at(const ev_view_index *ix, size_t i, ev_view_span *out)
{
	const view_span *k;

	if (i >= ix->n_spans)
		return EV_EINVAL;
	k = &ix->spans[i];
	out->start_ns = k->start;
	out->duration_ns = k->duration;
	out->tid = k->tid;
	out->cap = k->cap;
	out->name_index = k->name;
	out->name = ev_stats_span_at(ix->span_stats, k->name)->name;
	return EV_OK;
}

size_t ev_view_span_name_count(const ev_view_index *ix)
{
	return ev_stats_span_count(ix->span_stats);
}

const char *ev_view_span_name(const ev_view_index *ix, size_t i)
{
	const ev_stats_span *s = ev_stats_span_at(ix->span_stats, i);

	return s ? s->name : NULL;
}
