/*
 * evtool sort: one global, stable time order, re-blocked; or --check
 * whether a log already is in one.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <evtool/catalog.h>
#include <evtool/sort.h>

#include "commands.h"
#include "progress.h"

/* The options of evtool sort, indexes in sort_options. */
enum sort_option {
	SORT_OPT_OUTPUT,
	SORT_OPT_GZIP,
	SORT_OPT_CHECK,
	SORT_OPT_MEMORY,
	SORT_OPT_TMPDIR,
	SORT_OPT_BLOCK_SIZE,
	SORT_OPT_METHOD,
	SORT_OPT_NO_PROGRESS,
	SORT_OPT_VERBOSE,
	SORT_N_OPTIONS
};
CLI_CHECK_OPTIONS(SORT_N_OPTIONS);

const cli_option sort_options[SORT_N_OPTIONS + 1] = {
	[SORT_OPT_OUTPUT] =
	{ "output", 'o', "OUT", "write to OUT, not standard output (*.gz: "
	  "compressed)" },
	[SORT_OPT_GZIP] =
	{ "gzip", 0, NULL, "compress as 'evtool archive' does (gzip with the "
	  "log's digest)" },
	[SORT_OPT_CHECK] =
	{ "check", 0, NULL, "only check: exit 0 when IN is in time order, 1 "
	  "naming the first inversion" },
	[SORT_OPT_MEMORY] =
	{ "memory", 0, "SIZE", "memory for sorting (default 32M, at least "
	  "64K)" },
	[SORT_OPT_TMPDIR] =
	{ "tmpdir", 0, "DIR", "folder for temporary files (default $TMPDIR "
	  "or /tmp)" },
	[SORT_OPT_BLOCK_SIZE] =
	{ "block-size", 0, "SIZE", "largest output block (default 2M)" },
	[SORT_OPT_METHOD] =
	{ "method", 0, "auto|merge|external", "auto (default), merge (in "
	  "place) or external (spill sorted runs)" },
	[SORT_OPT_NO_PROGRESS] =
	{ "no-progress", 0, NULL, "no progress bar on standard error" },
	[SORT_OPT_VERBOSE] =
	{ "verbose", 'v', NULL, "say on standard error how the log was sorted" },
};

/* --method's words, in the order the option table lists them. */
static int parse_method(const cli_args *args, ev_sort_method *out)
{
	static const ev_sort_method methods[] = { EV_SORT_AUTO, EV_SORT_MERGE,
						  EV_SORT_EXTERNAL };
	int word = 0;
	int rc = cli_choice(args, SORT_OPT_METHOD, &word);

	*out = methods[word];
	return rc;
}

static const char *type_name(uint16_t type)
{
	const ev_type_info *info = ev_catalog_find(type);
	return info ? info->name : "unknown type";
}

/* --check could not read the whole log. A log cut after its header had
 * data dropped: what could be read is in order (an inversion before the
 * cut is reported as such), exit 3 as for any truncated input. Anything
 * else (not an eventlog, cut inside its first header, a damaged event) is
 * invalid input, exit 1 like an inversion, but said on standard error
 * as "cannot check" so that a script can tell the two apart. */
static int check_failed(const ev_reader *r, const char *in)
{
	cli_failure_files files = { &in, 1, NULL,
				    CLI_FAILURE_OFFSET_ALWAYS |
				    CLI_FAILURE_TRUNCATED_INVALID,
				    NULL, "cannot check" };
	ev_diag failed = *ev_reader_diag(r);

	/* The check's verdict on a cut log, not a failure. */
	if (failed.status == EV_ETRUNCATED && ev_reader_header(r))
		return cli_error(EXIT_DROPPED, "%s: offset %llu: %s: truncated; "
				 "the events before the cut are in time order",
				 cli_input_name(in),
				 (unsigned long long)failed.offset,
				 failed.message);
	failed.origin = EV_ORIGIN_INPUT;
	return cli_failure(&failed, &files);
}

static int check(const char *in)
{
	ev_sort_inversion inv;
	ev_reader *r;
	int rc = cli_open_input(in, 0, &r);

	if (rc != EXIT_OK)
		return rc;
	rc = ev_sort_check(r, &inv);
	if (rc == 0) {
		printf("%s: in time order\n", cli_input_name(in));
	} else if (rc == 1) {
		printf("%s: not in time order: event %" PRIu64 " at offset %"
		       PRIu64 " (%s, time %" PRIu64 " ns) is earlier than the "
		       "event before it, %" PRIu64 " at offset %" PRIu64
		       " (%s, time %" PRIu64 " ns)", cli_input_name(in),
		       inv.index, inv.offset,
		       type_name(inv.type), inv.time, inv.prev_index,
		       inv.prev_offset, type_name(inv.prev_type),
		       inv.prev_time);
		if (inv.session)
			printf(", in session %u", inv.session + 1);
		printf("\n");
		rc = EXIT_INVALID;
	} else {
		rc = check_failed(r, in);
	}
	ev_reader_free(r);
	return rc;
}

static void report(const ev_sort_stats *st)
{
	cli_message_start();
	fprintf(stderr, "sorted %" PRIu64 " events in %u session%s\n",
		st->events, st->sessions, st->sessions == 1 ? "" : "s");
	if (st->merged_sessions) {
		cli_message_start();
		fprintf(stderr, "%u session%s merged in place: %u "
			"capability stream%s, widest reorder window %u event%s\n",
			st->merged_sessions, st->merged_sessions == 1 ? "" : "s",
			st->streams,
			st->streams == 1 ? "" : "s", st->widest_window,
			st->widest_window == 1 ? "" : "s");
	}
	if (st->external_sessions) {
		cli_message_start();
		fprintf(stderr, "%u session%s by external sort%s%s: "
			"%" PRIu64 " sorted run%s, %u merge pass%s\n",
			st->external_sessions,
			st->external_sessions == 1 ? "" : "s",
			st->fallback[0] ? ", as " : "",
			st->fallback, st->runs, st->runs == 1 ? "" : "s",
			st->merge_passes, st->merge_passes == 1 ? "" : "es");
	}
	cli_message_start();
	fprintf(stderr, "%" PRIu64 " bytes in temporary files%s\n",
		st->spilled_bytes, st->copied_input
		? " (the input was copied first)" : "");
}

static int sort_log(const cli_args *args, const ev_sort_options *opts)
{
	const char *in = args->positional[0];
	const char *out = cli_value(args, SORT_OPT_OUTPUT);
	int verbose = cli_flag(args, SORT_OPT_VERBOSE);
	int no_progress = cli_flag(args, SORT_OPT_NO_PROGRESS);
	ev_input *input = NULL;
	ev_sorter *s;
	ev_sink *sink = NULL;
	cli_progress bar;
	int rc, status;

	if (ev_sorter_new(&s, opts, NULL) < 0)
		return cli_error(EXIT_SYSTEM, "out of memory");
	rc = cli_open_log_output(out, cli_flag(args, SORT_OPT_GZIP), &in, 1,
				 CLI_REFUSE_INPUT, &sink);
	if (rc == EXIT_OK)
		rc = cli_open_log_input(in, &input);
	if (rc != EXIT_OK) {
		cli_close_output(sink);
		ev_sorter_free(s);
		return rc;
	}
	progress_start(&bar, "sort", no_progress);
	ev_sorter_set_progress(s, progress_update, &bar);
	status = ev_sorter_run(s, input, sink);
	progress_end(&bar);
	if (status == EV_ETRUNCATED) {
		const ev_diag *d = ev_sorter_diag(s);
		cli_warn_at(cli_input_name(in), (int64_t)d->offset,
			    "%s; sorted the %llu complete events", d->message,
			    (unsigned long long)ev_sorter_result(s)->events);
		status = EV_OK;
		rc = EXIT_DROPPED;
	}
	if (status < 0)
		rc = cli_sorter_error(s, in, out);
	else if ((status = cli_commit_output(sink, out)) != EXIT_OK)
		rc = status;
	if (verbose && status >= 0)
		report(ev_sorter_result(s));
	cli_close_output(sink);
	ev_input_free(input);
	ev_sorter_free(s);
	return rc;
}

int cmd_sort(const cli_args *args)
{
	const cli_command *cmd = args->cmd;
	ev_sort_options opts = EV_SORT_OPTIONS_INIT;
	const char *in = args->positional[0];
	const char *out = cli_value(args, SORT_OPT_OUTPUT);
	uint64_t memory;
	int rc;

	memory = opts.memory;
	if (cli_flag(args, SORT_OPT_CHECK)) {
		if (out || cli_flag(args, SORT_OPT_GZIP))
			return cli_usage_error(cmd, "--check writes nothing: "
					       "leave out -o and --gzip");
		return check(in);
	}
	if ((rc = cli_size(args, SORT_OPT_MEMORY, EV_SORT_MIN_MEMORY, SIZE_MAX,
			   &memory)) != EXIT_OK ||
	    (rc = parse_method(args, &opts.method)) != EXIT_OK ||
	    (rc = cli_block_size(args, SORT_OPT_BLOCK_SIZE,
				 &opts.max_block_size)) != EXIT_OK)
		return rc;
	opts.memory = (size_t)memory;
	opts.tmpdir = cli_value(args, SORT_OPT_TMPDIR);
	return sort_log(args, &opts);
}
