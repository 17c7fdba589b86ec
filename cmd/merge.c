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

const cli_option merge_options[] = {
	{ "output", 'o', "OUT", "write to OUT, not standard output (*.gz: "
	  "compressed)" },
	{ "gzip", 0, NULL, "compress as 'evtool archive' does (gzip with the "
	  "log's digest)" },
	{ "align", 0, "wall-clock|start|none",
	  "line clocks up by wall-clock (default), start or none" },
	{ "shift", 0, "N=TIME,...",
	  "move input N (1 = first) by TIME, e.g. 2=+15ms,3=-1.5s" },
	{ "widen", 0, NULL,
	  "zero-fill events of a type that is shorter in some inputs" },
	{ "no-renumber", 0, NULL,
	  "keep every id as it is (inputs known to share none)" },
	{ "no-progress", 0, NULL, "no progress bar on standard error" },
	{ "verbose", 'v', NULL,
	  "say how each input is renumbered, shifted and completed" },
	{ NULL, 0, NULL, NULL }
};

/* Descriptors besides the inputs': standard streams, the output, a spool
 * and what the C library may hold. */
#define SPARE_FILES 32

/* ---- options ---- */

/* --align's words, in the order the option table lists them. */
static int parse_align(const cli_command *cmd, const cli_args *args,
		       ev_merge_align *out)
{
	static const ev_merge_align aligns[] = { EV_MERGE_ALIGN_WALL_CLOCK,
						 EV_MERGE_ALIGN_START,
						 EV_MERGE_ALIGN_NONE };
	int word = 0;
	int rc = cli_choice(cmd, args, "align", &word);

	*out = aligns[word];
	return rc;
}

/* The units of --shift's TIME, in nanoseconds. */
static const struct {
	const char *name;
	int64_t ns;
} time_units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		   { "s", 1000000000 } };

/* "[+-]DIGITS[.DIGITS]UNIT" to nanoseconds, exactly (no floating point). */
static int parse_duration(const char *text, size_t len, int64_t *out)
{
	const char *p = text, *end = text + len;
	int negative = 0;
	int64_t whole = 0, frac = 0, frac_scale = 1, unit = 0;
	int digits = 0;

	if (p < end && (*p == '+' || *p == '-'))
		negative = *p++ == '-';
	for (; p < end && *p >= '0' && *p <= '9'; p++, digits++)
		if (__builtin_mul_overflow(whole, 10, &whole) ||
		    __builtin_add_overflow(whole, *p - '0', &whole))
			return -1;
	if (p < end && *p == '.')
		for (p++; p < end && *p >= '0' && *p <= '9'; p++, digits++)
			if (frac_scale < 1000000000) {
				frac = frac * 10 + (*p - '0');
				frac_scale *= 10;
			}
	for (size_t u = 0; digits && u < sizeof time_units /
					      sizeof time_units[0]; u++)
		if ((size_t)(end - p) == strlen(time_units[u].name) &&
		    strncmp(p, time_units[u].name, (size_t)(end - p)) == 0)
			unit = time_units[u].ns;
	if (!unit || __builtin_mul_overflow(whole, unit, &whole))
		return -1;
	*out = whole + frac * unit / frac_scale;
	if (negative)
		*out = -*out;
	return 0;
}

/* Shifts by input, parsed before any input is opened. */
typedef struct shift_list {
	int64_t *ns;
	unsigned char *given;
	int n;
} shift_list;

/* One "N=TIME" of --shift. */
static int parse_one_shift(const cli_command *cmd, shift_list *shifts,
			   const char *item, size_t len)
{
	const char *eq = memchr(item, '=', len);
	unsigned long long n = 0;
	int64_t ns;

	for (const char *p = item; eq && p < eq && n <= 1000000000ull; p++)
		n = *p >= '0' && *p <= '9' ? n * 10 + (unsigned)(*p - '0')
					   : 1000000000ull + 1;
	if (!eq || eq == item || n == 0 || n > 1000000000ull ||
	    parse_duration(eq + 1, len - (size_t)(eq + 1 - item), &ns) < 0)
		return cli_usage_error(cmd, "--shift: '%.*s' is not N=TIME "
				       "(N from 1, TIME like +15ms, -2s, "
				       "300us or 100ns)", (int)len, item);
	if (n > (unsigned long long)shifts->n)
		return cli_usage_error(cmd, "--shift: there is no input %llu "
				       "(there are %d)", n, shifts->n);
	if (shifts->given[n - 1]++)
		return cli_usage_error(cmd, "--shift: input %llu is shifted "
				       "twice", n);
	shifts->ns[n - 1] = ns;
	return EXIT_OK;
}

/* --shift keeps one value (the option table's rule), so several shifts
 * are one comma-separated list. */
static int parse_shifts(const cli_command *cmd, const cli_args *args,
			shift_list *shifts)
{
	const char *text = cli_value(cmd, args, "shift");
	int rc = EXIT_OK;

	shifts->n = args->n_positional;
	shifts->ns = calloc((size_t)shifts->n, sizeof *shifts->ns);
	shifts->given = calloc((size_t)shifts->n, sizeof *shifts->given);
	if (!shifts->ns || !shifts->given)
		return cli_error(EXIT_SYSTEM, "out of memory");
	if (!text)
		return EXIT_OK;
	if (args->count[cli_option_index(cmd, "shift")] > 1)
		return cli_usage_error(cmd, "--shift is given more than once; "
				       "list the shifts in one, separated by "
				       "commas: --shift 2=+15ms,3=-1s");
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

static int merge_failed(const ev_merge *m)
{
	const ev_diag *d = ev_merge_diag(m);

	switch (ev_merge_failure(m)) {
	case EV_MERGE_FAILED_NO_WALL_CLOCK:
		cli_error(EXIT_USAGE, "%s", d->message);
		fputs("hint: --align start puts each input's first event at 0, "
		      "--align none keeps the timestamps; --shift N=TIME "
		      "moves input N by hand\n", stderr);
		return EXIT_USAGE;
	case EV_MERGE_FAILED_SIZE:
		cli_error(EXIT_USAGE, "%s", d->message);
		if (!strstr(d->message, "no safe conversion"))
			fputs("hint: --widen declares the larger size and "
			      "converts the shorter events\n", stderr);
		return EXIT_USAGE;
	case EV_MERGE_FAILED_USAGE:
		return cli_error(EXIT_USAGE, "%s", d->message);
	case EV_MERGE_FAILED_OUTPUT:
		return cli_error(EXIT_SYSTEM, "%s", d->message);
	default:
		return cli_error(cli_exit_for_status(d->status), "%s",
				 d->message);
	}
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

/* ---- the command ---- */

static int add_inputs(ev_merge *m, const cli_args *args)
{
	for (int i = 0; i < args->n_positional; i++)
		if (ev_merge_add_path(m, args->positional[i]) < 0)
			return merge_failed(m);
	return EXIT_OK;
}

static int make_merge(const cli_command *cmd, const cli_args *args,
		      ev_merge **out)
{
	ev_merge_options opts = EV_MERGE_OPTIONS_INIT;
	shift_list shifts = { NULL, NULL, 0 };
	int rc = parse_align(cmd, args, &opts.align);

	*out = NULL;
	if (rc == EXIT_OK)
		rc = parse_shifts(cmd, args, &shifts);
	if (cli_flag(cmd, args, "widen"))
		opts.flags |= EV_MERGE_WIDEN;
	if (cli_flag(cmd, args, "no-renumber"))
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

int cmd_merge(const cli_command *cmd, const cli_args *args)
{
	const char *out = cli_value(cmd, args, "output");
	ev_sink *sink = NULL;
	ev_merge *m;
	cli_progress bar;
	int dropped = 0, rc = make_merge(cmd, args, &m);

	if (rc == EXIT_OK)
		rc = cli_open_log_output(cmd, args, out, args->positional,
					 args->n_positional, 0, &sink);
	progress_start(&bar, "merge", cli_flag(cmd, args, "no-progress"));
	if (rc == EXIT_OK)
		ev_merge_set_progress(m, progress_update, &bar);
	if (rc == EXIT_OK && ev_merge_plan(m) < 0)
		rc = merge_failed(m);
	if (rc == EXIT_OK) {
		if (cli_flag(cmd, args, "verbose"))
			print_plan(m, !cli_flag(cmd, args, "no-renumber"));
		dropped = warn_truncated(m);
		if (ev_merge_write(m, sink) < 0)
			rc = merge_failed(m);
	}
	progress_end(&bar);
	if (rc == EXIT_OK)
		rc = cli_commit_output(sink, out);
	if (rc == EXIT_OK && cli_flag(cmd, args, "verbose"))
		fprintf(stderr, "merged %zu inputs: %" PRIu64 " events\n",
			ev_merge_count(m), ev_merge_events_written(m));
	cli_close_output(sink);
	ev_merge_free(m);
	return rc == EXIT_OK && dropped ? EXIT_DROPPED : rc;
}
