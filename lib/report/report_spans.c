/*
 * The user's spans over time in a report: the report's ev_stats pairs
 * them (include/evtool/stats_spans.h) and calls back as each ends; the
 * first EV_REPORT_MAX_SPAN_SERIES names get a series of buckets (spans
 * ending in the bucket: count, total and longest), re-bucketed as the
 * grid widens like every other series.
 *
 * Layering: called by report.c (the callback, the free), report_grid.c
 * (remap) and report_finish.c; it calls report_series.c.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "report_internal.h"

_Static_assert(sizeof(ev_report_span_bucket) <= sizeof(ev_report_heap_bucket),
	       "the grid's scratch holds a span bucket");

/* The series of the span named `name` (its stable text), added on first
 * sight; NULL past EV_REPORT_MAX_SPAN_SERIES or out of memory. */
static evi_span_series *series_of(ev_report *rep, const ev_stats_span *span)
{
	evi_report_spans *rs = &rep->spans;
	evi_span_series *s;

	for (size_t i = 0; i < rs->n; i++)
		if (rs->series[i].name == span->name)
			return &rs->series[i];
	if (rs->n == EV_REPORT_MAX_SPAN_SERIES)
		return NULL;
	s = &rs->series[rs->n];
	if (!(s->b = evi_report_series(rep, sizeof *s->b))) {
		rs->status = evi_fail(&rep->diag, EV_ENOMEM, 0, 0,
				      "out of memory");
		return NULL;
	}
	s->name = span->name;
	s->kind = span->kind;
	rs->n++;
	return s;
}

void evi_report_on_span(void *ctx, const ev_stats_span_end *end)
{
	ev_report *rep = ctx;
	uint64_t at = end->start_ns + end->duration_ns;
	evi_span_series *s;
	ev_report_span_bucket *b;

	if (!evi_grid_covers(&rep->grid, at) || !(s = series_of(rep, end->span)))
		return;
	b = &s->b[evi_grid_index(&rep->grid, at)];
	b->count++;
	b->total_ns += end->duration_ns;
	if (end->duration_ns > b->max_ns)
		b->max_ns = end->duration_ns;
}

static void merge_span(void *dst, const void *src)
{
	ev_report_span_bucket *d = dst;
	const ev_report_span_bucket *s = src;

	d->count += s->count;
	d->total_ns += s->total_ns;
	if (s->max_ns > d->max_ns)
		d->max_ns = s->max_ns;
}

void evi_report_spans_remap(ev_report *rep, const evi_grid *to)
{
	for (size_t i = 0; i < rep->spans.n; i++)
		evi_grid_remap(&rep->grid, to, rep->spans.series[i].b,
			       sizeof *rep->spans.series[i].b, rep->scratch,
			       merge_span);
}

int evi_report_spans_finish(ev_report *rep, size_t first)
{
	evi_report_spans *rs = &rep->spans;

	for (size_t i = 0; i < rs->n; i++)
		rs->out[i] = (ev_report_span_series){
			rs->series[i].name, rs->series[i].kind,
			rs->series[i].b + first };
	return EV_OK;
}

void evi_report_spans_free(evi_report_spans *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		free(rs->series[i].b);
}

size_t ev_report_span_series_count(const ev_report *rep)
{
	return rep->finished ? rep->spans.n : 0;
}

const ev_report_span_series *ev_report_span_series_at(const ev_report *rep,
						      size_t i)
{
	return i < ev_report_span_series_count(rep) ? &rep->spans.out[i]
						    : NULL;
}
