/*
 * The processes of an ev_stats accumulator (a table of capsets.h, sorted
 * by capset) and the process a capability belongs to (capsets.h's rule).
 *
 * Layering: the bottom of stats (stats.c, stats_threads.c and
 * stats_finish.c -> this file). It calls no function of the other stats
 * files; these helpers live here because all of them use them.
 */
#include "internal.h"
#include "stats_internal.h"

evi_stats_proc *evi_stats_proc_get(ev_stats *st, uint32_t capset,
				   int create)
{
	return create ? evi_capsets_get(&st->procs, capset, &st->diag)
		      : evi_capsets_find(&st->procs, capset);
}

/* The process a capability belongs to, by the one rule of capsets.h. */
evi_stats_proc *evi_stats_cap_owner(ev_stats *st, const evi_stats_cap *c)
{
	const evi_stats_proc *only =
		st->procs.n == 1 ? evi_stats_proc_at(st, 0) : NULL;
	uint32_t capset;

	if (!evi_cap_claim_owner(&c->claim, st->procs.n,
				 only ? only->pub.capset : 0, &capset))
		return NULL;
	return evi_stats_proc_get(st, capset, 0);
}

void evi_stats_gc_untimed(ev_stats *st, evi_stats_cap *c)
{
	evi_stats_proc *p;

	if (c->gc_counted && (p = evi_stats_proc_get(st, c->gc_capset, 0)))
		p->pub.untimed_collections++;
	c->gc_counted = 0;
}
