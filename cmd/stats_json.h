/* The JSON form of ev_stats figures, shared by stats and report. */
#ifndef EVTOOL_CMD_STATS_JSON_H
#define EVTOOL_CMD_STATS_JSON_H

#include <evtool/evtool.h>

#include "json.h"

/* Prints process `i` of `st` (finished) as one JSON object, member `key`
 * of the enclosing object (NULL in an array): its +RTS -s figures, its
 * pauses and its named figures, with the keys of `evtool stats --json`. */
void stats_json_process(json_out *j, const char *key, const ev_stats *st,
			size_t i);

/* The members of a set of pauses (count, total_ns, min_ns, p50_ns,
 * p90_ns, p99_ns, max_ns, longest) as `evtool stats --json` prints each
 * of "pauses". */
void stats_json_pause_fields(json_out *j, const ev_stats_pauses *s);

/* Prints thread `t` as one JSON object, member `key` (NULL in an array),
 * as `evtool stats --json --threads` does. */
void stats_json_thread(json_out *j, const char *key,
		       const ev_stats_thread *t);

/* The threads of `st` (finished), most run time first, ties by thread
 * id: an array of ev_stats_thread_count() pointers to its
 * ev_stats_thread items, to free(), NULL when out of memory. */
const void **stats_threads_by_run_time(const ev_stats *st);

/* The member "threads" of `st` (finished): the count, the total, the
 * others (null when none) and the list of at most `max` of them in the
 * order above; -1 when out of memory (the list is then null). */
int stats_json_threads(json_out *j, const ev_stats *st, size_t max);

/* The spans of `st` (finished), most total time first, as the member
 * "spans" of the enclosing object: every figure, per thread too
 * (cmd/stats_spans.c). */
void stats_json_spans(json_out *j, const ev_stats *st);

/* The heap-profile bands of two finished runs `a` (base) and `b` (new),
 * both with a profile of one breakdown, as the member "heap_bands": the
 * `top` bands whose peak changed most, then the rest summed
 * (cmd/stats_heap.c). 0, or -1 out of memory. */
int stats_json_bands(json_out *j, const ev_stats *a, const ev_stats *b,
		     size_t top);

#endif
