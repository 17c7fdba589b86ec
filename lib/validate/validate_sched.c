/*
 * The validator's semantic checks: threads, GC start/end, tasks and heap
 * samples.
 *
 * What GHC's scheduler posts (rts/Schedule.c): RUN_THREAD before it runs
 * a thread on a cap and STOP_THREAD when the thread returns to it, both on
 * that cap; since GHC 7.4 also STOP_THREAD (status 6) when a thread leaves
 * for a safe foreign call and RUN_THREAD on whatever cap it comes back
 * to. MIGRATE_THREAD moves a thread that is not running; THREAD_WAKEUP
 * may name a thread that is still running (it blocked, and was woken
 * before its cap posted the STOP), or one that has finished (a thread
 * that blocked in an STM retry stays on its TVars' watch queues, and the
 * RTS posts the wakeup before it looks at the thread's state:
 * rts/Threads.c tryWakeupThread), so wakeups are not checked.
 *
 * A thread that returns ThreadFinished (STOP_THREAD status 5) is done:
 * the RTS frees it and never hands its id out again in that process
 * (thread ids come from a counter, rts/Threads.c next_thread_id), so
 * any later event naming it is a finding. Status 5 means "finished" in
 * every numbering GHC used, GHC 7.8.2's shifted codes included (it
 * moved only codes from 8 up; doc/format.md section 5).
 *
 * The log is read in file order, but caps' blocks are not in time order
 * relative to each other, so per-cap machines (which thread a cap runs,
 * whether it is in a GC) use file order, and cross-cap facts (a thread
 * on two caps at once) compare timestamps of remembered run intervals.
 * Every machine starts "unknown": a log of a stream started mid-run, or
 * a thread created before the log began, is not an error; and a pairing
 * (RUN/STOP, GC_START/GC_END, sample begin/end) is checked on a cap only
 * once it has shown both halves, so a filtered log is not called broken.
 *
 * Layering: validate.c -> this file -> validate_report.c and
 * validate_table.c. It calls no function of validate.c (findings, cap
 * state and type names are in validate_report.c).
 */
#include <string.h>

#include "validate_internal.h"

/* ------------------------------------------------------------------------
 * Threads
 * ---------------------------------------------------------------------- */

/* One stretch of a thread on one cap: RUN_THREAD to STOP_THREAD. */
typedef struct evv_run {
	uint64_t start;
	uint64_t end;      /* when !open */
	uint16_t cap;
	uint8_t used;
	uint8_t open;      /* no STOP_THREAD yet */
	uint8_t reported;  /* an overlap with it was reported */
} evv_run;

enum { THREAD_CREATED = 1u << 0, THREAD_FINISHED = 1u << 1 };

/* What is known of a thread: slot.aux holds THREAD_* flags. Two run
 * stretches are kept (the latest on two caps): enough to catch a thread
 * on two caps at once in bounded memory, not every such case. */
typedef struct evv_thread {
	evv_slot slot;
	uint64_t created_at;
	uint64_t finished_at;     /* when THREAD_FINISHED */
	uint64_t finished_offset;
	uint16_t finished_cap;
	evv_run runs[2];
} evv_thread;

typedef struct evv_task {
	evv_slot slot;
	uint8_t live;
} evv_task;

void evv_sched_init(evv *v)
{
	evv_table_init(&v->threads, sizeof(evv_thread), v->o.max_threads);
	evv_table_init(&v->tasks, sizeof(evv_task), EVV_MAX_TASKS);
}

/* Scheduler findings are errors for GHC >= 7.8.3 and warnings before. */
static ev_severity sched_severity(const evv *v)
{
	return v->modern ? EV_SEVERITY_ERROR : EV_SEVERITY_WARNING;
}

static int has_open_run(const void *entry)
{
	const evv_thread *t = entry;
	return (t->runs[0].used && t->runs[0].open) ||
	       (t->runs[1].used && t->runs[1].open);
}

static void limit_reached(evv *v, const char *what, uint32_t max)
{
	if (v->limit_reported)
		return;
	v->limit_reported = 1;
	evv_report(v, EV_SEVERITY_WARNING, "limit", NULL,
		   evv_offset(v),
		   "more than %u %s at once; their checks restart from an "
		   "unknown state", max, what);
}

/* The thread's entry, made when needed. A full table first forgets the
 * threads that are not running (losing nothing an error depends on), and
 * only then everything, with a warning. */
static evv_thread *thread_entry(evv *v, uint32_t tid)
{
	evv_thread *t = evv_table_find(&v->threads, tid);

	if (t || (t = evv_table_insert(&v->threads, tid)))
		return t;
	if (evv_table_filter(&v->threads, has_open_run) == 0 &&
	    v->threads.count * 2 <= v->threads.max &&
	    (t = evv_table_insert(&v->threads, tid)))
		return t;
	limit_reached(v, "threads", v->threads.max);
	evv_table_clear(&v->threads);
	return evv_table_insert(&v->threads, tid);
}

static evv_run *run_on(evv_thread *t, uint16_t cap)
{
	for (int i = 0; i < 2; i++)
		if (t->runs[i].used && t->runs[i].cap == cap)
			return &t->runs[i];
	return NULL;
}

/* The stretch to overwrite for a new run on `cap`: the one on that cap,
 * a free one, or the one that ended (or began) first. */
static evv_run *run_slot_for(evv_thread *t, uint16_t cap)
{
	evv_run *r = run_on(t, cap), *a = &t->runs[0], *b = &t->runs[1];
	uint64_t ta, tb;

	if (r)
		return r;
	if (!a->used)
		return a;
	if (!b->used)
		return b;
	ta = a->open ? a->start : a->end;
	tb = b->open ? b->start : b->end;
	return ta <= tb ? a : b;
}

/* Forgets a thread's open stretches: it left them without a STOP the
 * log shows (already reported, or an old runtime's foreign call). Only
 * stretches bounded by a real RUN and STOP are compared across caps. */
static void drop_open_runs(evv *v, uint32_t tid)
{
	evv_thread *t = evv_table_find(&v->threads, tid);

	for (int i = 0; t && i < 2; i++)
		if (t->runs[i].used && t->runs[i].open)
			t->runs[i].used = 0;
}

static void two_caps(evv *v, const ev_event *ev, uint32_t tid,
		     const evv_run *other, uint64_t other_end, int open)
{
	evv_report(v, EV_SEVERITY_ERROR, "thread-two-caps", ev, 0,
		   "thread %u runs on cap %u at %llu ns while it runs on cap "
		   "%u from %llu ns %s %llu ns", tid, ev->cap,
		   (unsigned long long)ev->time, other->cap,
		   (unsigned long long)other->start,
		   open ? "to at least" : "to", (unsigned long long)other_end);
}

/* RUN_THREAD at t on a cap: inside a stretch of the thread on another
 * cap? An open stretch lasts at least to that cap's latest event, since
 * its STOP comes later in that cap's stream (modern runtimes only: older
 * ones left for foreign calls without a STOP). */
static void check_run_overlap(evv *v, const ev_event *ev, evv_thread *t)
{
	uint64_t now = ev->time, tol = v->o.tolerance_ns;

	for (int i = 0; i < 2; i++) {
		evv_run *r = &t->runs[i];
		uint64_t end;
		if (!r->used || r->cap == ev->cap || r->reported ||
		    (r->open && !v->modern))
			continue;
		end = r->open ? evv_cap_state(v, r->cap)->hwm : r->end;
		if (r->start < now && now + tol < end) {
			r->reported = 1;
			two_caps(v, ev, (uint32_t)t->slot.key, r, end, r->open);
		}
	}
}

/* STOP_THREAD closing [run->start, now]: does it overlap another cap's
 * stretch of the thread by more than the tolerance? */
static void check_stop_overlap(evv *v, const ev_event *ev, evv_thread *t,
			       evv_run *run)
{
	uint64_t tol = v->o.tolerance_ns;

	for (int i = 0; i < 2; i++) {
		evv_run *r = &t->runs[i];
		uint64_t end;
		if (r == run || !r->used || r->cap == run->cap ||
		    r->reported || run->reported || (r->open && !v->modern))
			continue;
		end = r->open ? evv_cap_state(v, r->cap)->hwm : r->end;
		if (run->start + tol < end && r->start + tol < ev->time) {
			r->reported = run->reported = 1;
			two_caps(v, ev, (uint32_t)t->slot.key, r, end, r->open);
		}
	}
}

/* An event naming thread `t` after the STOP_THREAD that finished it?
 * On the finishing cap the file order says so; on another cap only the
 * time can (caps' blocks interleave out of time order), beyond the
 * tolerance. Reported once: the thread is then tracked afresh, so a log
 * that reuses an id (a merge without renumbering) yields one finding
 * per reuse, not one per event. */
static void check_finished(evv *v, const ev_event *ev, evv_thread *t,
			   ev_severity sev, const char *what)
{
	if (!(t->slot.aux & THREAD_FINISHED))
		return;
	if (ev->cap != t->finished_cap &&
	    ev->time <= t->finished_at + v->o.tolerance_ns)
		return;
	evv_report(v, sev, "thread-finished", ev, 0,
		   "thread %u %s after it finished on cap %u at %llu ns "
		   "(offset %llu); GHC never reuses a thread id",
		   (uint32_t)t->slot.key, what, t->finished_cap,
		   (unsigned long long)t->finished_at,
		   (unsigned long long)t->finished_offset);
	t->slot.aux &= ~(uint32_t)THREAD_FINISHED;
}

static void thread_created(evv *v, const ev_event *ev)
{
	uint32_t tid = ev_load32(ev->payload);
	evv_thread *t = thread_entry(v, tid);

	if (!t)
		return;
	if (t->slot.aux & THREAD_CREATED)
		evv_report(v, EV_SEVERITY_WARNING, "thread-create", ev, 0,
			   "thread %u is created again (first at %llu ns)", tid,
			   (unsigned long long)t->created_at);
	for (int i = 0; i < 2; i++)
		if (t->runs[i].used &&
		    t->runs[i].start + v->o.tolerance_ns < ev->time)
			evv_report(v, EV_SEVERITY_WARNING, "thread-create", ev,
				   0, "thread %u is created after it ran on "
				   "cap %u at %llu ns", tid, t->runs[i].cap,
				   (unsigned long long)t->runs[i].start);
	t->slot.aux |= THREAD_CREATED;
	t->created_at = ev->time;
}

static void run_checks(evv *v, const ev_event *ev, evv_thread *t)
{
	uint32_t tid = (uint32_t)t->slot.key;
	uint64_t tol = v->o.tolerance_ns;

	if ((t->slot.aux & THREAD_CREATED) && ev->time + tol < t->created_at)
		evv_report(v, EV_SEVERITY_WARNING, "thread-create", ev, 0,
			   "thread %u runs before its creation at %llu ns",
			   tid, (unsigned long long)t->created_at);
	check_run_overlap(v, ev, t);
}

/* RUN_THREAD's checks of its cap's state (the cap's part). */
static void run_on_cap(evv *v, const ev_event *ev, const evv_cap *cs,
		       uint32_t tid)
{
	if (cs->run_state == EVV_ACTIVE && (cs->seen & EVV_SEEN_STOP)) {
		if (v->modern && cs->running == tid)
			evv_report(v, EV_SEVERITY_ERROR, "thread-run", ev, 0,
				   "thread %u runs on cap %u again without "
				   "having stopped (it runs since %llu ns)",
				   tid, ev->cap,
				   (unsigned long long)cs->run_since);
		else if (v->modern)
			evv_report(v, EV_SEVERITY_ERROR, "thread-run", ev, 0,
				   "thread %u starts on cap %u, which runs "
				   "thread %u since %llu ns", tid, ev->cap,
				   cs->running,
				   (unsigned long long)cs->run_since);
	}
}

static void run_begins(evv_cap *cs, const ev_event *ev, uint32_t tid)
{
	cs->seen |= EVV_SEEN_RUN;
	cs->run_state = EVV_ACTIVE;
	cs->running = tid;
	cs->run_since = ev->time;
}

static void thread_run(evv *v, const ev_event *ev, evv_cap *cs)
{
	uint32_t tid = ev_load32(ev->payload);
	evv_thread *t;
	evv_run *r;

	run_on_cap(v, ev, cs, tid);
	if (cs->run_state == EVV_ACTIVE)
		drop_open_runs(v, cs->running);
	run_begins(cs, ev, tid);
	cs->running_entry = t = thread_entry(v, tid);
	cs->running_gen = v->threads.gen;
	if (!t)
		return;
	check_finished(v, ev, t, EV_SEVERITY_ERROR, "runs");
	run_checks(v, ev, t);
	r = run_slot_for(t, ev->cap);
	r->used = r->open = 1;
	r->reported = 0;
	r->cap = ev->cap;
	r->start = ev->time;
}

/* STOP_THREAD of a thread the cap is not known to run. GHC >= 7.8.3 never
 * does that; older ones did when a thread came back from a foreign call. */
static void stop_on_other_cap(evv *v, const ev_event *ev, const evv_cap *cs,
			      uint32_t tid)
{
	if (v->modern && cs->run_state == EVV_ACTIVE)
		evv_report(v, EV_SEVERITY_ERROR, "thread-stop", ev, 0,
			   "thread %u stops on cap %u, which runs thread %u "
			   "since %llu ns", tid, ev->cap, cs->running,
			   (unsigned long long)cs->run_since);
	else if (v->modern && cs->run_state == EVV_IDLE &&
		 (cs->seen & EVV_SEEN_RUN))
		evv_report(v, EV_SEVERITY_ERROR, "thread-stop", ev, 0,
			   "thread %u stops on cap %u, which runs no thread",
			   tid, ev->cap);
}

static void stop_elsewhere(evv *v, const ev_event *ev, evv_cap *cs,
			   uint32_t tid)
{
	stop_on_other_cap(v, ev, cs, tid);
	if (cs->run_state == EVV_ACTIVE)
		drop_open_runs(v, cs->running);
	drop_open_runs(v, tid);
}

/* Checks a STOP_THREAD against an earlier finish, and records this one
 * if its status is ThreadFinished. */
static void stop_finishes(evv *v, const ev_event *ev, uint32_t tid)
{
	int finishes = ev_load16(ev->payload + 4) == EVI_STOP_FINISHED;
	evv_thread *t = finishes ? thread_entry(v, tid)
				 : evv_table_find(&v->threads, tid);

	if (!t)
		return;
	check_finished(v, ev, t, sched_severity(v), "stops");
	if (!finishes)
		return;
	t->slot.aux |= THREAD_FINISHED;
	t->finished_at = ev->time;
	t->finished_offset = ev->offset;
	t->finished_cap = ev->cap;
}

static void stop_ends(evv_cap *cs)
{
	cs->run_state = EVV_IDLE;
	cs->seen |= EVV_SEEN_STOP;
}

static void thread_stop(evv *v, const ev_event *ev, evv_cap *cs)
{
	uint32_t tid = ev_load32(ev->payload);
	evv_thread *t;
	evv_run *r;

	stop_finishes(v, ev, tid);
	if (cs->run_state == EVV_ACTIVE && cs->running == tid) {
		t = cs->running_gen == v->threads.gen
			    ? cs->running_entry
			    : evv_table_find(&v->threads, tid);
		if (t && (r = run_on(t, ev->cap)) && r->open) {
			r->open = 0;
			r->end = ev->time;
			check_stop_overlap(v, ev, t, r);
		}
	} else {
		stop_elsewhere(v, ev, cs, tid);
	}
	stop_ends(cs);
}

static void migrate_on_cap(evv *v, const ev_event *ev, const evv_cap *cs,
			   uint32_t tid)
{
	if (v->modern && cs->run_state == EVV_ACTIVE && cs->running == tid)
		evv_report(v, EV_SEVERITY_ERROR, "thread-migrate", ev, 0,
			   "thread %u is migrated to cap %u while it runs on "
			   "cap %u", tid, ev_load16(ev->payload + 4), ev->cap);
}

static void thread_migrate(evv *v, const ev_event *ev, evv_cap *cs)
{
	uint32_t tid = ev_load32(ev->payload);
	evv_thread *t = evv_table_find(&v->threads, tid);

	if (t)
		check_finished(v, ev, t, sched_severity(v), "is migrated");
	migrate_on_cap(v, ev, cs, tid);
}

/* ------------------------------------------------------------------------
 * GC, tasks, heap samples
 * ---------------------------------------------------------------------- */

static void gc_start(evv *v, const ev_event *ev, evv_cap *cs)
{
	if (cs->gc_state == EVV_ACTIVE && (cs->seen & EVV_SEEN_GC_END))
		evv_report(v, sched_severity(v), "gc-start", ev, 0,
			   "GC_START on cap %u, which is already in a GC "
			   "(since %llu ns)", ev->cap,
			   (unsigned long long)cs->gc_since);
	cs->gc_state = EVV_ACTIVE;
	cs->gc_since = ev->time;
	cs->seen |= EVV_SEEN_GC_START;
}

static void gc_end(evv *v, const ev_event *ev, evv_cap *cs)
{
	if (cs->gc_state == EVV_IDLE && (cs->seen & EVV_SEEN_GC_START))
		evv_report(v, sched_severity(v), "gc-end", ev, 0,
			   "GC_END on cap %u without a GC_START (its last GC "
			   "ended at %llu ns)", ev->cap,
			   (unsigned long long)cs->gc_since);
	cs->gc_state = EVV_IDLE;
	cs->gc_since = ev->time;
	cs->seen |= EVV_SEEN_GC_END;
}

static int task_is_live(const void *entry)
{
	return ((const evv_task *)entry)->live;
}

static evv_task *task_entry(evv *v, uint64_t id)
{
	evv_task *t = evv_table_find(&v->tasks, id);

	if (t || (t = evv_table_insert(&v->tasks, id)))
		return t;
	if (evv_table_filter(&v->tasks, task_is_live) == 0 &&
	    v->tasks.count * 2 <= v->tasks.max &&
	    (t = evv_table_insert(&v->tasks, id)))
		return t;
	limit_reached(v, "tasks", v->tasks.max);
	evv_table_clear(&v->tasks);
	return evv_table_insert(&v->tasks, id);
}

/* TASK_CREATE (task u64, cap u16, kernel tid) and TASK_DELETE (task):
 * GHC >= 7.8.3 posts them when a worker starts and stops and when an
 * outermost call from C into Haskell begins and ends (rts_lock, with
 * nested calls not posting again). Task ids are addresses, reused once
 * a task is deleted; a stream started mid-run lacks earlier creations,
 * so an unknown task is fine and findings are warnings. TASK_MIGRATE is
 * not checked: a task changes caps without it too. Older runtimes posted
 * these differently; their logs are not checked. */
static void task_event(evv *v, const ev_event *ev)
{
	uint64_t id = ev_load64(ev->payload);
	evv_task *t = evv_table_find(&v->tasks, id);
	int known = t != NULL;

	if (!v->modern || (!t && !(t = task_entry(v, id))))
		return;
	if (ev->type == EV_TASK_CREATE) {
		if (known && t->live)
			evv_report(v, EV_SEVERITY_WARNING, "task", ev, 0,
				   "task 0x%llx is created again while alive",
				   (unsigned long long)id);
		t->live = 1;
	} else if (ev->type == EV_TASK_DELETE) {
		if (known && !t->live)
			evv_report(v, EV_SEVERITY_WARNING, "task", ev, 0,
				   "task 0x%llx is deleted again",
				   (unsigned long long)id);
		t->live = 0;
	}
}

/* A heap census is HEAP_PROF_SAMPLE_BEGIN (162) or, for biographical
 * profiles, HEAP_BIO_PROF_SAMPLE_BEGIN (166), then sample events (163,
 * 164), then HEAP_PROF_SAMPLE_END (165) with the same era; all u64 era
 * first. Checked per buffer, and only when the header declares 165 (older
 * GHCs had no end event). */
static void heap_sample(evv *v, const ev_event *ev, evv_cap *cs)
{
	int begin = ev->type == EV_HEAP_PROF_SAMPLE_BEGIN ||
		    ev->type == EV_HEAP_BIO_PROF_SAMPLE_BEGIN;
	uint64_t era = ev->size >= 8 ? ev_load64(ev->payload) : 0;

	if (begin && cs->sample_state == EVV_ACTIVE &&
	    (cs->seen & EVV_SEEN_SAMPLE_END))
		evv_report(v, EV_SEVERITY_ERROR, "heap-sample", ev, 0,
			   "a heap sample begins inside the sample that began "
			   "at offset %llu",
			   (unsigned long long)cs->sample_offset);
	else if (!begin && cs->sample_state == EVV_IDLE &&
		 (cs->seen & EVV_SEEN_SAMPLE_BEGIN))
		evv_report(v, EV_SEVERITY_ERROR, "heap-sample", ev, 0,
			   "%s outside a heap sample (no sample begin since "
			   "the end at offset %llu)", evv_type_name(ev->type),
			   (unsigned long long)cs->sample_offset);
	else if (ev->type == EV_HEAP_PROF_SAMPLE_END &&
		 cs->sample_state == EVV_ACTIVE && era != cs->sample_era)
		evv_report(v, EV_SEVERITY_ERROR, "heap-sample", ev, 0,
			   "the heap sample of era %llu ends with era %llu",
			   (unsigned long long)cs->sample_era,
			   (unsigned long long)era);
	if (begin || ev->type == EV_HEAP_PROF_SAMPLE_END) {
		cs->sample_state = begin ? EVV_ACTIVE : EVV_IDLE;
		cs->seen |= begin ? EVV_SEEN_SAMPLE_BEGIN : EVV_SEEN_SAMPLE_END;
		cs->sample_era = era;
		cs->sample_offset = ev->offset;
	}
}

/* Minimum payloads the handlers read (doc/format.md section 5). */
static uint32_t needed(uint16_t type)
{
	switch (type) {
	case EV_CREATE_THREAD:
	case EV_RUN_THREAD:
		return 4;
	case EV_STOP_THREAD:
	case EV_MIGRATE_THREAD:
		return 6;
	case EV_TASK_CREATE:
	case EV_TASK_DELETE:
		return 8;
	default:
		return 0;
	}
}

/* The cap's part of the thread events (the thread table is not used):
 * the checks of the cap's state, and its state after them. */
static void thread_on_cap(evv *v, const ev_event *ev, evv_cap *cs)
{
	uint32_t tid = ev_load32(ev->payload);

	if (ev->type == EV_RUN_THREAD) {
		run_on_cap(v, ev, cs, tid);
		run_begins(cs, ev, tid);
	} else if (ev->type == EV_STOP_THREAD) {
		if (cs->run_state != EVV_ACTIVE || cs->running != tid)
			stop_on_other_cap(v, ev, cs, tid);
		stop_ends(cs);
	} else if (ev->type == EV_MIGRATE_THREAD) {
		migrate_on_cap(v, ev, cs, tid);
	}
}

/* Every check of `ev`, or (`tables` 0) the cap's only. */
static inline __attribute__((always_inline)) void
sched_event(evv *v, const ev_event *ev, evv_cap *cs, int tables)
{
	int on_cap = cs && ev->cap != EV_NO_CAP;

	if (ev->size < needed(ev->type))
		return;
	switch (ev->type) {
	case EV_CREATE_THREAD:
		if (on_cap && tables)
			thread_created(v, ev);
		break;
	case EV_RUN_THREAD:
		if (on_cap)
			tables ? thread_run(v, ev, cs) : thread_on_cap(v, ev, cs);
		break;
	case EV_STOP_THREAD:
		if (on_cap)
			tables ? thread_stop(v, ev, cs)
			       : thread_on_cap(v, ev, cs);
		break;
	case EV_MIGRATE_THREAD:
		if (on_cap)
			tables ? thread_migrate(v, ev, cs)
			       : thread_on_cap(v, ev, cs);
		break;
	case EV_GC_START:
		if (on_cap)
			gc_start(v, ev, cs);
		break;
	case EV_GC_END:
		if (on_cap)
			gc_end(v, ev, cs);
		break;
	case EV_TASK_CREATE:
	case EV_TASK_DELETE:
		if (tables)
			task_event(v, ev);
		break;
	default:
		if (cs && v->has_sample_end)
			heap_sample(v, ev, cs);
		break;
	}
}

void evv_sched_event(evv *v, const ev_event *ev, evv_cap *cs)
{
	sched_event(v, ev, cs, 1);
}

void evv_sched_cap_event(evv *v, const ev_event *ev, evv_cap *cs)
{
	sched_event(v, ev, cs, 0);
}

void evv_task_event(evv *v, const ev_event *ev)
{
	if (ev->size >= needed(ev->type))
		task_event(v, ev);
}
