/*
 * The table of processes of an ev_stats accumulator, sorted by capset,
 * and the process a capability belongs to.
 *
 * Layering: the bottom of stats (stats.c, stats_threads.c and
 * stats_finish.c -> this file). It calls no function of the other stats
 * files; these helpers live here because all of them use them.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "stats_internal.h"

/* Index of the first process whose capset is >= `capset`. */
static size_t proc_search(const ev_stats *st, uint32_t capset)
{
	size_t lo = 0, hi = st->n_procs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (st->procs[mid]->pub.capset < capset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static evi_stats_proc *proc_insert(ev_stats *st, size_t at, uint32_t capset)
{
	evi_stats_proc *p;

	if (st->n_procs == EV_STATS_MAX_PROCESSES) {
		evi_fail(&st->diag, EV_ELIMIT, 0, 0,
			 "more than %u processes (capsets)",
			 EV_STATS_MAX_PROCESSES);
		return NULL;
	}
	if (st->n_procs == st->procs_alloc &&
	    evi_grow_zeroed(&st->diag, &st->procs, &st->procs_alloc,
			    st->n_procs, sizeof *st->procs) < 0)
		return NULL;
	if (!(p = calloc(1, sizeof *p)))
		goto nomem;
	p->pub.capset = capset;
	memmove(st->procs + at + 1, st->procs + at,
		(st->n_procs - at) * sizeof *st->procs);
	st->procs[at] = p;
	st->n_procs++;
	return p;
nomem:
	evi_fail(&st->diag, EV_ENOMEM, 0, 0, "out of memory");
	return NULL;
}

evi_stats_proc *evi_stats_proc_get(ev_stats *st, uint32_t capset,
				   int create)
{
	size_t at = proc_search(st, capset);

	if (at < st->n_procs && st->procs[at]->pub.capset == capset)
		return st->procs[at];
	return create ? proc_insert(st, at, capset) : NULL;
}

/* The process a capability belongs to: the OS-process capset it was
 * assigned to, else the capset its heap events name, else the only
 * process there is; NULL when none of these holds. */
evi_stats_proc *evi_stats_cap_owner(ev_stats *st, const evi_stats_cap *c)
{
	if (c->have_process)
		return evi_stats_proc_get(st, c->process, 0);
	if (c->have_heap_capset)
		return evi_stats_proc_get(st, c->heap_capset, 0);
	return st->n_procs == 1 ? st->procs[0] : NULL;
}
