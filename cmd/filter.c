/*
 * evtool filter: keep the events that the selectors choose, plus the
 * metadata readers need, re-blocked by capability.
 */
#include <stdlib.h>
#include <string.h>

#include <evtool/filter.h>

#include "commands.h"
#include "progress.h"

/* The options of evtool filter, indexes in filter_options. */
enum filter_option {
	FILTER_OPT_OUTPUT,
	FILTER_OPT_GZIP,
	FILTER_OPT_CLASS,
	FILTER_OPT_TYPE,
	FILTER_OPT_CAP,
	FILTER_OPT_PROCESS,
	FILTER_OPT_CAPSET,
	FILTER_OPT_THREAD,
	FILTER_OPT_FROM,
	FILTER_OPT_TO,
	FILTER_OPT_BETWEEN_MARKERS,
	FILTER_OPT_EXCLUDE_CLASS,
	FILTER_OPT_EXCLUDE_TYPE,
	FILTER_OPT_EXCLUDE_CAP,
	FILTER_OPT_EXCLUDE_PROCESS,
	FILTER_OPT_EXCLUDE_CAPSET,
	FILTER_OPT_EXCLUDE_THREAD,
	FILTER_OPT_EXCLUDE_FROM,
	FILTER_OPT_EXCLUDE_TO,
	FILTER_OPT_EXCLUDE_BETWEEN_MARKERS,
	FILTER_OPT_REDACT,
	FILTER_OPT_NO_METADATA,
	FILTER_OPT_BLOCK_SIZE,
	FILTER_OPT_NO_PROGRESS,
	FILTER_OPT_TMPDIR,
	FILTER_OPT_THREADS,
	FILTER_N_OPTIONS
};
CLI_CHECK_OPTIONS(FILTER_N_OPTIONS);

const cli_option filter_options[FILTER_N_OPTIONS + 1] = {
	[FILTER_OPT_OUTPUT] =
	{ "output", 'o', "OUT", "write to OUT, not standard output (*.gz: "
	  "compressed)" },
	[FILTER_OPT_GZIP] =
	{ "gzip", 0, NULL, "compress as 'evtool archive' does (gzip with the "
	  "log's digest)" },
	[FILTER_OPT_CLASS] =
	{ "class", 0, "CLASS,...", "keep these classes: RTS letters s g p f u n T "
	  "or names (gc, user, heap-profile...)" },
	[FILTER_OPT_TYPE] =
	{ "type", 0, "TYPE,...", "keep these event types: names (RUN_THREAD), "
	  "ids, ranges (9-12)" },
	[FILTER_OPT_CAP] =
	{ "cap", 0, "CAP,...", "keep these capabilities: 0,2-3 or 'global'" },
	[FILTER_OPT_PROCESS] =
	{ "process", 0, "PID", "keep the process with this OS pid (merged logs)" },
	[FILTER_OPT_CAPSET] =
	{ "capset", 0, "CAPSET,...", "keep the processes of these capsets" },
	[FILTER_OPT_THREAD] =
	{ "thread", 0, "TID,...", "keep the events about these threads" },
	[FILTER_OPT_FROM] =
	{ "from", 0, "TIME", "keep events at or after TIME (" CLI_TIME_FORMS
	  ")" },
	[FILTER_OPT_TO] =
	{ "to", 0, "TIME", "keep events before TIME (TIME as for --from)" },
	[FILTER_OPT_BETWEEN_MARKERS] =
	{ "between-markers", 0, "A,B", "keep the window from user marker A "
	  "to the next marker B" },
	[FILTER_OPT_EXCLUDE_CLASS] =
	{ "exclude-class", 0, "CLASS,...", "drop these classes" },
	[FILTER_OPT_EXCLUDE_TYPE] =
	{ "exclude-type", 0, "TYPE,...", "drop these event types" },
	[FILTER_OPT_EXCLUDE_CAP] =
	{ "exclude-cap", 0, "CAP,...", "drop these capabilities" },
	[FILTER_OPT_EXCLUDE_PROCESS] =
	{ "exclude-process", 0, "PID", "drop the process with this pid" },
	[FILTER_OPT_EXCLUDE_CAPSET] =
	{ "exclude-capset", 0, "CAPSET,...", "drop the processes of these capsets" },
	[FILTER_OPT_EXCLUDE_THREAD] =
	{ "exclude-thread", 0, "TID,...", "drop the events about these threads" },
	[FILTER_OPT_EXCLUDE_FROM] =
	{ "exclude-from", 0, "TIME", "drop events at or after TIME (and before "
	  "--exclude-to; TIME as for --from)" },
	[FILTER_OPT_EXCLUDE_TO] =
	{ "exclude-to", 0, "TIME", "drop events before TIME (and from "
	  "--exclude-from; TIME as for --from)" },
	[FILTER_OPT_EXCLUDE_BETWEEN_MARKERS] =
	{ "exclude-between-markers", 0, "A,B", "drop the window from marker A "
	  "to marker B" },
	[FILTER_OPT_REDACT] =
	{ "redact", 0, "args|env,...",
	  "blank program 'args', 'env' or 'args,env'" },
	[FILTER_OPT_NO_METADATA] =
	{ "no-metadata", 0, NULL, "select metadata like any other event" },
	[FILTER_OPT_BLOCK_SIZE] =
	{ "block-size", 0, "SIZE", "largest output block (default 2M)" },
	[FILTER_OPT_NO_PROGRESS] =
	{ "no-progress", 0, NULL, "no progress bar on standard error" },
	[FILTER_OPT_TMPDIR] =
	{ "tmpdir", 0, "DIR", "where standard input is copied when it must be "
	  "read twice" },
	[FILTER_OPT_THREADS] =
	{ "threads", 'T', "N", "read with N threads (default, or 0: the "
	  "cores available; 1: one)" },
};

/* The list selectors: option, kind, direction. */
static const struct {
	enum filter_option option;
	ev_filter_kind kind;
	int exclude;
} list_selectors[] = {
	{ FILTER_OPT_CLASS, EV_FILTER_CLASS, 0 },
	{ FILTER_OPT_TYPE, EV_FILTER_TYPE, 0 },
	{ FILTER_OPT_CAP, EV_FILTER_CAP, 0 },
	{ FILTER_OPT_PROCESS, EV_FILTER_PROCESS, 0 },
	{ FILTER_OPT_CAPSET, EV_FILTER_CAPSET, 0 },
	{ FILTER_OPT_THREAD, EV_FILTER_THREAD, 0 },
	{ FILTER_OPT_EXCLUDE_CLASS, EV_FILTER_CLASS, 1 },
	{ FILTER_OPT_EXCLUDE_TYPE, EV_FILTER_TYPE, 1 },
	{ FILTER_OPT_EXCLUDE_CAP, EV_FILTER_CAP, 1 },
	{ FILTER_OPT_EXCLUDE_PROCESS, EV_FILTER_PROCESS, 1 },
	{ FILTER_OPT_EXCLUDE_CAPSET, EV_FILTER_CAPSET, 1 },
	{ FILTER_OPT_EXCLUDE_THREAD, EV_FILTER_THREAD, 1 },
};

#define N_LIST_SELECTORS (sizeof list_selectors / sizeof list_selectors[0])

static int selector_error(const cli_args *args, const ev_filter *f,
			  enum filter_option option, int rc)
{
	if (rc == EV_ENOMEM)
		return cli_error(EXIT_SYSTEM, "out of memory");
	return cli_usage_error(args->cmd, "--%s: %s",
			       cli_option_name(args, option),
			       ev_filter_diag(f)->message);
}

static int add_lists(const cli_args *args, ev_filter *f)
{
	for (size_t i = 0; i < N_LIST_SELECTORS; i++) {
		const char *v = cli_value(args, list_selectors[i].option);
		int rc;
		if (!v)
			continue;
		rc = ev_filter_add(f, list_selectors[i].kind, v,
				   list_selectors[i].exclude);
		if (rc < 0)
			return selector_error(args, f, list_selectors[i].option,
					      rc);
	}
	return EXIT_OK;
}

/* --between-markers A,B: split at the first comma not preceded by a
 * backslash, "\," standing for a comma. */
static int set_markers(ev_filter *f, const char *text, int exclude)
{
	char *start = malloc(strlen(text) + 1), *to = start, *end = NULL;
	int rc;

	if (!start)
		return EV_ENOMEM;
	for (const char *p = text; *p; p++) {
		if (p[0] == '\\' && p[1] == ',') {
			*to++ = *++p;
		} else if (*p == ',' && !end) {
			*to++ = '\0';
			end = to;
		} else {
			*to++ = *p;
		}
	}
	*to = '\0';
	rc = ev_filter_set_markers(f, start, end, exclude);
	free(start);
	return rc;
}

static int add_window(const cli_args *args, ev_filter *f, int exclude)
{
	enum filter_option from_opt = exclude ? FILTER_OPT_EXCLUDE_FROM
					      : FILTER_OPT_FROM;
	enum filter_option to_opt = exclude ? FILTER_OPT_EXCLUDE_TO
					    : FILTER_OPT_TO;
	enum filter_option marks_opt = exclude
				       ? FILTER_OPT_EXCLUDE_BETWEEN_MARKERS
				       : FILTER_OPT_BETWEEN_MARKERS;
	const char *from = cli_value(args, from_opt);
	const char *to = cli_value(args, to_opt);
	const char *marks = cli_value(args, marks_opt);
	ev_time_base base;
	uint64_t ns;
	int rc;

	/* Each time is checked here, so that a message names its option. */
	if ((rc = cli_time(args, from_opt, &base, &ns)) != EXIT_OK ||
	    (rc = cli_time(args, to_opt, &base, &ns)) != EXIT_OK)
		return rc;
	if ((from || to) &&
	    (rc = ev_filter_set_time(f, from, to, exclude)) < 0)
		return selector_error(args, f, from ? from_opt : to_opt, rc);
	if (marks && (rc = set_markers(f, marks, exclude)) < 0)
		return selector_error(args, f, marks_opt, rc);
	return EXIT_OK;
}

static int build_filter(const cli_args *args, ev_filter *f)
{
	const char *redact = cli_value(args, FILTER_OPT_REDACT);
	int rc;

	if ((rc = add_lists(args, f)) != EXIT_OK ||
	    (rc = add_window(args, f, 0)) != EXIT_OK ||
	    (rc = add_window(args, f, 1)) != EXIT_OK)
		return rc;
	if (redact && (rc = ev_filter_set_redact(f, redact)) < 0)
		return selector_error(args, f, FILTER_OPT_REDACT, rc);
	ev_filter_set_metadata(f, !cli_flag(args, FILTER_OPT_NO_METADATA));
	return EXIT_OK;
}

static void warn_markers(const ev_filter_stats *st, const char *in)
{
	unsigned start = st->start_marker_missing, end = st->end_marker_missing;

	if (start)
		cli_warn_at(cli_input_name(in), -1, "no user marker matches the "
			    "start of the marker window (in %u session%s): "
			    "that window is empty", start, start == 1 ? "" : "s");
	if (end)
		cli_warn_at(cli_input_name(in), -1, "no user marker after the start "
			    "matches the end of the marker window (in %u "
			    "session%s): that window runs to the end of the log",
			    end, end == 1 ? "" : "s");
}

static int run_filter(const cli_args *args, ev_filter *f)
{
	const char *in = args->positional[0];
	const char *out = cli_value(args, FILTER_OPT_OUTPUT);
	const ev_filter_stats *st = ev_filter_result(f);
	ev_input *input = NULL;
	ev_sink *sink;
	cli_progress bar;
	int no_progress = cli_flag(args, FILTER_OPT_NO_PROGRESS);
	int rc = cli_open_log_output(out, cli_flag(args, FILTER_OPT_GZIP), &in,
				     1, CLI_REFUSE_INPUT, &sink), status;

	if (rc != EXIT_OK)
		return rc;
	if ((rc = cli_open_log_input(in, &input)) != EXIT_OK) {
		cli_close_output(sink);
		return rc;
	}
	progress_start(&bar, "filter", no_progress);
	ev_filter_set_progress(f, progress_update, &bar);
	status = ev_filter_run(f, input, sink);
	progress_end(&bar);
	warn_markers(st, in);
	if (status == EV_ETRUNCATED) {
		const ev_diag *d = ev_filter_diag(f);
		cli_warn_at(cli_input_name(in), (int64_t)d->offset,
			    "%s; filtered the %llu complete events", d->message,
			    (unsigned long long)st->events_read);
		status = EV_OK;
		rc = EXIT_DROPPED;
	}
	if (status < 0)
		rc = cli_origin_error(ev_filter_diag(f), in, out);
	else if ((status = cli_commit_output(sink, out)) != EXIT_OK)
		rc = status;
	cli_close_output(sink);
	ev_input_free(input);
	return rc;
}

int cmd_filter(const cli_args *args)
{
	ev_filter_options opts = EV_FILTER_OPTIONS_INIT;
	ev_filter *f;
	unsigned threads;
	int rc = cli_block_size(args, FILTER_OPT_BLOCK_SIZE,
				&opts.max_block_size);

	if (rc != EXIT_OK ||
	    (rc = cli_threads(args, FILTER_OPT_THREADS, &threads)) != EXIT_OK)
		return rc;
	opts.tmpdir = cli_value(args, FILTER_OPT_TMPDIR);
	if (ev_filter_new(&f, &opts, NULL) < 0)
		return cli_error(EXIT_SYSTEM, "out of memory");
	ev_filter_set_threads(f, threads);
	rc = build_filter(args, f);
	if (rc == EXIT_OK)
		rc = run_filter(args, f);
	ev_filter_free(f);
	return rc;
}
