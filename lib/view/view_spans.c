/*
 * The user's spans in `evtool view`'s index (include/evtool/view.h): the
 * index's ev_stats pairs the START/STOP user messages as `evtool stats
 * --spans` does (lib/stats/stats_spans.c, the one pairing of the
 * library; it is given the events it needs, RUN_THREAD, STOP_THREAD and
 * USER_MSG, as export's slices give it) and calls back as each span ends;
 * the first EV_VIEW_MAX_SPANS are kept, later ones counted.
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
	if (ev_stats_new(&ix->span_stats) < 0 ||
	    ev_stats_keep_spans(ix->span_stats, EV_STATS_SPANS_EVENTS) < 0)
		return EV_ENOMEM;
	ev_stats_on_span(ix->span_stats, on_span, ix);
	return EV_OK;
}

void evi_view_spans_free(ev_view_index *ix)
{
	ev_stats_free(ix->span_stats);
	free(ix->spans);
}

int evi_view_spans_add(ev_view_index *ix, const ev_event *ev)
{
	if (ev_stats_add(ix->span_stats, ev) < 0)
		return evi_fail(&ix->diag, ev_stats_diag(ix->span_stats)->status,
				ev->offset, ev->index, "%s",
				ev_stats_diag(ix->span_stats)->message);
	return EV_OK;
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
