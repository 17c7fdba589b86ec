/*
 * The index of `evtool view` (include/evtool/view.h), built in one pass:
 * per capability a row of buckets of 2^shift nanoseconds from time 0
 * (GHC stamps events in nanoseconds since the RTS started, doc/format.md
 * section 3), each with the mutator and GC time inside it and the block to
 * read its events from. view_query.c answers from it.
 *
 * The run and GC intervals are those of `evtool stats --caps`
 * (lib/stats/stats_threads.c): a run is RUN_THREAD (1) to the STOP_THREAD
 * (2) of the same thread on the same capability, a GC is GC_START (9) to
 * GC_END (10); a RUN_THREAD while a run is open replaces it, and what is
 * still open at the end counts nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "text.h"
#include "view_internal.h"

/* The first bucket width, 2^10 ns: finer than any GHC timer, coarsened
 * as the log's time grows. */
#define FIRST_SHIFT 10u
/* The longest row: a timeline is at most a few thousand pixels wide. */
#define MAX_ROW (1u << 16)

static int fail(ev_view_index *ix, int status, const ev_event *ev,
		const char *what)
{
	return evi_fail(&ix->diag, status, ev ? ev->offset : 0,
			ev ? ev->index : 0, "%s", what);
}

int ev_view_index_new(ev_view_index **out, size_t max_cells)
{
	ev_view_index *ix = calloc(1, sizeof *ix);

	*out = NULL;
	if (!ix)
		return EV_ENOMEM;
	ix->max_cells = max_cells ? max_cells : EV_VIEW_DEFAULT_CELLS;
	ix->nb = MAX_ROW;
	while (ix->nb > EV_VIEW_MIN_ROW && ix->nb > ix->max_cells / 2)
		ix->nb /= 2;
	ix->shift = FIRST_SHIFT;
	if (!(ix->global.b = calloc(ix->nb, sizeof *ix->global.b)) ||
	    !(ix->heap = calloc(ix->nb, sizeof *ix->heap))) {
		free(ix->global.b);
		free(ix);
		return EV_ENOMEM;
	}
	*out = ix;
	return EV_OK;
}

void ev_view_index_free(ev_view_index *ix)
{
	if (!ix)
		return;
	for (size_t i = 0; i < ix->n_rows; i++)
		free(ix->rows[i].b);
	free(ix->rows);
	free(ix->global.b);
	free(ix->heap);
	for (size_t i = 0; i < ix->n_texts; i++)
		free((char *)ix->texts[i].text);
	free(ix->texts);
	free(ix->threads);
	evi_idmap_free(&ix->thread_ids);
	free(ix);
}

/* ---- the rows' resolution ---- */

/* Sums bucket pairs into the lower half of `r`: the width doubles. */
static void coarsen_row(view_row *r, size_t nb)
{
	for (size_t i = 0; i < nb / 2; i++) {
		view_bucket a = r->b[2 * i], b = r->b[2 * i + 1];
		view_bucket *m = &r->b[i];

		m->run_ns = a.run_ns + b.run_ns;
		m->gc_ns = a.gc_ns + b.gc_ns;
		m->block = a.block;
		m->open = a.open;
		m->sparks_created = a.sparks_created + b.sparks_created;
		m->sparks_converted = a.sparks_converted + b.sparks_converted;
		m->pool = b.pool ? b.pool : a.pool;
		if (a.tid == b.tid) {
			m->tid = a.tid;
			m->tid_ns = a.tid_ns + b.tid_ns;
		} else {
			const view_bucket *longer = b.tid_ns > a.tid_ns ? &b : &a;
			m->tid = longer->tid;
			m->tid_ns = longer->tid_ns;
		}
	}
	memset(r->b + nb / 2, 0, nb / 2 * sizeof *r->b);
	r->filled = (r->filled + 1) / 2;
}

static void coarsen_heap(view_heap *h, size_t nb)
{
	for (size_t i = 0; i < nb / 2; i++) {
		view_heap a = h[2 * i], b = h[2 * i + 1];
		h[i].size = a.size > b.size ? a.size : b.size;
		h[i].live = a.live > b.live ? a.live : b.live;
		h[i].alloc = a.alloc + b.alloc;
	}
	memset(h + nb / 2, 0, nb / 2 * sizeof *h);
}

static void coarsen(ev_view_index *ix)
{
	coarsen_heap(ix->heap, ix->nb);
	for (size_t i = 0; i < ix->n_rows; i++)
		if (ix->rows[i].b)
			coarsen_row(&ix->rows[i], ix->nb);
	coarsen_row(&ix->global, ix->nb);
	ix->shift++;
}

/* Makes the rows reach `time`. */
static void reach(ev_view_index *ix, uint64_t time)
{
	while (ix->shift < 63 && (time >> ix->shift) >= ix->nb)
		coarsen(ix);
}

/* Halves every row (after a coarsening, which empties the upper half) so
 * that `rows` rows fit the budget. */
static int fit_rows(ev_view_index *ix, size_t rows)
{
	while (ix->nb > EV_VIEW_MIN_ROW && (rows + 1) * ix->nb > ix->max_cells) {
		coarsen(ix);
		ix->nb /= 2;
		for (size_t i = 0; i < ix->n_rows; i++) {
			view_bucket *b = ix->rows[i].b;
			if (b && (b = realloc(b, ix->nb * sizeof *b)))
				ix->rows[i].b = b;
		}
		view_bucket *g = realloc(ix->global.b, ix->nb * sizeof *g);
		if (g)
			ix->global.b = g;
		view_heap *h = realloc(ix->heap, ix->nb * sizeof *h);
		if (h)
			ix->heap = h;
	}
	return EV_OK;
}

/* The row of `cap`, created on first sight (the rows shrink first when
 * one more would not fit the budget). */
static view_row *row_get(ev_view_index *ix, uint16_t cap, const ev_event *ev)
{
	view_row *r;

	if (cap == EV_NO_CAP)
		return &ix->global;
	if (cap >= ix->n_rows && evi_grow_zeroed(&ix->diag, &ix->rows,
						 &ix->n_rows, cap,
						 sizeof *ix->rows) < 0)
		return NULL;
	r = &ix->rows[cap];
	if (r->b)
		return r;
	fit_rows(ix, ix->n_used + 1);
	if (!(r->b = calloc(ix->nb, sizeof *r->b))) {
		fail(ix, EV_ENOMEM, ev, "out of memory");
		return NULL;
	}
	r->block = ix->data_offset;
	ix->n_used++;
	if (cap >= ix->n_caps)
		ix->n_caps = (size_t)cap + 1;
	return r;
}

/* ---- what the events add ---- */

/* Adds [from, to) of thread `tid` (0: GC) to the buckets it covers. */
static void add_span(ev_view_index *ix, view_row *r, uint64_t from,
		     uint64_t to, uint32_t tid)
{
	if (to <= from)
		return;
	reach(ix, to - 1);
	for (uint64_t b = from >> ix->shift; b <= (to - 1) >> ix->shift; b++) {
		uint64_t lo = b << ix->shift, hi = (b + 1) << ix->shift;
		uint64_t ns = (to < hi ? to : hi) - (from > lo ? from : lo);
		view_bucket *k = &r->b[b];

		if (!tid) {
			k->gc_ns += ns;
			continue;
		}
		k->run_ns += ns;
		if (k->tid == tid)
			k->tid_ns += ns;
		else if (ns > k->tid_ns) {
			k->tid = tid;
			k->tid_ns = ns;
		}
	}
}

/* The summary of `tid`, created on first sight; NULL past the bound (or
 * out of memory, which the caller reports through ix->diag). */
static ev_view_thread *thread_get(ev_view_index *ix, uint32_t tid,
				  const ev_event *ev)
{
	size_t i = evi_idmap_index(&ix->thread_ids, tid);
	ev_view_thread *t;
	int rc;

	if (i != SIZE_MAX)
		return &ix->threads[i];
	if (ix->thread_ids.count >= EV_VIEW_MAX_THREADS) {
		ix->threads_dropped++;
		return NULL;
	}
	if (evi_grow(&ix->threads, &ix->threads_cap, ix->thread_ids.count + 1,
		     sizeof *ix->threads) < 0 ||
	    (rc = evi_idmap_add(&ix->thread_ids, tid, 0, EV_VIEW_MAX_THREADS,
				NULL)) < 0) {
		fail(ix, EV_ENOMEM, ev, "out of memory");
		return NULL;
	}
	t = &ix->threads[ix->thread_ids.count - 1];
	memset(t, 0, sizeof *t);
	t->tid = tid;
	t->created_ns = t->first_run_ns = t->last_stop_ns = t->finished_ns =
		UINT64_MAX;
	return t;
}

/* What a thread event (its tid first in the payload) tells of its
 * thread's life. */
static int on_life(ev_view_index *ix, const ev_event *ev, uint64_t run_ns)
{
	ev_view_thread *t = thread_get(ix, ev_load32(ev->payload), ev);

	if (!t)
		return ix->diag.status < 0 ? ix->diag.status : EV_OK;
	switch (ev->type) {
	case EV_CREATE_THREAD:
		t->created_ns = ev->time;
		break;
	case EV_RUN_THREAD:
		t->runs++;
		if (t->first_run_ns == UINT64_MAX)
			t->first_run_ns = ev->time;
		t->last_cap = ev->cap;
		break;
	case EV_STOP_THREAD:
		t->last_stop_ns = ev->time;
		t->run_ns += run_ns;
		if (evi_stop_status(ev_load16(ev->payload + 4), ix->quirks) ==
		    EVI_STOP_FINISHED)
			t->finished_ns = ev->time;
		break;
	default:
		t->migrations++;
		break;
	}
	return EV_OK;
}

/* A block marker (payload: u32 size, u64 end time, u16 cap): the buckets
 * before its start read from the row's previous block, the later ones
 * from this one. */
static int on_block(ev_view_index *ix, const ev_event *ev)
{
	if (ev->size < 14)
		return fail(ix, EV_EFORMAT, ev, "a block marker too short for its cap");
	view_row *r = row_get(ix, ev_load16(ev->payload + 12), ev);
	if (!r)
		return ix->diag.status;
	reach(ix, ev->time);
	uint64_t first_after = (ev->time + ((uint64_t)1 << ix->shift) - 1) >>
			       ix->shift;
	for (; r->filled < first_after && r->filled < ix->nb; r->filled++) {
		r->b[r->filled].block = r->block;
		r->b[r->filled].open = r->block_open;
	}
	r->block = ev->offset;
	r->block_open = r->now;
	return EV_OK;
}

static int on_thread(ev_view_index *ix, view_row *r, const ev_event *ev)
{
	if (ev->size < (ev->type == EV_STOP_THREAD ? 6u : 4u))
		return fail(ix, EV_EFORMAT, ev,
			    "a thread event too short for its thread id");
	uint32_t tid = ev_load32(ev->payload);
	view_open *o = &r->now;
	uint64_t run_ns = 0;
	if (ev->type == EV_RUN_THREAD) {
		o->running = 1;
		o->tid = tid;
		o->run_start = ev->time;
	} else if (o->running && o->tid == tid) {
		add_span(ix, r, o->run_start, ev->time, tid ? tid : UINT32_MAX);
		run_ns = ev->time >= o->run_start ? ev->time - o->run_start : 0;
		o->running = 0;
	}
	return on_life(ix, ev, run_ns);
}

static void on_gc(ev_view_index *ix, view_row *r, const ev_event *ev)
{
	view_open *o = &r->now;
	if (ev->type == EV_GC_START) {
		o->in_gc = 1;
		o->gc_start = ev->time;
		return;
	}
	if (o->in_gc)
		add_span(ix, r, o->gc_start, ev->time, 0);
	o->in_gc = 0;
}

/* SPARK_COUNTERS: created, dud, overflowed, converted, GC'd, fizzled,
 * remaining (u64 each), the cap's totals so far. */
static int on_sparks(ev_view_index *ix, view_row *r, const ev_event *ev)
{
	uint64_t created, converted;
	view_bucket *k;

	if (ev->size < 56)
		return fail(ix, EV_EFORMAT, ev, "spark counters too short for their fields");
	created = ev_load64(ev->payload);
	converted = ev_load64(ev->payload + 24);
	reach(ix, ev->time);
	k = &r->b[ev->time >> ix->shift];
	if (created >= r->created)
		k->sparks_created += created - r->created;
	if (converted >= r->converted)
		k->sparks_converted += converted - r->converted;
	k->pool = ev_load64(ev->payload + 48) + 1;
	r->created = created;
	r->converted = converted;
	return EV_OK;
}

/* HEAP_ALLOCATED, HEAP_SIZE, HEAP_LIVE: capset u32, bytes u64. */
static int on_heap(ev_view_index *ix, const ev_event *ev)
{
	view_heap *h;
	uint64_t bytes;
	view_row *r;

	if (ev->size < 12)
		return fail(ix, EV_EFORMAT, ev, "a heap event too short for its bytes");
	bytes = ev_load64(ev->payload + 4);
	reach(ix, ev->time);
	h = &ix->heap[ev->time >> ix->shift];
	if (ev->type == EV_HEAP_SIZE) {
		h->size = bytes > h->size ? bytes : h->size;
	} else if (ev->type == EV_HEAP_LIVE) {
		h->live = bytes > h->live ? bytes : h->live;
	} else if (ev->cap != EV_NO_CAP) {
		if (!(r = row_get(ix, ev->cap, ev)))
			return ix->diag.status;
		if (bytes >= r->allocated)
			ix->heap[ev->time >> ix->shift].alloc += bytes - r->allocated;
		r->allocated = bytes;
	}
	return EV_OK;
}

/* A marker, message or label, kept while there is room. */
static int on_text(ev_view_index *ix, const ev_event *ev, uint8_t kind)
{
	size_t skip = kind == EV_VIEW_LABEL ? 4 : 0;
	ev_view_text *t;

	if (ev->size < skip)
		return fail(ix, EV_EFORMAT, ev, "a thread label without its thread");
	/* A budget per kind: a flood of messages leaves room for markers. */
	if (ix->kind_count[kind] >= EV_VIEW_MAX_TEXTS) {
		ix->texts_dropped++;
		return EV_OK;
	}
	if (evi_grow(&ix->texts, &ix->texts_cap, ix->n_texts + 1,
		     sizeof *ix->texts) < 0)
		return fail(ix, EV_ENOMEM, ev, "out of memory");
	size_t len = ev->size - skip;
	const char *p = (const char *)ev->payload + skip;
	while (len > 0 && p[len - 1] == '\0')
		len--;
	t = &ix->texts[ix->n_texts];
	t->time = ev->time;
	t->cap = ev->cap;
	t->kind = kind;
	t->tid = skip ? ev_load32(ev->payload) : 0;
	if (!(t->text = evi_text_copy(p, len, EV_VIEW_TEXT_MAX, NULL)))
		return fail(ix, EV_ENOMEM, ev, "out of memory");
	ix->n_texts++;
	ix->kind_count[kind]++;
	if (kind == EV_VIEW_LABEL) {
		ev_view_thread *th = thread_get(ix, t->tid, ev);
		if (th)
			th->label = t->text;
	}
	ix->text_bytes += len < EV_VIEW_TEXT_MAX ? len + 1 : EV_VIEW_TEXT_MAX + 1;
	return EV_OK;
}

static void see_time(ev_view_index *ix, uint64_t time)
{
	if (!ix->any || time < ix->start)
		ix->start = time;
	if (!ix->any || time > ix->end)
		ix->end = time;
	ix->any = 1;
}

int ev_view_index_add(ev_view_index *ix, const ev_event *ev)
{
	view_row *r;

	if (ev->type == EV_BLOCK_MARKER)
		return on_block(ix, ev);
	see_time(ix, ev->time);
	switch (ev->type) {
	case EV_USER_MARKER:
		return on_text(ix, ev, EV_VIEW_MARKER);
	case EV_USER_MSG:
		return on_text(ix, ev, EV_VIEW_MESSAGE);
	case EV_THREAD_LABEL:
		return on_text(ix, ev, EV_VIEW_LABEL);
	case EV_HEAP_ALLOCATED:
	case EV_HEAP_SIZE:
	case EV_HEAP_LIVE:
		return on_heap(ix, ev);
	default:
		break;
	}
	if (ev->cap == EV_NO_CAP || !(r = row_get(ix, ev->cap, ev)))
		return ev->cap == EV_NO_CAP ? EV_OK : ix->diag.status;
	r->seen = 1;
	switch (ev->type) {
	case EV_RUN_THREAD:
	case EV_STOP_THREAD:
		return on_thread(ix, r, ev);
	case EV_SPARK_COUNTERS:
		return on_sparks(ix, r, ev);
	case EV_CREATE_THREAD:
	case EV_MIGRATE_THREAD:
		if (ev->size < 4)
			return fail(ix, EV_EFORMAT, ev,
				    "a thread event too short for its thread id");
		return on_life(ix, ev, 0);
	case EV_GC_START:
	case EV_GC_END:
		on_gc(ix, r, ev);
		return EV_OK;
	default:
		return EV_OK;
	}
}

int ev_view_index_begin(ev_view_index *ix, ev_reader *r)
{
	int rc = ev_reader_read_header(r);

	if (rc < 0)
		return rc;
	ix->data_offset = ev_reader_offset(r);
	ix->quirks = ev_header_quirks(ev_reader_header(r));
	ix->global.block = ix->data_offset;
	for (size_t i = 0; i < ix->n_rows; i++)
		ix->rows[i].block = ix->data_offset;
	ix->have_data_offset = 1;
	return EV_OK;
}

int ev_view_index_read(ev_view_index *ix, ev_reader *r)
{
	ev_event ev;
	int rc;

	if (!ix->have_data_offset && (rc = ev_view_index_begin(ix, r)) < 0)
		return rc;
	while ((rc = ev_reader_next(r, &ev)) == EV_OK)
		if ((rc = ev_view_index_add(ix, &ev)) < 0)
			return rc;
	return rc;
}

const ev_diag *ev_view_index_diag(const ev_view_index *ix)
{
	return &ix->diag;
}
