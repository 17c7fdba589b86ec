/*
 * The validator reading in parallel (evv_run_blocks): workers check the
 * blocks of a plain one-session log (lib/format's blocks.h, the scan:
 * chunks of blocks read by offset into the workers' buffers) one at a
 * time, and the caller takes their results back in file order and adds
 * what crosses blocks and caps. It only ever certifies that a log has
 * nothing to report: at the first thing that may be a finding, it gives
 * up and the log is validated in one pass (validate.c), which says what
 * it is and where, in its order. So the parallel path may be cautious
 * (give up on something the one pass would accept: only slower) but
 * never lenient.
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
 *   spans of its runs (open at the block's end when it is still running),
 *   its earliest run, its creation and its finish; the caller gives up
 *   when a thread is named after its finish, created twice, created after
 *   a run or run before its creation (beyond the tolerance), or when a
 *   span of it meets its latest span on another cap: every case in which
 *   validate_sched.c's table can report. That table compares a run only
 *   with the thread's latest run (in file order) on each of at most two
 *   other caps, so the caller keeps, per thread, one span per cap: the
 *   one that holds the latest run there (vb_latest), replaced at each
 *   block of the cap that runs the thread anew. Its work is a few
 *   comparisons per span, whatever the log's length.
 *
 * Memory: per worker a validator's state (its caps' array, allocated,
 * touched only where used) and, per slot of the scan (2 x workers), the
 * chunk's bytes and its blocks' results (at most CHUNK_BLOCKS blocks and
 * CHUNK_THREADS noted threads, else one pass); the caller's latest spans
 * (one per thread and cap, at most MAX_LATEST in all).
 *
 * Layering: validator.c -> this file -> validate.c's parts,
 * validate_table.c, lib/format's blocks (the scan).
 */
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "validate_internal.h"

#define NO_TIME UINT64_MAX
#define SEEN_ALL (EVV_SEEN_RUN | EVV_SEEN_STOP | EVV_SEEN_GC_START | \
		  EVV_SEEN_GC_END | EVV_SEEN_SAMPLE_BEGIN | EVV_SEEN_SAMPLE_END)
/* Threads a block may name, a thread's spans kept per block, a chunk's
 * blocks, threads noted and rare events (more: one pass; at most 4.3 MB
 * a slot, and 2.6 MB for a worker's table of a block's threads), and
 * the caller's latest spans in all (24 MB). */
#define MAX_BLOCK_THREADS 4096u
#define BLOCK_SPANS 16
#define CHUNK_BLOCKS 4096u
#define CHUNK_THREADS (2 * MAX_BLOCK_THREADS)
#define CHUNK_RARE (1u << 16)
#define MAX_LATEST (1u << 20)

/* A span of a thread's runs in a block (its cap's). */
typedef struct vb_span {
	uint64_t lo, hi;
} vb_span;

/* A thread named in a block. */
typedef struct vb_thread {
	evv_slot slot;       /* key: the thread id */
	/* its runs in the block, within at most BLOCK_SPANS spans (runs
	 * closer than `gap` joined); the last one's hi NO_TIME: running at
	 * the end */
	vb_span spans[BLOCK_SPANS];
	uint16_t with_run;   /* bit i: spans[i] holds a RUN_THREAD */
	uint8_t n_spans;
	uint8_t running;     /* its last RUN or STOP_THREAD was a RUN */
	uint8_t runs;        /* RUN or STOP_THREAD */
	uint8_t named;       /* RUN, STOP or MIGRATE_THREAD */
	uint8_t created;
	uint8_t finished;    /* a STOP_THREAD with status ThreadFinished */
	uint64_t gap;        /* a run this close to the last span joins it */
	uint64_t min_run;    /* its earliest RUN_THREAD, or NO_TIME */
	uint64_t created_at;
	uint64_t named_at;   /* its latest RUN, STOP or MIGRATE_THREAD */
	uint64_t finished_at;
} vb_thread;

/* One block's result; its threads, rare events and caps named are the
 * slot's, from the given index on. */
typedef struct vb_block {
	uint64_t events;      /* markers aside */
	int gave_up;          /* something the caller cannot clear */
	int found;            /* the worker's check found something ... */
	uint64_t last_found;  /* ... last at this event (from the marker) */
	uint64_t last_of[3];  /* last event of each machine, +1 (0: none) */
	evv_cap end;          /* the cap's state after the block */
	size_t threads, n_threads;
	size_t rare, n_rare;
	size_t caps_named, n_caps_named;
} vb_block;

/* The results of a slot's chunk, block by block. */
typedef struct vb_slot {
	vb_block *blocks;
	size_t cap_blocks;
	vb_thread *threads;
	size_t n_threads, cap_threads;
	uint64_t *rare;       /* offsets of the events of evv_global_event */
	uint32_t *rare_index; /* theirs, from the marker */
	size_t n_rare, cap_rare;
	uint16_t *caps_named; /* the caps payloads name */
	size_t n_caps_named, cap_caps_named;
} vb_slot;

typedef struct vb_worker {
	evv v;
	ev_validate_result res;
	evv_table threads;
	vb_thread *last;      /* the thread of the last lookup ... */
	uint32_t last_gen;    /* ... while the table's entries stay put */
	uint8_t named[EVV_CAPS / 8]; /* the block's caps named, a bit each */
	int failed;           /* out of memory */
	vb_slot *slot;        /* the one being worked on ... */
	vb_block *block;      /* ... and its block */
} vb_worker;

/* A thread's span on a cap that holds its latest run there (by file
 * order); hi NO_TIME: still running at that cap's latest block. */
typedef struct vb_latest {
	uint64_t lo, hi;
	uint16_t cap;
} vb_latest;

typedef struct vb_known {
	evv_slot slot;
	uint8_t finished, created;
	uint16_t finished_cap;
	uint64_t created_at, min_run, finished_at;
	vb_latest *latest;    /* one per cap it ran on */
	size_t n, cap;
} vb_known;

typedef struct vb_run {
	const evi_blocks *b;
	const ev_validate_options *o;
	vb_worker **workers;
	unsigned n_workers;
	evi_blocks_scan *scan;
	vb_slot *slots;
	unsigned n_slots;
	/* the caller's */
	evv m;                /* the real state */
	evv fresh;            /* a cap from a fresh state, for the replay */
	ev_validate_result m_res, fresh_res;
	int m_found;
	evv_table known;      /* vb_known by thread id */
	size_t n_latest;      /* in all */
} vb_run;

/* ---- the workers ---- */

static int worker_found(const ev_finding *f, void *ctx)
{
	vb_worker *w = ctx;

	if (!f->has_event) {
		w->block->gave_up = 1;
	} else {
		w->block->found = 1;
		w->block->last_found = f->event_index;
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

static int add_rare(vb_worker *w, const ev_event *ev)
{
	vb_slot *s = w->slot;
	size_t cap = s->cap_rare;

	if (s->n_rare == CHUNK_RARE) {
		w->block->gave_up = 1;
		return EV_OK;
	}
	if (s->n_rare == cap &&
	    (evi_grow((void **)&s->rare, &cap, s->n_rare + 1,
		      sizeof *s->rare) < 0 ||
	     evi_grow((void **)&s->rare_index, &s->cap_rare, s->n_rare + 1,
		      sizeof *s->rare_index) < 0))
		return EV_ENOMEM;
	s->rare[s->n_rare] = ev->offset;
	s->rare_index[s->n_rare] = (uint32_t)ev->index;
	s->n_rare++;
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
	uint16_t with_run;
	uint8_t n;

	if (t->gap == 0)
		t->gap = 1;
	for (;;) {
		n = 1;
		with_run = t->with_run & 1u;
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
			if (t->with_run & (1u << i))
				with_run |= (uint16_t)(1u << (n - 1));
		}
		t->n_spans = n;
		t->with_run = with_run;
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
	if (run)
		t->with_run |= (uint16_t)(1u << (t->n_spans - 1));
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
		w->block->gave_up = 1;
		return;
	}
	if (ev->type == EV_CREATE_THREAD) {
		if (t->created || (t->min_run != NO_TIME &&
				   t->min_run + tol < ev->time))
			w->block->gave_up = 1;
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
			w->block->gave_up = 1;
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
	vb_thread *t = entry;
	const evv_cap *cs = &w->block->end;

	if (t->n_spans && cs->run_state == EVV_ACTIVE &&
	    cs->running == t->slot.key)
		t->spans[t->n_spans - 1].hi = NO_TIME;
	w->slot->threads[w->slot->n_threads++] = *t;
}

static int keep_threads(vb_worker *w)
{
	vb_slot *s = w->slot;

	if (w->threads.count == 0)
		return EV_OK;
	if (s->n_threads + w->threads.count > CHUNK_THREADS) {
		w->block->gave_up = 1;
		return EV_OK;
	}
	if (evi_grow((void **)&s->threads, &s->cap_threads,
		     s->n_threads + w->threads.count, sizeof *s->threads) < 0)
		return EV_ENOMEM;
	evv_table_each(&w->threads, keep_thread, w);
	return EV_OK;
}

/* A cap a payload names (evv_cap_refs), noted once per block. */
static void cap_named(void *ctx, uint16_t cap)
{
	vb_worker *w = ctx;
	vb_slot *s = w->slot;

	if (w->named[cap / 8] & (1u << (cap % 8)))
		return;
	if (evi_grow((void **)&s->caps_named, &s->cap_caps_named,
		     s->n_caps_named + 1, sizeof *s->caps_named) < 0) {
		w->failed = 1;
		return;
	}
	w->named[cap / 8] |= (uint8_t)(1u << (cap % 8));
	s->caps_named[s->n_caps_named++] = cap;
}

/* Whether the caller checks `ev` in file order (evv_global_event):
 * creations, tasks, and payloads that name capsets (caps it is told of
 * in the block's caps named). */
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
	w->block->events++;
	if ((flags & (EVV_TF_CREATE | EVV_TF_REFS | EVV_TF_SCHED)) &&
	    is_global(w, ev, flags, sched) && add_rare(w, ev) < 0)
		return EV_ENOMEM;
	if (!sched)
		return EV_OK;
	if ((machine = machine_of(&w->v, ev->type)) >= 0)
		w->block->last_of[machine] = ev->index + 1;
	if (ev->type == EV_CREATE_THREAD || ev->type == EV_RUN_THREAD ||
	    ev->type == EV_STOP_THREAD || ev->type == EV_MIGRATE_THREAD)
		note_thread(w, ev);
	return EV_OK;
}

/* The result of the chunk's i-th block, made ready (NULL: too many). */
static vb_block *block_result(vb_slot *s, size_t i)
{
	vb_block *blk;

	if (i == 0)
		s->n_threads = s->n_rare = s->n_caps_named = 0;
	if (i >= CHUNK_BLOCKS ||
	    evi_grow((void **)&s->blocks, &s->cap_blocks, i + 1,
		     sizeof *s->blocks) < 0)
		return NULL;
	blk = &s->blocks[i];
	memset(blk, 0, sizeof *blk);
	blk->threads = s->n_threads;
	blk->rare = s->n_rare;
	blk->caps_named = s->n_caps_named;
	return blk;
}

/* Walks the block's events; EV_EFORMAT when the cursor refuses one. */
static int walk_block(vb_worker *w, const evi_blocks *b,
		      const evi_chunk *chunk, size_t block)
{
	vb_slot *s = w->slot;
	vb_block *blk = w->block;
	evi_block_cursor c;
	ev_event ev;
	int rc;

	evi_block_cursor_init_chunk(&c, b, chunk, block);
	fresh_cap(&w->v, c.cap);
	while ((rc = evi_block_next(&c, &ev)) == 1 && check_event(w, &ev) == 0)
		;
	blk->n_rare = s->n_rare - blk->rare;
	blk->n_caps_named = s->n_caps_named - blk->caps_named;
	for (size_t i = blk->caps_named; i < s->n_caps_named; i++)
		w->named[s->caps_named[i] / 8] = 0;
	if (rc < 0)
		return EV_EFORMAT;
	if (rc == 1 || w->failed)
		return EV_ENOMEM;
	blk->end = *evv_cap_state(&w->v, c.cap);
	if ((rc = keep_threads(w)) < 0)
		return rc;
	blk->n_threads = s->n_threads - blk->threads;
	return EV_OK;
}

/* A worker's job: one block of a chunk (evi_block_fn). EV_EFORMAT when
 * the cursor refuses it or the chunk has too many blocks: one pass. */
static int check_block(void *ctx, const evi_chunk *chunk, size_t block,
		       unsigned worker)
{
	vb_run *run = ctx;
	vb_worker *w = run->workers[worker];

	w->slot = &run->slots[chunk->slot];
	if (!(w->block = block_result(w->slot, block - chunk->first)))
		return EV_EFORMAT;
	evv_table_clear(&w->threads);
	w->last = NULL;
	return walk_block(w, run->b, chunk, block);
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

/* Where a span ends: a run still open there lasts at least to its cap's
 * latest time, as validate_sched.c takes it. */
static uint64_t span_end(const vb_run *run, uint64_t hi, uint16_t cap)
{
	const evv *m = &run->m;

	if (hi != NO_TIME)
		return hi;
	return (m->touched[cap / 8] & (1u << (cap % 8))) ? m->caps[cap].hwm
							 : 0;
}

/* 1 when [lo, hi] on `cap` meets the thread's latest span on another. */
static int meets(const vb_run *run, const vb_known *k, uint16_t cap,
		 uint64_t lo, uint64_t hi)
{
	hi = span_end(run, hi, cap);
	for (size_t i = 0; i < k->n; i++) {
		const vb_latest *l = &k->latest[i];
		if (l->cap != cap && lo <= span_end(run, l->hi, l->cap) &&
		    l->lo <= hi)
			return 1;
	}
	return 0;
}

/* The thread's latest span on `cap`, made when needed (NULL: too many
 * in all, or no memory). */
static vb_latest *latest_on(vb_run *run, vb_known *k, uint16_t cap)
{
	vb_latest *l;

	for (size_t i = 0; i < k->n; i++)
		if (k->latest[i].cap == cap)
			return &k->latest[i];
	if (run->n_latest == MAX_LATEST ||
	    evi_grow((void **)&k->latest, &k->cap, k->n + 1,
		     sizeof *k->latest) < 0)
		return NULL;
	run->n_latest++;
	l = &k->latest[k->n++];
	l->lo = NO_TIME;
	l->hi = 0;
	l->cap = cap;
	return l;
}

/* The block's i-th span of thread `t` on `cap`: 0, or 1 when it meets
 * the thread's latest span on another cap. A span that holds a RUN holds
 * the latest run on its cap; one of STOPs alone, or the first when the
 * thread was still running on the cap, goes on from the latest. */
static int add_span(vb_run *run, vb_known *k, const vb_thread *t, int i,
		    uint16_t cap)
{
	vb_latest *l = latest_on(run, k, cap);
	uint64_t lo = t->spans[i].lo, hi = t->spans[i].hi;
	int joins = !(t->with_run & (1u << i)) ||
		    (i == 0 && l && l->hi == NO_TIME);

	if (!l)
		return 1;
	if (joins && l->lo != NO_TIME) {
		if (l->lo < lo)
			lo = l->lo;
		if (l->hi > hi && !(i == 0 && l->hi == NO_TIME))
			hi = l->hi;
	}
	if (meets(run, k, cap, lo, hi))
		return 1;
	l->lo = lo;
	l->hi = hi;
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
		if (add_span(run, k, t, i, cap))
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
	free(((vb_known *)entry)->latest);
}

/* ---- the caller: a block in file order ---- */

static unsigned machines_left(const vb_block *blk, uint64_t index)
{
	unsigned left = 0;

	for (int i = 0; i < 3; i++)
		if (blk->last_of[i] > index + 1)
			left |= 1u << i;
	return left;
}

/* Replays the block's first events on the cap's real state and a fresh
 * one until they agree; 0, or 1 when that may be a finding. */
static int replay(vb_run *run, const evi_chunk *chunk, size_t block,
		  const vb_block *blk)
{
	evi_block_cursor c;
	ev_event ev;
	evv_cap *real, *fresh;
	unsigned left;

	evi_block_cursor_init_chunk(&c, run->b, chunk, block);
	fresh = fresh_cap(&run->fresh, c.cap);
	run->m.in_block = 0;
	while (evi_block_next(&c, &ev) == 1) {
		evv_cap_event(&run->m, &ev);
		evv_cap_event(&run->fresh, &ev);
		if (run->m_found)
			return 1;
		real = run->m.blk_cs;
		left = machines_left(blk, ev.index);
		if (evv_cap_same(real, fresh, left)) {
			if (blk->found && blk->last_found > ev.index)
				return 1;
			evv_cap_adopt(real, &blk->end, left);
			return 0;
		}
	}
	return 0; /* replayed whole: the real state is the end's */
}

static int global_events(vb_run *run, const evi_chunk *chunk, size_t block,
			 const vb_slot *s, const vb_block *blk)
{
	evi_block_cursor c;
	ev_event ev;

	for (size_t i = blk->rare; i < blk->rare + blk->n_rare && !run->m_found;
	     i++) {
		evi_block_cursor_init_chunk(&c, run->b, chunk, block);
		c.pos = s->rare[i];
		c.index = s->rare_index[i];
		if (evi_block_next(&c, &ev) != 1)
			return 1;
		evv_global_event(&run->m, &ev, evv_type_flags(&run->m, ev.type));
	}
	return run->m_found;
}

/* 1 when the chunk's i-th block may hold a finding. */
static int merge_block(vb_run *run, const evi_chunk *chunk, size_t i)
{
	const vb_slot *s = &run->slots[chunk->slot];
	const vb_block *blk = &s->blocks[i];
	size_t block = chunk->first + i;
	uint16_t cap = run->b->spans[block].cap;

	if (blk->gave_up || replay(run, chunk, block, blk) ||
	    global_events(run, chunk, block, s, blk))
		return 1;
	for (size_t j = 0; j < blk->n_caps_named; j++)
		evv_cap_state(&run->m, s->caps_named[blk->caps_named + j])
			->used = 1;
	for (size_t j = 0; j < blk->n_threads; j++)
		if (merge_thread(run, &s->threads[blk->threads + j], cap))
			return 1;
	run->m.res->events += blk->events; /* blocks: the replay's */
	return 0;
}

/* ---- the run ---- */

/* EV_OK: every block merged, nothing found; EV_END: give up; EV_ENOMEM. */
static int merge_blocks(vb_run *run, ev_progress_fn progress, void *ctx)
{
	const evi_chunk *chunk;
	size_t merged = 0;
	int rc;

	while ((rc = evi_blocks_scan_next(run->scan, &chunk)) == 1) {
		for (size_t i = 0; i < chunk->n; i++, merged++) {
			const evi_block_span *span = &run->b->spans[merged];
			if (merge_block(run, chunk, i))
				return EV_END;
			if (progress)
				progress(ctx, span->offset + span->size,
					 run->b->len);
		}
		if (chunk->refused)
			return EV_END;
	}
	if (rc < 0)
		return rc;
	if (merged < run->b->n)
		return EV_END;
	evv_end_session(&run->m);
	return run->m_found ? EV_END : EV_OK;
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
	if (!(run->workers = calloc(threads, sizeof *run->workers)))
		return EV_ENOMEM;
	for (unsigned i = 0; i < threads; i++)
		if ((rc = new_worker(&run->workers[i], run)) < 0)
			return rc;
	if ((rc = evi_blocks_scan_open(&run->scan, run->b, threads,
				       check_block, run)) < 0)
		return rc;
	run->n_slots = evi_blocks_scan_slots(run->scan);
	if (!(run->slots = calloc(run->n_slots, sizeof *run->slots)))
		return EV_ENOMEM;
	return EV_OK;
}

static void finish(vb_run *run)
{
	evi_blocks_scan_free(run->scan); /* its workers stopped first */
	for (unsigned i = 0; run->workers && i < run->n_workers; i++)
		free_worker(run->workers[i]);
	free(run->workers);
	for (unsigned i = 0; run->slots && i < run->n_slots; i++) {
		free(run->slots[i].blocks);
		free(run->slots[i].threads);
		free(run->slots[i].rare);
		free(run->slots[i].rare_index);
		free(run->slots[i].caps_named);
	}
	free(run->slots);
	evv_table_each(&run->known, free_known, NULL);
	evv_table_free(&run->known);
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
