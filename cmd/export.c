/*
 * evtool export: a log as Trace Event Format JSON (perfetto), speedscope
 * JSON or an .hp heap profile, converted by the library's exporter from
 * the events in time order (the sorter's streaming form; speedscope's
 * and hp's events picked out of the log by -T workers first).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <evtool/export.h>
#include <evtool/sort.h>

#include "commands.h"

/* The options of evtool export, indexes in export_options. */
enum export_option {
	EXPORT_OPT_FORMAT,
	EXPORT_OPT_OUTPUT,
	EXPORT_OPT_TMPDIR,
	EXPORT_OPT_THREADS,
	EXPORT_N_OPTIONS
};
CLI_CHECK_OPTIONS(EXPORT_N_OPTIONS);

const cli_option export_options[EXPORT_N_OPTIONS + 1] = {
	/* In the order of ev_export_format: cli_choice's index is one. */
	[EXPORT_OPT_FORMAT] =
	{ "format", 0, "perfetto|speedscope|hp", "perfetto (default: Trace "
	  "Event Format JSON), speedscope (the time profile of a +RTS -p run) "
	  "or hp (the heap profile, as hp2ps reads)" },
	[EXPORT_OPT_OUTPUT] =
	{ "output", 'o', "FILE", "write to FILE (default, or -: standard "
	  "output)" },
	[EXPORT_OPT_TMPDIR] =
	{ "tmpdir", 0, "DIR", "folder for temporary files when sorting "
	  "(default $TMPDIR or /tmp)" },
	[EXPORT_OPT_THREADS] =
	{ "threads", 'T', "N", "read with N threads (default, or 0: the "
	  "cores available; 1: one)" },
};

/* What each format needs, for the message when a log lacks it. */
static const char *const missing[] = {
	"no events", "no time-profile samples (PROF_SAMPLE_COST_CENTRE: run "
	"a profiled program with +RTS -p -l)", "no heap profile (run with "
	"+RTS -h -l)"
};

typedef struct export_run {
	const char *in;
	const char *out;       /* NULL: standard output */
	ev_sink *sink;
	ev_exporter *x;
} export_run;

/* A file named NAME.gz is gzip-compressed, as a log written by cat is. */
static int open_output(export_run *run)
{
	if (run->out)
		return cli_open_log_output(run->out, 0, &run->in, 1,
					   CLI_REFUSE_INPUT, &run->sink);
	/* Text: a terminal is fine, as for jq; the input is not. */
	int rc = cli_refuse_stdout_input(&run->in, 1);
	if (rc != EXIT_OK)
		return rc;
	if (ev_sink_open_fd(&run->sink, STDOUT_FILENO, "<stdout>", NULL) < 0)
		return cli_error(EXIT_SYSTEM, "out of memory");
	return EXIT_OK;
}

/* The exporter's failures: a limit of the format concerns the input,
 * running out of memory nothing in particular, anything else the output
 * (its message, else errno's). A reader that went away (| head) is no
 * news. */
static int output_error(const export_run *run)
{
	ev_diag d = *ev_exporter_diag(run->x);

	if (d.status == EV_ELIMIT)
		d.origin = EV_ORIGIN_INPUT;
	else if (d.status == EV_ENOMEM)
		d.origin = EV_ORIGIN_NONE;
	else if (!run->out && errno == EPIPE)
		return EXIT_SYSTEM;
	else
		d.origin = EV_ORIGIN_OUTPUT;
	if (d.status == EV_ENOMEM || !d.message[0])
		snprintf(d.message, sizeof d.message, "%s",
			 d.status == EV_ENOMEM ? "out of memory"
					       : strerror(errno));
	return cli_origin_error(&d, run->in, run->out);
}

/* Converts (the consumer's finish ends the output), then commits the
 * output unless there was nothing to write. */
static int convert(export_run *run, ev_sorter *s, ev_input *in,
		   ev_export_format format)
{
	int status = ev_exporter_visit(run->x, s, in);
	int truncated = status == EV_ETRUNCATED, rc;

	if (status < 0 && !truncated) {
		if (ev_sorter_diag(s)->origin == EV_ORIGIN_OUTPUT)
			return output_error(run);
		return cli_sorter_error(s, run->in, run->out);
	}
	if (status == EV_EXPORT_NOTHING)
		return cli_error(EXIT_INVALID, "%s: %s", cli_input_name(run->in),
				 missing[format]);
	if (run->out && (rc = cli_commit_output(run->sink, run->out)) != EXIT_OK)
		return rc;
	if (!run->out && ev_sink_commit(run->sink) < 0)
		return output_error(run);
	if (truncated)
		return cli_sorter_error(s, run->in, run->out);
	return EXIT_OK;
}

int cmd_export(const cli_args *args)
{
	ev_export_options opts = EV_EXPORT_OPTIONS_INIT;
	ev_sort_options sort = EV_SORT_OPTIONS_INIT;
	export_run run = { NULL, NULL, NULL, NULL };
	const char *out = cli_value(args, EXPORT_OPT_OUTPUT);
	int format = EV_EXPORT_PERFETTO, rc;
	unsigned threads;
	ev_input *in = NULL;
	ev_sorter *s = NULL;

	if ((rc = cli_choice(args, EXPORT_OPT_FORMAT, &format)) != EXIT_OK ||
	    (rc = cli_threads(args, EXPORT_OPT_THREADS, &threads)) != EXIT_OK)
		return rc;
	run.in = args->positional[0];
	if (out && strcmp(out, "-") != 0)
		run.out = out;
	opts.format = (ev_export_format)format;
	opts.tmpdir = sort.tmpdir = cli_value(args, EXPORT_OPT_TMPDIR);
	if ((rc = open_output(&run)) != EXIT_OK)
		return rc;
	if (ev_exporter_new(&run.x, &opts, run.sink, NULL) < 0 ||
	    ev_sorter_new(&s, &sort, NULL) < 0)
		rc = cli_error(EXIT_SYSTEM, "out of memory");
	else if ((rc = cli_open_log_input(run.in, &in)) == EXIT_OK) {
		ev_exporter_set_threads(run.x, threads);
		rc = convert(&run, s, in, opts.format);
	}
	ev_input_free(in);
	ev_sorter_free(s);
	ev_exporter_free(run.x);
	if (run.out)
		cli_close_output(run.sink);
	else
		ev_sink_free(run.sink);
	return rc;
}
