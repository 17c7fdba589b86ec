/*
 * evtool report: one self-contained HTML page about a run, from its log.
 * One pass feeds every event to the time buckets and the +RTS -s
 * figures (report.h); report_page.c draws the page. With two logs, the
 * page compares their heap profiles (report_diff_write).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "report_page.h"

enum report_option {
	REPORT_OPT_OUTPUT,
	REPORT_OPT_TOP,
	REPORT_N_OPTIONS
};
CLI_CHECK_OPTIONS(REPORT_N_OPTIONS);

const cli_option report_options[REPORT_N_OPTIONS + 1] = {
	[REPORT_OPT_OUTPUT] =
	{ "output", 'o', "FILE", "write the page to FILE (default, or -: standard output)" },
	[REPORT_OPT_TOP] =
	{ "top", 0, "N", "with two logs, the N heap-profile bands whose peak "
	  "changed most (default 10)" },
};

/* The bands a page of two runs compares by default (--top). */
#define DEFAULT_TOP 10

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
static int write_page(const report_job *job, ev_sink *sink, const char *out,
		      size_t top)
{
	report_page page = { job[0].name, job[0].truncated, job[0].report };
	report_diff diff = { { job[0].name, job[1].name },
			     { job[0].report, job[1].report }, top };
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int rc = EXIT_OK;

	if (!mem)
		return cli_error(EXIT_SYSTEM, "out of memory");
	if ((job[1].report ? report_diff_write(mem, &diff)
			   : report_page_write(mem, &page)) < 0 ||
	    fclose(mem) != 0)
		rc = cli_error(EXIT_SYSTEM, "cannot build the page: out of "
			       "memory");
	else if (ev_sink_write(sink, buf, len) < 0)
		rc = cli_write_failure(ev_sink_diag(sink), out);
	else
		rc = cli_commit_output(sink, out);
	free(buf);
	return rc;
}

/* Two runs' heap profiles must break the heap down alike. */
static int same_breakdown(const report_job *job)
{
	ev_stats_heap_profile p[2];

	for (int i = 0; i < 2; i++)
		ev_stats_heap_profile_get(ev_report_stats(job[i].report), &p[i]);
	if (!p[0].have || !p[1].have || p[0].breakdown == p[1].breakdown)
		return EXIT_OK;
	return cli_error(EXIT_INVALID, "%s and %s break their heap profiles "
			 "down differently (-h%s, -h%s): their bands cannot be "
			 "compared", job[0].name, job[1].name,
			 ev_stats_breakdown_flag(p[0].breakdown) ?
			 ev_stats_breakdown_flag(p[0].breakdown) : "?",
			 ev_stats_breakdown_flag(p[1].breakdown) ?
			 ev_stats_breakdown_flag(p[1].breakdown) : "?");
}

static int readable(int rc)
{
	return rc == EXIT_OK || rc == EXIT_DROPPED;
}

int cmd_report(const cli_args *args)
{
	const char *const *in = (const char *const *)args->positional;
	int n = args->n_positional;
	const char *out = cli_value(args, REPORT_OPT_OUTPUT);
	report_job job[2] = { { cli_input_name(in[0]), NULL, 0 },
			      { n > 1 ? cli_input_name(in[1]) : NULL, NULL,
				0 } };
	ev_sink *sink = NULL;
	uint64_t top = DEFAULT_TOP;
	int rc = cli_count(args, REPORT_OPT_TOP, 1, 1000000, &top), wrc;

	if (rc == EXIT_OK)
		rc = cli_open_output(out, in, n, CLI_REFUSE_INPUT, &sink);
	for (int i = 0; i < n && readable(rc); i++) {
		if (ev_report_new(&job[i].report, NULL) < 0)
			rc = cli_error(EXIT_SYSTEM, "out of memory");
		else if ((wrc = collect(&job[i], in[i])) != EXIT_OK)
			rc = wrc;
	}
	if (n == 2 && readable(rc) && (wrc = same_breakdown(job)) != EXIT_OK)
		rc = wrc;
	if (readable(rc)) {
		wrc = write_page(job, sink, out, (size_t)top);
		if (wrc != EXIT_OK)
			rc = wrc;
	}
	cli_close_output(sink);
	ev_report_free(job[0].report);
	ev_report_free(job[1].report);
	return rc;
}
