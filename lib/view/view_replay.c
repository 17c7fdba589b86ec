/*
 * The exact figures of a short range (include/evtool/view.h,
 * ev_view_tile_exact): the capability's events read again from the block
 * the index names, starting from what was open at that block's start
 * (view_index.c records it), with the same runs and GCs as the index
 * (RUN_THREAD to the same thread's STOP_THREAD, GC_START to GC_END),
 * clipped to the range and cut at the spans' edges.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "view_internal.h"

typedef struct replay {
	uint64_t from, to;
	size_t width;
	ev_view_cell *cells;
	uint64_t *best; /* per cell: the longest piece of a run, for its tid */
} replay;

/* The start of span `i` (i == width: the range's end). */
static uint64_t span_start(const replay *rp, size_t i)
{
	return rp->from + (uint64_t)((unsigned __int128)(rp->to - rp->from) *
				     i / rp->width);
}

/* Adds [a, b) of a run of `tid` (0: GC) to the spans it covers. */
static void add_piece(replay *rp, uint64_t a, uint64_t b, uint32_t tid)
{
	size_t i;

	a = a > rp->from ? a : rp->from;
	b = b < rp->to ? b : rp->to;
	if (b <= a)
		return;
	i = (size_t)((unsigned __int128)(a - rp->from) * rp->width /
		     (rp->to - rp->from));
	for (; i < rp->width && span_start(rp, i) < b; i++) {
		uint64_t lo = span_start(rp, i), hi = span_start(rp, i + 1);
		uint64_t ns = (b < hi ? b : hi) - (a > lo ? a : lo);
		ev_view_cell *c = &rp->cells[i];

		if (hi <= a)
			continue;
		if (!tid) {
			c->gc_ns += ns;
			continue;
		}
		c->run_ns += ns;
		if (ns > rp->best[i]) {
			rp->best[i] = ns;
			c->tid = tid;
		}
	}
}

static void apply(replay *rp, view_open *o, const ev_event *ev)
{
	uint32_t tid;

	switch (ev->type) {
	case EV_RUN_THREAD:
		if (ev->size < 4)
			return;
		o->running = 1;
		o->tid = ev_load32(ev->payload);
		o->run_start = ev->time;
		return;
	case EV_STOP_THREAD:
		if (ev->size < 6)
			return;
		tid = ev_load32(ev->payload);
		if (o->running && o->tid == tid) {
			add_piece(rp, o->run_start, ev->time,
				  tid ? tid : UINT32_MAX);
			o->running = 0;
		}
		return;
	case EV_GC_START:
		o->in_gc = 1;
		o->gc_start = ev->time;
		return;
	case EV_GC_END:
		if (o->in_gc)
			add_piece(rp, o->gc_start, ev->time, 0);
		o->in_gc = 0;
		return;
	default:
		return;
	}
}

int ev_view_tile_exact(const ev_view_index *ix, ev_reader *r, uint16_t cap,
		       uint64_t from, uint64_t to, size_t width,
		       ev_view_cell *cells)
{
	replay rp = { from, to, width, cells, NULL };
	view_open o = evi_view_open_at(ix, cap, from);
	ev_event ev;
	int rc;

	if (from >= to || !width)
		return EV_EINVAL;
	if (!(rp.best = calloc(width, sizeof *rp.best)))
		return EV_ENOMEM;
	memset(cells, 0, width * sizeof *cells);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
		if (ev.type == EV_BLOCK_MARKER || ev.cap != cap)
			continue;
		if (ev.time >= to)
			break;
		apply(&rp, &o, &ev);
	}
	if (o.running)
		add_piece(&rp, o.run_start, to, o.tid ? o.tid : UINT32_MAX);
	if (o.in_gc)
		add_piece(&rp, o.gc_start, to, 0);
	for (size_t i = 0; i < width; i++) {
		uint64_t lo = span_start(&rp, i), hi = span_start(&rp, i + 1);
		uint64_t a = lo > ix->start ? lo : ix->start;
		uint64_t z = hi < ix->end ? hi : ix->end;
		uint64_t busy = cells[i].run_ns + cells[i].gc_ns;
		if (z > a && z - a > busy)
			cells[i].idle_ns = z - a - busy;
	}
	free(rp.best);
	return rc < 0 && rc != EV_ETRUNCATED ? rc : EV_OK;
}
