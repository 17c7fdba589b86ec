/*
 * The preview of `evtool view` (include/evtool/view.h): the whole run's
 * running and GC time per capability on a fixed coarse grid, read by
 * workers over the blocks before the index (view_index.c) has read far.
 *
 * The grid: EV_VIEW_PREVIEW_BUCKETS buckets (fewer for many capabilities)
 * of 2^shift ns from time 0, the shift the smallest that covers the
 * latest end time of the blocks' markers. Each chunk of blocks (the
 * scan's, lib/format/blocks.h) is walked by a worker that starts every
 * capability in an unknown state: until a RUN_THREAD (a GC_START or
 * GC_END) fixes the run (the GC) open on it, it keeps the events whose
 * effect depends on what was open before (the first STOP_THREAD of each
 * thread; the first GC_END); after, it adds the runs and GCs that end to
 * its own grid by evi_view_open_step, the index's rule. The join, on the
 * caller's thread in file order, replays each chunk's kept events from
 * what the previous chunks left open, with the same step, and takes the
 * chunk's open state at its end. The sums are the index's at this
 * resolution, whatever the chunks' edges.
 */
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "internal.h"
#include "view_internal.h"

/* A chunk's bucket: integer sums, so the workers' grids add up exactly. */
typedef struct pv_bucket {
	uint64_t run_ns, gc_ns;
} pv_bucket;

struct ev_view_preview {
	size_t nb;         /* buckets per row */
	unsigned shift;    /* a bucket is 2^shift ns */
	size_t n_caps;     /* 1 + the highest capability */
	unsigned n_grids;  /* the join's, then one per worker */
	pv_bucket ***grids; /* [grid][cap]: nb buckets, NULL until used */
	view_open *now;    /* by cap: what the chunks joined left open */
	int any;
	uint64_t start, end; /* the events' first and last times */
	int beyond;        /* a run or GC past the grid */
};

/* ---- the grid ---- */

int evi_view_preview_make(ev_view_preview **out, uint64_t end, size_t n_caps,
			  size_t caps_used, unsigned workers)
{
	ev_view_preview *pv = calloc(1, sizeof *pv);

	*out = NULL;
	if (!pv)
		return EV_ENOMEM;
	pv->nb = EV_VIEW_PREVIEW_BUCKETS;
	while (pv->nb > EV_VIEW_MIN_ROW &&
	       pv->nb * (caps_used ? caps_used : 1) > EV_VIEW_DEFAULT_CELLS / 4)
		pv->nb /= 2;
	while ((end >> pv->shift) >= pv->nb)
		pv->shift++;
	pv->n_caps = n_caps;
	pv->n_grids = workers + 1;
	if (!(pv->grids = calloc(pv->n_grids, sizeof *pv->grids)) ||
	    !(pv->now = calloc(n_caps ? n_caps : 1, sizeof *pv->now))) {
		ev_view_preview_free(pv);
		return EV_ENOMEM;
	}
	for (unsigned g = 0; g < pv->n_grids; g++)
		if (!(pv->grids[g] = calloc(n_caps ? n_caps : 1,
					    sizeof *pv->grids[g]))) {
			ev_view_preview_free(pv);
			return EV_ENOMEM;
		}
	*out = pv;
	return EV_OK;
}

void ev_view_preview_free(ev_view_preview *pv)
{
	if (!pv)
		return;
	for (unsigned g = 0; pv->grids && g < pv->n_grids; g++) {
		for (size_t c = 0; pv->grids[g] && c < pv->n_caps; c++)
			free(pv->grids[g][c]);
		free(pv->grids[g]);
	}
	free(pv->grids);
	free(pv->now);
	free(pv);
}

/* Adds the run (or GC, `gc`) [from, to) of `cap` to grid `g`. */
static int add(ev_view_preview *pv, unsigned g, uint16_t cap, uint64_t from,
	       uint64_t to, int gc)
{
	pv_bucket **row = &pv->grids[g][cap];

	if (to <= from)
		return EV_OK;
	if (((to - 1) >> pv->shift) >= pv->nb) {
		pv->beyond = 1;
		return EV_END;
	}
	if (!*row && !(*row = calloc(pv->nb, sizeof **row)))
		return EV_ENOMEM;
	for (uint64_t b = from >> pv->shift; b <= (to - 1) >> pv->shift; b++) {
		uint64_t ns = evi_view_part_of(b, pv->shift, from, to);
		if (gc)
			(*row)[b].gc_ns += ns;
		else
			(*row)[b].run_ns += ns;
	}
	return EV_OK;
}

/* ---- a chunk, on a worker ---- */

void evi_view_chunk_reset(view_pv_chunk *c)
{
	for (size_t i = 0; i < c->n; i++)
		c->part_of[c->parts[i].cap] = 0;
	c->n = 0;
	c->any = 0;
}

void evi_view_chunk_free(view_pv_chunk *c)
{
	free(c->parts);
	free(c->part_of);
	memset(c, 0, sizeof *c);
}

static view_pv_part *part_get(const ev_view_preview *pv, view_pv_chunk *c,
			      uint16_t cap)
{
	view_pv_part *p;

	if (!c->part_of &&
	    !(c->part_of = calloc(pv->n_caps, sizeof *c->part_of)))
		return NULL;
	if (c->part_of[cap])
		return &c->parts[c->part_of[cap] - 1];
	if (evi_grow(&c->parts, &c->alloc, c->n + 1, sizeof *c->parts) < 0)
		return NULL;
	p = &c->parts[c->n++];
	memset(p, 0, sizeof *p);
	p->cap = cap;
	c->part_of[cap] = (uint32_t)c->n;
	return p;
}

/* A STOP_THREAD before the chunk knows the run open on its cap: the first
 * of its thread is kept (a later one of the same thread finds what the
 * first left: no run of it). */
static int keep_stop(view_pv_part *p, uint64_t time, uint32_t tid)
{
	for (unsigned i = 0; i < p->n_stops; i++)
		if (p->stops[i].tid == tid)
			return EV_OK;
	if (p->n_stops >= VIEW_PV_STOPS)
		return EV_END;
	p->stops[p->n_stops].time = time;
	p->stops[p->n_stops++].tid = tid;
	return EV_OK;
}

int evi_view_chunk_event(ev_view_preview *pv, view_pv_chunk *c,
			 unsigned worker, const ev_event *ev)
{
	view_pv_part *p;
	uint32_t tid = 0;
	uint64_t from;

	if (ev->type == EV_BLOCK_MARKER)
		return EV_OK;
	if (!c->any || ev->time < c->start)
		c->start = ev->time;
	if (!c->any || ev->time > c->end)
		c->end = ev->time;
	c->any = 1;
	if (ev->cap == EV_NO_CAP || ev->cap >= pv->n_caps)
		return ev->cap == EV_NO_CAP ? EV_OK : EV_END;
	switch (ev->type) {
	case EV_RUN_THREAD:
	case EV_STOP_THREAD:
		if (ev->size < (ev->type == EV_STOP_THREAD ? 6u : 4u))
			return EV_EFORMAT;
		tid = ev_load32(ev->payload);
		break;
	case EV_GC_START:
	case EV_GC_END:
		break;
	default:
		return EV_OK;
	}
	if (!(p = part_get(pv, c, ev->cap)))
		return EV_ENOMEM;
	if (ev->type == EV_STOP_THREAD && !p->run_known)
		return keep_stop(p, ev->time, tid);
	if (ev->type == EV_GC_END && !p->gc_known) {
		p->gc_known = p->gc_end_first = 1;
		p->gc_end = ev->time;
		return EV_OK;
	}
	if (ev->type == EV_RUN_THREAD)
		p->run_known = 1;
	else if (ev->type == EV_GC_START)
		p->gc_known = 1;
	if (!evi_view_open_step(&p->now, ev->type, ev->time, tid, &from))
		return EV_OK;
	return add(pv, worker + 1, ev->cap, from, ev->time,
		   ev->type == EV_GC_END);
}

/* ---- the join, in file order ---- */

int evi_view_chunk_join(ev_view_preview *pv, const view_pv_chunk *c)
{
	uint64_t from;
	int rc;

	if (c->any) {
		if (!pv->any || c->start < pv->start)
			pv->start = c->start;
		if (!pv->any || c->end > pv->end)
			pv->end = c->end;
		pv->any = 1;
	}
	for (size_t i = 0; i < c->n; i++) {
		const view_pv_part *p = &c->parts[i];
		view_open *o = &pv->now[p->cap];

		for (unsigned k = 0; k < p->n_stops; k++)
			if (evi_view_open_step(o, EV_STOP_THREAD,
					       p->stops[k].time,
					       p->stops[k].tid, &from) &&
			    (rc = add(pv, 0, p->cap, from, p->stops[k].time,
				      0)) < 0)
				return rc;
		if (p->gc_end_first &&
		    evi_view_open_step(o, EV_GC_END, p->gc_end, 0, &from) &&
		    (rc = add(pv, 0, p->cap, from, p->gc_end, 1)) < 0)
			return rc;
		if (p->run_known) {
			o->running = p->now.running;
			o->tid = p->now.tid;
			o->run_start = p->now.run_start;
		}
		if (p->gc_known) {
			o->in_gc = p->now.in_gc;
			o->gc_start = p->now.gc_start;
		}
	}
	return EV_OK;
}

/* The workers' grids summed into the join's. */
int evi_view_preview_done(ev_view_preview *pv)
{
	for (size_t c = 0; c < pv->n_caps; c++)
		for (unsigned g = 1; g < pv->n_grids; g++) {
			pv_bucket *w = pv->grids[g][c], **row = &pv->grids[0][c];
			if (!w)
				continue;
			if (!*row) {
				*row = w;
				pv->grids[g][c] = NULL;
				continue;
			}
			for (size_t b = 0; b < pv->nb; b++) {
				(*row)[b].run_ns += w[b].run_ns;
				(*row)[b].gc_ns += w[b].gc_ns;
			}
			free(w);
			pv->grids[g][c] = NULL;
		}
	return EV_OK;
}

/* ---- over the blocks, on workers ---- */

typedef struct pv_scan {
	ev_view_preview *pv;
	const evi_blocks *b;
	view_pv_chunk *slots; /* by the scan's slot */
} pv_scan;

static int scan_block(void *ctx, const evi_chunk *chunk, size_t block,
		      unsigned worker)
{
	pv_scan *s = ctx;
	view_pv_chunk *c = &s->slots[chunk->slot];
	evi_block_cursor cur;
	ev_event ev;
	int rc;

	if (block == chunk->first)
		evi_view_chunk_reset(c);
	evi_block_cursor_init_chunk(&cur, s->b, chunk, block);
	while ((rc = evi_block_next(&cur, &ev)) == 1)
		if ((rc = evi_view_chunk_event(s->pv, c, worker, &ev)) != EV_OK)
			return rc == EV_END ? EV_ELIMIT : rc;
	return rc < 0 ? EV_EFORMAT : EV_OK;
}

/* The grid's reach (the blocks' latest end time) and the capabilities
 * of the blocks. */
static int grid_of(const evi_blocks *b, unsigned threads,
		   ev_view_preview **out)
{
	size_t n_caps = 0, used = 0;
	uint8_t *seen = calloc(8192, 1);

	if (!seen)
		return EV_ENOMEM;
	for (size_t i = 0; i < b->n; i++) {
		uint16_t cap = b->spans[i].cap;

		if (cap == EV_NO_CAP)
			continue;
		if (!(seen[cap >> 3] & (1u << (cap & 7)))) {
			seen[cap >> 3] |= (uint8_t)(1u << (cap & 7));
			used++;
		}
		if ((size_t)cap + 1 > n_caps)
			n_caps = (size_t)cap + 1;
	}
	free(seen);
	return evi_view_preview_make(out, b->end_time, n_caps, used, threads);
}

/* The chunks taken back in file order and joined. */
static int join_all(pv_scan *s, evi_blocks_scan *scan)
{
	const evi_chunk *chunk;
	size_t blocks = 0;
	int rc;

	while ((rc = evi_blocks_scan_next(scan, &chunk)) == 1) {
		if (chunk->refused)
			return EV_END;
		if ((rc = evi_view_chunk_join(s->pv, &s->slots[chunk->slot])) < 0)
			return rc;
		blocks += chunk->n;
	}
	if (rc < 0)
		return rc;
	return blocks == s->b->n ? evi_view_preview_done(s->pv) : EV_END;
}

static int preview_blocks(const evi_blocks *b, unsigned threads,
			  ev_view_preview **out)
{
	pv_scan s = { NULL, b, NULL };
	evi_blocks_scan *scan = NULL;
	unsigned n_slots = 0;
	int rc;

	if ((rc = grid_of(b, threads, &s.pv)) < 0)
		return rc;
	rc = evi_blocks_scan_open(&scan, b, threads, scan_block, &s);
	if (rc == EV_OK) {
		n_slots = evi_blocks_scan_slots(scan);
		s.slots = calloc(n_slots, sizeof *s.slots);
		rc = s.slots ? join_all(&s, scan) : EV_ENOMEM;
	}
	evi_blocks_scan_free(scan); /* its workers stopped first */
	for (unsigned i = 0; s.slots && i < n_slots; i++)
		evi_view_chunk_free(&s.slots[i]);
	free(s.slots);
	if (rc == EV_OK && s.pv->beyond)
		rc = EV_END;
	if (rc != EV_OK)
		ev_view_preview_free(s.pv);
	else
		*out = s.pv;
	return rc;
}

int ev_view_preview_new(ev_view_preview **out, ev_reader *r, unsigned threads)
{
	evi_blocks *b;
	int rc;

	*out = NULL;
	if ((rc = evi_blocks_open(&b, r)) != EV_OK)
		return rc;
	rc = preview_blocks(b, threads ? threads : 1, out);
	evi_blocks_free(b);
	/* What the workers refused (a damaged block, a run past the grid,
	 * too many threads stopped before a chunk's first run) is the
	 * index's to read and report. */
	return rc == EV_ENOMEM ? rc : rc < 0 ? EV_END : rc;
}

/* ---- what it answers ---- */

uint64_t ev_view_preview_bucket_ns(const ev_view_preview *pv)
{
	return (uint64_t)1 << pv->shift;
}

uint64_t ev_view_preview_start(const ev_view_preview *pv) { return pv->start; }
uint64_t ev_view_preview_end(const ev_view_preview *pv) { return pv->end; }

size_t ev_view_preview_cap_count(const ev_view_preview *pv)
{
	size_t n = pv->n_caps;

	while (n > 0 && !pv->grids[0][n - 1])
		n--;
	return n;
}

static void fill_from_preview(const void *src, uint16_t cap, uint64_t lo,
			      uint64_t hi, ev_view_cell *c)
{
	const ev_view_preview *pv = src;
	const pv_bucket *row = cap < pv->n_caps ? pv->grids[0][cap] : NULL;
	uint64_t w = (uint64_t)1 << pv->shift;

	for (uint64_t b = lo >> pv->shift;
	     row && b < pv->nb && b <= (hi - 1) >> pv->shift; b++) {
		uint64_t part = evi_view_part_of(b, pv->shift, lo, hi);

		c->run_ns += evi_view_scaled(row[b].run_ns, part, w);
		c->gc_ns += evi_view_scaled(row[b].gc_ns, part, w);
	}
}

int ev_view_preview_tile(const ev_view_preview *pv, uint16_t cap,
			 uint64_t from, uint64_t to, size_t width,
			 ev_view_cell *cells)
{
	return evi_view_cells(from, to, width, cells, pv->start, pv->end,
			      fill_from_preview, pv, cap);
}
