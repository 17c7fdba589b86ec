/*
 * The adaptive time buckets of a report: a fixed number of them, whose
 * width doubles (and whose start moves down to a multiple of the new
 * width) when an event falls outside. Every old bucket then lies inside
 * one new bucket, so series re-bucket by merging, without the events.
 * Events of different capabilities arrive out of time order (doc/format.md
 * section 3), so the span is known only at the end.
 *
 * Calls go one way: report_grid.c -> report_profile.c -> report_series.c
 * (the grid's arithmetic and the series themselves).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "report_internal.h"

static void merge_cap(void *dst, const void *src)
{
	ev_report_cap_bucket *d = dst;
	const ev_report_cap_bucket *s = src;

	d->running_ns += s->running_ns;
	d->gc_ns += s->gc_ns;
	d->idle_ns += s->idle_ns;
}

static void merge_heap(void *dst, const void *src)
{
	ev_report_heap_bucket *d = dst;
	const ev_report_heap_bucket *s = src;

	d->allocated_bytes += s->allocated_bytes;
	if (s->heap_size_bytes > d->heap_size_bytes)
		d->heap_size_bytes = s->heap_size_bytes;
	if (s->live_bytes > d->live_bytes)
		d->live_bytes = s->live_bytes;
	d->collections += s->collections;
	d->pause_ns += s->pause_ns;
	if (s->max_pause_ns > d->max_pause_ns)
		d->max_pause_ns = s->max_pause_ns;
	d->have |= s->have;
}

static void remap_all(ev_report *rep, const evi_grid *to)
{
	const evi_grid *from = &rep->grid;

	for (size_t c = 0; c < rep->n_caps; c++)
		if (rep->caps[c].b)
			evi_grid_remap(from, to, rep->caps[c].b,
				       sizeof *rep->caps[c].b, rep->scratch,
				       merge_cap);
	for (size_t p = 0; p < rep->procs.n; p++) {
		evi_report_proc *proc = evi_report_proc_at(rep, p);
		evi_grid_remap(from, to, proc->heap, sizeof *proc->heap,
			       rep->scratch, merge_heap);
	}
	evi_report_profile_remap(rep, to);
	evi_report_spans_remap(rep, to);
}

/* The largest bucket element of any series: the scratch's element. */
#define EVI_MAX_BUCKET_SIZE sizeof(ev_report_heap_bucket)

int evi_report_cover(ev_report *rep, uint64_t t)
{
	evi_grid to;

	if (!rep->grid.set) {
		rep->scratch = calloc(rep->grid.n, EVI_MAX_BUCKET_SIZE);
		if (!rep->scratch)
			return evi_fail(&rep->diag, EV_ENOMEM, 0, 0,
					"out of memory");
		rep->grid.base = t;
		rep->grid.width = 1;
		rep->grid.set = 1;
		rep->first_ns = rep->last_ns = t;
		return EV_OK;
	}
	if (t < rep->first_ns)
		rep->first_ns = t;
	if (t > rep->last_ns)
		rep->last_ns = t;
	if (evi_grid_covers(&rep->grid, t))
		return EV_OK;
	to = evi_grid_widened(&rep->grid, rep->first_ns, rep->last_ns);
	remap_all(rep, &to);
	rep->grid = to;
	return EV_OK;
}

/* The end of bucket i relative to the grid's base, saturating: a grid
 * over times near 2^64 can end past the largest u64. */
static uint64_t bucket_end(const evi_grid *g, size_t i)
{
	uint64_t k = (uint64_t)i + 1;

	return g->width > UINT64_MAX / k ? UINT64_MAX : k * g->width;
}

void evi_report_spread(ev_report *rep, ev_report_cap_bucket *b,
		       enum evi_cap_state state, uint64_t from, uint64_t to)
{
	const evi_grid *g = &rep->grid;
	uint64_t at = from - g->base, end = to - g->base;

	for (size_t i = evi_grid_index(g, from); at < end; i++) {
		uint64_t stop = bucket_end(g, i);
		uint64_t part = (stop < end ? stop : end) - at;
		if (state == EVI_CAP_RUNNING)
			b[i].running_ns += part;
		else if (state == EVI_CAP_GC)
			b[i].gc_ns += part;
		else
			b[i].idle_ns += part;
		at += part;
	}
}

/* Once per collection at most: spreads [from, to) in `state`, then takes
 * it back from GC, bucket by bucket (never below 0). */
void evi_report_ungc(ev_report *rep, ev_report_cap_bucket *b,
		     enum evi_cap_state state, uint64_t from, uint64_t to)
{
	const evi_grid *g = &rep->grid;
	uint64_t at = from - g->base, end = to - g->base;

	evi_report_spread(rep, b, state, from, to);
	for (size_t i = evi_grid_index(g, from); at < end; i++) {
		uint64_t stop = bucket_end(g, i);
		uint64_t part = (stop < end ? stop : end) - at;
		b[i].gc_ns -= part < b[i].gc_ns ? part : b[i].gc_ns;
		at += part;
	}
}
