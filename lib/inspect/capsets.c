/*
 * The processes of a log keyed by capset (capsets.h): one sorted table and
 * one rule for which process a capability belongs to, used by stats and
 * report.
 *
 * Layering: lib/inspect, called by stats (stats_procs.c) and report
 * (report.c, report_finish.c); it calls only lib/format.
 */
#include <stdlib.h>
#include <string.h>

#include "capsets.h"

int evi_cap_claim_owner(const evi_cap_claim *c, size_t n_procs,
			uint32_t only, uint32_t *capset)
{
	if (c->have_process)
		*capset = c->process;
	else if (c->have_heap)
		*capset = c->heap;
	else if (n_procs == 1)
		*capset = only;
	else
		return 0;
	return 1;
}

size_t evi_capsets_search(const evi_capsets *t, uint32_t capset)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (evi_capsets_key(t, mid) < capset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void *evi_capsets_find(const evi_capsets *t, uint32_t capset)
{
	size_t at = evi_capsets_search(t, capset);

	return at < t->n && evi_capsets_key(t, at) == capset ? t->items[at]
							     : NULL;
}

void *evi_capsets_get(evi_capsets *t, uint32_t capset, ev_diag *d)
{
	size_t at = evi_capsets_search(t, capset);
	void *r;

	if (at < t->n && evi_capsets_key(t, at) == capset)
		return t->items[at];
	if (t->n == t->max) {
		evi_fail(d, EV_ELIMIT, 0, 0, "more than %u processes (capsets)",
			 t->max);
		return NULL;
	}
	if (t->n == t->alloc &&
	    evi_grow_zeroed(d, &t->items, &t->alloc, t->n,
			    sizeof *t->items) < 0)
		return NULL;
	if (!(r = calloc(1, t->record_size))) {
		evi_fail(d, EV_ENOMEM, 0, 0, "out of memory");
		return NULL;
	}
	memcpy((char *)r + t->key_offset, &capset, sizeof capset);
	memmove(t->items + at + 1, t->items + at,
		(t->n - at) * sizeof *t->items);
	t->items[at] = r;
	t->n++;
	return r;
}

void evi_capsets_free(evi_capsets *t)
{
	free(t->items);
	t->items = NULL;
	t->n = t->alloc = 0;
}
