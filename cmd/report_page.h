/* The HTML page of evtool report: template, chart library and data. */
#ifndef EVTOOL_CMD_REPORT_PAGE_H
#define EVTOOL_CMD_REPORT_PAGE_H

#include <stdio.h>

#include <evtool/evtool.h>

/* What a page shows: one log's buckets and its +RTS -s figures. */
typedef struct report_page {
	const char *file;        /* the input's name, as messages give it */
	int truncated;           /* the log was cut: figures cover its start */
	const ev_report *report; /* finished */
} report_page;

/* Writes the whole page to `f`: the template (cmd/report_page.html)
 * with Chart.js and the data, as JSON, put in. Returns 0, or -1 when
 * writing failed (errno tells). */
int report_page_write(FILE *f, const report_page *page);

/* What the page of two runs shows (evtool report A B): both runs' heap
 * profiles on one time axis, their bands compared (the `top` whose peak
 * changed most) and the figures of stats A B. */
typedef struct report_diff {
	const char *files[2];        /* base, new: names as messages give */
	const ev_report *reports[2]; /* finished */
	size_t top;
} report_diff;

/* Writes the page of two runs, as report_page_write. */
int report_diff_write(FILE *f, const report_diff *diff);

#endif
