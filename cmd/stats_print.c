/*
 * evtool stats, one log's figures as text and JSON, in the layout of
 * rts/Stats.c's report_summary, and the accumulator of one file
 * (stats_file_start, stats_file_end). Used by the command (stats.c), by
 * the comparison (stats_compare.c) and by --follow (stats_follow.c); it
 * calls none of them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats_cli.h"
#include "stats_json.h"

/* ---- text, in the layout of rts/Stats.c report_summary ---- */

static double seconds(uint64_t ns)
{
	return (double)ns / 1e9;
}

static void print_bytes_line(uint64_t v, const char *what)
{
	char num[32];

	printf("%16s %s\n", stats_commas(v, num, sizeof num), what);
}

static void print_memory(const ev_stats_process *p)
{
	char what[64];

	print_bytes_line(p->allocated_bytes, "bytes allocated in the heap");
	print_bytes_line(p->copied_bytes, "bytes copied during GC");
	if (p->live_samples > 0) {
		snprintf(what, sizeof what,
			 "bytes maximum residency (%" PRIu64 " sample(s))",
			 p->live_samples);
		print_bytes_line(p->max_live_bytes, what);
	}
	print_bytes_line(p->max_slop_bytes, "bytes maximum slop");
	printf("%16" PRIu64 " MiB total memory in use\n\n",
	       p->max_mem_bytes / (1024 * 1024));
}

static void print_generations(const ev_stats_process *p)
{
	if (p->n_gens == 0) {
		puts("  no collections\n");
		return;
	}
	puts("                                      Elapsed   Avg pause  Max pause");
	for (unsigned g = 0; g < p->n_gens; g++) {
		const ev_stats_gen *s = &p->gens[g];
		uint64_t avg = s->collections ? s->elapsed_ns / s->collections
					      : 0;
		printf("  Gen %2u     %5" PRIu64 " colls, %5" PRIu64
		       " par   %6.3fs     %3.4fs    %3.4fs\n", g,
		       s->collections, s->par_collections,
		       seconds(s->elapsed_ns), seconds(avg),
		       seconds(s->max_pause_ns));
	}
	if (p->untimed_collections)
		printf("  (%" PRIu64 " collection(s) without their GC_START "
		       "and GC_END: not timed)\n", p->untimed_collections);
	putchar('\n');
	if (p->have_balance && p->par_copied_bytes > 0)
		printf("  Parallel GC work balance: %.2f%% (serial 0%%, "
		       "perfect 100%%)\n\n", p->work_balance * 100);
}

static void print_sparks(const ev_stats_process *p)
{
	const ev_stats_sparks *s = &p->sparks;

	if (!p->have_sparks) {
		puts("  SPARKS: not recorded (no SPARK_COUNTERS events)\n");
		return;
	}
	printf("  SPARKS: %" PRIu64 " (%" PRIu64 " converted, %" PRIu64
	       " overflowed, %" PRIu64 " dud, %" PRIu64 " GC'd, %" PRIu64
	       " fizzled)\n\n", p->sparks_total, s->converted, s->overflowed,
	       s->dud, s->gcd, s->fizzled);
}

static void print_times(const ev_stats_process *p)
{
	char num[32];

	if (!p->have_heap) { /* no GC time: MUT, rate, productivity unknown */
		printf("  Total   time  (%7.3fs elapsed)\n\n",
		       seconds(p->elapsed_ns));
		return;
	}
	printf("  MUT     time  (%7.3fs elapsed)  INIT and EXIT included\n",
	       seconds(p->mut_elapsed_ns));
	printf("  GC      time  (%7.3fs elapsed)\n", seconds(p->gc_elapsed_ns));
	printf("  Total   time  (%7.3fs elapsed)\n\n", seconds(p->elapsed_ns));
	printf("  Alloc rate    %s bytes per MUT second (elapsed)\n\n",
	       stats_commas((uint64_t)p->alloc_rate, num, sizeof num));
	printf("  Productivity %5.1f%% of total elapsed\n",
	       p->productivity * 100);
}

static void print_process(const char *name, const ev_stats_process *p)
{
	printf("%s: process ", name);
	if (p->have_pid)
		printf("%" PRIu32 " (", p->pid);
	else
		printf("(pid unknown, ");
	printf("capset %" PRIu32 ", %u capabilit%s)\n", p->capset, p->caps,
	       p->caps == 1 ? "y" : "ies");
	if (p->slice)
		printf("  a slice of the run, from %.6f s: figures count from "
		       "its first event, not from the start\n\n",
		       seconds(p->slice_start_ns));
	if (p->have_heap) {
		print_memory(p);
		print_generations(p);
	} else {
		puts("  GC and heap: not recorded (no GC_STATS_GHC or HEAP_* "
		     "events)\n");
	}
	print_sparks(p);
	print_times(p);
}


/* ---- text: what the log tells beyond +RTS -s ---- */

static double percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void print_pause_row(const char *what, const ev_stats_pauses *s)
{
	char p50[16], p90[16], p99[16], max[16];

	printf("  %-8s %8" PRIu64 " %9s %9s %9s %9s\n", what, s->count,
	       stats_duration(s->p50_ns, p50, sizeof p50),
	       stats_duration(s->p90_ns, p90, sizeof p90),
	       stats_duration(s->p99_ns, p99, sizeof p99),
	       stats_duration(s->max_ns, max, sizeof max));
}

/* Percentiles overall and per generation, then the longest pauses with
 * when they began (seconds of the log's time) and what they collected. */
static void print_pauses(const ev_stats *st, size_t process)
{
	const ev_stats_pauses *all =
		ev_stats_pauses_at(st, process, EV_STATS_ALL_GENS);
	const ev_stats_process *p = ev_stats_process_at(st, process);
	char what[16], d[16];

	if (!all)
		return;
	puts("\n  GC pauses   count       p50       p90       p99       max");
	print_pause_row("all", all);
	for (unsigned g = 0; g < p->n_gens; g++) {
		const ev_stats_pauses *s = ev_stats_pauses_at(st, process, g);
		snprintf(what, sizeof what, "Gen %u", g);
		if (s)
			print_pause_row(what, s);
	}
	puts("\n  Longest pauses         at  gen  cap");
	for (size_t i = 0; i < all->n_longest; i++) {
		const ev_stats_pause *l = &all->longest[i];
		printf("  %14s %9.6fs %4u %4u\n",
		       stats_duration(l->duration_ns, d, sizeof d),
		       (double)l->start_ns / 1e9, l->gen, l->cap);
	}
}

/* "187 blocked on an MVar, 3 thread yielding": most frequent first;
 * with their shares of all stops when `shares`. */
static void print_reasons(const ev_stats_thread *t, int shares)
{
	char count[32];
	int shown[EV_STATS_STOP_REASONS] = { 0 };
	const char *sep = "";

	for (;;) {
		unsigned best = 0;
		int found = 0;
		for (unsigned r = 0; r < EV_STATS_STOP_REASONS; r++)
			if (!shown[r] && t->stops_by_reason[r] &&
			    (!found ||
			     t->stops_by_reason[r] > t->stops_by_reason[best])) {
				best = r;
				found = 1;
			}
		if (!found)
			return;
		shown[best] = 1;
		printf("%s%s %s", sep,
		       stats_commas(t->stops_by_reason[best], count,
				    sizeof count),
		       ev_stats_stop_reason_name(best));
		if (shares)
			printf(" (%.1f%%)",
			       percent(t->stops_by_reason[best], t->stops));
		sep = ", ";
	}
}

static void print_thread(const ev_stats_thread *t, const char *what)
{
	char runs[32], ns[16], mig[32];

	printf("  %8s %9s %10s %10s  ", what,
	       stats_commas(t->runs, runs, sizeof runs),
	       stats_duration(t->run_ns, ns, sizeof ns),
	       stats_commas(t->migrations, mig, sizeof mig));
	if (t->label)
		printf("\"%s\" ", t->label);
	print_reasons(t, 0);
	putchar('\n');
}

/* The threads by run time, longest first, after a line of totals. */
static void print_threads(const ev_stats *st)
{
	const ev_stats_thread *total = ev_stats_thread_total(st);
	const ev_stats_thread *others = ev_stats_thread_others(st);
	size_t n = ev_stats_thread_count(st);
	const void **order = stats_threads_by_run_time(st);
	char runs[32], stops[32], ns[16], what[16];

	printf("\n  Threads: %zu, %s runs, %s running\n  Stops: %s: ", n,
	       stats_commas(total->runs, runs, sizeof runs),
	       stats_duration(total->run_ns, ns, sizeof ns),
	       stats_commas(total->stops, stops, sizeof stops));
	print_reasons(total, 1);
	puts("\n\n    thread      runs   run time migrations  label, stops");
	if (!order) {
		puts("  (out of memory: no list)");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const ev_stats_thread *t = order[i];

		snprintf(what, sizeof what, "%" PRIu32, t->tid);
		print_thread(t, what);
	}
	if (others)
		print_thread(others, "others");
	free(order);
}

static void print_caps(const ev_stats *st)
{
	char mut[16], gc[16], idle[16], span[16];

	puts("\n  Capabilities");
	for (size_t i = 0; i < ev_stats_capability_count(st); i++) {
		const ev_stats_capability *c = ev_stats_capability_at(st, i);
		printf("  cap %u: mutator %s (%.1f%%), GC %s (%.1f%%), idle %s "
		       "(%.1f%%) of %s; %" PRIu64 " runs, %" PRIu64
		       " migrations out, %" PRIu64 " in\n", c->cap,
		       stats_duration(c->mutator_ns, mut, sizeof mut),
		       percent(c->mutator_ns, c->span_ns),
		       stats_duration(c->gc_ns, gc, sizeof gc),
		       percent(c->gc_ns, c->span_ns),
		       stats_duration(c->idle_ns, idle, sizeof idle),
		       percent(c->idle_ns, c->span_ns),
		       stats_duration(c->span_ns, span, sizeof span), c->runs,
		       c->migrations_out, c->migrations_in);
	}
}

void stats_print_parts(const stats_file *f, unsigned parts)
{
	if (parts & STATS_THREADS)
		print_threads(f->st);
	if (parts & STATS_CAPS)
		print_caps(f->st);
	if (parts & STATS_SPANS)
		stats_print_spans(f);
}

void stats_print_text(const stats_file *f, int separate, unsigned parts)
{
	for (size_t i = 0; i < ev_stats_process_count(f->st); i++) {
		if (separate || i > 0)
			putchar('\n');
		print_process(f->name, ev_stats_process_at(f->st, i));
		print_pauses(f->st, i);
	}
	stats_print_parts(f, parts);
}

/* ---- JSON ---- */

static void json_caps(json_out *j, const ev_stats *st)
{
	json_begin_array(j, "capabilities");
	for (size_t i = 0; i < ev_stats_capability_count(st); i++) {
		const ev_stats_capability *c = ev_stats_capability_at(st, i);
		json_begin_object(j, NULL);
		json_uint(j, "cap", c->cap);
		c->have_process ? json_uint(j, "capset", c->capset)
				: json_null(j, "capset");
		json_uint(j, "span_ns", c->span_ns);
		json_uint(j, "mutator_ns", c->mutator_ns);
		json_uint(j, "gc_ns", c->gc_ns);
		json_uint(j, "idle_ns", c->idle_ns);
		json_uint(j, "runs", c->runs);
		json_uint(j, "migrations_out", c->migrations_out);
		json_uint(j, "migrations_in", c->migrations_in);
		json_end_object(j);
	}
	json_end_array(j);
}

void stats_json_file(json_out *j, const stats_file *f, unsigned parts)
{
	json_begin_object(j, NULL);
	json_cstring(j, "file", f->name);
	json_cstring(j, "status",
		     f->status == EV_END ? "complete" : "truncated");
	if (f->status != EV_END) {
		json_uint(j, "problem_offset", f->diag.offset);
		json_cstring(j, "problem", f->diag.message);
	}
	json_uint(j, "unattributed_capabilities",
		  ev_stats_unattributed_caps(f->st));
	json_begin_array(j, "processes");
	for (size_t i = 0; i < ev_stats_process_count(f->st); i++)
		stats_json_process(j, NULL, f->st, i);
	json_end_array(j);
	if (parts & STATS_THREADS)
		(void)stats_json_threads(j, f->st, SIZE_MAX);
	if (parts & STATS_CAPS)
		json_caps(j, f->st);
	if (parts & STATS_SPANS)
		stats_json_spans(j, f->st);
	json_end_object(j);
}

/* ---- one file ---- */

int stats_file_start(stats_file *f, const char *path, unsigned parts)
{
	memset(f, 0, sizeof *f);
	f->path = path;
	f->name = cli_input_name(path);
	f->status = EV_END;
	if (ev_stats_new(&f->st, NULL) < 0 ||
	    ((parts & STATS_THREADS) && ev_stats_keep_threads(f->st) < 0) ||
	    (stats_span_kinds(parts) &&
	     ev_stats_keep_spans(f->st, stats_span_kinds(parts)) < 0) ||
	    ((parts & STATS_BANDS) && ev_stats_keep_bands(f->st) < 0))
		return cli_error(EXIT_SYSTEM, "out of memory");
	return EXIT_OK;
}

static void warn_unattributed(const stats_file *f)
{
	unsigned n = ev_stats_unattributed_caps(f->st);

	if (n)
		cli_warn_at(f->name, -1, "%u capabilit%s belong to no process (no "
			    "CAPSET_ASSIGN_CAP): their allocation and sparks "
			    "are not counted", n, n == 1 ? "y" : "ies");
}

int stats_file_end(stats_file *f, ev_reader *r)
{
	int rc = EXIT_OK;

	f->diag = *ev_reader_diag(r);
	if (f->status < 0 && ev_stats_diag(f->st)->status < 0) {
		rc = cli_read_failure(ev_stats_diag(f->st), f->name);
	} else if (f->status < 0 && f->status != EV_ETRUNCATED) {
		rc = cli_reader_error(r);
	} else if (f->status == EV_ETRUNCATED) {
		cli_warn_at(f->name, (int64_t)ev_reader_offset(r),
			    "%s; the figures cover the events before it",
			    f->diag.message);
		rc = EXIT_DROPPED;
	}
	/* Nothing to summarise: a header alone, or a log cut before its
	 * first event. An empty summary would read as a run that did
	 * nothing. */
	if ((rc == EXIT_OK || rc == EXIT_DROPPED) &&
	    ev_stats_process_count(f->st) == 0)
		rc = cli_error(EXIT_INVALID, "%s: the log holds no events: "
			       "nothing to summarise", f->name);
	if (rc == EXIT_OK || rc == EXIT_DROPPED)
		warn_unattributed(f);
	return rc;
}
