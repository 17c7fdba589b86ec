/*
 * One process's `+RTS -s` figures as a JSON object: stats --json prints
 * them, report embeds them in its page, with the same keys.
 */
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

void stats_json_process(json_out *j, const char *key,
			const ev_stats_process *p)
{
	json_begin_object(j, key);
	json_uint(j, "capset", p->capset);
	p->have_pid ? json_uint(j, "pid", p->pid) : json_null(j, "pid");
	json_uint(j, "capabilities", p->caps);
	json_heap(j, p);
	json_sparks(j, p);
	json_uint(j, "start_ns", p->start_ns);
	json_uint(j, "end_ns", p->end_ns);
	json_uint(j, "elapsed_ns", p->elapsed_ns);
	json_uint(j, "gc_elapsed_ns", p->gc_elapsed_ns);
	json_uint(j, "mut_elapsed_ns", p->mut_elapsed_ns);
	json_double(j, "productivity", p->productivity);
	json_double(j, "alloc_rate", p->alloc_rate);
	json_end_object(j);
}
