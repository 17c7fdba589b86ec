/*
 * The validator reading in parallel (evv_run_blocks): workers check the
 * blocks of a plain one-session log (lib/format's blocks.h) one at a time,
 * and the caller takes their results back in file order and adds what
 * crosses blocks and caps. It only ever certifies that a log has nothing
 * to report: at the first thing that may be a finding, it gives up and
 * the log is validated in one pass (validate.c), which says what it is and
 * where, in its order. So the parallel path may be cautious (give up on
 * something the one pass would accept: only slower) but never lenient.
 *
 * - A cap's stream (structure, window, time order, its scheduler
 *   machines: validate.c's evv_cap_event) is checked by the worker from a
 *   fresh state of the cap (no time yet; machines unknown; every pairing
 *   shown). The caller replays the block's first events from the cap's
 *   real state beside the fresh one until both would judge any later
 *   event alike (evv_cap_same: usually at the first event past the cap's
 *   latest time), and takes the worker's word, and its end state, from
 *   there on. A finding of the replay, or one of the worker's past that
 *   event, gives up.
 * - Creations, references and tasks (evv_global_event) are rare: the
 *   workers list them, the caller checks them in file order.
 * - Threads cross caps. The workers note, per thread and block, the time
 *   span of its runs (open at the block's end when it is still running),
 *   its earliest run, its creation and its finish; the caller gives up
 *   when a thread is named after its finish, created twice, created after
 *   a run or run before its creation (beyond the tolerance), or when its
 *   spans on two caps meet: every case in which validate_sched.c's table,
 *   which keeps less, can report.
 *
 * Memory: per worker a validator's state (its caps' array, allocated,
 * touched only where used) and per batch (2 x workers) a block's noted
 * threads (at most MAX_BLOCK_THREADS) and rare events; the caller's spans
 * of each thread (at most MAX_SPANS, pruned below the time every cap has
 * passed). A block, the events of which each worker reads through the
 * map, is let go once merged.
 *
 * Layering: validator.c -> this file -> validate.c's parts,
 * validate_table.c, lib/format's blocks, lib/common's ring.
 */
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "pool.h"
#include "validate_internal.h"

#define NO_TIME UINT64_MAX
#define SEEN_ALL (EVV_SEEN_RUN | EVV_SEEN_STOP | EVV_SEEN_GC_START | \
		  EVV_SEEN_GC_END | EVV_SEEN_SAMPLE_BEGIN | EVV_SEEN_SAMPLE_END)
/* Threads a block may name (more: one pass), a thread's spans kept per
 * block, and per thread in all: with 2 batches per worker, a few MB. */
#define MAX_BLOCK_THREADS 4096u
#define BLOCK_SPANS 16
#define MAX_SPANS 4096u

/* A span of a thread's runs on a cap. */
typedef struct vb_span {
	uint64_t lo, hi;
	uint16_t cap;
} vb_span;

/* A thread named in a block. */
typedef struct vb_thread {
	evv_slot slot;       /* key: the thread id */
	/* its runs in the block, within at most BLOCK_SPANS spans (runs
	 * closer than `gap` joined); the last one's hi NO_TIME: running at
	 * the end */
	vb_span spans[BLOCK_SPANS];
	uint8_t n_spans;
	uint8_t running;     /* its last RUN or STOP_THREAD was a RUN */
	uint64_t gap;        /* a run this close to the last span joins it */
	uint64_t min_run;    /* its earliest RUN_THREAD, or NO_TIME */
	uint64_t created_at;
	uint64_t named_at;   /* its latest RUN, STOP or MIGRATE_THREAD */
	uint64_t finished_at;
	uint8_t runs;        /* RUN or STOP_THREAD */
	uint8_t named;       /* RUN, STOP or MIGRATE_THREAD */
	uint8_t created;
	uint8_t finished;    /* a STOP_THREAD with status ThreadFinished */
} vb_thread;

/* One block's result. */
typedef struct vb_batch {
	size_t block;
	uint64_t events;      /* markers aside */
	int gave_up;          /* something the caller cannot clear */
	int found;            /* the worker's check found something ... */
	uint64_t last_found;  /* ... last at this event (from the marker) */
	uint64_t last_of[3];  /* last event of each machine, +1 (0: none) */
	evv_cap end;          /* the cap's state after the block */
	vb_thread *threads;
	size_t n_threads, cap_threads;
	uint64_t *rare;       /* offsets of the events of evv_global_event */
	uint32_t *rare_index; /* theirs, from the marker */
	size_t n_rare, cap_rare;
	uint16_t *caps_named; /* the caps payloads name */
	size_t n_caps_named, cap_caps_named;
} vb_batch;

typedef struct vb_worker {
	evv v;
	ev_validate_result res;
	evv_table threads;
	vb_thread *last;      /* the thread of the last lookup ... */
	uint32_t last_gen;    /* ... while the table's entries stay put */
	uint8_t named[EVV_CAPS / 8]; /* batch->caps_named, a bit each */
	int failed;           /* out of memory */
	vb_batch *batch;      /* the one being worked on */
} vb_worker;

typedef struct vb_known {
	evv_slot slot;
	uint8_t finished, created;
	uint16_t finished_cap;
	uint64_t created_at, min_run, finished_at;
	vb_span *spans;
	size_t n, cap;
} vb_known;

typedef struct vb_run {
	const evi_blocks *b;
	const ev_validate_options *o;
	vb_worker **workers;
	unsigned n_workers;
	vb_batch *batches;
	unsigned slots;
	evi_ring *ring;
	size_t submitted;
	/* the caller's */
	evv m;                /* the real state */
	evv fresh;            /* a cap from a fresh state, for the replay */
	ev_validate_result m_res, fresh_res;
	int m_found;
	evv_table known;      /* vb_known by thread id */
	uint16_t *caps;       /* the caps of the log's blocks, NO_CAP aside */
	size_t n_caps;
} vb_run;

/* ---- the workers ---- */

static int worker_found(const ev_finding *f, void *ctx)
{
	vb_worker *w = ctx;

	if (!f->has_event) {
		w->batch->gave_up = 1;
	} else {
		w->batch->found = 1;
		w->batch->last_found = f->event_index;
	}
	return 0;
}

/* The state a worker starts a block's cap from. */
static evv_cap *fresh_cap(evv *v, uint16_t cap)
{
	evv_cap *cs;

	v->touched[cap / 8] &= (uint8_t)~(1u << (cap % 8));
	cs = evv_cap_state(v, cap);
	/* Any state will do (the caller's replay compares it with the
	 * real one); the likeliest is between GCs and heap samples, with
	 * every pairing shown. */
	cs->seen = SEEN_ALL;
	cs->gc_state = EVV_IDLE;
	cs->sample_state = EVV_IDLE;
	v->in_block = 0;
	return cs;
}

static int machine_of(const evv *v, uint16_t type)
{
	switch (type) {
	case EV_RUN_THREAD:
	case EV_STOP_THREAD:
	case EV_MIGRATE_THREAD:
		return 0;
	case EV_GC_START:
	case EV_GC_END:
		return 1;
	case EV_HEAP_PROF_SAMPLE_BEGIN:
	case EV_HEAP_PROF_SAMPLE_COST_CENTRE:
	case EV_HEAP_PROF_SAMPLE_STRING:
	case EV_HEAP_PROF_SAMPLE_END:
	case EV_HEAP_BIO_PROF_SAMPLE_BEGIN:
		return v->has_sample_end ? 2 : -1;
	default:
		return -1;
	}
}

static int add_rare(vb_batch *batch, const ev_event *ev)
{
	size_t cap = batch->cap_rare;

	if (batch->n_rare == cap &&
	    (evi_grow((void **)&batch->rare, &cap, batch->n_rare + 1,
		      sizeof *batch->rare) < 0 ||
	     evi_grow((void **)&batch->rare_index, &batch->cap_rare,
		       batch->n_rare + 1, sizeof *batch->rare_index) < 0))
		return EV_ENOMEM;
	batch->rare[batch->n_rare] = ev->offset;
	batch->rare_index[batch->n_rare] = (uint32_t)ev->index;
	batch->n_rare++;
	return EV_OK;
}

static uint32_t thread_payload_needs(uint16_t type)
{
	return type == EV_STOP_THREAD || type == EV_MIGRATE_THREAD ? 6 : 4;
}

/* Joins the neighbouring spans closer than a gap that doubles until at
 * most half are left: the long gaps (where the thread ran elsewhere)
 * are the last to go; runs that close later join the last span. */
static void coarsen(vb_thread *t)
{
	uint8_t n;

	if (t->gap == 0)
		t->gap = 1;
	for (;;) {
		n = 1;
		for (int i = 1; i < t->n_spans; i++) {
			vb_span *last = &t->spans[n - 1], *s = &t->spans[i];
			if (s->lo <= last->hi || s->lo - last->hi <= t->gap) {
				if (s->lo < last->lo)
					last->lo = s->lo;
				if (s->hi > last->hi)
					last->hi = s->hi;
			} else {
				t->spans[n++] = *s;
			}
		}
		t->n_spans = n;
		if (n <= BLOCK_SPANS / 2)
			return;
		t->gap *= 2;
	}
}

/* A RUN or STOP_THREAD at `time`: every run, from its RUN to its STOP,
 * lies within one span. */
static void run_time(vb_thread *t, uint64_t time, int run)
{
	vb_span *last = t->n_spans ? &t->spans[t->n_spans - 1] : NULL;

	if (last && (t->running || time <= last->hi ||
		     time - last->hi <= t->gap)) {
		if (time < last->lo)
			last->lo = time;
		if (time > last->hi)
			last->hi = time;
	} else {
		if (t->n_spans == BLOCK_SPANS)
			coarsen(t);
		last = &t->spans[t->n_spans++];
		last->lo = last->hi = time;
	}
	t->running = (uint8_t)run;
}

/* The block's note of thread `tid`, made when needed (NULL: too many). */
static vb_thread *thread_of(vb_worker *w, uint32_t tid)
{
	vb_thread *t = w->last;

	if (t && w->last_gen == w->threads.gen && t->slot.key == tid)
		return t;
	t = evv_table_find(&w->threads, tid);
	if (!t && (t = evv_table_insert(&w->threads, tid)))
		t->min_run = NO_TIME;
	w->last = t;
	w->last_gen = w->threads.gen;
	return t;
}

/* What validate_sched.c's thread table would learn of `ev`, noted. */
static void note_thread(vb_worker *w, const ev_event *ev)
{
	uint64_t tol = w->v.o.tolerance_ns;
	vb_thread *t;

	if (ev->cap == EV_NO_CAP || ev->size < thread_payload_needs(ev->type))
		return;
	t = thread_of(w, ev_load32(ev->payload));
	if (!t || (t->finished && ev->type != EV_CREATE_THREAD)) {
		w->batch->gave_up = 1;
		return;
	}
	if (ev->type == EV_CREATE_THREAD) {
		if (t->created || (t->min_run != NO_TIME &&
				   t->min_run + tol < ev->time))
			w->batch->gave_up = 1;
		t->created = 1;
		t->created_at = ev->time;
		return;
	}
	t->named = 1;
	if (ev->time > t->named_at)
		t->named_at = ev->time;
	if (ev->type == EV_MIGRATE_THREAD)
		return;
	if (ev->type == EV_RUN_THREAD) {
		if (t->created && ev->time + tol < t->created_at)
			w->batch->gave_up = 1;
		if (ev->time < t->min_run)
			t->min_run = ev->time;
	} else if (ev_load16(ev->payload + 4) == EVI_STOP_FINISHED) {
		t->finished = 1;
		t->finished_at = ev->time;
	}
	t->runs = 1;
	run_time(t, ev->time, ev->type == EV_RUN_THREAD);
}

static void keep_thread(void *entry, void *ctx)
{
	vb_worker *w = ctx;
	vb_batch *batch = w->batch;
	vb_thread *t = entry;
	const evv_cap *cs = &batch->end;

	if (t->n_spans && cs->run_state == EVV_ACTIVE &&
	    cs->running == t->slot.key)
		t->spans[t->n_spans - 1].hi = NO_TIME;
	batch->threads[batch->n_threads++] = *t;
}

static int keep_threads(vb_worker *w)
{
	vb_batch *batch = w->batch;

	batch->n_threads = 0;
	if (w->threads.count == 0)
		return EV_OK;
	if (evi_grow((void **)&batch->threads, &batch->cap_threads,
		     w->threads.count, sizeof *batch->threads) < 0)
		return EV_ENOMEM;
	evv_table_each(&w->threads, keep_thread, w);
	return EV_OK;
}

/* A cap a payload names (evv_cap_refs), noted once per block. */
static void cap_named(void *ctx, uint16_t cap)
{
	vb_worker *w = ctx;
	vb_batch *batch = w->batch;

	if (w->named[cap / 8] & (1u << (cap % 8)))
		return;
	if (evi_grow((void **)&batch->caps_named, &batch->cap_caps_named,
		     batch->n_caps_named + 1, sizeof *batch->caps_named) < 0) {
		w->failed = 1;
		return;
	}
	w->named[cap / 8] |= (uint8_t)(1u << (cap % 8));
	batch->caps_named[batch->n_caps_named++] = cap;
}

/* Whether the caller checks `ev` in file order (evv_global_event):
 * creations, tasks, and payloads that name capsets (caps it is told of
 * in batch->caps_named). */
static int is_global(vb_worker *w, const ev_event *ev, uint8_t flags,
		     int sched)
{
	int capsets = (flags & EVV_TF_REFS) &&
		      evv_cap_refs(&w->v, ev, cap_named, w);

	return capsets || (flags & EVV_TF_CREATE) ||
	       (sched && (ev->type == EV_TASK_CREATE ||
			  ev->type == EV_TASK_DELETE));
}

static int check_event(vb_worker *w, const ev_event *ev)
{
	uint8_t flags = evv_cap_event(&w->v, ev);
	int sched = (flags & EVV_TF_SCHED) && w->v.o.semantics, machine;

	if (flags & EVV_TF_MARKER)
		return EV_OK;
	w->batch->events++;
	if ((flags & (EVV_TF_CREATE | EVV_TF_REFS | EVV_TF_SCHED)) &&
	    is_global(w, ev, flags, sched) && add_rare(w->batch, ev) < 0)
		return EV_ENOMEM;
	if (!sched)
		return EV_OK;
	if ((machine = machine_of(&w->v, ev->type)) >= 0)
		w->batch->last_of[machine] = ev->index + 1;
	if (ev->type == EV_CREATE_THREAD || ev->type == EV_RUN_THREAD ||
	    ev->type == EV_STOP_THREAD || ev->type == EV_MIGRATE_THREAD)
		note_thread(w, ev);
	return EV_OK;
}

/* A worker's job: one block. EV_EFORMAT when the cursor refuses it. */
static int check_block(void *ctx, unsigned slot, unsigned worker)
{
	vb_run *run = ctx;
	vb_worker *w = run->workers[worker];
	vb_batch *batch = &run->batches[slot];
	evi_block_cursor c;
	ev_event ev;
	int rc;

	w->batch = batch;
	batch->events = 0;
	batch->gave_up = batch->found = 0;
	batch->n_rare = 0;
	batch->n_caps_named = 0;
	memset(batch->last_of, 0, sizeof batch->last_of);
	evv_table_clear(&w->threads);
	w->last = NULL;
	evi_block_cursor_init(&c, run->b, batch->block);
	fresh_cap(&w->v, c.cap);
	while ((rc = evi_block_next(&c, &ev)) == 1 && check_event(w, &ev) == 0)
		;
	for (size_t i = 0; i < batch->n_caps_named; i++)
		w->named[batch->caps_named[i] / 8] = 0;
	if (rc < 0)
		return EV_EFORMAT;
	if (rc == 1 || w->failed)
		return EV_ENOMEM;
	batch->end = *evv_cap_state(&w->v, c.cap);
	return keep_threads(w);
}

static void free_worker(vb_worker *w)
{
	if (!w)
		return;
	evv_teardown(&w->v);
	evv_table_free(&w->threads);
	free(w);
}

static int new_worker(vb_worker **out, const vb_run *run)
{
	vb_worker *w = calloc(1, sizeof *w);

	*out = w;
	if (!w || evv_setup(&w->v, run->b->header_reader, run->o, NULL, NULL,
			    &w->res) < 0)
		return EV_ENOMEM;
	evv_begin_session(&w->v); /* its findings are the caller's */
	w->v.fn = worker_found;
	w->v.ctx = w;
	evv_table_init(&w->threads, sizeof(vb_thread), MAX_BLOCK_THREADS);
	return EV_OK;
}

/* ---- the caller: the threads ---- */

static int caller_found(const ev_finding *f, void *ctx)
{
	(void)f;
	*(int *)ctx = 1;
	return 0;
}

/* The time every cap of the log has passed, less the tolerance: no run
 * of any cap can begin before it without a time-order finding. */
static uint64_t floor_time(const vb_run *run)
{
	uint64_t low = NO_TIME, tol = run->o->tolerance_ns;

	for (size_t i = 0; i < run->n_caps; i++) {
		uint16_t cap = run->caps[i];
		uint64_t hwm = (run->m.touched[cap / 8] & (1u << (cap % 8)))
				       ? run->m.caps[cap].hwm : 0;
		if (hwm < low)
			low = hwm;
	}
	return low > tol ? low - tol : 0;
}

static void prune_spans(const vb_run *run, vb_known *k)
{
	uint64_t low = floor_time(run);
	size_t kept = 0;

	for (size_t i = 0; i < k->n; i++)
		if (k->spans[i].hi >= low)
			k->spans[kept++] = k->spans[i];
	k->n = kept;
}

/* Where a span of another cap ends: a run still open there lasts at
 * least to that cap's latest time, as validate_sched.c takes it. */
static uint64_t span_end(const vb_run *run, const vb_span *s)
{
	const evv *m = &run->m;

	if (s->hi != NO_TIME)
		return s->hi;
	return (m->touched[s->cap / 8] & (1u << (s->cap % 8)))
		       ? m->caps[s->cap].hwm : 0;
}

/* 1 when [lo, hi] meets a span of the thread on another cap than `cap`. */
static int meets(const vb_run *run, const vb_known *k, uint16_t cap,
		 uint64_t lo, uint64_t hi)
{
	for (size_t i = 0; i < k->n; i++)
		if (k->spans[i].cap != cap && lo <= span_end(run, &k->spans[i]) &&
		    k->spans[i].lo <= hi)
			return 1;
	return 0;
}

/* The thread's latest span on `cap`, or NULL. */
static vb_span *latest_on(vb_known *k, uint16_t cap)
{
	for (size_t i = k->n; i-- > 0;)
		if (k->spans[i].cap == cap)
			return &k->spans[i];
	return NULL;
}

/* 0, or 1 when the span meets one of the thread's on another cap. A run
 * open at its cap's previous block goes on into this one's first span. */
static int add_span(const vb_run *run, vb_known *k, uint16_t cap,
		    uint64_t lo, uint64_t hi, int first)
{
	vb_span *same = first ? latest_on(k, cap) : NULL;

	if (same && same->hi == NO_TIME) {
		if (lo < same->lo)
			same->lo = lo;
		if (meets(run, k, cap, same->lo, hi))
			return 1;
		same->hi = hi;
		return 0;
	}
	if (meets(run, k, cap, lo, hi))
		return 1;
	if (k->n == k->cap && k->n >= 64)
		prune_spans(run, k);
	if (k->n >= MAX_SPANS ||
	    evi_grow((void **)&k->spans, &k->cap, k->n + 1, sizeof *k->spans) <
		    0)
		return 1;
	k->spans[k->n].lo = lo;
	k->spans[k->n].hi = hi;
	k->spans[k->n].cap = cap;
	k->n++;
	return 0;
}

/* Named after it finished: on the cap it finished on, by the file's
 * order; on another, by time (validate_sched.c check_finished). */
static int after_finish(const vb_run *run, const vb_known *k,
			const vb_thread *t, uint16_t cap)
{
	return t->named && k->finished &&
	       (cap == k->finished_cap ||
		t->named_at > k->finished_at + run->o->tolerance_ns);
}

/* 1 when what the block says of thread `t` may be a finding. */
static int merge_thread(vb_run *run, const vb_thread *t, uint16_t cap)
{
	uint64_t tol = run->o->tolerance_ns;
	vb_known *k = evv_table_find(&run->known, t->slot.key);

	if (!k && (k = evv_table_insert(&run->known, t->slot.key)))
		k->min_run = NO_TIME;
	if (!k || after_finish(run, k, t, cap) ||
	    (k->created && t->min_run != NO_TIME &&
	     t->min_run + tol < k->created_at) ||
	    (t->created && (k->created || (k->min_run != NO_TIME &&
					   k->min_run + tol < t->created_at))))
		return 1;
	for (int i = 0; i < t->n_spans; i++)
		if (add_span(run, k, cap, t->spans[i].lo, t->spans[i].hi,
			     i == 0))
			return 1;
	if (t->finished) {
		k->finished = 1;
		k->finished_at = t->finished_at;
		k->finished_cap = cap;
	}
	if (t->created) {
		k->created = 1;
		k->created_at = t->created_at;
	}
	if (t->min_run < k->min_run)
		k->min_run = t->min_run;
	return 0;
}

static void free_known(void *entry, void *ctx)
{
	(void)ctx;
	free(((vb_known *)entry)->spans);
}

/* ---- the caller: a block in file order ---- */

static unsigned machines_left(const vb_batch *batch, uint64_t index)
{
	unsigned left = 0;

	for (int i = 0; i < 3; i++)
		if (batch->last_of[i] > index + 1)
			left |= 1u << i;
	return left;
}

/* Replays the block's first events on the cap's real state and a fresh
 * one until they agree; 0, or 1 when that may be a finding. */
static int replay(vb_run *run, const vb_batch *batch)
{
	evi_block_cursor c;
	ev_event ev;
	evv_cap *real, *fresh;
	unsigned left;

	evi_block_cursor_init(&c, run->b, batch->block);
	fresh = fresh_cap(&run->fresh, c.cap);
	run->m.in_block = 0;
	while (evi_block_next(&c, &ev) == 1) {
		evv_cap_event(&run->m, &ev);
		evv_cap_event(&run->fresh, &ev);
		if (run->m_found)
			return 1;
		real = run->m.blk_cs;
		left = machines_left(batch, ev.index);
		if (evv_cap_same(real, fresh, left)) {
			if (batch->found && batch->last_found > ev.index)
				return 1;
			evv_cap_adopt(real, &batch->end, left);
			return 0;
		}
	}
	return 0; /* replayed whole: the real state is the end's */
}

static int global_events(vb_run *run, const vb_batch *batch)
{
	evi_block_cursor c;
	ev_event ev;

	for (size_t i = 0; i < batch->n_rare && !run->m_found; i++) {
		evi_block_cursor_init(&c, run->b, batch->block);
		c.pos = batch->rare[i];
		c.index = batch->rare_index[i];
		if (evi_block_next(&c, &ev) != 1)
			return 1;
		evv_global_event(&run->m, &ev, evv_type_flags(&run->m, ev.type));
	}
	return run->m_found;
}

/* 1 when the block may hold a finding. */
static int merge_block(vb_run *run, const vb_batch *batch)
{
	uint16_t cap = run->b->spans[batch->block].cap;

	if (batch->gave_up || replay(run, batch) || global_events(run, batch))
		return 1;
	for (size_t i = 0; i < batch->n_caps_named; i++)
		evv_cap_state(&run->m, batch->caps_named[i])->used = 1;
	for (size_t i = 0; i < batch->n_threads; i++)
		if (merge_thread(run, &batch->threads[i], cap))
			return 1;
	run->m.res->events += batch->events; /* blocks: the replay's */
	return 0;
}

/* ---- the run ---- */

static void top_up(vb_run *run)
{
	while (run->submitted < run->b->n &&
	       evi_ring_pending(run->ring) < run->slots) {
		run->batches[evi_ring_slot(run->ring)].block = run->submitted++;
		evi_ring_submit(run->ring);
	}
}

/* EV_OK: every block merged, nothing found; EV_END: give up; EV_ENOMEM. */
static int merge_blocks(vb_run *run, ev_progress_fn progress, void *ctx)
{
	unsigned slot;
	int rc;

	for (size_t i = 0; i < run->b->n; i++) {
		top_up(run);
		rc = evi_ring_collect(run->ring, &slot);
		if (rc == EV_EFORMAT)
			return EV_END;
		if (rc < 0)
			return rc;
		if (merge_block(run, &run->batches[slot]))
			return EV_END;
		evi_blocks_release(run->b, i); /* read once: let it go */
		if (progress)
			progress(ctx, run->b->spans[i].offset +
					      run->b->spans[i].size,
				 run->b->len);
	}
	evv_end_session(&run->m);
	return run->m_found ? EV_END : EV_OK;
}

static int list_caps(vb_run *run)
{
	uint8_t *seen = calloc(EVV_CAPS / 8, 1);

	if (!seen || !(run->caps = malloc((run->b->n ? run->b->n : 1) *
					  sizeof *run->caps))) {
		free(seen);
		return EV_ENOMEM;
	}
	for (size_t i = 0; i < run->b->n; i++) {
		uint16_t cap = run->b->spans[i].cap;
		if (cap == EV_NO_CAP || (seen[cap / 8] & (1u << (cap % 8))))
			continue;
		seen[cap / 8] |= (uint8_t)(1u << (cap % 8));
		run->caps[run->n_caps++] = cap;
	}
	free(seen);
	return EV_OK;
}

static int start(vb_run *run, unsigned threads)
{
	int rc;

	if ((rc = evv_setup(&run->m, run->b->header_reader, run->o,
			    caller_found, &run->m_found, &run->m_res)) < 0 ||
	    (rc = evv_setup(&run->fresh, run->b->header_reader, run->o, NULL,
			    NULL, &run->fresh_res)) < 0)
		return rc;
	evv_begin_session(&run->m);
	evv_begin_session(&run->fresh);
	if (run->m_found)
		return EV_END; /* the header: one pass says it */
	evv_table_init(&run->known, sizeof(vb_known), run->m.o.max_threads);
	run->n_workers = threads;
	run->slots = 2 * threads;
	if (list_caps(run) < 0 ||
	    !(run->workers = calloc(threads, sizeof *run->workers)) ||
	    !(run->batches = calloc(run->slots, sizeof *run->batches)))
		return EV_ENOMEM;
	for (unsigned i = 0; i < threads; i++)
		if ((rc = new_worker(&run->workers[i], run)) < 0)
			return rc;
	return evi_ring_new(&run->ring, run->slots, threads, check_block, run);
}

static void finish(vb_run *run)
{
	evi_ring_free(run->ring);
	for (unsigned i = 0; run->workers && i < run->n_workers; i++)
		free_worker(run->workers[i]);
	free(run->workers);
	for (unsigned i = 0; run->batches && i < run->slots; i++) {
		free(run->batches[i].threads);
		free(run->batches[i].rare);
		free(run->batches[i].rare_index);
		free(run->batches[i].caps_named);
	}
	free(run->batches);
	evv_table_each(&run->known, free_known, NULL);
	evv_table_free(&run->known);
	free(run->caps);
	evv_teardown(&run->m);
	evv_teardown(&run->fresh);
}

int evv_run_blocks(evv *v, unsigned threads, ev_progress_fn progress,
		   void *progress_ctx)
{
	vb_run run;
	evi_blocks *b;
	int rc;

	if (v->o.sorted || (rc = evi_blocks_open(&b, v->r)) == EV_END)
		return EV_END;
	if (rc < 0)
		return rc;
	memset(&run, 0, sizeof run);
	run.b = b;
	run.o = &v->o;
	rc = start(&run, threads);
	if (rc == EV_OK)
		rc = merge_blocks(&run, progress, progress_ctx);
	if (rc == EV_OK) {
		v->res->events = run.m_res.events;
		v->res->blocks = run.m_res.blocks;
		v->res->sessions = 1;
		v->res->last_complete_offset = b->data_end + 2;
		v->session_ended = 1;
	}
	finish(&run);
	evi_blocks_free(b);
	return rc;
}
