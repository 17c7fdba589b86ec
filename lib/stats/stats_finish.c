/*
 * The `+RTS -s` summaries, once every event has been added: capabilities
 * are given to their processes and the derived figures computed the way
 * rts/Stats.c (stat_exitReport) computes them.
 *
 * Layering, calls going one way only: this file -> stats_threads.c and
 * stats_procs.c. It calls down into stats_threads.c (finishing the
 * threads) and stats_procs.c (the table of processes, which process owns
 * a capability, which the threads use too); nothing there calls up into
 * it.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "stats_internal.h"

/* GHC's megablock, for MEM_RETURN when no HEAP_INFO_GHC says otherwise. */
#define DEFAULT_MBLOCK_SIZE (1u << 20)

/* A log without capsets and heap events (a killed GHC 9.0 program loses
 * its global buffer) is still one process: GHC's capset 0. */
static int ensure_a_process(ev_stats *st)
{
	if (st->procs.n > 0)
		return EV_OK;
	for (size_t i = 0; i < st->n_caps; i++)
		if (st->caps[i].seen)
			return evi_stats_proc_get(st, 0, 1) ? EV_OK
							    : st->diag.status;
	return EV_OK;
}

/* A running total of a cap: from 0 (the RTS's start), or in a slice from
 * its first value there. */
static uint64_t counted(uint64_t last, uint64_t first, int slice)
{
	return slice && last >= first ? last - first : last;
}

/* A process's time ends at its capabilities' last event that is not
 * metadata (in a whole run, its last event: measured on every testdata
 * and corpus log), as a slice's starts at its first (find_slice): so
 * metadata stamped after a slice's window (a later thread's THREAD_LABEL,
 * in a slice cut by another tool or an older filter) does not stretch it,
 * and a slice of an idle window, whose capabilities hold metadata only,
 * has no elapsed time. */
static uint64_t work_end(const evi_stats_cap *c)
{
	return c->have_work ? c->last_work : 0;
}

static void give_cap(ev_stats_process *p, const evi_stats_cap *c)
{
	const uint64_t *base = c->first_sparks;
	int sl = p->slice;

	p->caps++;
	p->allocated_bytes += counted(c->allocated, c->first_allocated, sl);
	if (c->have_sparks) {
		ev_stats_sparks *s = &p->sparks;
		/* SPARK_COUNTERS order: created, dud, overflowed,
		 * converted, gcd, fizzled (doc/format.md section 5). */
		s->created += counted(c->sparks[0], base[0], sl);
		s->dud += counted(c->sparks[1], base[1], sl);
		s->overflowed += counted(c->sparks[2], base[2], sl);
		s->converted += counted(c->sparks[3], base[3], sl);
		s->gcd += counted(c->sparks[4], base[4], sl);
		s->fizzled += counted(c->sparks[5], base[5], sl);
		p->have_sparks = 1;
	}
	if (p->caps == 1 || c->first_time < p->start_ns)
		p->start_ns = c->first_time;
	if (work_end(c) > p->end_ns)
		p->end_ns = work_end(c);
}

/* Whether process `p` is a slice of its run (slice.h): its capabilities'
 * first event that is not metadata comes long after its start, its
 * CAPSET_CREATE (else the log's first event). Sets p->slice_start_ns to
 * that first event. */
static void find_slice(ev_stats *st, const evi_stats_proc *p,
		       ev_stats_process *o)
{
	uint64_t start = p->have_created ? p->created_ns : st->first_time;
	uint64_t work = 0;
	int have_work = 0;

	for (size_t i = 0; i < st->n_caps; i++) {
		const evi_stats_cap *c = &st->caps[i];
		if (!c->seen || !c->have_work || evi_stats_cap_owner(st, c) != p)
			continue;
		if (!have_work || c->first_work < work)
			work = c->first_work;
		have_work = 1;
	}
	o->slice = have_work && evi_is_slice(start, work);
	if (o->slice)
		o->slice_start_ns = work;
}

static void attribute_caps(ev_stats *st)
{
	for (size_t i = 0; i < st->procs.n; i++)
		find_slice(st, evi_stats_proc_at(st, i),
			   &evi_stats_proc_at(st, i)->pub);
	for (size_t i = 0; i < st->n_caps; i++) {
		evi_stats_cap *c = &st->caps[i];
		evi_stats_proc *p;
		evi_stats_gc_untimed(st, c); /* a pause never completed */
		if (!c->seen)
			continue;
		if ((p = evi_stats_cap_owner(st, c)))
			give_cap(&p->pub, c);
		else
			st->unattributed++;
	}
}

/* The figures rts/Stats.c derives at exit, from the counted ones. */
static void derive(const evi_stats_proc *p, ev_stats_process *o,
		   int one_process)
{
	uint64_t mblock = p->mblock_size ? p->mblock_size : DEFAULT_MBLOCK_SIZE;

	o->n_gens = p->gens_seen > p->info_gens ? p->gens_seen : p->info_gens;
	o->gens = p->gens;
	/* Slop counts at major collections only (stat_endGC). */
	if (o->n_gens > 0)
		o->max_slop_bytes = p->gens[o->n_gens - 1].max_slop_bytes;
	if ((uint64_t)p->max_mem_return * mblock > o->max_mem_bytes)
		o->max_mem_bytes = (uint64_t)p->max_mem_return * mblock;
	o->sparks_total = o->sparks.created + o->sparks.dud +
			  o->sparks.overflowed;
	/* Note [Work Balance] in rts/Stats.c. */
	o->work_balance = o->par_copied_bytes
		? (double)o->par_balanced_copied_bytes /
		  (double)o->par_copied_bytes
		: 0.0;
	/* A log's timestamps count from its RTS's start; in a merged log
	 * that instant is lost (merge shifts each input's clock), and the
	 * process's first event stands in: its CAPSET_CREATE, else its
	 * capabilities' first; a slice counts from its first event that is
	 * not metadata. */
	if (o->slice)
		o->start_ns = o->slice_start_ns;
	else if (one_process)
		o->start_ns = 0;
	else if (p->have_created && (!o->caps || p->created_ns < o->start_ns))
		o->start_ns = p->created_ns;
	/* With the GC's events, a whole run's last event is the
	 * HEAP_ALLOCATED that stat_exitReport posts right after the clock
	 * reading of its total. A run logged without them (+RTS -l-g,
	 * -l-au) still lasted until hs_exit, which deletes its capset some
	 * 50 us later: that is its end when it comes later. */
	if (!o->slice && !o->have_heap && p->have_deleted &&
	    p->deleted_ns > o->end_ns)
		o->end_ns = p->deleted_ns;
	o->elapsed_ns = o->end_ns > o->start_ns ? o->end_ns - o->start_ns : 0;
	o->mut_elapsed_ns = o->elapsed_ns > o->gc_elapsed_ns
		? o->elapsed_ns - o->gc_elapsed_ns : 0;
	o->productivity = o->elapsed_ns
		? (double)o->mut_elapsed_ns / (double)o->elapsed_ns : 0.0;
	o->alloc_rate = o->mut_elapsed_ns
		? (double)o->allocated_bytes * 1e9 / (double)o->mut_elapsed_ns
		: 0.0;
}

int ev_stats_finish(ev_stats *st)
{
	int rc;

	if (st->finished)
		return evi_fail(&st->diag, EV_EINVAL, 0, 0,
				"ev_stats_finish was called already");
	if ((rc = ensure_a_process(st)) < 0)
		return rc;
	st->finished = 1;
	attribute_caps(st);
	if (st->procs.n && !(st->out = calloc(st->procs.n, sizeof *st->out)))
		return evi_fail(&st->diag, EV_ENOMEM, 0, 0, "out of memory");
	for (size_t i = 0; i < st->procs.n; i++) {
		derive(evi_stats_proc_at(st, i),
		       &evi_stats_proc_at(st, i)->pub, st->procs.n == 1);
		st->out[st->n_out++] = evi_stats_proc_at(st, i)->pub;
	}
	evi_pauses_finish(st);
	if ((rc = evi_threads_finish(st)) < 0 ||
	    (rc = evi_spans_finish(st)) < 0)
		return rc;
	return evi_bands_finish(st);
}

/* Whether a capability posted events: a log without processes is then
 * one, capset 0 (ensure_a_process). */
static int any_cap_seen(const ev_stats *st)
{
	for (size_t i = 0; i < st->n_caps; i++)
		if (st->caps[i].seen)
			return 1;
	return 0;
}

size_t ev_stats_live_count(const ev_stats *st)
{
	if (st->finished)
		return 0;
	return st->procs.n ? st->procs.n : (size_t)any_cap_seen(st);
}

/* ev_stats_finish's summary of one process, on a copy: the caps it owns
 * given to it and the figures derived, the accumulator left as it is. A
 * log without processes yet is the one that ensure_a_process makes. */
int ev_stats_live_process(ev_stats *st, size_t i, ev_stats_process *out)
{
	evi_stats_proc none;
	const evi_stats_proc *p = &none;

	if (i >= ev_stats_live_count(st))
		return EV_EINVAL;
	memset(&none, 0, sizeof none);
	if (st->procs.n)
		p = evi_stats_proc_at(st, i);
	*out = p->pub;
	find_slice(st, p, out);
	for (size_t k = 0; k < st->n_caps; k++) {
		const evi_stats_cap *c = &st->caps[k];
		if (c->seen && (!st->procs.n || evi_stats_cap_owner(st, c) == p))
			give_cap(out, c);
	}
	derive(p, out, st->procs.n <= 1);
	return EV_OK;
}
