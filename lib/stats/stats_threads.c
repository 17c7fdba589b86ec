/*
 * Threads and capabilities of an ev_stats accumulator: each thread's runs
 * (RUN_THREAD 1 to STOP_THREAD 2 on one capability), stop reasons,
 * migrations (MIGRATE_THREAD 4, posted on the cap the thread leaves) and
 * label (THREAD_LABEL 44); each cap's time running threads and between
 * its own GC_START and GC_END (9, 10: every GC thread posts its pair).
 * Payloads: doc/format.md section 5.
 *
 * Layering: below stats.c and stats_finish.c (they -> this file ->
 * stats_procs.c); it calls no function of stats.c or stats_finish.c.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "stats_internal.h"
#include "text.h"

#define LABEL_TEXT 4u /* THREAD_LABEL: thread u32, then the label */


/* ---- the table of threads ---- */

static ev_stats_thread *find_thread(const evi_analysis *an, uint32_t tid)
{
	uint64_t i;

	return evi_idmap_get(&an->index, tid, &i) ? &an->threads[i] : NULL;
}

static int grow_threads(evi_analysis *an)
{
	size_t n = an->threads_alloc ? 2 * an->threads_alloc : 64;
	ev_stats_thread *grown;

	if (n > EV_STATS_MAX_THREADS)
		n = EV_STATS_MAX_THREADS;
	if (!(grown = realloc(an->threads, n * sizeof *grown)))
		return EV_ENOMEM;
	an->threads = grown;
	an->threads_alloc = n;
	return EV_OK;
}

ev_stats_thread *evi_thread_get(ev_stats *st, uint32_t tid)
{
	evi_analysis *an = &st->an;
	ev_stats_thread *t = find_thread(an, tid);

	if (t)
		return t;
	if (!an->keep_threads)
		return &an->others; /* counted in the total only */
	if (an->n_threads == EV_STATS_MAX_THREADS) {
		an->have_others = 1;
		return &an->others;
	}
	if ((an->n_threads == an->threads_alloc && grow_threads(an) < 0) ||
	    evi_idmap_add(&an->index, tid, an->n_threads,
			  EV_STATS_MAX_THREADS, NULL) < 0) {
		evi_fail(&st->diag, EV_ENOMEM, 0, 0, "out of memory");
		return NULL;
	}
	t = &an->threads[an->n_threads++];
	memset(t, 0, sizeof *t);
	t->tid = tid;
	return t;
}

evi_cap_use *evi_cap_use_get(ev_stats *st, uint16_t cap)
{
	evi_analysis *an = &st->an;

	if (cap >= an->n_uses &&
	    evi_grow_zeroed(&st->diag, &an->uses, &an->n_uses, cap,
			    sizeof *an->uses) < 0)
		return NULL;
	return &an->uses[cap];
}

uint32_t evi_running_thread(const ev_stats *st, uint16_t cap)
{
	const evi_cap_use *u = cap != EV_NO_CAP && cap < st->an.n_uses
				       ? &st->an.uses[cap] : NULL;

	return u && u->running ? u->tid : 0;
}

/* ---- the events ---- */

static int on_run(ev_stats *st, const ev_event *ev, evi_cap_use *u)
{
	uint32_t tid = ev_load32(ev->payload);
	ev_stats_thread *t = evi_thread_get(st, tid);

	if (!t)
		return st->diag.status;
	t->runs++;
	st->an.total.runs++;
	u->runs++;
	u->running = 1;
	u->tid = tid;
	u->run_start = ev->time;
	return EV_OK;
}

/* Ends the run open on `u` at `time`, if there is one (of `tid` when it
 * is not 0): its time goes to the thread, the total and the cap. */
static void end_run(ev_stats *st, evi_cap_use *u, ev_stats_thread *t,
		    uint64_t time)
{
	if (u->running && time >= u->run_start) {
		uint64_t ns = time - u->run_start;
		if (t)
			t->run_ns += ns;
		st->an.total.run_ns += ns;
		u->mutator_ns += ns;
	}
	u->running = 0;
}

_Static_assert(EV_STATS_STOP_REASONS == EVI_STOP_STATUSES,
	       "a count for every status evi_stop_status gives");
_Static_assert(EV_STATS_STOP_FINISHED == EVI_STOP_FINISHED,
	       "the public number of a finished thread");

static int on_stop(ev_stats *st, const ev_event *ev, evi_cap_use *u)
{
	uint32_t tid = ev_load32(ev->payload);
	unsigned status = evi_stop_status(ev_load16(ev->payload + 4),
					  st->quirks);
	ev_stats_thread *t = evi_thread_get(st, tid);

	if (!t)
		return st->diag.status;
	t->stops++;
	t->stops_by_reason[status]++;
	st->an.total.stops++;
	st->an.total.stops_by_reason[status]++;
	if (u->running && u->tid == tid)
		end_run(st, u, t, ev->time);
	return EV_OK;
}

static int on_migrate(ev_stats *st, const ev_event *ev, evi_cap_use *u)
{
	ev_stats_thread *t = evi_thread_get(st, ev_load32(ev->payload));
	uint16_t to = ev_load16(ev->payload + 4);
	evi_cap_use *dest;

	if (!t)
		return st->diag.status;
	t->migrations++;
	st->an.total.migrations++;
	u->migrations_out++;
	if (to != EV_NO_CAP) {
		if (!(dest = evi_cap_use_get(st, to)))
			return st->diag.status;
		dest->migrations_in++;
	}
	return EV_OK;
}

/* The label's text: the payload after the tid, without trailing NULs,
 * cut at a character boundary to EV_STATS_MAX_LABEL bytes. */
static int on_label(ev_stats *st, const ev_event *ev)
{
	ev_stats_thread *t = evi_thread_get(st, ev_load32(ev->payload));
	const char *text = (const char *)ev->payload + LABEL_TEXT;
	size_t len = ev->size - LABEL_TEXT;
	char *copy;

	if (!t)
		return st->diag.status;
	if (t == &st->an.others)
		return EV_OK;
	while (len > 0 && text[len - 1] == '\0')
		len--;
	if (!(copy = evi_text_copy(text, len, EV_STATS_MAX_LABEL, NULL)))
		return evi_fail(&st->diag, EV_ENOMEM, 0, 0, "out of memory");
	free((char *)t->label);
	t->label = copy;
	return EV_OK;
}

static void on_gc_start(evi_cap_use *u, const ev_event *ev)
{
	u->in_gc = 1;
	u->gc_start = ev->time;
}

static void on_gc_end(evi_cap_use *u, const ev_event *ev)
{
	if (u->in_gc && ev->time >= u->gc_start)
		u->gc_ns += ev->time - u->gc_start;
	u->in_gc = 0;
}

int evi_threads_add(ev_stats *st, const ev_event *ev)
{
	evi_cap_use *u;
	int rc;

	st->an.started = 1;
	if (ev->cap == EV_NO_CAP)
		return EV_OK;
	switch (ev->type) {
	case EV_RUN_THREAD:
	case EV_STOP_THREAD:
	case EV_MIGRATE_THREAD:
	case EV_THREAD_LABEL:
	case EV_GC_START:
	case EV_GC_END:
		break;
	default:
		return EV_OK;
	}
	if ((rc = evi_need_fast(&st->need, &st->diag, ev,
				"the thread figures need")) < 0)
		return rc;
	if (!(u = evi_cap_use_get(st, ev->cap)))
		return st->diag.status;
	switch (ev->type) {
	case EV_RUN_THREAD:
		return on_run(st, ev, u);
	case EV_STOP_THREAD:
		return on_stop(st, ev, u);
	case EV_MIGRATE_THREAD:
		return on_migrate(st, ev, u);
	case EV_THREAD_LABEL:
		return on_label(st, ev);
	case EV_GC_START:
		on_gc_start(u, ev);
		return EV_OK;
	default:
		on_gc_end(u, ev);
		return EV_OK;
	}
}

/* ---- the end ---- */

static void fill_capability(ev_stats *st, size_t cap, ev_stats_capability *o)
{
	const evi_stats_cap *c = cap < st->n_caps ? &st->caps[cap] : NULL;
	const evi_cap_use *u = cap < st->an.n_uses ? &st->an.uses[cap] : NULL;
	evi_stats_proc *p = c && c->seen ? evi_stats_cap_owner(st, c) : NULL;
	uint64_t busy;

	memset(o, 0, sizeof *o);
	o->cap = (uint16_t)cap;
	if (p) {
		o->have_process = 1;
		o->capset = p->pub.capset;
		o->span_ns = p->pub.elapsed_ns;
	} else if (c && c->seen) {
		o->span_ns = c->last_time - c->first_time;
	}
	if (u) {
		o->mutator_ns = u->mutator_ns;
		o->gc_ns = u->gc_ns;
		o->runs = u->runs;
		o->migrations_out = u->migrations_out;
		o->migrations_in = u->migrations_in;
	}
	busy = o->mutator_ns + o->gc_ns;
	o->idle_ns = o->span_ns > busy ? o->span_ns - busy : 0;
}

static int cap_was_used(const ev_stats *st, size_t cap)
{
	return (cap < st->n_caps && st->caps[cap].seen) ||
	       (cap < st->an.n_uses && st->an.uses[cap].migrations_in);
}

int evi_threads_finish(ev_stats *st)
{
	evi_analysis *an = &st->an;
	size_t n = an->n_uses > st->n_caps ? an->n_uses : st->n_caps, k = 0;

	/* A run still open at the end lasted to its cap's last event. */
	for (size_t i = 0; i < an->n_uses && i < st->n_caps; i++) {
		evi_cap_use *u = &an->uses[i];
		if (u->running)
			end_run(st, u, evi_thread_get(st, u->tid),
				st->caps[i].last_time);
	}
	for (size_t i = 0; i < n; i++)
		k += cap_was_used(st, i);
	if (k && !(an->caps = calloc(k, sizeof *an->caps)))
		return evi_fail(&st->diag, EV_ENOMEM, 0, 0, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (cap_was_used(st, i))
			fill_capability(st, i, &an->caps[an->n_caps++]);
	return EV_OK;
}

void evi_threads_free(evi_analysis *an)
{
	for (size_t i = 0; i < an->n_threads; i++)
		free((char *)an->threads[i].label);
	free(an->threads);
	evi_idmap_free(&an->index);
	free(an->uses);
	free(an->caps);
}

/* ---- the public accessors ---- */

int ev_stats_keep_threads(ev_stats *st)
{
	if (st->an.started)
		return evi_fail(&st->diag, EV_EINVAL, 0, 0,
				"ev_stats_keep_threads after the first event");
	st->an.keep_threads = 1;
	return EV_OK;
}

size_t ev_stats_thread_count(const ev_stats *st)
{
	return st->an.n_threads;
}

const ev_stats_thread *ev_stats_thread_at(const ev_stats *st, size_t i)
{
	return i < st->an.n_threads ? &st->an.threads[i] : NULL;
}

const ev_stats_thread *ev_stats_thread_total(const ev_stats *st)
{
	return &st->an.total;
}

const ev_stats_thread *ev_stats_thread_others(const ev_stats *st)
{
	return st->an.have_others ? &st->an.others : NULL;
}

const char *ev_stats_stop_reason_name(unsigned code)
{
	return evi_stop_status_text(code);
}

size_t ev_stats_capability_count(const ev_stats *st)
{
	return st->an.n_caps;
}

const ev_stats_capability *ev_stats_capability_at(const ev_stats *st,
						   size_t i)
{
	return i < st->an.n_caps ? &st->an.caps[i] : NULL;
}

size_t ev_stats_live_cap_limit(const ev_stats *st)
{
	return st->an.n_uses > st->n_caps ? st->an.n_uses : st->n_caps;
}

int ev_stats_live_capability_at(ev_stats *st, size_t cap,
				ev_stats_capability *out)
{
	if (st->finished || !cap_was_used(st, cap))
		return EV_EINVAL;
	fill_capability(st, cap, out);
	/* Its process's elapsed time is known at the finish only. */
	if (cap < st->n_caps && st->caps[cap].seen)
		out->span_ns = st->caps[cap].last_time - st->caps[cap].first_time;
	out->idle_ns = out->span_ns > out->mutator_ns + out->gc_ns
		? out->span_ns - out->mutator_ns - out->gc_ns : 0;
	return EV_OK;
}
