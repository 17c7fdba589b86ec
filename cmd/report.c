/*
 * evtool report: one self-contained HTML page about a run, from its log.
 * One pass feeds every event to the +RTS -s accumulator (stats.h) and to
 * the time buckets (report.h); report_page.c draws the page.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "report_page.h"

const cli_option report_options[] = {
	{ "output", 'o', "FILE", "write the page to FILE ('-' for standard output)" },
	{ NULL, 0, NULL, NULL }
};

/* The accumulators of one read. */
typedef struct report_job {
	const char *name; /* in messages: "<stdin>" for "-", as the reader's */
	ev_stats *stats;
	ev_report *report;
	int truncated;
} report_job;

static int diag_error(const char *name, const ev_diag *d)
{
	return cli_error(cli_exit_for_status(d->status),
			 "%s: offset %" PRIu64 ": %s", name, d->offset,
			 d->message);
}

/* Feeds every event of every session of `r` to both accumulators.
 * EXIT_OK, EXIT_DROPPED for a truncated log (warned), or an error. */
static int feed(report_job *job, ev_reader *r)
{
	ev_event ev;
	int rc;

	for (;;) {
		while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
			if (ev_stats_add(job->stats, &ev) < 0)
				return diag_error(job->name,
						  ev_stats_diag(job->stats));
			if (ev_report_add(job->report, &ev) < 0)
				return diag_error(job->name,
						  ev_report_diag(job->report));
		}
		if (rc == EV_END && (rc = ev_reader_next_session(r)) == EV_OK)
			continue;
		break;
	}
	if (rc == EV_END)
		return EXIT_OK;
	if (rc != EV_ETRUNCATED)
		return cli_reader_error(r);
	cli_warn_at(job->name, (int64_t)ev_reader_offset(r),
		    "%s; the report covers the events before it",
		    ev_reader_diag(r)->message);
	job->truncated = 1;
	return EXIT_DROPPED;
}

static int collect(report_job *job, const char *path)
{
	ev_reader *r;
	int rc = cli_open_input(path, 0, &r);

	if (rc != EXIT_OK)
		return rc;
	rc = feed(job, r);
	ev_reader_free(r);
	if (rc != EXIT_OK && rc != EXIT_DROPPED)
		return rc;
	if (ev_stats_finish(job->stats) < 0 || ev_report_finish(job->report) < 0)
		return cli_error(EXIT_SYSTEM, "%s: out of memory", job->name);
	return rc;
}

/* Writes the page into `sink` through a memory buffer: the sink API
 * takes bytes, the page writer a stream. The page is bounded (report.h),
 * whatever the log's size. */
static int write_page(const report_job *job, ev_sink *sink, const char *out)
{
	report_page page = { job->name, job->truncated, job->report,
			     job->stats };
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
		rc = cli_error(EXIT_SYSTEM, "%s: %s", out,
			       ev_sink_diag(sink)->message);
	else
		rc = cli_commit_output(sink, out);
	free(buf);
	return rc;
}

int cmd_report(const cli_command *cmd, const cli_args *args)
{
	const char *in = args->positional[0];
	const char *out = cli_value(cmd, args, "output");
	report_job job = { strcmp(in, "-") == 0 ? "<stdin>" : in, NULL, NULL,
			   0 };
	ev_sink *sink = NULL;
	int rc = cli_open_output(out, &in, 1, 0, &sink), wrc;

	if (rc == EXIT_OK && (ev_stats_new(&job.stats) < 0 ||
			      ev_report_new(&job.report, NULL) < 0))
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
	ev_stats_free(job.stats);
	return rc;
}
