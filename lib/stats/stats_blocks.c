/*
 * stats reading in parallel (ev_stats_read, ev_stats_set_threads): a ring
 * of batches on the threading layer, one block each (blocks.h). A worker
 * sums what its block's RUN_THREAD and STOP_THREAD events add (per
 * thread, in the order the block first names its threads; the cap's runs
 * and mutator time between them), the block's times, and lists the
 * other events the figures read (evi_stats_kind_of: GC, heap, capsets,
 * migrations, labels, the user's spans) with the thread running on the
 * cap when each came. The caller takes the batches back in file order
 * and adds each to an accumulator of its own: the threads the block
 * names, as first seen; its listed events, replayed in order through
 * evi_stats_replay; then what crosses the block's start: the run its cap
 * had open, which a STOP_THREAD of that thread before the block's first
 * RUN_THREAD ends, and the run the block leaves open.
 *
 * The figures are those of ev_stats_add event by event: sums and extremes
 * do not depend on how the events are grouped, the order of first sight
 * of the threads is kept, and everything else that depends on order is
 * either inside a block (summed in order by its worker) or replayed in
 * order.
 *
 * A block the workers refuse (blocks.h: damage), or whose RUN_THREAD,
 * STOP_THREAD, MIGRATE_THREAD or THREAD_LABEL is too short for its
 * fields, or any failure on the way, and the log is read again from its
 * start, sequentially, into the caller's accumulator, which nothing has
 * touched: every finding on a damaged log is the sequential path's.
 *
 * Memory: at most 2 x threads batches in flight, each what one block (at
 * most 2 MiB) names: its threads, its early stops, its listed events.
 *
 * Layering: the top of lib/stats: this file -> stats.c, stats_threads.c,
 * lib/format's blocks, lib/common's ring.
 */
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "idmap.h"
#include "pool.h"
#include "stats_internal.h"

/* One thread's RUN_THREAD and STOP_THREAD events in a block (a block of
 * at most 4 GiB counts each in 32 bits: about 100 bytes a thread, so
 * that a block naming a new thread in each event stays within a few
 * megabytes). */
typedef struct block_thread {
	uint32_t tid;
	uint32_t runs, stops;
	uint32_t stops_by_reason[EV_STATS_STOP_REASONS];
	uint64_t run_ns;
} block_thread;

/* A STOP_THREAD before the block's first RUN_THREAD: it ends the run its
 * cap had open when the block began, if that run is its thread's. */
typedef struct early_stop {
	uint32_t tid;
	uint64_t time;
} early_stop;

/* An event left to the caller, with the thread running on the cap when
 * it came: `running` when `known`, else the run the cap had open at the
 * block's start unless one of the block's first `running` early stops
 * ended it. */
typedef struct replayed {
	uint64_t offset;
	uint32_t index; /* counted from the block's marker */
	uint32_t running;
	int known;
} replayed;

/* What a block adds, summed by its worker. */
typedef struct block_sums {
	uint64_t events; /* the marker aside */
	/* Its events but the marker: times, and those of work
	 * (evi_type_is_untimed), as note_cap_event keeps them. */
	int have_time, have_work;
	uint64_t first_time, last_time, first_work, last_work;
	/* Its cap's runs: RUN_THREAD and STOP_THREAD seen, runs, time
	 * between a RUN_THREAD and its STOP_THREAD, and the state after
	 * its last RUN_THREAD (when have_run). */
	uint64_t sched, runs, mutator_ns;
	int have_run, running;
	uint32_t tid;
	uint64_t run_start;
} block_sums;

typedef struct stats_batch {
	size_t block;
	block_sums sum;
	block_thread *threads; /* first named first */
	size_t n_threads, cap_threads;
	evi_idmap named;        /* tid -> position in threads */
	early_stop *early;
	size_t n_early, cap_early;
	replayed *replay;
	size_t n_replay, cap_replay;
} stats_batch;

typedef struct stats_pass {
	const evi_blocks *b;
	evi_need_table need;
	unsigned quirks;
	uint8_t *kind;   /* enum evi_stats_kind by type, EV_ID_COUNT */
	evi_ring *ring;
	stats_batch *batches;
	unsigned slots;
	size_t submitted; /* blocks handed to the workers */
	uint64_t index;   /* events (markers included) before the next */
} stats_pass;

/* ---- a worker: one block ---- */

/* The batch emptied for its next block (its arrays kept). */
static void batch_reset(stats_batch *bt)
{
	evi_idmap_free(&bt->named);
	bt->n_threads = bt->n_early = bt->n_replay = 0;
	memset(&bt->sum, 0, sizeof bt->sum);
}

/* The block's entry of `tid`, added on first sight; NULL out of memory. */
static block_thread *named(stats_batch *bt, uint32_t tid)
{
	uint64_t i;
	int added;

	if (evi_idmap_get(&bt->named, tid, &i))
		return &bt->threads[i];
	if (evi_grow((void **)&bt->threads, &bt->cap_threads,
		     bt->n_threads + 1, sizeof *bt->threads) < 0 ||
	    evi_idmap_add(&bt->named, tid, bt->n_threads, SIZE_MAX,
			  &added) < 0)
		return NULL;
	memset(&bt->threads[bt->n_threads], 0, sizeof *bt->threads);
	bt->threads[bt->n_threads].tid = tid;
	return &bt->threads[bt->n_threads++];
}

static void note_time(stats_batch *bt, const ev_event *ev)
{
	if (!bt->sum.have_time || ev->time < bt->sum.first_time)
		bt->sum.first_time = ev->time;
	if (!bt->sum.have_time || ev->time > bt->sum.last_time)
		bt->sum.last_time = ev->time;
	bt->sum.have_time = 1;
	if (!evi_type_is_untimed(ev->type)) {
		if (!bt->sum.have_work || ev->time < bt->sum.first_work)
			bt->sum.first_work = ev->time;
		if (!bt->sum.have_work || ev->time > bt->sum.last_work)
			bt->sum.last_work = ev->time;
		bt->sum.have_work = 1;
	}
}

static int on_run(stats_batch *bt, const ev_event *ev)
{
	uint32_t tid = ev_load32(ev->payload);
	block_thread *t = named(bt, tid);

	if (!t)
		return EV_ENOMEM;
	t->runs++;
	bt->sum.runs++;
	bt->sum.have_run = 1;
	bt->sum.running = 1;
	bt->sum.tid = tid;
	bt->sum.run_start = ev->time;
	return EV_OK;
}

static int on_stop(const stats_pass *s, stats_batch *bt, const ev_event *ev)
{
	uint32_t tid = ev_load32(ev->payload);
	unsigned status = evi_stop_status(ev_load16(ev->payload + 4),
					  s->quirks);
	block_thread *t = named(bt, tid);

	if (!t)
		return EV_ENOMEM;
	t->stops++;
	t->stops_by_reason[status]++;
	if (!bt->sum.have_run) {
		if (evi_grow((void **)&bt->early, &bt->cap_early,
			     bt->n_early + 1, sizeof *bt->early) < 0)
			return EV_ENOMEM;
		bt->early[bt->n_early++] = (early_stop){ tid, ev->time };
	} else if (bt->sum.running && bt->sum.tid == tid) {
		if (ev->time >= bt->sum.run_start) {
			t->run_ns += ev->time - bt->sum.run_start;
			bt->sum.mutator_ns += ev->time - bt->sum.run_start;
		}
		bt->sum.running = 0;
	}
	return EV_OK;
}

static int list_replayed(stats_batch *bt, const ev_event *ev)
{
	replayed *r;

	if (evi_grow((void **)&bt->replay, &bt->cap_replay, bt->n_replay + 1,
		     sizeof *bt->replay) < 0)
		return EV_ENOMEM;
	r = &bt->replay[bt->n_replay++];
	r->offset = ev->offset;
	r->index = (uint32_t)ev->index;
	r->known = bt->sum.have_run;
	r->running = !bt->sum.have_run ? (uint32_t)bt->n_early
		     : bt->sum.running ? bt->sum.tid : 0;
	return EV_OK;
}

/* One event of a block of a capability (not EV_NO_CAP); EV_EFORMAT for a
 * scheduler event too short for its fields (ev_stats_add's finding: the
 * sequential path's). */
static int on_event(const stats_pass *s, stats_batch *bt, const ev_event *ev,
		    unsigned kind)
{
	if (kind >= EVI_STATS_RUN && kind != EVI_STATS_REPLAY &&
	    (ev->type >= EVI_NEED_IDS ||
	     ev->size < s->need.min_size[ev->type]))
		return EV_EFORMAT;
	switch (kind) {
	case EVI_STATS_RUN:
		return on_run(bt, ev);
	case EVI_STATS_STOP:
		return on_stop(s, bt, ev);
	case EVI_STATS_REPLAY_THREAD:
		if (!named(bt, ev_load32(ev->payload)))
			return EV_ENOMEM;
		return list_replayed(bt, ev);
	case EVI_STATS_REPLAY:
		return list_replayed(bt, ev);
	default:
		return EV_OK;
	}
}

/* The kind of an event of a block of `cap`: on EV_NO_CAP the scheduler
 * events count for nothing but their time (evi_threads_add). */
static unsigned kind_on(const stats_pass *s, uint16_t cap, uint16_t type)
{
	unsigned kind = s->kind[type];

	if (cap != EV_NO_CAP)
		return kind;
	return kind == EVI_STATS_REPLAY_THREAD ? EVI_STATS_REPLAY
	       : kind == EVI_STATS_RUN || kind == EVI_STATS_STOP
		       ? EVI_STATS_PLAIN : kind;
}

static int sum_block(void *ctx, unsigned slot, unsigned worker)
{
	stats_pass *s = ctx;
	stats_batch *bt = &s->batches[slot];
	evi_block_cursor c;
	ev_event ev;
	int rc;

	(void)worker;
	batch_reset(bt);
	if (evi_block_open(&c, s->b, bt->block) < 0)
		return EV_EFORMAT;
	while ((rc = evi_block_next(&c, &ev)) == 1) {
		unsigned kind = kind_on(s, c.cap, ev.type);

		bt->sum.events++;
		if (kind == EVI_STATS_MARKER)
			continue;
		note_time(bt, &ev);
		if (kind != EVI_STATS_PLAIN &&
		    (rc = on_event(s, bt, &ev, kind)) < 0)
			return rc;
		bt->sum.sched += kind == EVI_STATS_RUN || kind == EVI_STATS_STOP;
	}
	return rc == 0 ? EV_OK : EV_EFORMAT;
}

/* ---- the caller: the batches in file order ---- */

/* The thread the cap ran when the block began, unless one of its first
 * `n` early stops ended that run. */
static uint32_t running_then(const ev_stats *st, uint16_t cap,
			     const stats_batch *bt, uint32_t n)
{
	uint32_t tid = evi_running_thread(st, cap);

	for (uint32_t i = 0; tid && i < n; i++)
		if (bt->early[i].tid == tid)
			return 0;
	return tid;
}

static int add_threads(ev_stats *st, const stats_batch *bt)
{
	ev_stats_thread *total = &st->an.total;

	for (size_t i = 0; i < bt->n_threads; i++) {
		const block_thread *e = &bt->threads[i];
		ev_stats_thread *t = evi_thread_get(st, e->tid);

		if (!t)
			return st->diag.status;
		t->runs += e->runs;
		t->stops += e->stops;
		t->run_ns += e->run_ns;
		total->runs += e->runs;
		total->stops += e->stops;
		total->run_ns += e->run_ns;
		for (unsigned r = 0; r < EV_STATS_STOP_REASONS; r++) {
			t->stops_by_reason[r] += e->stops_by_reason[r];
			total->stops_by_reason[r] += e->stops_by_reason[r];
		}
	}
	return EV_OK;
}

static int replay(const stats_pass *s, ev_stats *st, const stats_batch *bt,
		  uint16_t cap)
{
	for (size_t i = 0; i < bt->n_replay; i++) {
		const replayed *r = &bt->replay[i];
		ev_event ev;
		int rc;

		if (evi_block_event_at(s->b, bt->block, r->offset, r->index,
				       &ev) < 0)
			return EV_EINVAL; /* a worker read it: cannot be */
		ev.index += s->index;
		rc = evi_stats_replay(st, &ev, r->known ? r->running
				      : running_then(st, cap, bt, r->running));
		if (rc < 0)
			return rc;
	}
	return EV_OK;
}

static void add_times(ev_stats *st, evi_stats_cap *c, const stats_batch *bt)
{
	if (!st->have_time || bt->sum.first_time < st->first_time)
		st->first_time = bt->sum.first_time;
	st->have_time = 1;
	if (!c)
		return;
	if (!c->seen || bt->sum.first_time < c->first_time)
		c->first_time = bt->sum.first_time;
	if (!c->seen || bt->sum.last_time > c->last_time)
		c->last_time = bt->sum.last_time;
	c->seen = 1;
	if (bt->sum.have_work) {
		if (!c->have_work || bt->sum.first_work < c->first_work)
			c->first_work = bt->sum.first_work;
		if (!c->have_work || bt->sum.last_work > c->last_work)
			c->last_work = bt->sum.last_work;
		c->have_work = 1;
	}
}

/* The runs of the block's cap: the one open at its start, ended by the
 * first early stop of its thread; the block's own; the one it leaves. */
static int add_runs(ev_stats *st, uint16_t cap, const stats_batch *bt)
{
	evi_cap_use *u = evi_cap_use_get(st, cap);

	if (!u)
		return st->diag.status;
	for (size_t i = 0; u->running && i < bt->n_early; i++) {
		const early_stop *e = &bt->early[i];
		ev_stats_thread *t;

		if (e->tid != u->tid)
			continue;
		if (e->time >= u->run_start) {
			if (!(t = evi_thread_get(st, e->tid)))
				return st->diag.status;
			t->run_ns += e->time - u->run_start;
			st->an.total.run_ns += e->time - u->run_start;
			u->mutator_ns += e->time - u->run_start;
		}
		u->running = 0;
	}
	if (bt->sum.have_run) {
		u->running = bt->sum.running;
		u->tid = bt->sum.tid;
		u->run_start = bt->sum.run_start;
	}
	u->runs += bt->sum.runs;
	u->mutator_ns += bt->sum.mutator_ns;
	return EV_OK;
}

static int add_batch(const stats_pass *s, ev_stats *st, const stats_batch *bt)
{
	uint16_t cap = s->b->spans[bt->block].cap;
	evi_stats_cap *c = NULL;
	int rc;

	st->an.started = 1;
	if ((rc = add_threads(st, bt)) < 0 || (rc = replay(s, st, bt, cap)) < 0)
		return rc;
	if (bt->sum.have_time && cap != EV_NO_CAP &&
	    !(c = evi_stats_cap_get(st, cap)))
		return st->diag.status;
	if (bt->sum.have_time)
		add_times(st, c, bt);
	return bt->sum.sched ? add_runs(st, cap, bt) : EV_OK;
}

/* ---- the ring ---- */

static void pass_free(stats_pass *s)
{
	evi_ring_free(s->ring);
	for (unsigned i = 0; s->batches && i < s->slots; i++) {
		free(s->batches[i].threads);
		evi_idmap_free(&s->batches[i].named);
		free(s->batches[i].early);
		free(s->batches[i].replay);
	}
	free(s->batches);
	free(s->kind);
}

static int pass_init(stats_pass *s, const evi_blocks *b, const ev_stats *st,
		     unsigned threads)
{
	s->b = b;
	s->need = st->need;
	s->quirks = evi_header_quirks(b->header);
	s->slots = 2 * threads;
	if (!(s->kind = malloc(EV_ID_COUNT)) ||
	    !(s->batches = calloc(s->slots, sizeof *s->batches)) ||
	    evi_ring_new(&s->ring, s->slots, threads, sum_block, s) < 0)
		return EV_ENOMEM;
	for (size_t t = 0; t < EV_ID_COUNT; t++)
		s->kind[t] = (uint8_t)evi_stats_kind_of(st, (uint16_t)t);
	return EV_OK;
}

/* Every block summed by the workers and added in file order to `st`, an
 * accumulator nothing else has seen. EV_OK, or a negative status: a
 * refused block, a failure. */
static int add_blocks(stats_pass *s, ev_stats *st)
{
	int rc = EV_OK;

	while (rc == EV_OK &&
	       (s->submitted < s->b->n || evi_ring_pending(s->ring))) {
		unsigned slot;

		while (s->submitted < s->b->n &&
		       evi_ring_pending(s->ring) < s->slots) {
			s->batches[evi_ring_slot(s->ring)].block =
				s->submitted++;
			evi_ring_submit(s->ring);
		}
		if ((rc = evi_ring_collect(s->ring, &slot)) == EV_OK)
			rc = add_batch(s, st, &s->batches[slot]);
		s->index += s->batches[slot].sum.events + 1;
		evi_blocks_release(s->b, s->batches[slot].block);
	}
	if (rc < 0)
		evi_pool_fail(evi_ring_pool(s->ring), rc);
	return rc;
}

/* The log of `r` read by the workers into a new accumulator with st's
 * options, swapped into `st`: EV_OK. Anything else (EV_END: not a log
 * for the workers): `st` is as it was, the log is the sequential
 * path's. */
static int read_in_parallel(ev_stats *st, ev_reader *r)
{
	stats_pass s = { 0 };
	ev_stats *par = NULL, swap;
	evi_blocks *b;
	int rc = evi_blocks_open(&b, r);

	if (rc != EV_OK)
		return rc;
	if ((rc = evi_stats_new_like(&par, st)) == EV_OK &&
	    (rc = pass_init(&s, b, st, st->threads)) == EV_OK) {
		par->quirks = s.quirks;
		rc = add_blocks(&s, par);
	}
	pass_free(&s);
	evi_blocks_free(b);
	if (rc == EV_OK) {
		par->threads = st->threads;
		swap = *st;
		*st = *par;
		*par = swap;
	}
	ev_stats_free(par);
	return rc;
}

void ev_stats_set_threads(ev_stats *st, unsigned threads)
{
	st->threads = threads;
}

int ev_stats_read(ev_stats *st, ev_reader *r)
{
	const ev_consumer *c = ev_stats_consumer();

	/* A pause callback would hear the pauses twice if the parallel
	 * pass gave up half way. The parallel path, a source too, calls
	 * the consumer's finish (consumer.h) with what the reader says of
	 * one clean session. */
	if (st->threads > 1 && !st->an.started && !st->an.on_pause &&
	    read_in_parallel(st, r) == EV_OK)
		return c->finish(st, EV_END);
	return ev_reader_feed(r, c, st);
}
