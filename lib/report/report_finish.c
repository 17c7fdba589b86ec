/*
 * The results of a report: the buckets that cover the log, every
 * capability given to its process (by capsets.h's rule, as stats gives
 * it), markers by process, heap bands.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "report_internal.h"

/* The process capability `c` belongs to (capsets.h's rule): index into
 * rep->procs, or rep->procs.n for "no known process". */
static size_t process_of(const ev_report *rep, const evi_report_cap *c)
{
	const evi_report_proc *only =
		rep->procs.n == 1 ? evi_report_proc_at(rep, 0) : NULL;
	uint32_t capset;

	if (!evi_cap_claim_owner(&c->claim, rep->procs.n,
				 only ? only->capset : 0, &capset))
		return rep->procs.n;
	return evi_capsets_search(&rep->procs, capset);
}

static size_t caps_of(const ev_report *rep, size_t proc)
{
	size_t n = 0;

	for (size_t c = 0; c < rep->n_caps; c++)
		n += rep->caps[c].seen && process_of(rep, &rep->caps[c]) == proc;
	return n;
}

/* A capability is idle over its process's run before its first event
 * and after its last, as ev_stats_capability counts it (idle is the run's
 * time neither running nor in GC), within the events the grid covers. */
static void idle_over_run(ev_report *rep, evi_report_cap *c, size_t proc)
{
	const evi_report_proc *p = evi_report_proc_at(rep, proc);
	const ev_stats_process *sp = NULL;
	uint64_t start, end;

	for (size_t i = 0; i < ev_stats_process_count(rep->stats); i++)
		if (ev_stats_process_at(rep->stats, i)->capset == p->capset)
			sp = ev_stats_process_at(rep->stats, i);
	if (!sp)
		return;
	start = sp->start_ns > rep->first_ns ? sp->start_ns : rep->first_ns;
	end = sp->end_ns < rep->last_ns ? sp->end_ns : rep->last_ns;
	if (start < c->first)
		evi_report_spread(rep, c->b, EVI_CAP_IDLE, start, c->first);
	if (c->since < end)
		evi_report_spread(rep, c->b, EVI_CAP_IDLE, c->since, end);
}

static size_t marker_proc(const ev_report *rep, const evi_report_marker *m)
{
	if (m->cap == EV_NO_CAP || m->cap >= rep->n_caps)
		return rep->procs.n == 1 ? 0 : rep->procs.n;
	return process_of(rep, &rep->caps[m->cap]);
}

/* Fills output process `o` from internal process `i` (rep->procs.n: the
 * unknown one), taking its caps and markers from the shared arrays. */
static void fill_process(ev_report *rep, size_t i, ev_report_process *o,
			 ev_report_cap **caps, ev_report_marker **markers,
			 size_t first)
{
	o->caps = *caps;
	for (size_t c = 0; c < rep->n_caps; c++) {
		const evi_report_cap *rc = &rep->caps[c];
		if (!rc->seen || process_of(rep, rc) != i)
			continue;
		(*caps)[o->n_caps++] = (ev_report_cap){ (uint16_t)c,
							 rc->b + first };
		o->markers_dropped += rc->markers_dropped;
	}
	*caps += o->n_caps;
	o->markers = *markers;
	for (size_t m = 0; m < rep->n_markers; m++) {
		const evi_report_marker *im = &rep->markers[m];
		if (marker_proc(rep, im) == i)
			(*markers)[o->n_markers++] = (ev_report_marker){
				im->time, im->cap, im->text };
	}
	*markers += o->n_markers;
	if (i == rep->procs.n)
		return;
	const evi_report_proc *p = evi_report_proc_at(rep, i);
	o->capset = p->capset;
	o->known = 1;
	o->have_pid = p->have_pid;
	o->pid = p->pid;
	o->rts_identifier = p->rts_identifier;
	o->args = p->args;
	o->args_len = p->args_len;
	o->have_heap = p->have_heap;
	o->heap = p->heap + first;
}

/* Processes that are one: an OS-process capset, or caps of none. Heap
 * events name a capset and make it a process too. */
static int is_process(const evi_report_proc *p)
{
	return p->os_process || p->have_heap;
}

/* Whether stats calls the process of `capset` a slice of its run. */
static int is_slice(const ev_report *rep, uint32_t capset)
{
	for (size_t i = 0; i < ev_stats_process_count(rep->stats); i++) {
		const ev_stats_process *s = ev_stats_process_at(rep->stats, i);
		if (s->capset == capset)
			return s->slice;
	}
	return 0;
}

/* A slice's running totals count from their first value (as stats
 * counts them): each capability's first HEAP_ALLOCATED, the allocation
 * of the run before the slice, leaves the bucket it went into. */
static void slice_baselines(ev_report *rep)
{
	for (size_t i = 0; i < rep->n_caps; i++) {
		const evi_report_cap *c = &rep->caps[i];
		evi_report_proc *p;
		ev_report_heap_bucket *h;
		if (!c->have_alloc || !is_slice(rep, c->first_alloc_capset) ||
		    !(p = evi_capsets_find(&rep->procs, c->first_alloc_capset)))
			continue;
		h = &p->heap[evi_grid_index(&rep->grid, c->first_alloc_ns)];
		h->allocated_bytes -= c->first_alloc < h->allocated_bytes
					      ? c->first_alloc
					      : h->allocated_bytes;
	}
}

int evi_report_finish(ev_report *rep)
{
	size_t first = 0, count = 0, unknown, n_out = 0;
	ev_report_cap *caps;
	ev_report_marker *markers;

	if (rep->finished)
		return evi_fail(&rep->diag, EV_EINVAL, 0, 0,
				"evi_report_finish called twice");
	rep->finished = 1;
	if (ev_stats_finish(rep->stats) < 0) {
		rep->diag = *ev_stats_diag(rep->stats);
		return rep->diag.status;
	}
	slice_baselines(rep);
	if (rep->grid.set) {
		first = evi_grid_index(&rep->grid, rep->first_ns);
		count = evi_grid_index(&rep->grid, rep->last_ns) - first + 1;
		rep->out_grid = (ev_report_grid){
			rep->grid.base + first * rep->grid.width,
			rep->grid.width, count, rep->first_ns, rep->last_ns };
	}
	for (size_t c = 0; c < rep->n_caps; c++) {
		size_t proc = rep->caps[c].seen && rep->caps[c].b
				      ? process_of(rep, &rep->caps[c])
				      : rep->procs.n;
		if (proc < rep->procs.n)
			idle_over_run(rep, &rep->caps[c], proc);
	}
	unknown = caps_of(rep, rep->procs.n);
	rep->out = calloc(rep->procs.n + 1, sizeof *rep->out);
	rep->out_caps = calloc(rep->n_caps + 1, sizeof *rep->out_caps);
	rep->out_markers = calloc(rep->n_markers + 1,
				  sizeof *rep->out_markers);
	if (!rep->out || !rep->out_caps || !rep->out_markers)
		return evi_fail(&rep->diag, EV_ENOMEM, 0, 0, "out of memory");
	caps = rep->out_caps;
	markers = rep->out_markers;
	for (size_t i = 0; i < rep->procs.n; i++)
		if (is_process(evi_report_proc_at(rep, i)))
			fill_process(rep, i, &rep->out[n_out++], &caps,
				     &markers, first);
	if (unknown)
		fill_process(rep, rep->procs.n, &rep->out[n_out++], &caps,
			     &markers, first);
	rep->n_out = n_out;
	evi_report_spans_finish(rep, first);
	return evi_report_profile_finish(rep, first, count);
}

const ev_report_grid *ev_report_buckets(const ev_report *rep)
{
	return &rep->out_grid;
}

size_t ev_report_process_count(const ev_report *rep)
{
	return rep->finished ? rep->n_out : 0;
}

const ev_report_process *ev_report_process_at(const ev_report *rep, size_t i)
{
	return rep->finished && i < rep->n_out ? &rep->out[i] : NULL;
}

const ev_report_profile *ev_report_heap_profile(const ev_report *rep)
{
	return rep->finished && rep->out_sampled ? &rep->out_profile : NULL;
}
