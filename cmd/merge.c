/*
 * evtool merge: one log from the logs of many processes (issue 4), built
 * on ev_merge (include/evtool/merge.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "commands.h"
#include "progress.h"

/* The options of evtool merge, indexes in merge_options. */
enum merge_option {
	MERGE_OPT_OUTPUT,
	MERGE_OPT_GZIP,
	MERGE_OPT_ALIGN,
	MERGE_OPT_SHIFT,
	MERGE_OPT_WIDEN,
	MERGE_OPT_STRICT,
	MERGE_OPT_NO_RENUMBER,
	MERGE_OPT_NO_PROGRESS,
	MERGE_OPT_VERBOSE,
	MERGE_N_OPTIONS
};
CLI_CHECK_OPTIONS(MERGE_N_OPTIONS);

const cli_option merge_options[MERGE_N_OPTIONS + 1] = {
	[MERGE_OPT_OUTPUT] =
	{ "output", 'o', "OUT", "write to OUT, not standard output (*.gz: "
	  "compressed)" },
	[MERGE_OPT_GZIP] =
	{ "gzip", 0, NULL, "compress as 'evtool archive' does (gzip with the "
	  "log's digest)" },
	[MERGE_OPT_ALIGN] =
	{ "align", 0, "wall-clock|start|none",
	  "line clocks up by wall-clock (default), start or none" },
	[MERGE_OPT_SHIFT] =
	{ "shift", 0, "N=TIME,...",
	  "move input N (1 = first) by TIME, e.g. 2=+15ms,3=-1.5s (TIME: ns, "
	  "or with units ns us ms s m h)" },
	[MERGE_OPT_WIDEN] =
	{ "widen", 0, NULL,
	  "widen older, shorter event layouts (the default; with --strict)" },
	[MERGE_OPT_STRICT] =
	{ "strict", 0, NULL,
	  "refuse older event layouts and inputs without a wall clock" },
	[MERGE_OPT_NO_RENUMBER] =
	{ "no-renumber", 0, NULL,
	  "keep every id as it is (inputs known to share none)" },
	[MERGE_OPT_NO_PROGRESS] =
	{ "no-progress", 0, NULL, "no progress bar on standard error" },
	[MERGE_OPT_VERBOSE] =
	{ "verbose", 'v', NULL,
	  "say how each input is renumbered, shifted and completed" },
};

/* Descriptors besides the inputs': standard streams, the output, a spool
 * and what the C library may hold. */
#define SPARE_FILES 32

/* ---- options ---- */

/* --align's words, in the order the option table lists them. */
static int parse_align(const cli_args *args, ev_merge_align *out)
{
	static const ev_merge_align aligns[] = { EV_MERGE_ALIGN_WALL_CLOCK,
						 EV_MERGE_ALIGN_START,
						 EV_MERGE_ALIGN_NONE };
	int word = 0;
	int rc = cli_choice(args, MERGE_OPT_ALIGN, &word);

	*out = aligns[word];
	return rc;
}

/* Shifts by input, parsed before any input is opened. */
typedef struct shift_list {
	int64_t *ns;
	unsigned char *given;
	int n;
} shift_list;

/* One "N=TIME" of --shift: TIME is a signed duration (ev_duration_parse). */
static int parse_one_shift(const cli_command *cmd, shift_list *shifts,
			   const char *item, size_t len)
{
	const char *eq = memchr(item, '=', len);
	unsigned long long n = 0;
	char time[128];
	int64_t ns = 0;
	int ok = eq && eq != item && (size_t)(item + len - eq) < sizeof time;

	for (const char *p = item; ok && p < eq && n <= 1000000000ull; p++)
		n = *p >= '0' && *p <= '9' ? n * 10 + (unsigned)(*p - '0')
					   : 1000000000ull + 1;
	if (ok) {
		memcpy(time, eq + 1, (size_t)(item + len - eq - 1));
		time[item + len - eq - 1] = '\0';
		ok = ev_duration_parse(time, &ns) == EV_OK;
	}
	if (!ok || n == 0 || n > 1000000000ull)
		return cli_usage_error(cmd, "--shift: '%.*s' is not N=TIME "
				       "(N from 1, TIME a signed duration: "
				       "+15ms, -2s, 300us, 100 or 100ns)",
				       (int)len, item);
	if (n > (unsigned long long)shifts->n)
		return cli_usage_error(cmd, "--shift: there is no input %llu "
				       "(there are %d)", n, shifts->n);
	if (shifts->given[n - 1]++)
		return cli_usage_error(cmd, "--shift: input %llu is shifted "
				       "twice", n);
	shifts->ns[n - 1] = ns;
	return EXIT_OK;
}

/* --shift is a list: repeated, its values are joined (cli_args). */
static int parse_shifts(const cli_command *cmd, const cli_args *args,
			shift_list *shifts)
{
	const char *text = cli_value(args, MERGE_OPT_SHIFT);
	int rc = EXIT_OK;

	shifts->n = args->n_positional;
	shifts->ns = calloc((size_t)shifts->n, sizeof *shifts->ns);
	shifts->given = calloc((size_t)shifts->n, sizeof *shifts->given);
	if (!shifts->ns || !shifts->given)
		return cli_error(EXIT_SYSTEM, "out of memory");
	if (!text)
		return EXIT_OK;
	for (const char *item = text; rc == EXIT_OK;) {
		const char *comma = strchr(item, ',');
		size_t len = comma ? (size_t)(comma - item) : strlen(item);
		rc = parse_one_shift(cmd, shifts, item, len);
		if (!comma)
			break;
		item = comma + 1;
	}
	return rc;
}

static int count_stdin(const cli_args *args)
{
	int n = 0;

	for (int i = 0; i < args->n_positional; i++)
		n += strcmp(args->positional[i], "-") == 0;
	return n;
}

/* Every input stays open for the whole merge: raise the soft limit on
 * open files when it is too low, or say what to do. */
static int ensure_file_limit(int n_inputs)
{
	rlim_t need = (rlim_t)n_inputs + SPARE_FILES;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur >= need)
		return EXIT_OK;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need)
		return cli_error(EXIT_SYSTEM,
				 "merging %d inputs needs about %llu open files "
				 "but the limit is %llu (ulimit -Hn); raise it, "
				 "or merge the inputs in groups and then merge "
				 "the results", n_inputs,
				 (unsigned long long)need,
				 (unsigned long long)rl.rlim_max);
	rl.rlim_cur = need;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		return cli_error(EXIT_SYSTEM, "cannot raise the open-file "
				 "limit to %llu: %s", (unsigned long long)need,
				 strerror(errno));
	return EXIT_OK;
}

/* ---- reporting ---- */

/* The merge's messages name their inputs and output themselves (the
 * inputs name an empty one); the hints are the options that get past the
 * failure. */
static int merge_failed(const ev_merge *m, const cli_args *args)
{
	const cli_failure_files named = { args->positional, args->n_positional,
					  NULL, CLI_FAILURE_NAMED, NULL, NULL };
	int code = cli_failure(ev_merge_diag(m), &named);

	switch (ev_merge_diag(m)->reason) {
	case EV_REASON_NO_WALL_CLOCK:
		fputs("hint: --align start puts each input's first event at 0, "
		      "--align none keeps the timestamps; --shift N=TIME "
		      "moves input N by hand\n", stderr);
		break;
	case EV_REASON_SIZE_DIFFERS:
		fputs("hint: --widen declares the larger size and converts the "
		      "shorter events\n", stderr);
		break;
	case EV_REASON_SESSIONS:
		fputs("hint: evtool info lists the sessions; merge each one "
		      "extracted with evtool truncate --session N as an "
		      "input\n", stderr);
		break;
	default:
		break;
	}
	return code;
}

/* "0-3 -> 4-7": input ids [first, max] of a kind and where they go. */
static void print_ids(const char *what, const ev_merge_ids *ids,
		      uint64_t first)
{
	uint64_t lo = first + ids->base, hi = ids->max + ids->base;

	if (!ids->used)
		return;
	if (ids->max == first)
		fprintf(stderr, "; %s %" PRIu64 " -> %" PRIu64, what, first, lo);
	else
		fprintf(stderr, "; %s %" PRIu64 "-%" PRIu64 " -> %" PRIu64
			"-%" PRIu64, what, first, ids->max, lo, hi);
}

/* Ids that are not dense (cost centres, pointer-valued ticky counters):
 * only what is added to them. */
static void print_offset(const char *what, const ev_merge_ids *ids)
{
	if (ids->used)
		fprintf(stderr, "; %s +%" PRIu64, what, ids->base);
}

static void print_shift(int64_t ns)
{
	uint64_t abs_ns = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	fprintf(stderr, "shift %c%" PRIu64 ".%09" PRIu64 " s",
		ns < 0 ? '-' : '+', abs_ns / 1000000000u, abs_ns % 1000000000u);
}

static void print_synthesised(const ev_merge_input *in)
{
	static const struct {
		unsigned flag;
		const char *what;
	} kinds[] = {
		{ EV_MERGE_SYNTH_OS_CAPSET, "CAPSET_CREATE (OS process)" },
		{ EV_MERGE_SYNTH_CLOCK_CAPSET, "CAPSET_CREATE (clock domain)" },
		{ EV_MERGE_SYNTH_CAP_CREATE, "CAP_CREATE" },
		{ EV_MERGE_SYNTH_CAP_ASSIGN, "CAPSET_ASSIGN_CAP" },
	};
	const char *sep = "";

	if (!in->synthesised)
		return;
	fprintf(stderr, "; synthesised %" PRIu32 " creation events it lacks:",
		in->synthesised_events);
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
		if (in->synthesised & kinds[k].flag) {
			fprintf(stderr, "%s %s", sep, kinds[k].what);
			sep = ",";
		}
}

/* One line per input: what it holds and how it is renumbered. */
static void print_plan(const ev_merge *m, int renumber)
{
	for (size_t i = 0; i < ev_merge_count(m); i++) {
		const ev_merge_input *in = ev_merge_get_input(m, i);
		fprintf(stderr, "input %zu %s: %" PRIu64 " events, ", i + 1,
			in->name, in->events);
		print_shift(in->shift);
		if (renumber) {
			print_ids("caps", &in->ids[EV_REF_CAP], 0);
			print_ids("capsets", &in->ids[EV_REF_CAPSET], 0);
			fprintf(stderr, " (process %" PRIu32 ", clock %" PRIu32
				")", in->os_capset, in->clock_capset);
			print_ids("threads", &in->ids[EV_REF_THREAD], 1);
			if (in->tasks)
				fprintf(stderr, "; tasks %" PRIu64 " (%" PRIu64
					" renamed)", in->tasks,
					in->tasks_renamed);
			print_offset("cost centres",
				     &in->ids[EV_REF_COST_CENTRE]);
			print_offset("ticky counters",
				     &in->ids[EV_REF_TICKY_COUNTER]);
			print_ids("heap profiles",
				  &in->ids[EV_REF_HEAP_PROFILE], 0);
			print_synthesised(in);
		}
		fputc('\n', stderr);
	}
}

/* Truncated inputs are merged up to their last complete event. */
static int warn_truncated(const ev_merge *m)
{
	int dropped = 0;

	for (size_t i = 0; i < ev_merge_count(m); i++) {
		const ev_merge_input *in = ev_merge_get_input(m, i);
		if (!in->truncated)
			continue;
		cli_warn_at(in->name, (int64_t)in->truncation.offset,
			    "%s; merged its %" PRIu64 " complete events",
			    in->truncation.message, in->events);
		dropped = 1;
	}
	return dropped;
}

/* What the merge did to an input beyond renumbering and shifting, once
 * per input: its older, shorter events widened, its start taken for a
 * wall clock it lacks (the defaults that --strict refuses); global events
 * moved past another input's heap or ticky sample. */
static void warn_adjusted(const ev_merge *m)
{
	for (size_t i = 0; i < ev_merge_count(m); i++) {
		const ev_merge_input *in = ev_merge_get_input(m, i);
		char types[96] = "";
		size_t len = 0;

		for (unsigned k = 0; k < in->n_widened && len < sizeof types;
		     k++)
			len += (size_t)snprintf(types + len, sizeof types - len,
						"%s%s", k ? ", " : "",
						ev_catalog_find(in->widened[k])
							->name);
		if (in->n_widened)
			cli_warn_at(in->name, -1, "older event layout: %s "
				    "widened to the newer size of the other "
				    "inputs (--strict refuses)", types);
		if (in->aligned_by_start)
			cli_warn_at(in->name, -1, "no WALL_CLOCK_TIME event: "
				    "aligned by its start, its first event at "
				    "time 0 (--shift N=TIME moves it; --strict "
				    "refuses)");
	}
}

/* Written after the merge, per input: events that moved to keep samples
 * whole, and censuses ended for the output's header. */
static void warn_written(const ev_merge *m)
{
	for (size_t i = 0; i < ev_merge_count(m); i++) {
		const ev_merge_input *in = ev_merge_get_input(m, i);
		if (in->restamped)
			cli_warn_at(in->name, -1, "%" PRIu64 " global event%s "
				    "stamped inside another input's heap or "
				    "ticky sample written after it, up to %"
				    PRIu64 " ns later", in->restamped,
				    in->restamped == 1 ? "" : "s",
				    in->restamp_max_ns);
		if (in->censuses_ended)
			cli_warn_at(in->name, -1, "%" PRIu64 " heap sample%s "
				    "ended with a HEAP_PROF_SAMPLE_END (165), "
				    "which its (older) runtime did not write and "
				    "another input's did",
				    in->censuses_ended,
				    in->censuses_ended == 1 ? "" : "s");
	}
}

/* ---- the command ---- */

static int add_inputs(ev_merge *m, const cli_args *args)
{
	for (int i = 0; i < args->n_positional; i++) {
		ev_input *in;
		int rc = cli_open_log_input(args->positional[i], &in);
		if (rc != EXIT_OK)
			return rc;
		if (ev_merge_add(m, in) < 0)
			return merge_failed(m, args);
	}
	return EXIT_OK;
}

static int make_merge(const cli_command *cmd, const cli_args *args,
		      ev_merge **out)
{
	ev_merge_options opts = EV_MERGE_OPTIONS_INIT;
	shift_list shifts = { NULL, NULL, 0 };
	int rc = parse_align(args, &opts.align);

	*out = NULL;
	if (rc == EXIT_OK)
		rc = parse_shifts(cmd, args, &shifts);
	if (!cli_flag(args, MERGE_OPT_STRICT))
		opts.flags |= EV_MERGE_LENIENT;
	if (cli_flag(args, MERGE_OPT_WIDEN))
		opts.flags |= EV_MERGE_WIDEN;
	if (cli_flag(args, MERGE_OPT_NO_RENUMBER))
		opts.flags |= EV_MERGE_NO_RENUMBER;
	if (rc == EXIT_OK && count_stdin(args) > 1)
		rc = cli_usage_error(cmd, "standard input ('-') can be merged "
				     "only once");
	if (rc == EXIT_OK)
		rc = ensure_file_limit(args->n_positional);
	if (rc == EXIT_OK && ev_merge_new(out, &opts) < 0)
		rc = cli_error(EXIT_SYSTEM, "out of memory");
	if (rc == EXIT_OK)
		rc = add_inputs(*out, args);
	for (int i = 0; rc == EXIT_OK && i < shifts.n; i++)
		if (shifts.given[i])
			ev_merge_shift(*out, (size_t)i, shifts.ns[i]);
	free(shifts.ns);
	free(shifts.given);
	return rc;
}

int cmd_merge(const cli_args *args)
{
	const cli_command *cmd = args->cmd;
	const char *out = cli_value(args, MERGE_OPT_OUTPUT);
	ev_sink *sink = NULL;
	ev_merge *m;
	cli_progress bar;
	int dropped = 0, rc = make_merge(cmd, args, &m);

	if (rc == EXIT_OK)
		rc = cli_open_log_output(out, cli_flag(args, MERGE_OPT_GZIP),
					 args->positional, args->n_positional,
					 CLI_REFUSE_INPUT, &sink);
	progress_start(&bar, "merge", cli_flag(args, MERGE_OPT_NO_PROGRESS));
	if (rc == EXIT_OK)
		ev_merge_set_progress(m, progress_update, &bar);
	if (rc == EXIT_OK && ev_merge_plan(m) < 0)
		rc = merge_failed(m, args);
	if (rc == EXIT_OK) {
		if (cli_flag(args, MERGE_OPT_VERBOSE))
			print_plan(m, !cli_flag(args, MERGE_OPT_NO_RENUMBER));
		dropped = warn_truncated(m);
		warn_adjusted(m);
		if (ev_merge_run(m, sink) < 0)
			rc = merge_failed(m, args);
		else
			warn_written(m);
	}
	progress_end(&bar);
	if (rc == EXIT_OK)
		rc = cli_commit_output(sink, out);
	if (rc == EXIT_OK && cli_flag(args, MERGE_OPT_VERBOSE))
		fprintf(stderr, "merged %zu inputs: %" PRIu64 " events\n",
			ev_merge_count(m), ev_merge_events_written(m));
	cli_close_output(sink);
	ev_merge_free(m);
	return rc == EXIT_OK && dropped ? EXIT_DROPPED : rc;
}
