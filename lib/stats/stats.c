/*
 * The `+RTS -s` accumulator: what each statistics event adds.
 *
 * Event semantics (GHC's rts/Stats.c stat_endGC, rts/sm/Storage.c
 * calcTotalAllocated, rts/sm/GC.c): on the capability that led a
 * collection the RTS posts GC_START, then GC_GLOBAL_SYNC, GC_STATS_GHC and
 * GC_END, whose timestamps are the clock readings that +RTS -s uses for
 * that collection's pause; the other GC threads post GC_START/GC_END of
 * their own, without GC_STATS_GHC. HEAP_LIVE follows major collections
 * only. HEAP_ALLOCATED and SPARK_COUNTERS carry one capability's running
 * totals. Payload layouts are in doc/format.md section 5.
 *
 * Layering, calls going one way only: stats.c -> stats_threads.c ->
 * stats_procs.c, and stats_finish.c -> stats_threads.c, stats_procs.c;
 * reading in parallel, stats_blocks.c -> stats.c, stats_threads.c.
 * This file calls down into stats_threads.c and stats_procs.c (the table
 * of processes, which the threads and the summaries use too); nothing
 * below calls up into it.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "heap_samples.h"
#include "internal.h"
#include "stats_internal.h"

/* GC_STATS_GHC with par balanced copied (GHC >= 8.4); older ones stop
 * at 50 bytes, the catalogue's oldest form. */
#define GC_STATS_BALANCED 58u

int ev_stats_new(ev_stats **out, ev_diag *diag)
{
	if (!(*out = calloc(1, sizeof **out)))
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	evi_need_table_init(&(*out)->need);
	(*out)->procs.key_offset = offsetof(evi_stats_proc, pub.capset);
	(*out)->procs.record_size = sizeof(evi_stats_proc);
	(*out)->procs.max = EV_STATS_MAX_PROCESSES;
	return EV_OK;
}

void ev_stats_free(ev_stats *st)
{
	if (!st)
		return;
	evi_threads_free(&st->an);
	evi_spans_free(st->spans);
	evi_bands_free(st->bands);
	for (size_t i = 0; i < st->procs.n; i++) {
		evi_pauses_free(evi_stats_proc_at(st, i));
		free(evi_stats_proc_at(st, i)->gens);
		free(evi_stats_proc_at(st, i));
	}
	evi_capsets_free(&st->procs);
	free(st->caps);
	free(st->out);
	free(st);
}

/* ---- processes and capabilities ---- */

int evi_stats_reserve_gens(ev_stats *st, evi_stats_proc *p, unsigned n)
{
	ev_stats_gen *grown;

	if (n <= p->gens_alloc)
		return EV_OK;
	if (n > EV_STATS_MAX_GENS)
		return evi_fail(&st->diag, EV_ELIMIT, 0, 0,
				"generation %u: more than %u generations",
				n - 1, EV_STATS_MAX_GENS);
	if (!(grown = realloc(p->gens, n * sizeof *grown)))
		return evi_fail(&st->diag, EV_ENOMEM, 0, 0, "out of memory");
	memset(grown + p->gens_alloc, 0,
	       (n - p->gens_alloc) * sizeof *grown);
	p->gens = grown;
	p->gens_alloc = n;
	return EV_OK;
}

/* The state of `cap`, grown on first sight; NULL when out of memory. */
evi_stats_cap *evi_stats_cap_get(ev_stats *st, uint16_t cap)
{
	if (cap >= st->n_caps &&
	    evi_grow_zeroed(&st->diag, &st->caps, &st->n_caps, cap,
			    sizeof *st->caps) < 0)
		return NULL;
	return &st->caps[cap];
}

/* A process named by a heap event: it has statistics of its own. */
static evi_stats_proc *heap_proc(ev_stats *st, const ev_event *ev)
{
	evi_stats_proc *p = evi_stats_proc_get(st, ev_load32(ev->payload), 1);

	if (p)
		p->pub.have_heap = 1;
	return p;
}

/* ---- the events ---- */

static int on_capset_create(ev_stats *st, const ev_event *ev)
{
	evi_stats_proc *p;

	if (ev_load16(ev->payload + 4) != EV_CAPSET_OS_PROCESS)
		return EV_OK;
	if (!(p = evi_stats_proc_get(st, ev_load32(ev->payload), 1)))
		return st->diag.status;
	p->os_process = 1;
	if (!p->have_created || ev->time < p->created_ns)
		p->created_ns = ev->time;
	p->have_created = 1;
	return EV_OK;
}

/* The RTS deletes a process's capset in hs_exit, after its last
 * collection: the end of its run, whatever event classes +RTS -l kept. */
static int on_capset_delete(ev_stats *st, const ev_event *ev)
{
	evi_stats_proc *p = evi_stats_proc_get(st, ev_load32(ev->payload), 0);

	if (p && p->os_process && (!p->have_deleted || ev->time > p->deleted_ns)) {
		p->deleted_ns = ev->time;
		p->have_deleted = 1;
	}
	return EV_OK;
}

static int on_capset_assign(ev_stats *st, const ev_event *ev)
{
	uint32_t capset = ev_load32(ev->payload);
	uint16_t cap = ev_load16(ev->payload + 4);
	evi_stats_proc *p = evi_stats_proc_get(st, capset, 0);
	evi_stats_cap *c;

	/* Caps join a clock-domain capset too; only the process counts. */
	if (!p || !p->os_process || cap == EV_NO_CAP)
		return EV_OK;
	if (!(c = evi_stats_cap_get(st, cap)))
		return st->diag.status;
	c->claim.have_process = 1;
	c->claim.process = capset;
	return EV_OK;
}

static int on_pid(ev_stats *st, const ev_event *ev)
{
	evi_stats_proc *p = evi_stats_proc_get(st, ev_load32(ev->payload), 1);

	if (!p)
		return st->diag.status;
	p->os_process = 1;
	p->pub.have_pid = 1;
	p->pub.pid = ev_load32(ev->payload + 4);
	return EV_OK;
}

static int on_heap_info(ev_stats *st, const ev_event *ev)
{
	evi_stats_proc *p = evi_stats_proc_get(st, ev_load32(ev->payload), 1);
	unsigned gens = ev_load16(ev->payload + 4);
	int rc;

	if (!p)
		return st->diag.status;
	if ((rc = evi_stats_reserve_gens(st, p, gens)) < 0)
		return rc;
	p->info_gens = gens;
	p->mblock_size = ev_load64(ev->payload + 22);
	return EV_OK;
}

/* A collection is timed once its GC_START, GC_END and GC_STATS_GHC are
 * all in. The RTS writes GC_GLOBAL_SYNC and GC_STATS_GHC just ahead of
 * GC_END but stamps GC_END earlier, with the reading +RTS -s uses
 * (rts/Stats.c stat_endGC, traceEventGcEndAtT): in file order GC_STATS_GHC
 * comes first, in time order (sort) GC_END does. Either way both fall
 * between the collection's GC_START and the next GC_START on that cap,
 * which the RTS stamps only once the collection is over, so the pair is
 * found whatever the order of those two. */
static int gc_timed(ev_stats *st, evi_stats_cap *c, uint16_t cap)
{
	evi_stats_proc *p;
	ev_stats_gen *g;
	ev_stats_pause pause;

	if (!c->gc_counted || !c->have_gc_start || !c->have_gc_end)
		return EV_OK;
	if (c->gc_start > c->gc_end ||
	    !(p = evi_stats_proc_get(st, c->gc_capset, 0))) {
		evi_stats_gc_untimed(st, c);
		return EV_OK;
	}
	c->gc_counted = 0;
	pause = (ev_stats_pause){ c->gc_start, c->gc_end - c->gc_start,
				  c->gc_gen, cap };
	g = &p->gens[c->gc_gen];
	g->elapsed_ns += pause.duration_ns;
	if (pause.duration_ns > g->max_pause_ns)
		g->max_pause_ns = pause.duration_ns;
	p->pub.gc_elapsed_ns += pause.duration_ns;
	return evi_pauses_add(st, p, &pause);
}

/* A new collection on this cap: the last one, counted but not timed
 * by now, never will be. */
static void on_gc_start(ev_stats *st, const ev_event *ev, evi_stats_cap *c)
{
	evi_stats_gc_untimed(st, c);
	c->have_gc_start = 1;
	c->gc_start = ev->time;
	c->have_gc_end = 0;
}

/* The end of the collection of the cap's last GC_START (a GC_END
 * without one, a slice's first, times nothing). */
static int on_gc_end(ev_stats *st, const ev_event *ev, evi_stats_cap *c)
{
	if (!c->have_gc_start || c->have_gc_end)
		return EV_OK;
	c->have_gc_end = 1;
	c->gc_end = ev->time;
	return gc_timed(st, c, ev->cap);
}

/* Counts one collection where the RTS does, in stat_endGC: everything
 * but its pause, which its GC_START and GC_END on this cap give. */
static int on_gc_stats(ev_stats *st, const ev_event *ev, evi_stats_cap *c)
{
	const uint8_t *pl = ev->payload;
	evi_stats_proc *p = heap_proc(st, ev);
	uint16_t gen = ev_load16(pl + 4);
	uint64_t copied = ev_load64(pl + 6), slop = ev_load64(pl + 14);
	ev_stats_gen *g;
	int rc;

	if (!p)
		return st->diag.status;
	if ((rc = evi_stats_reserve_gens(st, p, gen + 1u)) < 0)
		return rc;
	if (gen + 1u > p->gens_seen)
		p->gens_seen = gen + 1u;
	g = &p->gens[gen];
	g->collections++;
	if (slop > g->max_slop_bytes)
		g->max_slop_bytes = slop;
	p->pub.collections++;
	p->pub.copied_bytes += copied;
	if (ev_load32(pl + 30) > 1) { /* par threads */
		g->par_collections++;
		p->pub.par_copied_bytes += copied;
		if (ev->size >= GC_STATS_BALANCED) {
			p->pub.par_balanced_copied_bytes += ev_load64(pl + 50);
			p->pub.have_balance = 1;
		}
	}
	if (!c) {
		p->pub.untimed_collections++;
		return EV_OK;
	}
	evi_stats_gc_untimed(st, c); /* a second one since GC_START */
	c->gc_counted = 1;
	c->gc_capset = p->pub.capset;
	c->gc_gen = gen;
	c->claim.have_heap = 1;
	c->claim.heap = p->pub.capset;
	return gc_timed(st, c, ev->cap);
}

static int on_heap_value(ev_stats *st, const ev_event *ev, evi_stats_cap *c)
{
	evi_stats_proc *p = heap_proc(st, ev);
	uint64_t bytes = ev_load64(ev->payload + 4);

	if (!p)
		return st->diag.status;
	if (ev->type == EV_HEAP_ALLOCATED && c) {
		c->allocated = bytes; /* this cap's total so far */
		if (!c->have_allocated)
			c->first_allocated = bytes;
		c->have_allocated = 1;
		c->claim.have_heap = 1;
		c->claim.heap = p->pub.capset;
	} else if (ev->type == EV_HEAP_SIZE) {
		p->last_heap = bytes;
		if (bytes > p->pub.max_mem_bytes)
			p->pub.max_mem_bytes = bytes;
	} else if (ev->type == EV_HEAP_LIVE) {
		p->last_live = bytes;
		if (bytes > p->pub.max_live_bytes)
			p->pub.max_live_bytes = bytes;
		p->pub.live_samples++;
	}
	return EV_OK;
}

/* MEM_RETURN's current size is taken before memory goes back to the OS,
 * HEAP_SIZE after: the peak may show only here. */
static int on_mem_return(ev_stats *st, const ev_event *ev)
{
	evi_stats_proc *p = heap_proc(st, ev);
	uint32_t current = ev_load32(ev->payload + 4);

	if (!p)
		return st->diag.status;
	if (current > p->max_mem_return)
		p->max_mem_return = current;
	return EV_OK;
}

static void on_spark_counters(const ev_event *ev, evi_stats_cap *c)
{
	for (unsigned i = 0; i < EVI_SPARK_FIELDS; i++) {
		c->sparks[i] = ev_load64(ev->payload + 8 * i);
		if (!c->have_sparks)
			c->first_sparks[i] = c->sparks[i];
	}
	c->have_sparks = 1;
}

/* Whether the handlers read the payload fields of `type`. */
static int reads_fields(uint16_t type)
{
	switch (type) {
	case EV_CAPSET_CREATE:
	case EV_CAPSET_DELETE:
	case EV_CAPSET_ASSIGN_CAP:
	case EV_OSPROCESS_PID:
	case EV_HEAP_INFO_GHC:
	case EV_GC_STATS_GHC:
	case EV_HEAP_ALLOCATED:
	case EV_HEAP_SIZE:
	case EV_HEAP_LIVE:
	case EV_MEM_RETURN:
	case EV_SPARK_COUNTERS:
		return 1;
	default:
		return 0;
	}
}

/* Events of a capability's buffer: times, per-cap counters. Not its
 * block markers, which frame the events (an empty block, a block cut in
 * two by sort or cat --reblock) without being any. */
static void note_cap_event(evi_stats_cap *c, const ev_event *ev)
{
	if (!c->seen || ev->time < c->first_time)
		c->first_time = ev->time;
	if (!c->seen || ev->time > c->last_time)
		c->last_time = ev->time;
	c->seen = 1;
	if (!evi_type_is_untimed(ev->type)) {
		if (!c->have_work || ev->time < c->first_work)
			c->first_work = ev->time;
		if (!c->have_work || ev->time > c->last_work)
			c->last_work = ev->time;
		c->have_work = 1;
	}
	if (ev->type == EV_SPARK_COUNTERS)
		on_spark_counters(ev, c);
}

/* The thread running on the event's cap, as the spans pair by it: the
 * one a replay gives (evi_stats_replay), else the cap's. */
static uint32_t running_on(const ev_stats *st, const ev_event *ev)
{
	return st->replay_running ? st->replay_tid
				  : evi_running_thread(st, ev->cap);
}

static int dispatch(ev_stats *st, const ev_event *ev, evi_stats_cap *c)
{
	switch (ev->type) {
	case EV_CAPSET_CREATE:
		return on_capset_create(st, ev);
	case EV_CAPSET_DELETE:
		return on_capset_delete(st, ev);
	case EV_CAPSET_ASSIGN_CAP:
		return on_capset_assign(st, ev);
	case EV_OSPROCESS_PID:
		return on_pid(st, ev);
	case EV_HEAP_INFO_GHC:
		return on_heap_info(st, ev);
	case EV_GC_STATS_GHC:
		return on_gc_stats(st, ev, c);
	case EV_GC_START:
		if (c)
			on_gc_start(st, ev, c);
		return EV_OK;
	case EV_GC_END:
		return c ? on_gc_end(st, ev, c) : EV_OK;
	case EV_HEAP_ALLOCATED:
	case EV_HEAP_SIZE:
	case EV_HEAP_LIVE:
		return on_heap_value(st, ev, c);
	case EV_MEM_RETURN:
		return on_mem_return(st, ev);
	case EV_USER_MSG:
	case EV_USER_MARKER:
		return st->spans ? evi_spans_add(st, ev, running_on(st, ev))
				 : EV_OK;
	default:
		return st->bands && evi_heap_samples_type(ev->type)
			? evi_bands_add(st, ev) : EV_OK;
	}
}

int ev_stats_add(ev_stats *st, const ev_event *ev)
{
	evi_stats_cap *c = NULL;
	int rc;

	if (reads_fields(ev->type) &&
	    (rc = evi_need_fast(&st->need, &st->diag, ev,
				"the statistics need")) < 0)
		return rc;
	if (ev->type != EV_BLOCK_MARKER &&
	    (!st->have_time || ev->time < st->first_time)) {
		st->first_time = ev->time;
		st->have_time = 1;
	}
	if (ev->cap != EV_NO_CAP && ev->type != EV_BLOCK_MARKER) {
		if (!(c = evi_stats_cap_get(st, ev->cap)))
			return st->diag.status;
		note_cap_event(c, ev);
	}
	rc = dispatch(st, ev, c);
	if (rc == EV_OK)
		rc = evi_threads_add(st, ev);
	if (rc < 0) {
		st->diag.offset = ev->offset;
		st->diag.event_index = ev->index;
	}
	return rc;
}

int evi_stats_replay(ev_stats *st, const ev_event *ev, uint32_t running)
{
	int rc;

	st->replay_running = 1;
	st->replay_tid = running;
	rc = ev_stats_add(st, ev);
	st->replay_running = 0;
	return rc;
}

/* What reading in parallel must leave to evi_stats_replay: every type
 * that dispatch or evi_threads_add reads beyond its time and cap, but
 * RUN_THREAD and STOP_THREAD, which the workers sum (stats_blocks.c). */
enum evi_stats_kind evi_stats_kind_of(const ev_stats *st, uint16_t type)
{
	switch (type) {
	case EV_BLOCK_MARKER:
		return EVI_STATS_MARKER;
	case EV_RUN_THREAD:
		return EVI_STATS_RUN;
	case EV_STOP_THREAD:
		return EVI_STATS_STOP;
	case EV_MIGRATE_THREAD:
	case EV_THREAD_LABEL:
		return EVI_STATS_REPLAY_THREAD;
	case EV_USER_MSG:
	case EV_USER_MARKER:
		return st->spans ? EVI_STATS_REPLAY : EVI_STATS_PLAIN;
	default:
		break;
	}
	if (reads_fields(type) || type == EV_GC_START || type == EV_GC_END ||
	    (st->bands && evi_heap_samples_type(type)))
		return EVI_STATS_REPLAY;
	return EVI_STATS_PLAIN;
}

int evi_stats_new_like(ev_stats **out, const ev_stats *st)
{
	int rc = ev_stats_new(out, NULL);

	if (rc == EV_OK && st->an.keep_threads)
		rc = ev_stats_keep_threads(*out);
	if (rc == EV_OK && st->spans)
		rc = ev_stats_keep_spans(*out, evi_spans_kinds(st->spans));
	if (rc == EV_OK && st->bands)
		rc = ev_stats_keep_bands(*out);
	if (rc < 0) {
		ev_stats_free(*out);
		*out = NULL;
		return EV_ENOMEM;
	}
	return EV_OK;
}

static int consume_begin(void *self, const ev_session *s)
{
	ev_stats *st = self;

	st->quirks = s->header ? evi_header_quirks(s->header) : 0;
	return EV_OK;
}

static int consume_event(void *self, const ev_event *ev)
{
	return ev_stats_add(self, ev);
}

/* The figures of the events given, cut log or not: on a failure there
 * is nothing to finish. */
static int consume_finish(void *self, int status)
{
	int rc;

	if (!ev_consumer_complete(status))
		return status;
	return (rc = ev_stats_finish(self)) < 0 ? rc : status;
}

const ev_consumer *ev_stats_consumer(void)
{
	static const ev_consumer consumer = { consume_begin, consume_event,
					      NULL, consume_finish,
					      EV_CONSUME_MARKERS };

	return &consumer;
}

size_t ev_stats_process_count(const ev_stats *st)
{
	return st->n_out;
}

const ev_stats_process *ev_stats_process_at(const ev_stats *st, size_t i)
{
	return i < st->n_out ? &st->out[i] : NULL;
}

void ev_stats_live_totals(const ev_stats *st, ev_stats_now *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < st->n_caps; i++) {
		const evi_stats_cap *c = &st->caps[i];
		out->allocated_bytes += c->allocated;
		if (c->seen && c->last_time > out->time_ns)
			out->time_ns = c->last_time;
	}
	for (size_t i = 0; i < st->procs.n; i++) {
		const evi_stats_proc *p = evi_stats_proc_at(st, i);
		out->live_bytes += p->last_live;
		out->heap_bytes += p->last_heap;
		out->collections += p->pub.collections;
		out->gc_elapsed_ns += p->pub.gc_elapsed_ns;
	}
}

unsigned ev_stats_unattributed_caps(const ev_stats *st)
{
	return st->unattributed;
}

const ev_diag *ev_stats_diag(const ev_stats *st)
{
	return &st->diag;
}
