/*
 * evtool stats: the `+RTS -s` summary of a run, computed from its log
 * (include/evtool/stats.h), one block per process, then what the log
 * tells beyond it (include/evtool/stats_analysis.h): GC pause
 * percentiles and the longest pauses, and with --threads and --caps the
 * threads and capabilities. Two logs are compared (stats_compare.c), a
 * log being written is followed (stats_follow.c); the text and JSON of
 * one log are stats_print.c's. The command calls those files, they
 * never call it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "stats_cli.h"
#include "stats_json.h"

/* The options of evtool stats, indexes in stats_options. */
enum stats_option {
	STATS_OPT_JSON,
	STATS_OPT_THREADS,
	STATS_OPT_CAPS,
	STATS_OPT_FAIL_IF,
	STATS_OPT_FOLLOW,
	STATS_OPT_EVERY,
	STATS_OPT_SPANS,
	STATS_OPT_TOP,
	STATS_OPT_JOBS,
	STATS_N_OPTIONS
};
CLI_CHECK_OPTIONS(STATS_N_OPTIONS);

const cli_option stats_options[STATS_N_OPTIONS + 1] = {
	[STATS_OPT_JSON] =
	{ "json", 0, NULL, "print one JSON object (schema_version 1)" },
	[STATS_OPT_THREADS] =
	{ "threads", 0, NULL, "per thread: runs, run time, migrations, label "
	  "and stop reasons" },
	[STATS_OPT_CAPS] =
	{ "caps", 0, NULL, "per capability: mutator, GC and idle time, runs "
	  "and migrations" },
	[STATS_OPT_FAIL_IF] =
	{ "fail-if", 0, "COND", "exit 1 when COND holds for the (new) run, as "
	  "FIGURE<VALUE, >, <=, >=; VALUE absolute (50ms, 2GiB, 90%) or, "
	  "with two logs, +N% or -N% of the base run; repeatable" },
	[STATS_OPT_FOLLOW] =
	{ "follow", 'f', NULL, "follow a log still being written (a file, a "
	  "FIFO, - or unix:SOCKET): a line per interval, the summary at the "
	  "end" },
	[STATS_OPT_EVERY] =
	{ "every", 0, "TIME", "the interval of --follow, in the log's time "
	  "(default 1s)" },
	[STATS_OPT_SPANS] =
	{ "spans", 0, "[=events|markers|all]", "the user's own spans, per "
	  "name and thread: traceEventIO \"START name\" to \"STOP name\" "
	  "(events, the default), or between consecutive traceMarkerIO "
	  "markers of one name (markers), or both (all)" },
	[STATS_OPT_TOP] =
	{ "top", 0, "N", "with two logs, the N heap-profile bands whose peak "
	  "changed most (default 10); the rest summed" },
	/* -T as on every command that reads in parallel; --threads is the
	 * table of threads here. */
	[STATS_OPT_JOBS] =
	{ "jobs", 'T', "N", "read with N threads (default, or 0: the cores "
	  "available; 1: one)" },
};

/* The heap-profile bands stats A B lists by default (--top). */
#define DEFAULT_TOP 10

/* The default interval of --follow. */
#define DEFAULT_EVERY_NS 1000000000ull

/* ---- the command ---- */

/* Reads one file into a new f->st. EXIT_OK, EXIT_DROPPED or an error,
 * reported. */
static int collect(stats_file *f, const char *path, unsigned parts,
		   unsigned threads)
{
	ev_reader *r;
	int rc = stats_file_start(f, path, parts);

	if (rc == EXIT_OK)
		rc = cli_open_input(path, 0, &r);
	if (rc != EXIT_OK)
		return rc;
	ev_stats_set_threads(f->st, threads);
	f->status = ev_stats_read(f->st, r);
	rc = stats_file_end(f, r);
	ev_reader_free(r);
	return rc;
}

static int readable(int rc)
{
	return rc == EXIT_OK || rc == EXIT_DROPPED;
}

/* One file after another, each with its summary. */
static int stats_each(const cli_args *args, unsigned parts,
		      unsigned threads, json_out *j)
{
	int worst = EXIT_OK;

	for (int i = 0; i < args->n_positional; i++) {
		stats_file f;
		int rc = collect(&f, args->positional[i], parts, threads);
		if (readable(rc) && j)
			stats_json_file(j, &f, parts);
		else if (readable(rc))
			stats_print_text(&f, i > 0, parts);
		ev_stats_free(f.st);
		if (rc > worst)
			worst = rc;
	}
	return worst;
}

/* One log with --fail-if, or two logs: the second (new) run against the
 * first (base). */
static int stats_gate(const cli_args *args, unsigned parts,
		      unsigned threads, size_t top,
		      const ev_stats_condition *conds,
		      const char *const *texts, int n_conds, json_out *j)
{
	stats_file f[2];
	int n = args->n_positional, rc = EXIT_OK, worst = EXIT_OK;

	memset(f, 0, sizeof f);
	for (int i = 0; i < n && readable(rc); i++) {
		rc = collect(&f[i], args->positional[i], parts, threads);
		if (rc > worst)
			worst = rc;
	}
	if (readable(rc)) {
		for (int i = 0; i < n; i++)
			if (j)
				stats_json_file(j, &f[i], parts);
			else if (n == 1)
				stats_print_text(&f[i], 0, parts);
		if (j)
			json_end_array(j);
		rc = stats_compare(&f[0], n == 2 ? &f[1] : NULL, conds, texts,
				   n_conds, j);
		if (rc != EXIT_OK)
			worst = rc;
		if (n == 2 &&
		    (rc = stats_compare_bands(&f[0], &f[1], top, j)) > worst)
			worst = rc;
		if (n == 2 && !j && (parts & STATS_SPANS))
			stats_compare_spans(&f[0], &f[1]);
		for (int i = 0; n == 2 && !j &&
				(parts & (STATS_THREADS | STATS_CAPS)) && i < n;
		     i++) {
			printf("\n%s: %s\n", i ? "new" : "base", f[i].name);
			stats_print_parts(&f[i], parts);
		}
	} else if (j) {
		json_end_array(j);
	}
	for (int i = 0; i < n; i++)
		ev_stats_free(f[i].st);
	return worst;
}

/* The --fail-if conditions, parsed; a usage error for a bad one. */
static int parse_conditions(const cli_command *cmd, const cli_args *args,
			    ev_stats_condition *conds, const char **texts,
			    int *n, unsigned *parts)
{
	ev_diag why;
	const char *text;

	for (*n = 0; (text = cli_value_at(args, STATS_OPT_FAIL_IF, *n)); ++*n) {
		if (ev_stats_condition_parse(text, &conds[*n], &why) < 0)
			return cli_usage_error(cmd, "--fail-if %s",
					       why.message);
		if (conds[*n].relative && args->n_positional != 2)
			return cli_usage_error(cmd, "--fail-if '%s': a change "
					       "in %% needs two logs, base "
					       "and new", text);
		texts[*n] = text;
		if (conds[*n].subject == EV_STATS_OF_SPAN)
			*parts |= STATS_SPAN_EVENTS | STATS_SPAN_MARKERS;
		if (conds[*n].subject == EV_STATS_OF_BAND)
			*parts |= STATS_BANDS;
	}
	if (*n && args->n_positional > 2)
		return cli_usage_error(cmd, "--fail-if takes one log, or two "
				       "(base and new)");
	return EXIT_OK;
}

static int parse_follow(const cli_command *cmd, const cli_args *args,
			int as_json, uint64_t *every_ns)
{
	const char *every = cli_value(args, STATS_OPT_EVERY);
	int rc;

	*every_ns = DEFAULT_EVERY_NS;
	if (!cli_flag(args, STATS_OPT_FOLLOW))
		return every ? cli_usage_error(cmd, "--every is for --follow")
			     : EXIT_OK;
	if (args->n_positional != 1)
		return cli_usage_error(cmd, "--follow takes one log");
	if (as_json || cli_value(args, STATS_OPT_FAIL_IF))
		return cli_usage_error(cmd, "--follow prints text; --json and "
				       "--fail-if are for complete logs");
	if ((rc = cli_duration(args, STATS_OPT_EVERY, every_ns)) != EXIT_OK)
		return rc;
	if (*every_ns == 0)
		return cli_usage_error(cmd, "--every: '%s' is not a duration "
				       "above 0 (1s, 500ms, ...)", every);
	return EXIT_OK;
}

/* --spans[=events|markers|all]: what to collect and print. */
static int parse_spans(const cli_args *args, unsigned *parts)
{
	static const unsigned kinds[] = {
		STATS_SPAN_EVENTS, STATS_SPAN_MARKERS,
		STATS_SPAN_EVENTS | STATS_SPAN_MARKERS
	};
	int which = 0, rc;

	if (!cli_flag(args, STATS_OPT_SPANS))
		return EXIT_OK;
	if ((rc = cli_choice(args, STATS_OPT_SPANS, &which)) != EXIT_OK)
		return rc;
	*parts |= STATS_SPANS | kinds[which];
	return EXIT_OK;
}

/* The logs of the command line, as one JSON document or as text. */
static int stats_files(const cli_args *args, unsigned parts,
		       unsigned threads, size_t top, int as_json, const ev_stats_condition *conds,
		       const char *const *texts, int n_conds)
{
	json_out j, *out = as_json ? &j : NULL;
	int rc;

	json_init(&j, stdout);
	if (out) {
		json_begin_object(out, NULL);
		json_uint(out, "schema_version", STATS_SCHEMA_VERSION);
		json_begin_array(out, "files");
	}
	if (n_conds || args->n_positional == 2) {
		rc = stats_gate(args, parts, threads, top, conds, texts,
				n_conds, out);
	} else {
		rc = stats_each(args, parts, threads, out);
		if (out)
			json_end_array(out);
	}
	if (out)
		json_end_object(out);
	return rc;
}

int cmd_stats(const cli_args *args)
{
	const cli_command *cmd = args->cmd;
	int as_json = cli_flag(args, STATS_OPT_JSON), n_conds = 0, rc;
	unsigned parts =
		(cli_flag(args, STATS_OPT_THREADS) ? STATS_THREADS : 0) |
		(cli_flag(args, STATS_OPT_CAPS) ? STATS_CAPS : 0);
	size_t most = args->n_given ? (size_t)args->n_given : 1;
	ev_stats_condition *conds = calloc(most, sizeof *conds);
	const char **texts = calloc(most, sizeof *texts);
	uint64_t every_ns, top = DEFAULT_TOP;
	unsigned threads;

	if (!conds || !texts)
		rc = cli_error(EXIT_SYSTEM, "out of memory");
	else if ((rc = parse_spans(args, &parts)) != EXIT_OK ||
		 (rc = parse_conditions(cmd, args, conds, texts, &n_conds,
					&parts)) != EXIT_OK ||
		 (rc = parse_follow(cmd, args, as_json, &every_ns)) != EXIT_OK ||
		 (rc = cli_count(args, STATS_OPT_TOP, 1, 1000000, &top)) !=
			 EXIT_OK ||
		 (rc = cli_threads(args, STATS_OPT_JOBS, &threads)) != EXIT_OK)
		; /* reported */
	else if (cli_flag(args, STATS_OPT_FOLLOW))
		rc = stats_follow(args->positional[0], every_ns, parts);
	else
		rc = stats_files(args, parts | (args->n_positional == 2
						? STATS_BANDS : 0),
				 threads, (size_t)top, as_json, conds, texts,
				 n_conds);
	free(conds);
	free(texts);
	return rc;
}
