/*
 * evtool report: one self-contained HTML page about a run, from its log.
 * One pass feeds every event to the time buckets and the +RTS -s
 * figures (report.h); report_page.c draws the page.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "report_page.h"

enum report_option {
	REPORT_OPT_OUTPUT,
	REPORT_N_OPTIONS
};
CLI_CHECK_OPTIONS(REPORT_N_OPTIONS);

const cli_option report_options[REPORT_N_OPTIONS + 1] = {
	[REPORT_OPT_OUTPUT] =
	{ "output", 'o', "FILE", "write the page to FILE (default, or -: standard output)" },
};

/* One read of the log. */
typedef struct report_job {
	const char *name; /* in messages: "<stdin>" for "-", as the reader's */
	ev_report *report;
	int truncated;
} report_job;

/* Reads the log into job->report and finishes it. EXIT_OK, EXIT_DROPPED
 * for a truncated log (warned), or an error, reported. */
static int collect(report_job *job, const char *path)
{
	ev_reader *r;
	int rc = cli_open_input(path, 0, &r), status;

	if (rc != EXIT_OK)
		return rc;
	status = ev_reader_feed(r, ev_report_consumer(), job->report);
	if (status < 0 && ev_report_diag(job->report)->status < 0) {
		rc = cli_read_failure(ev_report_diag(job->report), job->name);
	} else if (status == EV_ETRUNCATED) {
		cli_warn_at(job->name, (int64_t)ev_reader_offset(r),
			    "%s; the report covers the events before it",
			    ev_reader_diag(r)->message);
		job->truncated = 1;
		rc = EXIT_DROPPED;
	} else if (status < 0) {
		rc = cli_reader_error(r);
	}
	ev_reader_free(r);
	if ((rc == EXIT_OK || rc == EXIT_DROPPED) &&
	    ev_report_finish(job->report) < 0)
		rc = cli_finish_failure(ev_report_diag(job->report),
					job->name);
	return rc;
}

/* Writes the page into `sink` through a memory buffer: the sink API
 * takes bytes, the page writer a stream. The page is bounded (report.h),
 * whatever the log's size. */
static int write_page(const report_job *job, ev_sink *sink, const char *out)
{
	report_page page = { job->name, job->truncated, job->report };
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int rc = EXIT_OK;

	if (!mem)
		return cli_error(EXIT_SYSTEM, "out of memory");
	if (report_page_write(mem, &page) < 0 || fclose(mem) != 0)
		rc = cli_error(EXIT_SYSTEM, "cannot build the page: out of "
			       "memory");
	else if (ev_sink_write(sink, buf, len) < 0)
		rc = cli_write_failure(ev_sink_diag(sink), out);
	else
		rc = cli_commit_output(sink, out);
	free(buf);
	return rc;
}

int cmd_report(const cli_args *args)
{
	const char *in = args->positional[0];
	const char *out = cli_value(args, REPORT_OPT_OUTPUT);
	report_job job = { cli_input_name(in), NULL, 0 };
	ev_sink *sink = NULL;
	int rc = cli_open_output(out, &in, 1, CLI_REFUSE_INPUT, &sink), wrc;

	if (rc == EXIT_OK && ev_report_new(&job.report, NULL) < 0)
		rc = cli_error(EXIT_SYSTEM, "out of memory");
	if (rc == EXIT_OK)
		rc = collect(&job, in);
	if (rc == EXIT_OK || rc == EXIT_DROPPED) {
		wrc = write_page(&job, sink, out);
		if (wrc != EXIT_OK)
			rc = wrc;
	}
	cli_close_output(sink);
	ev_report_free(job.report);
	return rc;
}
