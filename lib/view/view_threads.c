/*
 * Per-thread rows of `evtool view`'s index (include/evtool/view.h,
 * ev_view_thread_tile): for each of the first EV_VIEW_MAX_THREAD_ROWS
 * threads, a row of buckets with the time it spent running, runnable and
 * blocked, and the blocking reason that held longest in each.
 *
 * Running is the thread's runs as `evtool stats --threads` counts them
 * (view_index.c hands over each run of a capability as it ends:
 * RUN_THREAD (1) to the same thread's STOP_THREAD (2) on that cap). The
 * other states follow the thread's events in time order: CREATE_THREAD
 * (0) makes it runnable; a STOP_THREAD leaves it runnable (heap or stack
 * overflow, yielding, migrating), finished, or blocked for the reason its
 * status gives (evi_stop_status: an MVar, a black hole, I/O, a delay,
 * STM, a foreign call, throwTo, ...); THREAD_RUNNABLE (3) and
 * THREAD_WAKEUP (8) make a blocked thread runnable; its next RUN_THREAD
 * ends the state.
 *
 * A log holds each capability's events in time order, but not the
 * capabilities' blocks among themselves: a thread that migrates has its
 * events out of order in the file, as far apart as a block's span (a
 * small log's blocks hold the whole run: GHC writes them at its end).
 * They wait in a queue per capability (each in time order), at most
 * EV_VIEW_REORDER in all; when full, the oldest quarter of them is taken
 * in, merged in time order, and the rest at the end
 * (ev_view_index_finish): exact for a log of fewer thread events, and for
 * a larger one as long as no event comes more than some EV_VIEW_REORDER
 * * 3/4 thread events late (one that does, older than its thread's last
 * state, is left out).
 *
 * The rows share the capabilities' time origin at a coarser width, 2^tgap
 * buckets of a capability's row in one, so that they fit
 * EV_VIEW_THREAD_CELLS buckets in all. Each bucket also keeps the state
 * its thread was in at its start (set as a state's time crosses into
 * it), from which view_thread_replay.c follows a short range's events
 * exactly.
 *
 * Layering: called by view_index.c (events, runs, coarsening) and the
 * API; it calls view_query.c's proportions.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "view_internal.h"

/* The fewest buckets of a thread's row the budget makes it. */
#define MIN_TROW 16u

static size_t trow_len(const ev_view_index *ix)
{
	return ix->nb >> ix->tgap;
}

/* The rows' budget: EV_VIEW_THREAD_CELLS, or half the index's own when
 * it is smaller. */
static size_t thread_cells(const ev_view_index *ix)
{
	return ix->max_cells / 2 < EV_VIEW_THREAD_CELLS ? ix->max_cells / 2
							: EV_VIEW_THREAD_CELLS;
}

/* Events the queues hold: EV_VIEW_REORDER, fewer (not below 64) for a
 * small budget. */
static size_t reorder_cap(const ev_view_index *ix)
{
	size_t n = ix->max_cells;
	return n < 64 ? 64 : n > EV_VIEW_REORDER ? EV_VIEW_REORDER : n;
}

static unsigned tshift(const ev_view_index *ix)
{
	return ix->shift + ix->tgap;
}

void evi_view_threads_free(ev_view_index *ix)
{
	for (size_t i = 0; i < ix->trows_cap; i++)
		free(ix->trows[i].b);
	free(ix->trows);
	for (size_t i = 0; i < ix->n_queues; i++)
		free(ix->queues[i].e);
	free(ix->queues);
}

/* Sums bucket pairs of every row into its lower half (`len` buckets). */
static void coarsen_trows(ev_view_index *ix, size_t len)
{
	for (size_t r = 0; r < ix->trows_cap; r++) {
		view_tbucket *b = ix->trows[r].b;
		if (!b)
			continue;
		for (size_t i = 0; i < len / 2; i++) {
			view_tbucket x = b[2 * i], y = b[2 * i + 1];
			for (unsigned k = 0; k < 3; k++)
				b[i].ns[k] = x.ns[k] + y.ns[k];
			b[i].reason = y.reason_ns > x.reason_ns ? y.reason
								 : x.reason;
			b[i].reason_ns = y.reason_ns > x.reason_ns ? y.reason_ns
								   : x.reason_ns;
			b[i].start_state = x.start_state;
			b[i].start_reason = x.start_reason;
		}
		memset(b + len / 2, 0, len / 2 * sizeof *b);
	}
}

void evi_view_threads_coarsen(ev_view_index *ix)
{
	coarsen_trows(ix, trow_len(ix));
}

/* Each row cut to trow_len() buckets (its upper part is empty). */
static void shrink_trows(ev_view_index *ix)
{
	for (size_t r = 0; r < ix->trows_cap; r++) {
		view_tbucket *b = ix->trows[r].b;
		if (b && (b = realloc(b, trow_len(ix) * sizeof *b)))
			ix->trows[r].b = b;
	}
}

void evi_view_threads_fit(ev_view_index *ix)
{
	shrink_trows(ix);
}

/* The row of thread summary `i`, given its buckets on first use; NULL
 * past the threads kept (SIZE_MAX) or the rows' bound. */
static view_trow *trow_get(ev_view_index *ix, size_t i)
{
	view_trow *t;

	if (i == SIZE_MAX || i >= EV_VIEW_MAX_THREAD_ROWS)
		return NULL;
	if (i >= ix->trows_cap && evi_grow_zeroed(&ix->diag, &ix->trows,
						  &ix->trows_cap, i,
						  sizeof *ix->trows) < 0)
		return NULL;
	t = &ix->trows[i];
	if (t->b)
		return t;
	while (trow_len(ix) > MIN_TROW &&
	       (ix->n_trows + 1) * trow_len(ix) > thread_cells(ix)) {
		coarsen_trows(ix, trow_len(ix));
		ix->tgap++;
		shrink_trows(ix);
	}
	if (!(t->b = calloc(trow_len(ix), sizeof *t->b)))
		return NULL;
	ix->n_trows++;
	return t;
}

/* The row of thread summary `i`: at once when it has its buckets (the
 * usual case), else as trow_get gives it. */
static inline view_trow *trow_of(ev_view_index *ix, size_t i)
{
	if (i < ix->trows_cap && ix->trows[i].b)
		return &ix->trows[i];
	return trow_get(ix, i);
}

/* Adds `ns` in `state` (and `reason`, blocked) to bucket `k`. */
static inline void add_to(view_tbucket *k, uint64_t ns, unsigned state,
			  unsigned reason)
{
	k->ns[state - T_RUNNING] += ns;
	if (state != T_BLOCKED)
		return;
	if (k->reason == reason || !k->reason_ns)
		k->reason_ns += ns, k->reason = (uint8_t)reason;
	else if (ns > k->reason_ns)
		k->reason_ns = ns, k->reason = (uint8_t)reason;
}

/* Adds [from, to) in `state` (and `reason`, blocked) to `t`'s buckets;
 * those that start in (from, to] start in it (the events before their
 * start left it so). */
static inline void add_state(ev_view_index *ix, view_trow *t, uint64_t from,
			     uint64_t to, unsigned state, unsigned reason)
{
	unsigned sh = tshift(ix);
	uint64_t b = from >> sh, last = to >> sh;

	if (to <= from)
		return;
	/* Most states begin and end in one bucket (tested first: the
	 * index's hot path). */
	if (b == last) {
		if (b < trow_len(ix))
			add_to(&t->b[b], to - from, state, reason);
		return;
	}
	if (b >= trow_len(ix))
		return;
	add_to(&t->b[b], ((b + 1) << sh) - from, state, reason);
	if (last >= trow_len(ix))
		last = trow_len(ix) - 1;
	while (++b <= last) {
		uint64_t lo = b << sh, hi = lo + ((uint64_t)1 << sh);
		view_tbucket *k = &t->b[b];

		add_to(k, (to < hi ? to : hi) - lo, state, reason);
		k->start_state = (uint8_t)state;
		k->start_reason = (uint8_t)reason;
	}
}

/* ---- the states, in time order ---- */

/* The state a STOP_THREAD status leaves its thread in. */
static unsigned after_stop(unsigned status)
{
	switch (status) {
	case 1: /* heap overflow */
	case 2: /* stack overflow */
	case 3: /* yielding */
	case 17: /* migrating */
		return T_RUNNABLE;
	case EVI_STOP_FINISHED:
		return T_NONE;
	default:
		return T_BLOCKED;
	}
}

/* evi_view_thread_next, inlined here: it is on the index's hot path. */
static inline int thread_next(unsigned state, unsigned type, unsigned status)
{
	switch (type) {
	case EV_CREATE_THREAD:
		return state == T_NONE ? T_RUNNABLE : -1;
	case EV_RUN_THREAD:
		return T_RUNNING;
	case EV_STOP_THREAD:
		return (int)after_stop(status);
	case EV_THREAD_RUNNABLE:
	case EV_THREAD_WAKEUP:
		return state == T_BLOCKED ? T_RUNNABLE : -1;
	default:
		return -1;
	}
}

int evi_view_thread_next(unsigned state, unsigned type, unsigned status)
{
	return thread_next(state, type, status);
}

/* One thread event, in time order. */
static void apply(ev_view_index *ix, const view_tev *e)
{
	size_t i = e->by_tid ? evi_view_thread_index(ix, e->thread) : e->thread;
	view_trow *t = trow_of(ix, i);
	int next;

	if (!t || e->time < t->since)
		return;
	/* e->status: evi_stop_status's, mapped when queued. */
	if ((next = thread_next(t->state, e->type, e->status)) < 0)
		return;
	/* Running is added by the runs themselves (stats' rule). */
	if (t->state == T_RUNNABLE || t->state == T_BLOCKED)
		add_state(ix, t, t->since, e->time, t->state, t->reason);
	t->state = (uint8_t)next;
	t->reason = e->status;
	t->since = e->time;
}

/* ---- the capabilities' queues, merged by time ---- */

/* The queue of `cap`, grown on first sight. */
static view_tq *queue_of(ev_view_index *ix, uint16_t cap)
{
	if (cap >= ix->n_queues && evi_grow_zeroed(&ix->diag, &ix->queues,
						   &ix->n_queues, cap,
						   sizeof *ix->queues) < 0)
		return NULL;
	if (cap >= ix->q_used)
		ix->q_used = (size_t)cap + 1;
	return &ix->queues[cap];
}

/* Event `i` of `q`, a ring of a power of two (`i` counts on from its
 * first push; head and tail run on). */
static inline view_tev *at(const view_tq *q, size_t i)
{
	return &q->e[i & (q->alloc - 1)];
}

/* `q`, full, twice as large. EV_OK or EV_ENOMEM. */
static int grow_queue(view_tq *q)
{
	size_t n = q->alloc ? 2 * q->alloc : 16;
	view_tev *e = malloc(n * sizeof *e);

	if (!e)
		return EV_ENOMEM;
	for (size_t i = q->head; i < q->tail; i++)
		e[i - q->head] = *at(q, i);
	free(q->e);
	q->e = e;
	q->tail -= q->head;
	q->head = 0;
	q->alloc = n;
	return EV_OK;
}

/* Whether `a` comes before `b`: by time, then in the order they came
 * (the file's, as `evtool show` orders ties). */
static int before(const view_tev *a, const view_tev *b)
{
	return a->time < b->time ||
	       (a->time == b->time && (int32_t)(a->seq - b->seq) < 0);
}

/* Takes the `n` oldest queued events (or all there are) into their
 * threads' rows, in time order: from the queue with the earliest head
 * as long as its head comes before every other queue's. */
static void take_oldest(ev_view_index *ix, size_t n)
{
	while (n > 0 && ix->queued > 0) {
		view_tq *best = NULL, *next = NULL;

		for (size_t c = 0; c < ix->q_used; c++) {
			view_tq *q = &ix->queues[c];
			const view_tev *h;
			if (q->head == q->tail)
				continue;
			h = at(q, q->head);
			if (!best || before(h, at(best, best->head))) {
				next = best;
				best = q;
			} else if (!next || before(h, at(next, next->head))) {
				next = q;
			}
		}
		do {
			apply(ix, at(best, best->head++));
			ix->queued--;
		} while (--n > 0 && best->head < best->tail &&
			 (!next || before(at(best, best->head),
					  at(next, next->head))));
		if (best->head == best->tail)
			best->head = best->tail = 0;
	}
}

int evi_view_threads_event(ev_view_index *ix, const ev_event *ev,
			   size_t thread, uint64_t run_from, unsigned status)
{
	view_tq *q = ev->cap < ix->q_used ? &ix->queues[ev->cap]
					  : queue_of(ix, ev->cap);
	size_t full = reorder_cap(ix);
	int by_tid = 0;
	view_tev *e;

	if (run_from < ev->time) { /* running: its runs, as they end */
		view_trow *t = trow_of(ix, thread);
		if (t)
			add_state(ix, t, run_from, ev->time, T_RUNNING, 0);
	}
	if (!q)
		return ix->diag.status;
	if (thread == SIZE_MAX - 1 &&
	    (thread = evi_view_thread_index(ix, ev_load32(ev->payload))) ==
		    SIZE_MAX)
		by_tid = 1; /* found when taken, if it comes by then */
	if (!by_tid && thread >= EV_VIEW_MAX_THREAD_ROWS)
		return EV_OK; /* no row */
	/* Full: the oldest quarter goes in, in one go. */
	if (ix->queued >= full)
		take_oldest(ix, full / 4);
	if (q->tail - q->head == q->alloc && grow_queue(q) < 0)
		return evi_fail(&ix->diag, EV_ENOMEM, 0, 0, "out of memory");
	e = at(q, q->tail++);
	ix->queued++;
	e->time = ev->time;
	e->thread = by_tid ? ev_load32(ev->payload) : (uint32_t)thread;
	e->seq = ix->queue_seq++;
	e->type = (uint8_t)ev->type;
	e->status = (uint8_t)status;
	e->by_tid = (uint8_t)by_tid;
	return EV_OK;
}

void evi_view_threads_finish(ev_view_index *ix)
{
	take_oldest(ix, ix->queued);
}

/* ---- queries ---- */

uint64_t ev_view_thread_bucket_ns(const ev_view_index *ix)
{
	return (uint64_t)1 << tshift(ix);
}

const ev_view_thread *ev_view_thread_at(const ev_view_index *ix, size_t i)
{
	return i < ix->thread_ids.count ? &ix->threads[i] : NULL;
}

size_t ev_view_thread_rows(const ev_view_index *ix)
{
	return ix->n_trows;
}

unsigned evi_view_thread_shift(const ev_view_index *ix)
{
	return tshift(ix);
}

int evi_view_thread_start(const ev_view_index *ix, size_t i, uint64_t b,
			  uint8_t *state, uint8_t *reason, uint64_t *last)
{
	const view_trow *t = i < ix->trows_cap ? &ix->trows[i] : NULL;

	if (!t || !t->b)
		return -1;
	*last = t->since;
	/* Past its last event (or its row): the state it is in now. */
	if (b >= trow_len(ix) || b << tshift(ix) > t->since) {
		*state = t->state;
		*reason = t->reason;
	} else {
		*state = t->b[b].start_state;
		*reason = t->b[b].start_reason;
	}
	return 0;
}

int ev_view_thread_tile(const ev_view_index *ix, uint32_t tid, uint64_t from,
			uint64_t to, size_t width, ev_view_thread_cell *cells)
{
	size_t i = evi_idmap_index(&ix->thread_ids, tid);
	const view_trow *t = i < ix->trows_cap ? &ix->trows[i] : NULL;
	unsigned sh = tshift(ix);
	uint64_t w = (uint64_t)1 << sh, end = (uint64_t)trow_len(ix) << sh;

	if (from >= to || !width)
		return EV_EINVAL;
	memset(cells, 0, width * sizeof *cells);
	if (!t || !t->b)
		return EV_EINVAL;
	for (size_t s = 0; s < width; s++) {
		uint64_t lo, hi, best = 0;
		ev_view_thread_cell *c = &cells[s];

		evi_view_span_of(from, to, width, s, &lo, &hi);
		hi = hi < end ? hi : end;
		for (uint64_t b = lo >> sh; lo < hi && b <= (hi - 1) >> sh; b++) {
			const view_tbucket *k = &t->b[b];
			uint64_t part = evi_view_part_of(b, sh, lo, hi);

			c->run_ns += evi_view_scaled(k->ns[0], part, w);
			c->runnable_ns += evi_view_scaled(k->ns[1], part, w);
			c->blocked_ns += evi_view_scaled(k->ns[2], part, w);
			if (k->reason_ns > best) {
				best = k->reason_ns;
				c->reason = k->reason;
			}
		}
	}
	return EV_OK;
}
