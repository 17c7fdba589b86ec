/*
 * What `evtool view`'s index answers (include/evtool/view.h): a row's
 * figures over equal spans of a range, the block to read a time's events
 * from, the texts kept. view_query.c -> view_index.c's structure only.
 */
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

const ev_view_thread *ev_view_thread_of(const ev_view_index *ix, uint32_t tid)
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

size_t ev_view_memory(const ev_view_index *ix)
{
	return sizeof *ix + ix->nb * sizeof(view_heap) + (ix->n_used + 1) * ix->nb * sizeof(view_bucket) +
	       ix->n_rows * sizeof(view_row) +
	       ix->texts_cap * sizeof *ix->texts + ix->text_bytes +
	       ix->threads_cap * sizeof *ix->threads +
	       ix->thread_ids.n_slots * sizeof *ix->thread_ids.slots +
	       ix->thread_ids.capacity * 2 * sizeof *ix->thread_ids.keys;
}

/* `ns` scaled by part/whole without overflow (whole > 0). */
static uint64_t share(uint64_t ns, uint64_t part, uint64_t whole)
{
	return (uint64_t)((unsigned __int128)ns * part / whole);
}

/* Span `i` of `width` equal spans of [from, to): [*lo, *hi). */
static void span_of(uint64_t from, uint64_t to, size_t width, size_t i,
		    uint64_t *lo, uint64_t *hi)
{
	*lo = from + share(to - from, i, width);
	*hi = from + share(to - from, i + 1, width);
}

/* How much of bucket `b` lies in [lo, hi). */
static uint64_t part_of(const ev_view_index *ix, uint64_t b, uint64_t lo,
			uint64_t hi)
{
	uint64_t b0 = b << ix->shift, b1 = b0 + ((uint64_t)1 << ix->shift);
	return (hi < b1 ? hi : b1) - (lo > b0 ? lo : b0);
}

/* A bucket's `value` for `part` of its width `w`: in proportion. */
static uint64_t scaled(uint64_t value, uint64_t part, uint64_t w)
{
	return part == w ? value : share(value, part, w);
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

		c->run_ns += scaled(k->run_ns, part, width);
		c->gc_ns += scaled(k->gc_ns, part, width);
		if (k->tid && k->tid_ns > best) {
			best = k->tid_ns;
			c->tid = k->tid;
		}
	}
}

int ev_view_tile(const ev_view_index *ix, uint16_t cap, uint64_t from,
		 uint64_t to, size_t width, ev_view_cell *cells)
{
	const view_row *r = cap < ix->n_rows ? &ix->rows[cap] : NULL;

	if (from >= to || !width)
		return EV_EINVAL;
	memset(cells, 0, width * sizeof *cells);
	for (size_t i = 0; i < width; i++) {
		uint64_t lo, hi, a, z;
		ev_view_cell *c = &cells[i];

		span_of(from, to, width, i, &lo, &hi);
		a = lo > ix->start ? lo : ix->start;
		z = hi < ix->end ? hi : ix->end;
		if (hi <= lo)
			continue;
		if (r && r->b && lo < ((uint64_t)ix->nb << ix->shift))
			sum_span(ix, r, lo, hi, c);
		if (z > a && z - a > c->run_ns + c->gc_ns)
			c->idle_ns = z - a - c->run_ns - c->gc_ns;
	}
	return EV_OK;
}

static const view_row *row_of(const ev_view_index *ix, uint16_t cap)
{
	const view_row *r = cap == EV_NO_CAP ? &ix->global
			    : cap < ix->n_rows ? &ix->rows[cap] : NULL;
	return r && r->b ? r : NULL;
}

int ev_view_heap(const ev_view_index *ix, uint64_t from, uint64_t to,
		 size_t width, ev_view_heap_cell *cells)
{
	uint64_t w = (uint64_t)1 << ix->shift, end = (uint64_t)ix->nb << ix->shift;

	if (from >= to || !width)
		return EV_EINVAL;
	memset(cells, 0, width * sizeof *cells);
	for (size_t i = 0; i < width; i++) {
		uint64_t lo, hi;
		ev_view_heap_cell *c = &cells[i];

		span_of(from, to, width, i, &lo, &hi);
		hi = hi < end ? hi : end;
		for (uint64_t b = lo >> ix->shift; lo < hi && b <= (hi - 1) >> ix->shift; b++) {
			const view_heap *h = &ix->heap[b];

			c->size_bytes = h->size > c->size_bytes ? h->size : c->size_bytes;
			c->live_bytes = h->live > c->live_bytes ? h->live : c->live_bytes;
			c->allocated_bytes += scaled(h->alloc, part_of(ix, b, lo, hi), w);
		}
	}
	return EV_OK;
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
		span_of(from, to, width, i, &lo, &hi);
		hi = hi < end ? hi : end;
		for (uint64_t b = lo >> ix->shift;
		     r && lo < hi && b <= (hi - 1) >> ix->shift; b++) {
			const view_bucket *k = &r->b[b];
			uint64_t part = part_of(ix, b, lo, hi);

			c->created += scaled(k->sparks_created, part, w);
			c->converted += scaled(k->sparks_converted, part, w);
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
	view_open none = { 0, 0, 0, 0, 0 };

	if (!r)
		return none;
	return b < r->filled ? r->b[b].open : r->block_open;
}
