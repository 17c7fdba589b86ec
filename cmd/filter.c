/*
 * evtool filter: keep the events that the selectors choose, plus the
 * metadata readers need, re-blocked by capability.
 */
#include <stdlib.h>
#include <string.h>

#include <evtool/filter.h>

#include "commands.h"
#include "progress.h"

const cli_option filter_options[] = {
	{ "output", 'o', "OUT", "write to OUT, not standard output (*.gz: "
	  "compressed)" },
	{ "gzip", 0, NULL, "compress as 'evtool archive' does (gzip with the "
	  "log's digest)" },
	{ "class", 0, "LIST", "keep these classes: RTS letters s g p f u n T "
	  "or names (gc, user, heap-profile...)" },
	{ "type", 0, "LIST", "keep these event types: names (RUN_THREAD), "
	  "ids, ranges (9-12)" },
	{ "cap", 0, "LIST", "keep these capabilities: 0,2-3 or 'global'" },
	{ "process", 0, "PID", "keep the process with this OS pid (merged logs)" },
	{ "capset", 0, "LIST", "keep the processes of these capsets" },
	{ "thread", 0, "LIST", "keep the events about these threads" },
	{ "from", 0, "T", "keep events at or after T: 10ms from the first "
	  "event, @NS raw, or ISO 8601" },
	{ "to", 0, "T", "keep events before T (same forms)" },
	{ "between-markers", 0, "A,B", "keep the window from user marker A "
	  "to the next marker B" },
	{ "exclude-class", 0, "LIST", "drop these classes" },
	{ "exclude-type", 0, "LIST", "drop these event types" },
	{ "exclude-cap", 0, "LIST", "drop these capabilities" },
	{ "exclude-process", 0, "PID", "drop the process with this pid" },
	{ "exclude-capset", 0, "LIST", "drop the processes of these capsets" },
	{ "exclude-thread", 0, "LIST", "drop the events about these threads" },
	{ "exclude-from", 0, "T", "drop events at or after T (and before "
	  "--exclude-to)" },
	{ "exclude-to", 0, "T", "drop events before T (and from --exclude-from)" },
	{ "exclude-between-markers", 0, "A,B", "drop the window from marker A "
	  "to marker B" },
	{ "redact", 0, "args|env,...",
	  "blank program 'args', 'env' or 'args,env'" },
	{ "no-metadata", 0, NULL, "select metadata like any other event" },
	{ "block-size", 0, "BYTES", "largest output block (default 2097152)" },
	{ "no-progress", 0, NULL, "no progress bar on standard error" },
	{ "tmpdir", 0, "DIR", "where standard input is copied when it must be "
	  "read twice" },
	{ NULL, 0, NULL, NULL }
};

/* The list selectors: option name, kind, direction. */
static const struct {
	const char *option;
	ev_filter_kind kind;
	int exclude;
} list_selectors[] = {
	{ "class", EV_FILTER_CLASS, 0 },
	{ "type", EV_FILTER_TYPE, 0 },
	{ "cap", EV_FILTER_CAP, 0 },
	{ "process", EV_FILTER_PROCESS, 0 },
	{ "capset", EV_FILTER_CAPSET, 0 },
	{ "thread", EV_FILTER_THREAD, 0 },
	{ "exclude-class", EV_FILTER_CLASS, 1 },
	{ "exclude-type", EV_FILTER_TYPE, 1 },
	{ "exclude-cap", EV_FILTER_CAP, 1 },
	{ "exclude-process", EV_FILTER_PROCESS, 1 },
	{ "exclude-capset", EV_FILTER_CAPSET, 1 },
	{ "exclude-thread", EV_FILTER_THREAD, 1 },
};

#define N_LIST_SELECTORS (sizeof list_selectors / sizeof list_selectors[0])

/* The parser keeps the last value of a repeated option: refuse that
 * rather than silently drop a list. */
static int once(const cli_command *cmd, const cli_args *args)
{
	for (int i = 0; cmd->options[i].name; i++)
		if (args->count[i] > 1 && cmd->options[i].value_name)
			return cli_usage_error(cmd, "--%s given %d times: give "
					       "it once, with a comma-separated "
					       "list", cmd->options[i].name,
					       args->count[i]);
	return EXIT_OK;
}

static int selector_error(const cli_command *cmd, const ev_filter *f,
			  const char *option, int rc)
{
	if (rc == EV_ENOMEM)
		return cli_error(EXIT_SYSTEM, "out of memory");
	return cli_usage_error(cmd, "--%s: %s", option,
			       ev_filter_diag(f)->message);
}

static int add_lists(const cli_command *cmd, const cli_args *args,
		     ev_filter *f)
{
	for (size_t i = 0; i < N_LIST_SELECTORS; i++) {
		const char *v = cli_value(cmd, args, list_selectors[i].option);
		int rc;
		if (!v)
			continue;
		rc = ev_filter_add(f, list_selectors[i].kind, v,
				   list_selectors[i].exclude);
		if (rc < 0)
			return selector_error(cmd, f, list_selectors[i].option,
					      rc);
	}
	return EXIT_OK;
}

static int add_window(const cli_command *cmd, const cli_args *args,
		      ev_filter *f, int exclude)
{
	const char *from = cli_value(cmd, args, exclude ? "exclude-from"
							 : "from");
	const char *to = cli_value(cmd, args, exclude ? "exclude-to" : "to");
	const char *marks = cli_value(cmd, args, exclude
				      ? "exclude-between-markers"
				      : "between-markers");
	int rc;

	if ((from || to) &&
	    (rc = ev_filter_set_time(f, from, to, exclude)) < 0)
		return selector_error(cmd, f, from ? (exclude ? "exclude-from"
							      : "from")
					       : (exclude ? "exclude-to" : "to"),
				      rc);
	if (marks && (rc = ev_filter_set_markers_text(f, marks, exclude)) < 0)
		return selector_error(cmd, f, exclude ? "exclude-between-markers"
						      : "between-markers", rc);
	return EXIT_OK;
}

static int build_filter(const cli_command *cmd, const cli_args *args,
			ev_filter *f)
{
	const char *redact = cli_value(cmd, args, "redact");
	int rc;

	if ((rc = once(cmd, args)) != EXIT_OK ||
	    (rc = add_lists(cmd, args, f)) != EXIT_OK ||
	    (rc = add_window(cmd, args, f, 0)) != EXIT_OK ||
	    (rc = add_window(cmd, args, f, 1)) != EXIT_OK)
		return rc;
	if (redact && (rc = ev_filter_set_redact(f, redact)) < 0)
		return selector_error(cmd, f, "redact", rc);
	ev_filter_set_metadata(f, !cli_flag(cmd, args, "no-metadata"));
	return EXIT_OK;
}

/* A failure of ev_filter_run, by what it concerns. */
static int run_error(const ev_filter *f, const ev_filter_stats *st,
		     const char *in, const char *out)
{
	const ev_diag *d = ev_filter_diag(f);
	int code = cli_exit_for_status(d->status);

	in = cli_input_name(in);
	switch (st->origin) {
	case EV_ORIGIN_INPUT:
		/* Opening or reading failed before any byte: no offset. */
		if (d->status == EV_EIO && d->offset == 0)
			return cli_error(code, "%s: %s", in, d->message);
		return cli_error(code == EXIT_OK ? EXIT_INVALID : code,
				 "%s: offset %llu: %s", in,
				 (unsigned long long)d->offset, d->message);
	case EV_ORIGIN_OUTPUT:
		return cli_error(EXIT_SYSTEM, "%s: %s", cli_output_name(out),
				 d->message);
	case EV_ORIGIN_OPTIONS:
		return cli_error(code, "%s: %s", in, d->message);
	default:
		return cli_error(EXIT_SYSTEM, "%s", d->message);
	}
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

static int run_filter(const cli_command *cmd, const cli_args *args,
		      ev_filter *f, const ev_filter_run_options *opts)
{
	const char *in = args->positional[0];
	const char *out = cli_value(cmd, args, "output");
	ev_filter_stats st;
	ev_sink *sink;
	cli_progress bar;
	int no_progress = cli_flag(cmd, args, "no-progress");
	int rc = cli_open_log_output(cmd, args, out, &in, 1, 0, &sink), status;

	if (rc != EXIT_OK)
		return rc;
	progress_start(&bar, "filter", no_progress);
	ev_filter_set_progress(f, progress_update, &bar);
	status = ev_filter_run(f, in, sink, opts, &st);
	progress_end(&bar);
	warn_markers(&st, in);
	if (status == EV_ETRUNCATED) {
		const ev_diag *d = ev_filter_diag(f);
		cli_warn_at(cli_input_name(in), (int64_t)d->offset,
			    "%s; filtered the %llu complete events", d->message,
			    (unsigned long long)st.events_read);
		status = EV_OK;
		rc = EXIT_DROPPED;
	}
	if (status < 0)
		rc = run_error(f, &st, in, out);
	else if ((status = cli_commit_output(sink, out)) != EXIT_OK)
		rc = status;
	cli_close_output(sink);
	return rc;
}

int cmd_filter(const cli_command *cmd, const cli_args *args)
{
	ev_filter_run_options opts = EV_FILTER_RUN_OPTIONS_INIT;
	ev_filter *f;
	int rc;

	if (ev_filter_new(&f) < 0)
		return cli_error(EXIT_SYSTEM, "out of memory");
	rc = build_filter(cmd, args, f);
	if (rc == EXIT_OK)
		rc = cli_parse_block_size(cli_value(cmd, args, "block-size"),
				      &opts.max_block_size);
	opts.tmpdir = cli_value(cmd, args, "tmpdir");
	if (rc == EXIT_OK)
		rc = run_filter(cmd, args, f, &opts);
	ev_filter_free(f);
	return rc;
}
