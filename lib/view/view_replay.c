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
	/* The span a piece ended in last, [at_lo, at_hi): the next piece
	 * most often starts in it (a run is short beside a span), found
	 * there without a division. */
	size_t at;
	uint64_t at_lo, at_hi;
} replay;

/* The start of span `i` (i == width: the range's end). */
static uint64_t span_start(const replay *rp, size_t i)
{
	return rp->from + evi_view_muldiv(rp->to - rp->from, i, rp->width);
}

/* The first span a piece from `a` (in the range) can cover, [*lo, *hi):
 * the one that holds `a`, or the one before it. */
static size_t first_span(const replay *rp, uint64_t a, uint64_t *lo,
			 uint64_t *hi)
{
	size_t i;

	if (a >= rp->at_lo && a < rp->at_hi) {
		*lo = rp->at_lo;
		*hi = rp->at_hi;
		return rp->at;
	}
	i = (size_t)evi_view_muldiv(a - rp->from, rp->width, rp->to - rp->from);
	*lo = span_start(rp, i);
	*hi = span_start(rp, i + 1);
	return i;
}

/* Adds [a, b) of a run of `tid` (0: GC) to the cells it covers, or, with
 * `phase` below EV_VIEW_GC_PHASES, of GC phase `phase` (not sync: the
 * rest of the GC). */
static void add_span(replay *rp, uint64_t a, uint64_t b, uint32_t tid,
		     unsigned phase)
{
	uint64_t lo, hi;
	size_t i;

	a = a > rp->from ? a : rp->from;
	b = b < rp->to ? b : rp->to;
	if (b <= a)
		return;
	for (i = first_span(rp, a, &lo, &hi); i < rp->width && lo < b;) {
		uint64_t ns = (b < hi ? b : hi) - (a > lo ? a : lo);
		ev_view_cell *c = &rp->cells[i];

		rp->at = i;
		rp->at_lo = lo;
		rp->at_hi = hi;
		if (hi <= a) {
			/* before the piece */
		} else if (phase < EV_VIEW_GC_PHASES) {
			c->gc_phase_ns[phase] += ns;
		} else if (!tid) {
			c->gc_ns += ns;
		} else {
			c->run_ns += ns;
			if (ns > rp->best[i]) {
				rp->best[i] = ns;
				c->tid = tid;
			}
		}
		if (++i < rp->width) {
			lo = hi;
			hi = span_start(rp, i + 1);
		}
	}
}

/* Adds [a, b) of a run of `tid` (0: GC) to the spans it covers. */
static void add_piece(replay *rp, uint64_t a, uint64_t b, uint32_t tid)
{
	add_span(rp, a, b, tid, EV_VIEW_GC_PHASES);
}

/* Adds [a, b) of GC phase `phase` (not sync: the rest of the GC) to the
 * spans it covers. */
static void add_phase(replay *rp, uint64_t a, uint64_t b, unsigned phase)
{
	if (phase != EV_VIEW_GC_SYNC)
		add_span(rp, a, b, 0, phase);
}

/* What an event of the capability ends, as view_index.c counts runs and
 * GCs. */
enum ended { ENDS_NOTHING, ENDS_RUN, ENDS_GC };

/* Moves `o` on by one event of its capability; what it ends began at
 * *start (and, a run, was of thread *tid). */
static enum ended step(view_open *o, const ev_event *ev, uint64_t *start,
		       uint32_t *tid)
{
	o->last = ev->time;
	switch (ev->type) {
	case EV_RUN_THREAD:
		if (ev->size < 4)
			return ENDS_NOTHING;
		o->running = 1;
		o->tid = ev_load32(ev->payload);
		o->run_start = ev->time;
		return ENDS_NOTHING;
	case EV_STOP_THREAD:
		if (ev->size < 6 || !o->running ||
		    o->tid != ev_load32(ev->payload))
			return ENDS_NOTHING;
		o->running = 0;
		*start = o->run_start;
		*tid = o->tid;
		return ENDS_RUN;
	case EV_GC_START:
		o->in_gc = 1;
		o->gc_start = ev->time;
		return ENDS_NOTHING;
	case EV_GC_END:
		if (!o->in_gc)
			return ENDS_NOTHING;
		o->in_gc = 0;
		*start = o->gc_start;
		return ENDS_GC;
	default:
		return ENDS_NOTHING;
	}
}

static void apply(replay *rp, view_open *o, const ev_event *ev)
{
	view_piece piece;
	uint64_t start;
	uint32_t tid;

	if (evi_view_gc_phase(o, ev, &piece))
		add_phase(rp, piece.from, piece.to, piece.phase);
	switch (step(o, ev, &start, &tid)) {
	case ENDS_RUN:
		add_piece(rp, start, ev->time, tid ? tid : UINT32_MAX);
		break;
	case ENDS_GC:
		add_piece(rp, start, ev->time, 0);
		break;
	default:
		break;
	}
}

int ev_view_tile_exact(const ev_view_index *ix, ev_reader *r, uint16_t cap,
		       uint64_t from, uint64_t to, size_t width,
		       ev_view_cell *cells)
{
	replay rp = { from, to, width, cells, NULL, 0, 0, 0 };
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
		if (ev.time >= to && evi_view_read_ends(&ev))
			break;
		if (ev.time >= to)
			continue;
		apply(&rp, &o, &ev);
	}
	if (o.running)
		add_piece(&rp, o.run_start, to, o.tid ? o.tid : UINT32_MAX);
	if (o.in_gc)
		add_piece(&rp, o.gc_start, to, 0);
	if (o.in_gc && o.gc_phase)
		add_phase(&rp, o.phase_start, to, o.gc_phase - 1u);
	for (size_t i = 0; i < width; i++) {
		uint64_t lo = span_start(&rp, i), hi = span_start(&rp, i + 1);
		evi_view_cell_end(&cells[i], lo, hi, ix->start, ix->end);
	}
	free(rp.best);
	return rc < 0 && rc != EV_ETRUNCATED ? rc : EV_OK;
}

/* A whole run or GC of [start, end) counts when it ends in [from, to) and
 * starts at or after `since`. */
static void whole_end(uint64_t since, uint64_t from, uint64_t to,
		      uint64_t start, uint64_t end, uint64_t *sum)
{
	if (end >= from && end < to && start >= since && end >= start)
		*sum += end - start;
}

int ev_view_whole_exact(const ev_view_index *ix, ev_reader *r, uint16_t cap,
			uint64_t since, uint64_t from, uint64_t to,
			uint64_t until, ev_view_cell *c)
{
	view_open o = evi_view_open_at(ix, cap, from);
	enum ended what;
	uint64_t start;
	uint32_t tid;
	ev_event ev;
	int rc;

	if (from >= to || since > from || to > until)
		return EV_EINVAL;
	memset(c, 0, sizeof *c);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
		if (ev.type == EV_BLOCK_MARKER || ev.cap != cap)
			continue;
		if (ev.time >= to && evi_view_read_ends(&ev))
			break;
		if (ev.time >= to)
			continue;
		if ((what = step(&o, &ev, &start, &tid)) != ENDS_NOTHING)
			whole_end(since, from, to, start, ev.time,
				  what == ENDS_RUN ? &c->run_ns : &c->gc_ns);
	}
	/* `evtool stats` ends a run still open at the slice's end at its
	 * cap's last event (evi_threads_finish); a GC, nowhere. */
	if (to == until && o.running && o.run_start >= since &&
	    o.last >= o.run_start)
		c->run_ns += o.last - o.run_start;
	return rc < 0 && rc != EV_ETRUNCATED ? rc : EV_OK;
}
