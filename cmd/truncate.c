/*
 * evtool truncate: repair a log whose program was killed (keep every
 * complete event, fix the cut block, append the data end), skip damage
 * with --resync, or cut a good log to a prefix. The work is done by
 * ev_repair (include/evtool/repair.h); this file parses the options and
 * prints what the repair reports.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "progress.h"

/* The options of evtool truncate, indexes in truncate_options. */
enum truncate_option {
	TRUNCATE_OPT_OUTPUT,
	TRUNCATE_OPT_GZIP,
	TRUNCATE_OPT_IN_PLACE,
	TRUNCATE_OPT_RESYNC,
	TRUNCATE_OPT_AT,
	TRUNCATE_OPT_EVENTS,
	TRUNCATE_OPT_BYTES,
	TRUNCATE_OPT_SESSION,
	TRUNCATE_OPT_QUIET,
	TRUNCATE_OPT_NO_PROGRESS,
	TRUNCATE_N_OPTIONS
};
CLI_CHECK_OPTIONS(TRUNCATE_N_OPTIONS);

const cli_option truncate_options[TRUNCATE_N_OPTIONS + 1] = {
	[TRUNCATE_OPT_OUTPUT] =
	{ "output", 'o', "OUT", "write to OUT, not standard output (*.gz: "
	  "compressed)" },
	[TRUNCATE_OPT_GZIP] =
	{ "gzip", 0, NULL, "compress as 'evtool archive' does (gzip with the "
	  "log's digest)" },
	[TRUNCATE_OPT_IN_PLACE] =
	{ "in-place", 0, NULL,
	  "replace the input with the result (safely, by rename)" },
	[TRUNCATE_OPT_RESYNC] =
	{ "resync", 0, NULL,
	  "skip damaged regions to the next block marker and drop events "
	  "with impossible times, reporting each" },
	[TRUNCATE_OPT_AT] =
	{ "at", 0, "TIME", "keep events stamped before TIME (" CLI_TIME_FORMS
	  ")" },
	[TRUNCATE_OPT_EVENTS] =
	{ "events", 0, "N", "keep the first N events and stop there" },
	[TRUNCATE_OPT_BYTES] =
	{ "bytes", 0, "SIZE",
	  "keep what lies in the first SIZE bytes (rounded down to an event; "
	  "150M)" },
	[TRUNCATE_OPT_SESSION] =
	{ "session", 0, "N",
	  "write only the Nth session (1-based, as 'evtool info' lists "
	  "them)" },
	[TRUNCATE_OPT_QUIET] =
	{ "quiet", 'q', NULL, "print errors only, not what was kept" },
	[TRUNCATE_OPT_NO_PROGRESS] =
	{ "no-progress", 0, NULL, "no progress bar on standard error" },
};

/* ---- options ---- */

/* --at takes the times every option takes (ev_time_parse); the repair
 * places a wall-clock time by the log's WALL_CLOCK_TIME. */
static int parse_at(const cli_args *args, ev_repair_options *o)
{
	ev_time_base base;
	uint64_t ns;
	int rc = cli_time(args, TRUNCATE_OPT_AT, &base, &ns);

	if (rc != EXIT_OK)
		return rc;
	o->max_time = ns;
	o->time_base = base == EV_TIME_RELATIVE ? EV_REPAIR_TIME_RELATIVE
		       : base == EV_TIME_WALL   ? EV_REPAIR_TIME_WALL
						: EV_REPAIR_TIME_RAW;
	return EXIT_OK;
}

static int parse_options(const cli_command *cmd, const cli_args *args,
			 ev_repair_options *o)
{
	const char *at = cli_value(args, TRUNCATE_OPT_AT);
	uint64_t session = 0;
	int rc = EXIT_OK;

	if (cli_flag(args, TRUNCATE_OPT_RESYNC))
		o->flags |= EV_REPAIR_RESYNC;
	if (at)
		rc = parse_at(args, o);
	if (rc == EXIT_OK)
		rc = cli_count(args, TRUNCATE_OPT_EVENTS, 0, UINT64_MAX - 1,
			       &o->max_events);
	if (rc == EXIT_OK)
		rc = cli_size(args, TRUNCATE_OPT_BYTES, 0, UINT64_MAX - 1,
			      &o->max_bytes);
	if (rc == EXIT_OK)
		rc = cli_count(args, TRUNCATE_OPT_SESSION, 0, UINT_MAX,
			       &session);
	if (rc == EXIT_OK && cli_value(args, TRUNCATE_OPT_SESSION) &&
	    session == 0)
		rc = cli_usage_error(cmd, "--session counts from 1, as 'evtool "
				     "info' lists the sessions");
	o->session = (unsigned)session;
	if (rc == EXIT_OK && o->time_base == EV_REPAIR_TIME_WALL &&
	    strcmp(args->positional[0], "-") == 0)
		rc = cli_usage_error(cmd, "--at with a wall-clock time "
				     "reads the log twice: give a file, not "
				     "standard input");
	return rc;
}

/* --in-place writes to the input, through the same temporary file and
 * rename as any output, so the input is intact until the end. */
static int choose_output(const cli_command *cmd, const cli_args *args,
			 const char **out, int *in_place)
{
	*out = cli_value(args, TRUNCATE_OPT_OUTPUT);
	*in_place = cli_flag(args, TRUNCATE_OPT_IN_PLACE);
	if (!*in_place)
		return EXIT_OK;
	if (*out || strcmp(args->positional[0], "-") == 0)
		return cli_usage_error(cmd, "--in-place takes an input file and "
				       "no -o");
	*out = args->positional[0];
	return EXIT_OK;
}

/* ---- reporting ---- */

typedef struct report {
	const char *name;
	int quiet;
} report;

static void print_notice(void *ctx, const ev_repair_notice *n)
{
	const report *rep = ctx;

	if (rep->quiet)
		return;
	cli_message_start();
	fprintf(stderr, "%s: offset %" PRIu64 ": %s\n", rep->name,
		n->offset, n->message);
}

static void print_summary(const report *rep, const ev_repair_options *o,
			  const ev_repair_summary *s)
{
	uint64_t dropped = s->input_bytes - s->kept_bytes;

	if (rep->quiet)
		return;
	cli_message_start();
	fprintf(stderr, "%s: kept %" PRIu64 " event%s in %" PRIu64
		" block%s", rep->name, s->events, s->events == 1 ? "" : "s",
		s->blocks, s->blocks == 1 ? "" : "s");
	if (s->sessions != 1)
		fprintf(stderr, " (%u sessions)", s->sessions);
	if (s->events)
		fprintf(stderr, ", times %" PRIu64 " to %" PRIu64
			" ns (%.6f s)", s->first_time, s->last_time,
			(double)(s->last_time - s->first_time) / 1e9);
	if (s->cut_events && o->time_base != EV_REPAIR_TIME_RELATIVE)
		fprintf(stderr, "; cut %" PRIu64 " event%s stamped at or "
			"after %" PRIu64 " ns", s->cut_events,
			s->cut_events == 1 ? "" : "s", s->cut_time);
	else if (s->cut_events)
		fprintf(stderr, "; cut %" PRIu64 " event%s stamped %" PRIu64
			" ns or more after the first", s->cut_events,
			s->cut_events == 1 ? "" : "s", s->cut_time);
	if (s->stopped_early)
		fprintf(stderr, "; stopped reading at offset %" PRIu64,
			s->input_bytes);
	if (dropped)
		fprintf(stderr, "; dropped %" PRIu64 " of %" PRIu64 " bytes",
			dropped, s->input_bytes);
	else if (s->damaged)
		fputs("; no input bytes dropped", stderr);
	else if (!s->stopped_early && !s->cut_events)
		fputs("; the log was complete, nothing dropped", stderr);
	fputc('\n', stderr);
}

/* A failure placing a wall-clock --at concerns that option. */
static int repair_error(const char *name, const char *out,
			const ev_repair_options *o, const ev_repair *rp)
{
	cli_failure_files files = { &name, 1, out,
				    CLI_FAILURE_OFFSET_ALWAYS |
				    CLI_FAILURE_TRUNCATED_INVALID |
				    CLI_FAILURE_REPAIRING,
				    o->time_base == EV_REPAIR_TIME_WALL
					    ? "--at" : NULL, NULL };

	return cli_failure(ev_repair_diag(rp), &files);
}

/* ---- the command ---- */

/* The output equals the input: a complete log read to its end with
 * nothing cut, dropped or left out. */
static int unchanged(const ev_repair_summary *s)
{
	return !s->damaged && !s->stopped_early && !s->cut_events &&
	       s->output_bytes == s->input_bytes;
}

static int repair(ev_repair_options *o, ev_input *input, ev_sink *sink,
		  const char *in, const char *out, int in_place, int quiet,
		  int no_progress)
{
	report rep = { in, quiet };
	const ev_repair_summary *s;
	ev_repair *rp;
	cli_progress bar;
	int rc;

	o->notify = print_notice;
	o->notify_ctx = &rep;
	if (ev_repair_new(&rp, o, NULL) < 0)
		return cli_error(EXIT_SYSTEM, "out of memory");
	progress_start(&bar, "truncate", no_progress);
	ev_repair_set_progress(rp, progress_update, &bar);
	rc = ev_repair_run(rp, input, sink);
	progress_end(&bar);
	s = ev_repair_result(rp);
	/* A log cut inside its header fails in the repair (nothing to
	 * recover); one with a whole header but no complete event (killed
	 * before its first block was flushed) becomes header + data end, a
	 * valid log that says which program ran, with no events. */
	if (rc < 0)
		rc = repair_error(in, out, o, rp);
	else if (in_place && unchanged(s)) {
		/* Nothing to repair: the file keeps its bytes, inode and
		 * time stamps; the temporary copy is discarded. */
		if (!quiet) {
			cli_message_start();
			fprintf(stderr, "%s: the log is complete; left "
				"untouched\n", in);
		}
		ev_repair_free(rp);
		return EXIT_OK;
	} else
		rc = cli_commit_output(sink, out);
	if (rc == EXIT_OK) {
		print_summary(&rep, o, s);
		if (s->damaged && s->events == 0 && !quiet) {
			cli_message_start();
			fprintf(stderr, "%s: the repaired log holds no "
				"events: not one complete event follows the "
				"header\n", in);
		}
		if (s->damaged)
			rc = EXIT_DROPPED;
	}
	ev_repair_free(rp);
	return rc;
}

/* --in-place would write a plain log over a gzip file: whether the input
 * is gzip is known once a reader has read its start. */
static int refuse_gzip(const cli_command *cmd, const char *in)
{
	ev_reader *r;
	int rc = cli_open_input(in, 0, &r), gzip;

	if (rc != EXIT_OK)
		return rc;
	(void)ev_reader_read_header(r);
	gzip = ev_reader_is_gzip(r);
	ev_reader_free(r);
	if (gzip)
		return cli_usage_error(cmd, "--in-place would replace a gzip "
				       "file with an uncompressed log; use -o");
	return EXIT_OK;
}

int cmd_truncate(const cli_args *args)
{
	const cli_command *cmd = args->cmd;
	ev_repair_options o = EV_REPAIR_OPTIONS_INIT;
	const char *in = args->positional[0], *out;
	ev_input *input = NULL;
	ev_sink *sink = NULL;
	char *target = NULL;
	int in_place, rc = choose_output(cmd, args, &out, &in_place);

	/* --in-place on a symbolic link repairs the file it points to and
	 * keeps the link: the temporary file and the rename go to the
	 * target's folder. */
	if (rc == EXIT_OK && in_place && !(out = target = realpath(in, NULL)))
		rc = cli_error(EXIT_SYSTEM, "%s: %s", in, strerror(errno));
	if (rc == EXIT_OK)
		rc = parse_options(cmd, args, &o);
	if (rc == EXIT_OK)
		rc = cli_open_log_output(out, cli_flag(args, TRUNCATE_OPT_GZIP),
					 args->positional, 1,
					 in_place ? CLI_REPLACE_INPUT
						  : CLI_REFUSE_HINT_IN_PLACE,
					 &sink);
	if (rc == EXIT_OK)
		rc = cli_open_log_input(in, &input);
	if (rc == EXIT_OK && in_place)
		rc = refuse_gzip(cmd, in);
	if (rc == EXIT_OK)
		rc = repair(&o, input, sink, ev_input_name(input), out,
			    in_place, cli_flag(args, TRUNCATE_OPT_QUIET),
			    cli_flag(args, TRUNCATE_OPT_NO_PROGRESS));
	cli_close_output(sink);
	ev_input_free(input);
	free(target);
	return rc;
}
