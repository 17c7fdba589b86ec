/*
 * The JSON of ev_stats figures: stats --json prints them, report embeds
 * them in its page, with the same keys (schema_version 1); both list the
 * threads in one order (stats_threads_by_run_time).
 */
#include <stdlib.h>

#include "stats_cli.h"
#include "stats_json.h"

static void json_generations(json_out *j, const ev_stats_process *p)
{
	json_begin_array(j, "generations");
	for (unsigned g = 0; g < p->n_gens; g++) {
		const ev_stats_gen *s = &p->gens[g];
		json_begin_object(j, NULL);
		json_uint(j, "gen", g);
		json_uint(j, "collections", s->collections);
		json_uint(j, "par_collections", s->par_collections);
		json_uint(j, "elapsed_ns", s->elapsed_ns);
		json_uint(j, "avg_pause_ns",
			  s->collections ? s->elapsed_ns / s->collections : 0);
		json_uint(j, "max_pause_ns", s->max_pause_ns);
		json_uint(j, "max_slop_bytes", s->max_slop_bytes);
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_sparks(json_out *j, const ev_stats_process *p)
{
	if (!p->have_sparks) {
		json_null(j, "sparks");
		return;
	}
	json_begin_object(j, "sparks");
	json_uint(j, "total", p->sparks_total);
	json_uint(j, "created", p->sparks.created);
	json_uint(j, "converted", p->sparks.converted);
	json_uint(j, "overflowed", p->sparks.overflowed);
	json_uint(j, "dud", p->sparks.dud);
	json_uint(j, "gcd", p->sparks.gcd);
	json_uint(j, "fizzled", p->sparks.fizzled);
	json_end_object(j);
}

static void json_heap(json_out *j, const ev_stats_process *p)
{
	json_bool(j, "heap_statistics", p->have_heap);
	json_uint(j, "allocated_bytes", p->allocated_bytes);
	json_uint(j, "copied_bytes", p->copied_bytes);
	json_uint(j, "max_live_bytes", p->max_live_bytes);
	json_uint(j, "live_samples", p->live_samples);
	json_uint(j, "max_slop_bytes", p->max_slop_bytes);
	json_uint(j, "max_mem_in_use_bytes", p->max_mem_bytes);
	json_generations(j, p);
	json_uint(j, "collections", p->collections);
	json_uint(j, "untimed_collections", p->untimed_collections);
	json_uint(j, "par_copied_bytes", p->par_copied_bytes);
	json_uint(j, "par_balanced_copied_bytes", p->par_balanced_copied_bytes);
	if (p->have_balance)
		json_double(j, "work_balance", p->work_balance);
	else
		json_null(j, "work_balance");
}

void stats_json_pause_fields(json_out *j, const ev_stats_pauses *s)
{
	json_uint(j, "count", s->count);
	json_uint(j, "total_ns", s->total_ns);
	json_uint(j, "min_ns", s->min_ns);
	json_uint(j, "p50_ns", s->p50_ns);
	json_uint(j, "p90_ns", s->p90_ns);
	json_uint(j, "p99_ns", s->p99_ns);
	json_uint(j, "max_ns", s->max_ns);
	json_begin_array(j, "longest");
	for (size_t i = 0; i < s->n_longest; i++) {
		json_begin_object(j, NULL);
		json_uint(j, "start_ns", s->longest[i].start_ns);
		json_uint(j, "duration_ns", s->longest[i].duration_ns);
		json_uint(j, "gen", s->longest[i].gen);
		json_uint(j, "cap", s->longest[i].cap);
		json_end_object(j);
	}
	json_end_array(j);
}

/* "pauses": {"all": {...}, "generations": [{"gen": 0, ...}]}, or null. */
static void json_pauses(json_out *j, const ev_stats *st, size_t process)
{
	const ev_stats_pauses *all =
		ev_stats_pauses_at(st, process, EV_STATS_ALL_GENS);
	const ev_stats_process *p = ev_stats_process_at(st, process);

	if (!all) {
		json_null(j, "pauses");
		return;
	}
	json_begin_object(j, "pauses");
	json_begin_object(j, "all");
	stats_json_pause_fields(j, all);
	json_end_object(j);
	json_begin_array(j, "generations");
	for (unsigned g = 0; g < p->n_gens; g++) {
		const ev_stats_pauses *s = ev_stats_pauses_at(st, process, g);
		if (!s)
			continue;
		json_begin_object(j, NULL);
		json_uint(j, "gen", g);
		stats_json_pause_fields(j, s);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

/* "figures": the values --fail-if and the comparison use, by name. */
static void json_figures(json_out *j, const ev_stats *st, size_t process)
{
	json_begin_object(j, "figures");
	for (size_t i = 0; i < ev_stats_figure_count(); i++) {
		const ev_stats_figure *fig = ev_stats_figure_at(i);
		double v;
		if (ev_stats_figure_value(st, process, i, &v) != EV_OK)
			json_null(j, fig->name);
		else if (fig->unit == EV_STATS_UNIT_RATIO ||
			 fig->unit == EV_STATS_UNIT_BYTES_PER_S)
			json_double(j, fig->name, v);
		else
			json_uint(j, fig->name, (uint64_t)v);
	}
	json_end_object(j);
}

void stats_json_thread(json_out *j, const char *key,
		       const ev_stats_thread *t)
{
	json_begin_object(j, key);
	json_uint(j, "thread", t->tid);
	t->label ? json_cstring(j, "label", t->label) : json_null(j, "label");
	json_uint(j, "runs", t->runs);
	json_uint(j, "run_ns", t->run_ns);
	json_uint(j, "migrations", t->migrations);
	json_uint(j, "stops", t->stops);
	json_begin_array(j, "stop_reasons");
	for (unsigned r = 0; r < EV_STATS_STOP_REASONS; r++) {
		if (!t->stops_by_reason[r])
			continue;
		json_begin_object(j, NULL);
		json_uint(j, "status", r);
		json_cstring(j, "reason", ev_stats_stop_reason_name(r));
		json_uint(j, "count", t->stops_by_reason[r]);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

void stats_json_process(json_out *j, const char *key, const ev_stats *st,
			size_t i)
{
	const ev_stats_process *p = ev_stats_process_at(st, i);

	json_begin_object(j, key);
	json_uint(j, "capset", p->capset);
	p->have_pid ? json_uint(j, "pid", p->pid) : json_null(j, "pid");
	json_uint(j, "capabilities", p->caps);
	json_bool(j, "slice", p->slice);
	json_heap(j, p);
	json_sparks(j, p);
	json_uint(j, "start_ns", p->start_ns);
	json_uint(j, "end_ns", p->end_ns);
	json_uint(j, "elapsed_ns", p->elapsed_ns);
	json_uint(j, "gc_elapsed_ns", p->gc_elapsed_ns);
	json_uint(j, "mut_elapsed_ns", p->mut_elapsed_ns);
	json_double(j, "productivity", p->productivity);
	json_double(j, "alloc_rate", p->alloc_rate);
	json_pauses(j, st, i);
	json_figures(j, st, i);
	json_end_object(j);
}

/* Most run time first, ties by thread id. */
static int by_run_time(const void *a, const void *b)
{
	const ev_stats_thread *x = *(const void *const *)a;
	const ev_stats_thread *y = *(const void *const *)b;

	if (x->run_ns != y->run_ns)
		return x->run_ns < y->run_ns ? 1 : -1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static const void *thread_at(const ev_stats *st, size_t i)
{
	return ev_stats_thread_at(st, i);
}

const void **stats_threads_by_run_time(const ev_stats *st)
{
	return stats_sorted(st, ev_stats_thread_count(st), thread_at,
			    by_run_time);
}

/* The threads in the text's order, which the order of the events does
 * not change (the order of first sight does: a sorted log's differs). */
int stats_json_threads(json_out *j, const ev_stats *st, size_t max)
{
	const ev_stats_thread *others = ev_stats_thread_others(st);
	const void **order = stats_threads_by_run_time(st);
	size_t n = ev_stats_thread_count(st);

	json_begin_object(j, "threads");
	json_uint(j, "count", n);
	stats_json_thread(j, "total", ev_stats_thread_total(st));
	if (others)
		stats_json_thread(j, "others", others);
	else
		json_null(j, "others");
	if (order) {
		json_begin_array(j, "list");
		for (size_t i = 0; i < n && i < max; i++)
			stats_json_thread(j, NULL, order[i]);
		json_end_array(j);
	} else {
		json_null(j, "list"); /* out of memory, as the text's "no list" */
	}
	json_end_object(j);
	if (!order)
		return -1;
	free(order);
	return 0;
}
