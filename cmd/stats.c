/*
 * evtool stats: the `+RTS -s` summary of a run, computed from its log
 * (include/evtool/stats.h), one block per process.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "json.h"
#include "stats_json.h"

const cli_option stats_options[] = {
	{ "json", 0, NULL, "print one JSON object (schema_version 1)" },
	{ NULL, 0, NULL, NULL }
};

#define STATS_SCHEMA_VERSION 1

/* One file's outcome: the reader's final status and where it stopped. */
typedef struct stats_file {
	const char *path;
	const char *name; /* in messages: "<stdin>" for "-", as the reader's */
	int status; /* EV_END or EV_ETRUNCATED */
	ev_diag diag;
	ev_stats *st;
} stats_file;

/* ---- text, in the layout of rts/Stats.c report_summary ---- */

/* `v` with thousands separators, as the RTS's showStgWord64. */
static const char *with_commas(uint64_t v, char *out, size_t len)
{
	char digits[24];
	int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
	size_t o = 0;

	for (int i = 0; i < n && o + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	return out;
}

static double seconds(uint64_t ns)
{
	return (double)ns / 1e9;
}

static void print_bytes_line(uint64_t v, const char *what)
{
	char num[32];

	printf("%16s %s\n", with_commas(v, num, sizeof num), what);
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

	printf("  MUT     time  (%7.3fs elapsed)  INIT and EXIT included\n",
	       seconds(p->mut_elapsed_ns));
	printf("  GC      time  (%7.3fs elapsed)\n", seconds(p->gc_elapsed_ns));
	printf("  Total   time  (%7.3fs elapsed)\n\n", seconds(p->elapsed_ns));
	printf("  Alloc rate    %s bytes per MUT second (elapsed)\n\n",
	       with_commas((uint64_t)p->alloc_rate, num, sizeof num));
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

static void print_text(const stats_file *f, int separate)
{
	for (size_t i = 0; i < ev_stats_process_count(f->st); i++) {
		if (separate || i > 0)
			putchar('\n');
		print_process(f->name, ev_stats_process_at(f->st, i));
	}
}

/* ---- JSON ---- */

static void json_file(json_out *j, const stats_file *f)
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
		stats_json_process(j, NULL, ev_stats_process_at(f->st, i));
	json_end_array(j);
	json_end_object(j);
}

/* ---- the command ---- */

/* Reads one file into f->st. EXIT_OK, EXIT_DROPPED for a truncated log
 * (the figures cover its complete events), or an error, reported. */
static int collect(stats_file *f)
{
	ev_reader *r;
	int rc = cli_open_input(f->path, 0, &r);

	if (rc != EXIT_OK)
		return rc;
	f->status = ev_stats_read(f->st, r);
	f->diag = *ev_reader_diag(r);
	if (f->status < 0 && ev_stats_diag(f->st)->status < 0) {
		const ev_diag *d = ev_stats_diag(f->st);
		rc = cli_error(cli_exit_for_status(d->status),
			       "%s: offset %" PRIu64 ": %s", f->name, d->offset,
			       d->message);
	} else if (f->status < 0 && f->status != EV_ETRUNCATED) {
		rc = cli_reader_error(r);
	} else if (f->status == EV_ETRUNCATED) {
		cli_warn_at(f->name, (int64_t)ev_reader_offset(r),
			    "%s; the figures cover the events before it",
			    f->diag.message);
		rc = EXIT_DROPPED;
	}
	ev_reader_free(r);
	if ((rc == EXIT_OK || rc == EXIT_DROPPED) &&
	    ev_stats_finish(f->st) < 0)
		rc = cli_error(EXIT_SYSTEM, "%s: %s", f->name,
			       ev_stats_diag(f->st)->message);
	return rc;
}

static void warn_unattributed(const stats_file *f)
{
	unsigned n = ev_stats_unattributed_caps(f->st);

	if (n)
		cli_warn_at(f->name, -1, "%u capabilit%s belong to no process (no "
			    "CAPSET_ASSIGN_CAP): their allocation and sparks "
			    "are not counted", n, n == 1 ? "y" : "ies");
}

static int stats_one(const char *path, int as_json, json_out *j, int index)
{
	stats_file f = { path, strcmp(path, "-") == 0 ? "<stdin>" : path,
			 EV_END, { 0 }, NULL };
	int rc;

	if (ev_stats_new(&f.st) < 0)
		return cli_error(EXIT_SYSTEM, "out of memory");
	rc = collect(&f);
	if (rc == EXIT_OK || rc == EXIT_DROPPED) {
		warn_unattributed(&f);
		if (as_json)
			json_file(j, &f);
		else
			print_text(&f, index > 0);
	}
	ev_stats_free(f.st);
	return rc;
}

int cmd_stats(const cli_command *cmd, const cli_args *args)
{
	int as_json = cli_flag(cmd, args, "json"), worst = EXIT_OK;
	json_out j;

	json_init(&j, stdout);
	if (as_json) {
		json_begin_object(&j, NULL);
		json_uint(&j, "schema_version", STATS_SCHEMA_VERSION);
		json_begin_array(&j, "files");
	}
	for (int i = 0; i < args->n_positional; i++) {
		int rc = stats_one(args->positional[i], as_json, &j, i);
		if (rc > worst)
			worst = rc;
	}
	if (as_json) {
		json_end_array(&j);
		json_end_object(&j);
	}
	return worst;
}
