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

#include "heap_samples.h"
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

int ev_view_index_new(ev_view_index **out, size_t max_cells, ev_diag *diag)
{
	ev_view_index *ix = calloc(1, sizeof *ix);

	*out = NULL;
	if (!ix)
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	ix->max_cells = max_cells ? max_cells : EV_VIEW_DEFAULT_CELLS;
	ix->nb = MAX_ROW;
	while (ix->nb > EV_VIEW_MIN_ROW && ix->nb > ix->max_cells / 2)
		ix->nb /= 2;
	ix->shift = FIRST_SHIFT;
	if (!(ix->global.b = calloc(ix->nb, sizeof *ix->global.b)) ||
	    !(ix->heap = calloc(ix->nb, sizeof *ix->heap)) ||
	    evi_view_spans_new(ix) < 0) {
		ev_view_index_free(ix);
		return evi_new_failed(diag, NULL, EV_ENOMEM);
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
	for (size_t i = 0; i < ix->n_heaps; i++)
		free(ix->heaps[i].h);
	free(ix->heaps);
	evi_view_bands_free(ix->bands);
	free(ix->pauses.items);
	free(ix->allocs.items);
	for (size_t i = 0; i < ix->n_texts; i++)
		free((char *)ix->texts[i].text);
	free(ix->texts);
	evi_view_spans_free(ix);
	evi_view_threads_free(ix);
	free(ix->threads);
	evi_idmap_free(&ix->thread_ids);
	free(ix->tid_index);
	free(ix);
}

/* ---- the rows' resolution ---- */

/* The whole runs (or GCs) that end in two neighbouring buckets. */
static view_ends merge_ends(view_ends a, view_ends b)
{
	view_ends m = a.first ? a : b;

	m.ns = a.ns + b.ns;
	return m;
}

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
		for (size_t k = 0; k < EV_VIEW_GC_PHASES - 1; k++)
			m->gc_phase_ns[k] = a.gc_phase_ns[k] + b.gc_phase_ns[k];
		m->run_ends = merge_ends(a.run_ends, b.run_ends);
		m->gc_ends = merge_ends(a.gc_ends, b.gc_ends);
		m->alloc_first = a.alloc_first ? a.alloc_first : b.alloc_first;
		m->alloc_last = b.alloc_last ? b.alloc_last : a.alloc_last;
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
	for (size_t i = 0; i < ix->n_heaps; i++)
		coarsen_heap(ix->heaps[i].h, ix->nb);
	for (size_t i = 0; i < ix->n_rows; i++)
		if (ix->rows[i].b)
			coarsen_row(&ix->rows[i], ix->nb);
	coarsen_row(&ix->global, ix->nb);
	evi_view_threads_coarsen(ix);
	ix->shift++;
}

/* Makes the rows reach `time`. */
static void reach(ev_view_index *ix, uint64_t time)
{
	while ((time >> ix->shift) >= ix->nb && ix->shift < 63)
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
		for (size_t i = 0; i < ix->n_heaps; i++)
			if ((h = realloc(ix->heaps[i].h, ix->nb * sizeof *h)))
				ix->heaps[i].h = h;
		evi_view_threads_fit(ix);
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

/* A whole run (or GC, `gc`) of [start, end) ends: it goes to the bucket
 * of its end, as `evtool stats` of a slice that holds both its events
 * would count it (nothing when it ends before it starts). */
static void add_end(ev_view_index *ix, view_row *r, int gc, uint64_t start,
		    uint64_t end)
{
	view_bucket *k;
	view_ends *e;

	reach(ix, end);
	k = &r->b[end >> ix->shift];
	e = gc ? &k->gc_ends : &k->run_ends;
	e->ns += end >= start ? end - start : 0;
	if (!e->first) {
		e->first = start + 1;
		e->first_ns = end >= start ? end - start : 0;
	}
}

int evi_view_thread_id_add(ev_view_index *ix, uint32_t tid, int *added)
{
	int rc;

	/* The table first: the map never holds an id the table misses. */
	if (tid < VIEW_TID_DIRECT &&
	    evi_grow_zeroed(NULL, &ix->tid_index, &ix->n_tid_index, tid,
			    sizeof *ix->tid_index) < 0)
		return EV_ENOMEM;
	rc = evi_idmap_add(&ix->thread_ids, tid, 0, EV_VIEW_MAX_THREADS, added);
	if (rc == EV_OK && *added && tid < VIEW_TID_DIRECT)
		ix->tid_index[tid] = (uint32_t)ix->thread_ids.count;
	return rc;
}

/* The summary of `tid`, created on first sight; NULL past the bound (or
 * out of memory, which the caller reports through ix->diag). */
static ev_view_thread *thread_get(ev_view_index *ix, uint32_t tid,
				  const ev_event *ev)
{
	size_t i = evi_view_thread_index(ix, tid);
	ev_view_thread *t;
	int added = 0;

	if (i != SIZE_MAX)
		return &ix->threads[i];
	if (ix->thread_ids.count >= EV_VIEW_MAX_THREADS) {
		ix->threads_dropped++;
		return NULL;
	}
	if (evi_grow(&ix->threads, &ix->threads_cap, ix->thread_ids.count + 1,
		     sizeof *ix->threads) < 0 ||
	    evi_view_thread_id_add(ix, tid, &added) < 0) {
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
 * thread's life; a STOP_THREAD's `status` (evi_stop_status). */
static int on_life(ev_view_index *ix, const ev_event *ev, uint64_t run_ns,
		   unsigned status)
{
	uint32_t tid = ev_load32(ev->payload);
	size_t i = evi_view_thread_index(ix, tid);
	ev_view_thread *t;

	if (i == SIZE_MAX && (t = thread_get(ix, tid, ev)))
		i = (size_t)(t - ix->threads);
	ix->life_thread = i;
	if (i == SIZE_MAX)
		return ix->diag.status < 0 ? ix->diag.status : EV_OK;
	t = &ix->threads[i];
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
		if (status == EVI_STOP_FINISHED)
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

/* A thread event (its id first, checked) of thread summary `thread` for
 * the thread rows, in the buckets' reach, with the run [run_from, its
 * time) it ends (none: from its time) and its STOP_THREAD status. */
static int on_thread_state(ev_view_index *ix, const ev_event *ev,
			   size_t thread, uint64_t run_from, unsigned status)
{
	reach(ix, ev->time);
	return evi_view_threads_event(ix, ev, thread, run_from, status);
}

static int on_thread(ev_view_index *ix, view_row *r, const ev_event *ev)
{
	if (ev->size < (ev->type == EV_STOP_THREAD ? 6u : 4u))
		return fail(ix, EV_EFORMAT, ev,
			    "a thread event too short for its thread id");
	uint32_t tid = ev_load32(ev->payload);
	unsigned status = 0;
	uint64_t run_ns = 0, run_from = ev->time, from;
	if (ev->type == EV_STOP_THREAD)
		status = evi_stop_status(ev_load16(ev->payload + 4), ix->quirks);
	if (evi_view_open_step(&r->now, ev->type, ev->time, tid, &from)) {
		add_span(ix, r, from, ev->time, tid ? tid : UINT32_MAX);
		add_end(ix, r, 0, from, ev->time);
		if (ev->time > from) {
			run_ns = ev->time - from;
			run_from = from;
		}
	}
	int rc = on_life(ix, ev, run_ns, status);
	return rc < 0 ? rc : on_thread_state(ix, ev, ix->life_thread, run_from,
					     status);
}

static void on_gc(ev_view_index *ix, view_row *r, const ev_event *ev)
{
	uint64_t from;

	if (evi_view_open_step(&r->now, ev->type, ev->time, 0, &from)) {
		add_span(ix, r, from, ev->time, 0);
		add_end(ix, r, 1, from, ev->time);
	}
}

/* A GC phase that ended (view_gc.c) added to the buckets it covers: work,
 * idle and done; sync is the rest of the GC's time. */
static void on_gc_phase(ev_view_index *ix, view_row *r, const ev_event *ev)
{
	view_piece p;

	/* Outside a GC only its start moves the phase (view_gc.c). */
	if ((!r->now.gc_phase && ev->type != EV_GC_START) ||
	    !evi_view_gc_phase(&r->now, ev, &p) || p.phase == EV_VIEW_GC_SYNC)
		return;
	reach(ix, p.to - 1);
	for (uint64_t b = p.from >> ix->shift; b <= (p.to - 1) >> ix->shift; b++) {
		uint64_t lo = b << ix->shift, hi = (b + 1) << ix->shift;
		r->b[b].gc_phase_ns[p.phase - 1] += (p.to < hi ? p.to : hi) -
						    (p.from > lo ? p.from : lo);
	}
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

/* The buckets of the heap of `capset`, made on first sight; NULL past
 * EV_VIEW_MAX_HEAP_PROCS (or out of memory: that process's heap is then
 * only in the whole's). */
static view_heap *proc_heap(ev_view_index *ix, uint32_t capset)
{
	view_proc_heap *p;

	for (size_t i = 0; i < ix->n_heaps; i++)
		if (ix->heaps[i].capset == capset)
			return ix->heaps[i].h;
	if (ix->n_heaps >= EV_VIEW_MAX_HEAP_PROCS)
		return NULL;
	if (!ix->heaps && !(ix->heaps = calloc(EV_VIEW_MAX_HEAP_PROCS,
					       sizeof *ix->heaps)))
		return NULL;
	p = &ix->heaps[ix->n_heaps];
	if (!(p->h = calloc(ix->nb, sizeof *p->h)))
		return NULL;
	p->capset = capset;
	ix->n_heaps++;
	return p->h;
}

/* Adds a heap event's figure to bucket `b` of `h`: the largest size and
 * live bytes, the bytes allocated. */
static void heap_put(view_heap *h, uint16_t type, uint64_t bytes,
		     uint64_t allocated)
{
	if (type == EV_HEAP_SIZE)
		h->size = bytes > h->size ? bytes : h->size;
	else if (type == EV_HEAP_LIVE)
		h->live = bytes > h->live ? bytes : h->live;
	else
		h->alloc += allocated;
}

/* HEAP_ALLOCATED, HEAP_SIZE, HEAP_LIVE: capset u32, bytes u64. */
static int on_heap(ev_view_index *ix, const ev_event *ev)
{
	uint64_t bytes, allocated = 0;
	view_heap *p;
	view_row *r = NULL;

	if (ev->size < 12)
		return fail(ix, EV_EFORMAT, ev, "a heap event too short for its bytes");
	bytes = ev_load64(ev->payload + 4);
	if (ev->type == EV_HEAP_ALLOCATED) {
		if (ev->cap == EV_NO_CAP)
			return EV_OK;
		if (!(r = row_get(ix, ev->cap, ev)))
			return ix->diag.status;
		allocated = bytes >= r->allocated ? bytes - r->allocated : 0;
		r->allocated = bytes;
	}
	/* After row_get, which may have coarsened the buckets. */
	reach(ix, ev->time);
	if (r) {
		evi_view_alloc_put(&r->b[ev->time >> ix->shift], bytes);
		if (evi_view_alloc_keep(ix, ev, bytes) < 0)
			return ix->diag.status;
	}
	heap_put(&ix->heap[ev->time >> ix->shift], ev->type, bytes, allocated);
	if ((p = proc_heap(ix, ev_load32(ev->payload))))
		heap_put(&p[ev->time >> ix->shift], ev->type, bytes, allocated);
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

/* The row of the event's cap when it has one (EV_NO_CAP has none), told
 * the time of the cap's last event, for a run open at a window's end
 * (`evtool stats` ends it there); else NULL. */
static view_row *see_last(ev_view_index *ix, const ev_event *ev)
{
	view_row *r = ev->cap < ix->n_rows && ev->cap != EV_NO_CAP
		? &ix->rows[ev->cap] : NULL;

	if (!r || !r->b)
		return NULL;
	r->now.last = ev->time;
	return r;
}

int ev_view_index_add(ev_view_index *ix, const ev_event *ev)
{
	view_row *r;

	if (ev->type == EV_BLOCK_MARKER)
		return on_block(ix, ev);
	see_time(ix, ev->time);
	r = see_last(ix, ev);
	if (evi_heap_samples_type(ev->type))
		return evi_view_bands_add(ix, ev);
	switch (ev->type) {
	case EV_USER_MARKER:
		return on_text(ix, ev, EV_VIEW_MARKER);
	case EV_USER_MSG:
		if (evi_view_spans_message(ix, ev, r ? &r->now : NULL) < 0)
			return ix->diag.status;
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
	if (ev->cap == EV_NO_CAP)
		return EV_OK;
	if (!r && !(r = row_get(ix, ev->cap, ev)))
		return ix->diag.status;
	r->seen = 1;
	on_gc_phase(ix, r, ev);
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
		if (on_life(ix, ev, 0, 0) < 0)
			return ix->diag.status;
		return ev->type == EV_CREATE_THREAD
			? on_thread_state(ix, ev, ix->life_thread, ev->time, 0)
			: EV_OK;
	case EV_THREAD_RUNNABLE:
	case EV_THREAD_WAKEUP:
		if (ev->size < 4)
			return fail(ix, EV_EFORMAT, ev,
				    "a thread event too short for its thread id");
		/* Its thread's summary may come later in the file. */
		return on_thread_state(ix, ev, SIZE_MAX - 1, ev->time, 0);
	case EV_GC_START:
	case EV_GC_END:
		on_gc(ix, r, ev);
		return evi_view_pause_event(ix, &r->gc_clock, ev);
	case EV_GC_STATS_GHC:
		return evi_view_pause_event(ix, &r->gc_clock, ev);
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
	ix->quirks = evi_header_quirks(ev_reader_header(r));
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
	if (rc == EV_END)
		ev_view_index_finish(ix);
	return rc;
}

void ev_view_index_finish(ev_view_index *ix)
{
	if (ix->any)
		reach(ix, ix->end);
	evi_view_threads_finish(ix);
}

const ev_diag *ev_view_index_diag(const ev_view_index *ix)
{
	return &ix->diag;
}
