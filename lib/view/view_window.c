/*
 * A window's allocation and GC pauses in `evtool view`'s index
 * (include/evtool/view.h, ev_view_pauses, ev_view_alloc_*), as `evtool
 * stats` gives them for the slice `evtool filter --from --to` keeps.
 *
 * Pauses: stats times a collection on the cap that led it, from its
 * GC_START (9) to its GC_END (10), once its GC_STATS_GHC (53: capset u32,
 * gen u16) is in too (lib/stats/stats.c, gc_timed; the RTS writes
 * GC_STATS_GHC before GC_END but stamps it later). A slice holds the
 * pause when all three lie inside. The index keeps each pause (the first
 * EV_VIEW_MAX_PAUSES) with the time of its last event, and a window's
 * pauses go into the same histogram stats fills
 * (lib/stats/stats_pauses.c), so the percentiles are stats' own.
 *
 * Allocation: HEAP_ALLOCATED (49: capset u32, bytes u64) carries a cap's
 * running total; stats of a slice counts each cap's last total in it
 * minus its first (from 0 when the slice is not taken for one:
 * lib/inspect/slice.h). The index keeps the first EV_VIEW_MAX_ALLOCS
 * of them; past those, each bucket's first and last total of each cap
 * answer, and the parts of a window that cut a bucket are read from the
 * events.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "slice.h"
#include "stats_analysis.h"
#include "view_internal.h"

/* ---- events kept, in the log's order ---- */

/* Keeps `item` (of `size` bytes, its time first), the first `max` only.
 * In the log's order, as stats reads a slice (its first and last total
 * of a cap are the first and last in the file); a query reads them all
 * (a log whose times go back, a block repeated, costs no more). */
static int keep(ev_view_index *ix, view_kept *k, const void *item,
		size_t size, size_t max)
{
	uint64_t t;

	if (k->n >= max) {
		memcpy(&t, item, sizeof t);
		if (!k->dropped || t < k->first_dropped)
			k->first_dropped = t;
		k->dropped++;
		return EV_OK;
	}
	if (evi_grow(&k->items, &k->alloc, k->n + 1, size) < 0)
		return evi_fail(&ix->diag, EV_ENOMEM, 0, 0, "out of memory");
	memcpy((char *)k->items + k->n * size, item, size);
	k->n++;
	return EV_OK;
}

/* Whether `k` holds every item before `to`. */
static int holds_to(const view_kept *k, uint64_t to)
{
	return !k->dropped || to <= k->first_dropped;
}

static void kept_save(const view_kept *k, size_t size, FILE *f)
{
	uint64_t head[3] = { k->n, k->dropped, k->first_dropped };

	fwrite(head, 1, sizeof head, f);
	if (k->n)
		fwrite(k->items, size, k->n, f);
}

static int kept_load(view_kept *k, size_t size, size_t max, FILE *f)
{
	uint64_t head[3];

	if (fread(head, 1, sizeof head, f) != sizeof head || head[0] > max)
		return -1;
	k->dropped = head[1];
	k->first_dropped = head[2];
	if (!head[0])
		return 0;
	if (!(k->items = malloc((size_t)head[0] * size)))
		return -1;
	k->alloc = (size_t)head[0];
	if (fread(k->items, size, (size_t)head[0], f) != (size_t)head[0])
		return -1;
	k->n = (size_t)head[0];
	return 0;
}

size_t evi_view_kept_memory(const ev_view_index *ix)
{
	return ix->pauses.alloc * sizeof(view_pause) +
	       ix->allocs.alloc * sizeof(view_alloc_ev);
}

void evi_view_kept_save(const ev_view_index *ix, FILE *f)
{
	kept_save(&ix->pauses, sizeof(view_pause), f);
	kept_save(&ix->allocs, sizeof(view_alloc_ev), f);
}

int evi_view_kept_load(ev_view_index *ix, FILE *f)
{
	if (kept_load(&ix->pauses, sizeof(view_pause), EV_VIEW_MAX_PAUSES, f) < 0)
		return -1;
	return kept_load(&ix->allocs, sizeof(view_alloc_ev), EV_VIEW_MAX_ALLOCS,
			 f);
}

/* ---- the pauses, as the index reads them ---- */

/* The collection's three events are in: a pause, as stats' gc_timed. */
static int timed(ev_view_index *ix, view_gc_clock *c, uint16_t cap)
{
	view_pause p;

	if (!c->counted || !c->have_start || !c->have_end)
		return EV_OK;
	c->counted = 0;
	if (c->start > c->end)
		return EV_OK;
	p = (view_pause){ c->start, c->end - c->start,
			  c->end > c->stats_at ? c->end : c->stats_at,
			  c->capset, c->gen, cap };
	return keep(ix, &ix->pauses, &p, sizeof p, EV_VIEW_MAX_PAUSES);
}

int evi_view_pause_event(ev_view_index *ix, view_gc_clock *c,
			 const ev_event *ev)
{
	switch (ev->type) {
	case EV_GC_START:
		c->counted = 0;
		c->have_start = 1;
		c->have_end = 0;
		c->start = ev->time;
		return EV_OK;
	case EV_GC_END:
		if (!c->have_start || c->have_end)
			return EV_OK;
		c->have_end = 1;
		c->end = ev->time;
		return timed(ix, c, ev->cap);
	default: /* GC_STATS_GHC */
		if (ev->size < 6)
			return evi_fail(&ix->diag, EV_EFORMAT, ev->offset,
					ev->index,
					"GC statistics too short for their generation");
		c->counted = 1;
		c->capset = ev_load32(ev->payload);
		c->gen = ev_load16(ev->payload + 4);
		c->stats_at = ev->time;
		return timed(ix, c, ev->cap);
	}
}

/* ---- a window's pauses ---- */

int ev_view_pauses(const ev_view_index *ix, uint32_t capset, uint64_t from,
		   uint64_t to, ev_stats_pauses *out, int *complete)
{
	const view_pause *p = ix->pauses.items;
	evi_pause_set set;

	if (from >= to)
		return EV_EINVAL;
	if (evi_duration_set_init(&set) < 0)
		return EV_ENOMEM;
	for (size_t i = 0; i < ix->pauses.n; i++)
		if (p[i].capset == capset && p[i].start >= from &&
		    p[i].last < to)
			evi_duration_set_add(&set, &(ev_stats_pause){
				p[i].start, p[i].duration, p[i].gen, p[i].cap });
	evi_duration_set_finish(&set);
	*out = set.pub;
	evi_duration_set_free(&set);
	*complete = holds_to(&ix->pauses, to);
	return EV_OK;
}

uint64_t ev_view_pauses_dropped(const ev_view_index *ix)
{
	return ix->pauses.dropped;
}

/* ---- allocation ---- */

void evi_view_alloc_put(view_bucket *k, uint64_t bytes)
{
	if (!k->alloc_first)
		k->alloc_first = bytes + 1;
	k->alloc_last = bytes + 1;
}

/* A total of the range: the first one, and the last so far. */
static void alloc_see(ev_view_alloc *a, uint64_t bytes)
{
	if (!a->have)
		a->first = bytes;
	a->last = bytes;
	a->have = 1;
}

int evi_view_alloc_keep(ev_view_index *ix, const ev_event *ev, uint64_t bytes)
{
	view_alloc_ev a = { ev->time, bytes, ev->cap };

	return keep(ix, &ix->allocs, &a, sizeof a, EV_VIEW_MAX_ALLOCS);
}

int ev_view_alloc_kept(const ev_view_index *ix, uint64_t from, uint64_t to,
		       ev_view_alloc *a, size_t n_caps)
{
	const view_alloc_ev *e = ix->allocs.items;

	if (from >= to)
		return EV_EINVAL;
	if (!holds_to(&ix->allocs, to))
		return 0;
	memset(a, 0, n_caps * sizeof *a);
	for (size_t i = 0; i < ix->allocs.n; i++)
		if (e[i].cap < n_caps && e[i].time >= from && e[i].time < to)
			alloc_see(&a[e[i].cap], e[i].bytes);
	return 1;
}

int ev_view_alloc_whole(const ev_view_index *ix, uint16_t cap, uint64_t from,
			uint64_t to, ev_view_alloc *a)
{
	const view_row *r = cap < ix->n_rows && ix->rows[cap].b ? &ix->rows[cap]
								 : NULL;
	uint64_t mask = ((uint64_t)1 << ix->shift) - 1;
	uint64_t b = from >> ix->shift, end = to >> ix->shift;

	if (from >= to || (from & mask) || (to & mask))
		return EV_EINVAL;
	memset(a, 0, sizeof *a);
	if (!r)
		return EV_OK;
	for (end = end < ix->nb ? end : ix->nb; b < end; b++) {
		const view_bucket *k = &r->b[b];
		if (!k->alloc_first)
			continue;
		alloc_see(a, k->alloc_first - 1);
		a->last = k->alloc_last - 1;
	}
	return EV_OK;
}

int ev_view_alloc_exact(const ev_view_index *ix, ev_reader *r, uint16_t cap,
			uint64_t from, uint64_t to, ev_view_alloc *a)
{
	ev_event ev;
	int rc;

	(void)ix;
	if (from >= to)
		return EV_EINVAL;
	memset(a, 0, sizeof *a);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
		if (ev.cap != cap || ev.time < from ||
		    evi_type_is_untimed(ev.type))
			continue;
		if (ev.time >= to && evi_view_read_ends(&ev))
			break;
		if (ev.time >= to)
			continue;
		if (!a->have_work)
			a->first_work_ns = ev.time;
		a->have_work = 1;
		if (ev.type == EV_HEAP_ALLOCATED && ev.size >= 12)
			alloc_see(a, ev_load64(ev.payload + 4));
	}
	return rc < 0 && rc != EV_ETRUNCATED ? rc : EV_OK;
}

void ev_view_alloc_join(ev_view_alloc *a, const ev_view_alloc *later)
{
	if (later->have) {
		if (!a->have)
			a->first = later->first;
		a->last = later->last;
		a->have = 1;
	}
	if (!a->have_work && later->have_work) {
		a->have_work = 1;
		a->first_work_ns = later->first_work_ns;
	}
}

uint64_t ev_view_slice_until(uint64_t start_ns, uint64_t from, uint64_t to)
{
	uint64_t until = start_ns + EVI_SLICE_GAP_NS + 1;

	if (until <= from)
		return from;
	return until < to ? until : to;
}
