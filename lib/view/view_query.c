/*
 * What `evtool view`'s index answers (include/evtool/view.h): a row's
 * figures over equal spans of a range, the block to read a time's events
 * from, the texts kept. view_query.c -> view_index.c's structure only.
 */
#include <stddef.h>
#include <string.h>

#include "internal.h"
#include "view_internal.h"

uint64_t ev_view_start(const ev_view_index *ix) { return ix->start; }
uint64_t ev_view_end(const ev_view_index *ix) { return ix->end; }
size_t ev_view_cap_count(const ev_view_index *ix) { return ix->n_caps; }
uint64_t ev_view_data_offset(const ev_view_index *ix) { return ix->data_offset; }
size_t ev_view_text_count(const ev_view_index *ix) { return ix->n_texts; }
uint64_t ev_view_texts_dropped(const ev_view_index *ix) { return ix->texts_dropped; }

uint64_t ev_view_bucket_ns(const ev_view_index *ix)
{
	return (uint64_t)1 << ix->shift;
}

const ev_view_text *ev_view_text_at(const ev_view_index *ix, size_t i)
{
	return i < ix->n_texts ? &ix->texts[i] : NULL;
}

const ev_view_thread *ev_view_thread_find(const ev_view_index *ix, uint32_t tid)
{
	size_t i = evi_idmap_index(&ix->thread_ids, tid);
	return i == SIZE_MAX ? NULL : &ix->threads[i];
}

size_t ev_view_thread_count(const ev_view_index *ix)
{
	return ix->thread_ids.count;
}

uint64_t ev_view_threads_dropped(const ev_view_index *ix)
{
	return ix->threads_dropped;
}

/* The thread events waiting for their order (view_threads.c). */
static size_t queues_bytes(const ev_view_index *ix)
{
	size_t n = ix->n_queues * sizeof *ix->queues;

	for (size_t i = 0; i < ix->n_queues; i++)
		n += ix->queues[i].alloc * sizeof *ix->queues[i].e;
	return n;
}

size_t ev_view_memory(const ev_view_index *ix)
{
	return sizeof *ix + (ix->n_heaps + 1) * ix->nb * sizeof(view_heap) + (ix->n_used + 1) * ix->nb * sizeof(view_bucket) +
	       ix->n_rows * sizeof(view_row) +
	       ix->texts_cap * sizeof *ix->texts + ix->text_bytes +
	       ix->threads_cap * sizeof *ix->threads +
	       ix->spans_cap * sizeof *ix->spans +
	       ix->n_trows * (ix->nb >> ix->tgap) * sizeof(view_tbucket) +
	       ix->trows_cap * sizeof *ix->trows +
	       queues_bytes(ix) +
	       ix->thread_ids.n_slots * sizeof *ix->thread_ids.slots +
	       ix->thread_ids.capacity * 2 * sizeof *ix->thread_ids.keys +
	       ix->n_tid_index * sizeof *ix->tid_index +
	       evi_view_bands_memory(ix->bands) + evi_view_kept_memory(ix);
}

/* How much of bucket `b` lies in [lo, hi). */
static uint64_t part_of(const ev_view_index *ix, uint64_t b, uint64_t lo,
			uint64_t hi)
{
	return evi_view_part_of(b, ix->shift, lo, hi);
}

/* Adds to `c` what the buckets of `r` hold of [lo, hi). */
static void sum_span(const ev_view_index *ix, const view_row *r, uint64_t lo,
		     uint64_t hi, ev_view_cell *c)
{
	uint64_t width = (uint64_t)1 << ix->shift, best = 0;
	uint64_t last = (hi - 1) >> ix->shift;

	if (last >= ix->nb)
		last = ix->nb - 1;
	for (uint64_t b = lo >> ix->shift; b <= last; b++) {
		const view_bucket *k = &r->b[b];
		uint64_t part = part_of(ix, b, lo, hi);

		c->run_ns += evi_view_scaled(k->run_ns, part, width);
		c->gc_ns += evi_view_scaled(k->gc_ns, part, width);
		for (unsigned ph = EV_VIEW_GC_WORK; ph < EV_VIEW_GC_PHASES; ph++)
			c->gc_phase_ns[ph] += evi_view_scaled(
				k->gc_phase_ns[ph - 1], part, width);
		if (k->tid && k->tid_ns > best) {
			best = k->tid_ns;
			c->tid = k->tid;
		}
	}
}

int evi_view_cells(uint64_t from, uint64_t to, size_t width,
		   ev_view_cell *cells, uint64_t start, uint64_t end,
		   evi_view_cell_fill *fill, const void *src, uint16_t cap)
{
	if (from >= to || !width)
		return EV_EINVAL;
	memset(cells, 0, width * sizeof *cells);
	for (size_t i = 0; i < width; i++) {
		uint64_t lo, hi;

		evi_view_span_of(from, to, width, i, &lo, &hi);
		if (hi <= lo)
			continue;
		fill(src, cap, lo, hi, &cells[i]);
		evi_view_cell_end(&cells[i], lo, hi, start, end);
	}
	return EV_OK;
}

static void fill_from_index(const void *src, uint16_t cap, uint64_t lo,
			    uint64_t hi, ev_view_cell *c)
{
	const ev_view_index *ix = src;
	const view_row *r = cap < ix->n_rows ? &ix->rows[cap] : NULL;

	if (r && r->b && lo < ((uint64_t)ix->nb << ix->shift))
		sum_span(ix, r, lo, hi, c);
}

int ev_view_tile(const ev_view_index *ix, uint16_t cap, uint64_t from,
		 uint64_t to, size_t width, ev_view_cell *cells)
{
	return evi_view_cells(from, to, width, cells, ix->start, ix->end,
			      fill_from_index, ix, cap);
}

static const view_row *row_of(const ev_view_index *ix, uint16_t cap)
{
	const view_row *r = cap == EV_NO_CAP ? &ix->global
			    : cap < ix->n_rows ? &ix->rows[cap] : NULL;
	return r && r->b ? r : NULL;
}

/* The heap cells of buckets `heap`. */
static int heap_cells(const ev_view_index *ix, const view_heap *heap,
		      uint64_t from, uint64_t to, size_t width,
		      ev_view_heap_cell *cells)
{
	uint64_t w = (uint64_t)1 << ix->shift, end = (uint64_t)ix->nb << ix->shift;

	if (from >= to || !width)
		return EV_EINVAL;
	memset(cells, 0, width * sizeof *cells);
	for (size_t i = 0; i < width; i++) {
		uint64_t lo, hi;
		ev_view_heap_cell *c = &cells[i];

		evi_view_span_of(from, to, width, i, &lo, &hi);
		hi = hi < end ? hi : end;
		for (uint64_t b = lo >> ix->shift; lo < hi && b <= (hi - 1) >> ix->shift; b++) {
			const view_heap *h = &heap[b];

			c->size_bytes = h->size > c->size_bytes ? h->size : c->size_bytes;
			c->live_bytes = h->live > c->live_bytes ? h->live : c->live_bytes;
			c->allocated_bytes += evi_view_scaled(
				h->alloc, part_of(ix, b, lo, hi), w);
		}
	}
	return EV_OK;
}

int ev_view_heap(const ev_view_index *ix, uint64_t from, uint64_t to,
		 size_t width, ev_view_heap_cell *cells)
{
	return heap_cells(ix, ix->heap, from, to, width, cells);
}

int ev_view_heap_of(const ev_view_index *ix, uint32_t capset, uint64_t from,
		    uint64_t to, size_t width, ev_view_heap_cell *cells)
{
	for (size_t i = 0; i < ix->n_heaps; i++)
		if (ix->heaps[i].capset == capset)
			return heap_cells(ix, ix->heaps[i].h, from, to, width,
					  cells);
	return EV_EINVAL;
}

size_t ev_view_heap_count(const ev_view_index *ix)
{
	return ix->n_heaps;
}

uint32_t ev_view_heap_capset(const ev_view_index *ix, size_t i)
{
	return i < ix->n_heaps ? ix->heaps[i].capset : UINT32_MAX;
}

int ev_view_sparks(const ev_view_index *ix, uint16_t cap, uint64_t from,
		   uint64_t to, size_t width, ev_view_spark_cell *cells)
{
	const view_row *r = cap < ix->n_rows && ix->rows[cap].b ? &ix->rows[cap]
								 : NULL;
	uint64_t w = (uint64_t)1 << ix->shift, end = (uint64_t)ix->nb << ix->shift;

	if (from >= to || !width)
		return EV_EINVAL;
	for (size_t i = 0; i < width; i++) {
		uint64_t lo, hi;
		ev_view_spark_cell *c = &cells[i];

		c->created = c->converted = 0;
		c->pool = UINT64_MAX;
		evi_view_span_of(from, to, width, i, &lo, &hi);
		hi = hi < end ? hi : end;
		for (uint64_t b = lo >> ix->shift;
		     r && lo < hi && b <= (hi - 1) >> ix->shift; b++) {
			const view_bucket *k = &r->b[b];
			uint64_t part = part_of(ix, b, lo, hi);

			c->created += evi_view_scaled(k->sparks_created, part,
						      w);
			c->converted += evi_view_scaled(k->sparks_converted,
							part, w);
			if (k->pool)
				c->pool = k->pool - 1;
		}
	}
	return EV_OK;
}

uint64_t ev_view_block_at(const ev_view_index *ix, uint16_t cap,
			  uint64_t time)
{
	const view_row *r = row_of(ix, cap);
	uint64_t b = time >> ix->shift;

	if (!r)
		return ix->data_offset;
	return b < r->filled ? r->b[b].block : r->block;
}

view_open evi_view_open_at(const ev_view_index *ix, uint16_t cap,
			   uint64_t time)
{
	const view_row *r = row_of(ix, cap);
	uint64_t b = time >> ix->shift;
	view_open none;

	memset(&none, 0, sizeof none);
	if (!r)
		return none;
	return b < r->filled ? r->b[b].open : r->block_open;
}

/* The lengths of `which` (run_ends or gc_ends) of buckets [a, b) of `r`
 * that start at or after `since`: only the first to end can start before
 * `a` (a capability's whole runs do not overlap), so it alone is looked
 * at. */
static uint64_t ends_since(const view_row *r, size_t which, uint64_t since,
			   uint64_t a, uint64_t b)
{
	uint64_t sum = 0;
	int first = 1;

	for (uint64_t k = a; k < b; k++) {
		const view_ends *e =
			(const view_ends *)((const char *)&r->b[k] + which);
		sum += e->ns;
		if (first && e->first) {
			first = 0;
			if (e->first - 1 < since)
				sum -= e->first_ns;
		}
	}
	return sum;
}

int ev_view_whole(const ev_view_index *ix, uint16_t cap, uint64_t since,
		  uint64_t from, uint64_t to, ev_view_cell *c)
{
	const view_row *r = cap < ix->n_rows && ix->rows[cap].b ? &ix->rows[cap]
								 : NULL;
	uint64_t mask = ((uint64_t)1 << ix->shift) - 1;
	uint64_t a = from >> ix->shift, b = to >> ix->shift;

	if (from >= to || since > from || (from & mask) || (to & mask))
		return EV_EINVAL;
	memset(c, 0, sizeof *c);
	if (!r || a >= ix->nb)
		return EV_OK;
	b = b < ix->nb ? b : ix->nb;
	c->run_ns = ends_since(r, offsetof(view_bucket, run_ends), since, a, b);
	c->gc_ns = ends_since(r, offsetof(view_bucket, gc_ends), since, a, b);
	return EV_OK;
}
