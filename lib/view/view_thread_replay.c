/*
 * The exact states of threads in a short range (include/evtool/view.h,
 * ev_view_thread_replay_new): each thread starts in the state its row
 * keeps for the start of its bucket that holds the range's start
 * (view_threads.c), then follows its events, read again from the log
 * through the capabilities' block offsets and taken in time order, by the
 * rows' rules (evi_view_thread_next): CREATE_THREAD (0) makes it
 * runnable, RUN_THREAD (1) running, STOP_THREAD (2) runnable, blocked or
 * finished by its status, THREAD_RUNNABLE (3) and THREAD_WAKEUP (8) a
 * blocked thread runnable.
 *
 * Layering: the query side of view_threads.c, as view_replay.c is of the
 * capabilities' rows.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "view_internal.h"

/* A thread event taken, by its thread's index in the replay (16 bytes:
 * a long replay takes some 10^5 of them). */
typedef struct rp_event {
	uint64_t time;
	uint32_t k;
	uint8_t type, status;
} rp_event;

typedef struct rp_thread {
	uint32_t tid;
	size_t row;    /* its summary's index */
	uint64_t last; /* the time of its last event the index took */
	uint64_t since;
	uint8_t state, reason;
	ev_view_thread_interval *iv;
	size_t n_iv, iv_cap;
	size_t events; /* taken: each closes at most one interval */
} rp_thread;

/* A thread's id and its index in the replay, sorted by id. */
typedef struct rp_key {
	uint32_t tid, k;
} rp_key;

struct ev_view_thread_replay {
	const ev_view_index *ix;
	uint64_t from, to, start;
	rp_thread *t;
	rp_key *keys;
	size_t n;
	rp_event *e;
	size_t n_e, e_cap;
};

static int by_tid(const void *a, const void *b)
{
	const rp_key *x = a, *y = b;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* The end of the run in time order (ties allowed) that starts at e[i]. */
static size_t run_end(const rp_event *e, size_t i, size_t n)
{
	while (++i < n && e[i - 1].time <= e[i].time)
		;
	return i;
}

/* Merges the run e[0, na) with the run e[na, n) after it, in place
 * (the first copied to `left`); a tie keeps the first run's event
 * first. */
static void merge_runs(rp_event *e, size_t na, size_t n, rp_event *left)
{
	size_t a = 0, b = na, out = 0;

	memcpy(left, e, na * sizeof *e);
	while (a < na && b < n)
		e[out++] = e[b].time < left[a].time ? e[b++] : left[a++];
	memcpy(e + out, left + a, (na - a) * sizeof *e);
}

/* Puts the events in time order, ties in the order given: a stable
 * natural merge sort. Each capability's events come in time order (a
 * log holds them so), so the array is a few runs in order, one a
 * capability: they are merged, each pass of pairwise merges halving
 * their number, rather than sorted anew (qsort spent most of a long
 * replay's time). */
static int sort_events(ev_view_thread_replay *rp)
{
	size_t n = rp->n_e, runs, left_cap = 0;
	rp_event *left = NULL;

	do {
		runs = 0;
		for (size_t i = 0; i < n; runs++) {
			size_t mid = run_end(rp->e, i, n);
			size_t end = mid < n ? run_end(rp->e, mid, n) : n;

			if (end > mid && mid - i > left_cap &&
			    evi_grow(&left, &left_cap, mid - i,
				     sizeof *left) < 0) {
				free(left);
				return EV_ENOMEM;
			}
			if (end > mid)
				merge_runs(rp->e + i, mid - i, end - i, left);
			i = end;
		}
	} while (runs > 1);
	free(left);
	return EV_OK;
}

void ev_view_thread_replay_free(ev_view_thread_replay *rp)
{
	if (!rp)
		return;
	for (size_t k = 0; rp->t && k < rp->n; k++)
		free(rp->t[k].iv);
	free(rp->t);
	free(rp->keys);
	free(rp->e);
	free(rp);
}

/* Thread `k` of `tid`: its row's state at the replay's start. */
static int start_thread(ev_view_thread_replay *rp, size_t k, uint32_t tid)
{
	const ev_view_index *ix = rp->ix;
	rp_thread *t = &rp->t[k];
	unsigned sh = evi_view_thread_shift(ix);

	t->tid = tid;
	t->row = evi_idmap_index(&ix->thread_ids, tid);
	if (evi_view_thread_start(ix, t->row, rp->start >> sh, &t->state,
				  &t->reason, &t->last) < 0)
		return EV_EINVAL;
	/* Past its last event: in the state that event began. */
	t->since = rp->start > t->last ? t->last : rp->start;
	rp->keys[k] = (rp_key){ tid, (uint32_t)k };
	return EV_OK;
}

int ev_view_thread_replay_new(ev_view_thread_replay **out,
			      const ev_view_index *ix, const uint32_t *tids,
			      size_t n, uint64_t from, uint64_t to)
{
	ev_view_thread_replay *rp;
	unsigned sh = evi_view_thread_shift(ix);

	*out = NULL;
	if (from >= to || n > UINT32_MAX)
		return EV_EINVAL;
	if (!(rp = calloc(1, sizeof *rp)) ||
	    !(rp->t = calloc(n ? n : 1, sizeof *rp->t)) ||
	    !(rp->keys = calloc(n ? n : 1, sizeof *rp->keys))) {
		ev_view_thread_replay_free(rp);
		return EV_ENOMEM;
	}
	rp->ix = ix;
	rp->from = from;
	rp->to = to;
	rp->start = from >> sh << sh;
	rp->n = n;
	for (size_t k = 0; k < n; k++)
		if (start_thread(rp, k, tids[k]) < 0) {
			ev_view_thread_replay_free(rp);
			return EV_EINVAL;
		}
	qsort(rp->keys, n, sizeof *rp->keys, by_tid);
	*out = rp;
	return EV_OK;
}

uint64_t ev_view_thread_replay_start(const ev_view_thread_replay *rp)
{
	return rp->start;
}

/* The index in the replay of the thread `ev` is about; -1: none. */
static long thread_of(const ev_view_thread_replay *rp, const ev_event *ev)
{
	rp_key key, *hit;

	switch (ev->type) {
	case EV_CREATE_THREAD:
	case EV_RUN_THREAD:
	case EV_THREAD_RUNNABLE:
	case EV_THREAD_WAKEUP:
		if (ev->size < 4)
			return -1;
		break;
	case EV_STOP_THREAD:
		if (ev->size < 6)
			return -1;
		break;
	default:
		return -1;
	}
	key.tid = ev_load32(ev->payload);
	hit = bsearch(&key, rp->keys, rp->n, sizeof key, by_tid);
	return hit ? (long)hit->k : -1;
}

static int take(ev_view_thread_replay *rp, const ev_event *ev, uint32_t k)
{
	rp_event *e;

	if (rp->n_e == rp->e_cap &&
	    evi_grow(&rp->e, &rp->e_cap, rp->n_e + 1, sizeof *rp->e) < 0)
		return EV_ENOMEM;
	e = &rp->e[rp->n_e++];
	rp->t[k].events++;
	e->time = ev->time;
	e->k = k;
	e->type = (uint8_t)ev->type;
	e->status = 0;
	if (ev->type == EV_STOP_THREAD) {
		unsigned code = ev_load16(ev->payload + 4);
		e->status = (uint8_t)evi_stop_status(code, rp->ix->quirks);
	}
	return EV_OK;
}

int ev_view_thread_replay_read(ev_view_thread_replay *rp, ev_reader *r,
			       uint16_t cap)
{
	ev_event ev;
	long k;
	int rc;

	while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
		if (ev.type == EV_BLOCK_MARKER || ev.cap != cap ||
		    ev.time < rp->start)
			continue;
		if (ev.time >= rp->to)
			break;
		if ((k = thread_of(rp, &ev)) >= 0 &&
		    take(rp, &ev, (uint32_t)k) < 0)
			return EV_ENOMEM;
	}
	return rc < 0 && rc != EV_ETRUNCATED ? rc : EV_OK;
}

/* Thread `t`'s state since t->since ends at `end`: listed, cut to the
 * range. */
static int close_state(ev_view_thread_replay *rp, rp_thread *t, uint64_t end)
{
	uint64_t a = t->since > rp->from ? t->since : rp->from;
	uint64_t b = end < rp->to ? end : rp->to;

	if (t->state == T_NONE || b <= a)
		return EV_OK;
	if (t->n_iv == t->iv_cap &&
	    evi_grow(&t->iv, &t->iv_cap, t->n_iv + 1, sizeof *t->iv) < 0)
		return EV_ENOMEM;
	t->iv[t->n_iv++] = (ev_view_thread_interval){
		a, b, t->state, t->state == T_BLOCKED ? t->reason : 0 };
	return EV_OK;
}

/* Each thread's intervals allocated at once, as many as can come (one
 * per event, and the one open at the end), rather than grown: a long
 * replay's arrays were most of its time in realloc's copies and page
 * faults. */
static int reserve_intervals(ev_view_thread_replay *rp)
{
	for (size_t k = 0; k < rp->n; k++) {
		rp_thread *t = &rp->t[k];

		if (evi_grow(&t->iv, &t->iv_cap, t->events + 1,
			     sizeof *t->iv) < 0)
			return EV_ENOMEM;
	}
	return EV_OK;
}

int ev_view_thread_replay_finish(ev_view_thread_replay *rp)
{
	if (reserve_intervals(rp) < 0)
		return EV_ENOMEM;
	if (sort_events(rp) < 0)
		return EV_ENOMEM;
	for (size_t i = 0; i < rp->n_e; i++) {
		const rp_event *e = &rp->e[i];
		rp_thread *t = &rp->t[e->k];
		int next = evi_view_thread_next(t->state, e->type, e->status);

		if (next < 0)
			continue;
		if (close_state(rp, t, e->time) < 0)
			return EV_ENOMEM;
		t->state = (uint8_t)next;
		t->reason = e->status;
		t->since = e->time;
	}
	/* Open at the end: to `to`, unless the log has no later event of the
	 * thread (the rows never count that state). */
	for (size_t k = 0; k < rp->n; k++)
		if (rp->t[k].since != rp->t[k].last &&
		    close_state(rp, &rp->t[k], rp->to) < 0)
			return EV_ENOMEM;
	return EV_OK;
}

size_t ev_view_thread_replay_intervals(const ev_view_thread_replay *rp,
				       size_t k,
				       const ev_view_thread_interval **out)
{
	*out = k < rp->n ? rp->t[k].iv : NULL;
	return k < rp->n ? rp->t[k].n_iv : 0;
}

/* A span of the range, [lo, hi): the last an interval reached. */
typedef struct span_at {
	size_t i;
	uint64_t lo, hi;
} span_at;

/* The start of span `i` of `width` of the range, as evi_view_span_of
 * gives it (span 0 starts at `from`, span `width` at `to`). */
static uint64_t span_lo(const ev_view_thread_replay *rp, size_t i,
			size_t width)
{
	if (!i || i == width)
		return i ? rp->to : rp->from;
	return rp->from + evi_view_muldiv(rp->to - rp->from, i, width);
}

/* Adds interval `iv` to the cells of the spans it covers; a blocked one's
 * reason as the rows keep it (the same reason adds up, a longer piece of
 * another replaces it). A thread's intervals come in time order, most
 * far shorter than a span: one starts in the span the last reached
 * (*at), found there without a division. */
static void add_interval(const ev_view_thread_replay *rp,
			 const ev_view_thread_interval *iv, size_t width,
			 ev_view_thread_cell *cells, uint64_t *reason_ns,
			 span_at *at)
{
	size_t i = at->i;
	uint64_t lo = at->lo, hi = at->hi;

	if (iv->from < lo || iv->from >= hi) {
		i = (size_t)evi_view_muldiv(iv->from - rp->from, width,
					    rp->to - rp->from);
		lo = span_lo(rp, i, width);
		hi = span_lo(rp, i + 1, width);
	}
	for (;;) {
		ev_view_thread_cell *c = &cells[i];
		uint64_t ns = (iv->to < hi ? iv->to : hi) -
			      (iv->from > lo ? iv->from : lo);

		if (hi <= iv->from) {
			/* before the interval */
		} else if (iv->state == EV_VIEW_THREAD_RUNNING) {
			c->run_ns += ns;
		} else if (iv->state == EV_VIEW_THREAD_RUNNABLE) {
			c->runnable_ns += ns;
		} else {
			c->blocked_ns += ns;
			if (c->reason == iv->reason || !reason_ns[i])
				reason_ns[i] += ns, c->reason = iv->reason;
			else if (ns > reason_ns[i])
				reason_ns[i] = ns, c->reason = iv->reason;
		}
		*at = (span_at){ i, lo, hi };
		if (++i == width || hi >= iv->to)
			break;
		lo = hi;
		hi = span_lo(rp, i + 1, width);
	}
}

int ev_view_thread_replay_tile(const ev_view_thread_replay *rp, size_t k,
			       size_t width, ev_view_thread_cell *cells)
{
	span_at at = { 0, 0, 0 };
	uint64_t *reason_ns;

	if (k >= rp->n || !width)
		return EV_EINVAL;
	if (!(reason_ns = calloc(width, sizeof *reason_ns)))
		return EV_ENOMEM;
	memset(cells, 0, width * sizeof *cells);
	for (size_t i = 0; i < rp->t[k].n_iv; i++)
		add_interval(rp, &rp->t[k].iv[i], width, cells, reason_ns,
			     &at);
	free(reason_ns);
	return EV_OK;
}
