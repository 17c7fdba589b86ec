/*
 * The page of evtool report. The template (report_page.html) and Chart.js
 * (Debian's libjs-chart.js) are compiled in (cmake/embed.cmake), so the
 * page needs no file at run time and loads nothing when opened. The data
 * goes in as one JSON object in a <script type="application/json">.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report_page.h"
#include "stats_cli.h"
#include "stats_json.h"

/* Generated at build time from cmd/report_page.html and chart.min.js. */
extern const unsigned char report_template[];
extern const size_t report_template_len;
extern const unsigned char report_chartjs[];
extern const size_t report_chartjs_len;

#define MARK_CHARTJS "/*EVTOOL:CHARTJS*/"
#define MARK_DATA "/*EVTOOL:DATA*/"

#define REPORT_SCHEMA_VERSION 1

/* ---- the data ---- */

static void json_grid(json_out *j, const ev_report_grid *g)
{
	json_begin_object(j, "grid");
	json_uint(j, "start_ns", g->start_ns);
	json_uint(j, "width_ns", g->width_ns);
	json_uint(j, "buckets", g->buckets);
	json_uint(j, "first_ns", g->first_ns);
	json_uint(j, "last_ns", g->last_ns);
	json_end_object(j);
}

/* Thousandths of a bucket: the page draws shares, not nanoseconds. */
static uint64_t permille(uint64_t part, uint64_t width)
{
	return (uint64_t)((double)part * 1000.0 / (double)width + 0.5);
}

static void json_caps(json_out *j, const ev_report_process *p, size_t n,
		      uint64_t width)
{
	static const char *const keys[] = { "running", "gc", "idle" };

	json_begin_array(j, "caps");
	for (size_t c = 0; c < p->n_caps; c++) {
		const ev_report_cap_bucket *b = p->caps[c].buckets;
		json_begin_object(j, NULL);
		json_uint(j, "cap", p->caps[c].cap);
		for (int k = 0; k < 3; k++) {
			json_begin_array(j, keys[k]);
			for (size_t i = 0; i < n; i++)
				json_uint(j, NULL, permille(k == 0 ? b[i].running_ns
							    : k == 1 ? b[i].gc_ns
								     : b[i].idle_ns,
							    width));
			json_end_array(j);
		}
		json_end_object(j);
	}
	json_end_array(j);
}

enum heap_field { H_SIZE, H_LIVE, H_ALLOCATED, H_COLLECTIONS, H_MAX_PAUSE };

static void json_heap_series(json_out *j, const char *key,
			     const ev_report_heap_bucket *h, size_t n,
			     enum heap_field f)
{
	json_begin_array(j, key);
	for (size_t i = 0; i < n; i++) {
		switch (f) {
		case H_SIZE:
			if (h[i].have & EV_REPORT_HAVE_SIZE)
				json_uint(j, NULL, h[i].heap_size_bytes);
			else
				json_null(j, NULL);
			break;
		case H_LIVE:
			if (h[i].have & EV_REPORT_HAVE_LIVE)
				json_uint(j, NULL, h[i].live_bytes);
			else
				json_null(j, NULL);
			break;
		case H_ALLOCATED:
			json_uint(j, NULL, h[i].allocated_bytes);
			break;
		case H_COLLECTIONS:
			json_uint(j, NULL, h[i].collections);
			break;
		case H_MAX_PAUSE:
			json_uint(j, NULL, h[i].max_pause_ns);
			break;
		}
	}
	json_end_array(j);
}

static void json_heap(json_out *j, const ev_report_process *p, size_t n)
{
	if (!p->have_heap) {
		json_null(j, "heap");
		return;
	}
	json_begin_object(j, "heap");
	json_heap_series(j, "size", p->heap, n, H_SIZE);
	json_heap_series(j, "live", p->heap, n, H_LIVE);
	json_heap_series(j, "allocated", p->heap, n, H_ALLOCATED);
	json_heap_series(j, "collections", p->heap, n, H_COLLECTIONS);
	json_heap_series(j, "max_pause_ns", p->heap, n, H_MAX_PAUSE);
	json_end_object(j);
}

static void json_identity(json_out *j, const ev_report_process *p)
{
	json_uint(j, "capset", p->capset);
	json_bool(j, "known", p->known);
	p->have_pid ? json_uint(j, "pid", p->pid) : json_null(j, "pid");
	if (p->rts_identifier)
		json_cstring(j, "rts_identifier", p->rts_identifier);
	else
		json_null(j, "rts_identifier");
	json_begin_array(j, "args");
	for (size_t at = 0; p->args && at < p->args_len;) {
		size_t len = strnlen(p->args + at, p->args_len - at);
		json_string(j, NULL, p->args + at, len);
		at += len + 1;
	}
	json_end_array(j);
}

static void json_markers(json_out *j, const ev_report_process *p)
{
	json_begin_array(j, "markers");
	for (size_t m = 0; m < p->n_markers; m++) {
		json_begin_object(j, NULL);
		json_uint(j, "t", p->markers[m].time_ns);
		json_uint(j, "cap", p->markers[m].cap);
		json_cstring(j, "text", p->markers[m].text);
		json_end_object(j);
	}
	json_end_array(j);
	json_uint(j, "markers_dropped", p->markers_dropped);
}

/* The index among the stats processes of the one of `capset`, or -1. */
static long stats_index(const ev_stats *st, uint32_t capset)
{
	for (size_t i = 0; i < ev_stats_process_count(st); i++)
		if (ev_stats_process_at(st, i)->capset == capset)
			return (long)i;
	return -1;
}

/* ---- pauses: their distribution (the rest is in stats --json's) ---- */

/* Quantiles drawn as the distribution: q = 1%, 2%, ... 100%. */
#define PAUSE_QUANTILES 100

static void json_pause_quantiles(json_out *j, const ev_stats *st, long proc)
{
	uint64_t ns;

	json_begin_array(j, "pause_quantiles");
	for (unsigned q = 1; proc >= 0 && q <= PAUSE_QUANTILES; q++)
		if (ev_stats_pause_quantile(st, (size_t)proc, EV_STATS_ALL_GENS,
					    q / (double)PAUSE_QUANTILES,
					    &ns) == EV_OK)
			json_uint(j, NULL, ns);
	json_end_array(j);
}

static void json_process(json_out *j, const report_page *page,
			 const ev_report_process *p)
{
	const ev_report_grid *g = ev_report_buckets(page->report);
	const ev_stats *st = ev_report_stats(page->report);
	long si = p->known ? stats_index(st, p->capset) : -1;

	json_begin_object(j, NULL);
	json_identity(j, p);
	if (si >= 0)
		stats_json_process(j, "stats", st, (size_t)si);
	else
		json_null(j, "stats");
	json_pause_quantiles(j, st, si);
	json_caps(j, p, g->buckets, g->width_ns);
	json_heap(j, p, g->buckets);
	json_markers(j, p);
	json_end_object(j);
}

static void json_profile(json_out *j, const ev_report_profile *pr, size_t n)
{
	if (!pr) {
		json_null(j, "profile");
		return;
	}
	json_begin_object(j, "profile");
	json_uint(j, "samples", pr->samples);
	json_uint(j, "labels", pr->labels);
	json_begin_array(j, "sampled");
	for (size_t i = 0; i < n; i++)
		json_uint(j, NULL, pr->sampled[i]);
	json_end_array(j);
	json_begin_array(j, "bands");
	for (size_t b = 0; b < pr->n_bands; b++) {
		json_begin_object(j, NULL);
		json_cstring(j, "label", pr->bands[b].label);
		json_uint(j, "peak_bytes", pr->bands[b].peak_bytes);
		json_begin_array(j, "bytes");
		for (size_t i = 0; i < n; i++)
			json_uint(j, NULL, pr->bands[b].bytes[i]);
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

/* ---- threads, from ev_stats ---- */

/* Threads given one by one: those with the most run time. The page's
 * size stays bounded (report.h); the rest are summed. */
#define PAGE_THREADS 1000

/* ---- the user's spans: figures from ev_stats, series over time ---- */

static void json_span_series(json_out *j, const ev_report *rep, size_t n)
{
	json_begin_array(j, "span_series");
	for (size_t s = 0; s < ev_report_span_series_count(rep); s++) {
		const ev_report_span_series *sr = ev_report_span_series_at(rep, s);
		json_begin_object(j, NULL);
		json_cstring(j, "name", sr->name);
		json_cstring(j, "kind", sr->kind == EV_STATS_SPANS_MARKERS
					? "marker" : "span");
		json_begin_array(j, "count");
		for (size_t i = 0; i < n; i++)
			json_uint(j, NULL, sr->buckets[i].count);
		json_end_array(j);
		json_begin_array(j, "max_ns");
		for (size_t i = 0; i < n; i++)
			json_uint(j, NULL, sr->buckets[i].max_ns);
		json_end_array(j);
		json_begin_array(j, "total_ns");
		for (size_t i = 0; i < n; i++)
			json_uint(j, NULL, sr->buckets[i].total_ns);
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
}

static int json_page(json_out *j, const report_page *page)
{
	const ev_report *rep = page->report;
	int rc;

	json_begin_object(j, NULL);
	json_uint(j, "schema_version", REPORT_SCHEMA_VERSION);
	json_cstring(j, "generator", "evtool " EV_VERSION_STRING);
	json_cstring(j, "file", page->file);
	json_cstring(j, "status", page->truncated ? "truncated" : "complete");
	json_grid(j, ev_report_buckets(rep));
	json_begin_array(j, "processes");
	for (size_t i = 0; i < ev_report_process_count(rep); i++)
		json_process(j, page, ev_report_process_at(rep, i));
	json_end_array(j);
	json_profile(j, ev_report_heap_profile(rep),
		     ev_report_buckets(rep)->buckets);
	rc = stats_json_threads(j, ev_report_stats(rep), PAGE_THREADS);
	stats_json_spans(j, ev_report_stats(rep));
	json_span_series(j, rep, ev_report_buckets(rep)->buckets);
	json_end_object(j);
	return rc;
}

/* ---- the page ---- */

/* Writes `len` bytes of `s`, with every "</" as "<\/": inside a
 * <script>, "</script>" in a string would end the element. In JSON "</"
 * can only be inside a string, where "\/" means "/". */
static void write_script_safe(FILE *f, const char *s, size_t len)
{
	size_t from = 0;

	for (size_t i = 0; i + 1 < len; i++)
		if (s[i] == '<' && s[i + 1] == '/') {
			fwrite(s + from, 1, i + 1 - from, f);
			fputc('\\', f);
			from = i + 1;
		}
	fwrite(s + from, 1, len - from, f);
}

/* ---- two runs: report A B ---- */

/* Each figure of process 0 of both runs, as stats A B prints it. */
static void json_diff_figures(json_out *j, const ev_stats *a,
			      const ev_stats *b)
{
	json_begin_array(j, "figures");
	for (size_t fig = 0; fig < ev_stats_figure_count(); fig++) {
		const ev_stats_figure *f = ev_stats_figure_at(fig);
		char ta[48] = "-", tb[48] = "-", tc[24] = "";
		double va, vb;
		int ha = ev_stats_figure_value(a, 0, fig, &va) == EV_OK;
		int hb = ev_stats_figure_value(b, 0, fig, &vb) == EV_OK;
		if (ha)
			stats_figure_text(f, va, ta, sizeof ta);
		if (hb)
			stats_figure_text(f, vb, tb, sizeof tb);
		if (ha && hb && va != 0)
			snprintf(tc, sizeof tc, "%+.1f%%", (vb - va) / va * 100);
		json_begin_object(j, NULL);
		json_cstring(j, "figure", f->name);
		json_cstring(j, "base", ta);
		json_cstring(j, "new", tb);
		json_cstring(j, "change", tc);
		json_end_object(j);
	}
	json_end_array(j);
}

/* The time axis of both runs: each from its RTS's start. */
static void json_diff_grid(json_out *j, const ev_report *a,
			   const ev_report *b)
{
	const ev_report_grid *ga = ev_report_buckets(a);
	const ev_report_grid *gb = ev_report_buckets(b);
	ev_report_grid g = { 0, ga->width_ns > gb->width_ns ? ga->width_ns
							    : gb->width_ns,
			     0, ga->first_ns < gb->first_ns ? ga->first_ns
							    : gb->first_ns,
			     ga->last_ns > gb->last_ns ? ga->last_ns
						       : gb->last_ns };

	json_grid(j, &g);
}

static int json_diff(json_out *j, const report_diff *d)
{
	const ev_stats *sa = ev_report_stats(d->reports[0]);
	const ev_stats *sb = ev_report_stats(d->reports[1]);
	ev_stats_heap_profile pa, pb;
	int rc = 0;

	ev_stats_profile(sa, &pa);
	ev_stats_profile(sb, &pb);
	json_begin_object(j, NULL);
	json_uint(j, "schema_version", REPORT_SCHEMA_VERSION);
	json_cstring(j, "generator", "evtool " EV_VERSION_STRING);
	json_diff_grid(j, d->reports[0], d->reports[1]);
	json_begin_object(j, "diff");
	json_begin_array(j, "runs");
	for (int i = 0; i < 2; i++) {
		json_begin_object(j, NULL);
		json_cstring(j, "file", d->files[i]);
		json_grid(j, ev_report_buckets(d->reports[i]));
		json_profile(j, ev_report_heap_profile(d->reports[i]),
			     ev_report_buckets(d->reports[i])->buckets);
		json_end_object(j);
	}
	json_end_array(j);
	json_diff_figures(j, sa, sb);
	if (pa.have && pb.have && pa.breakdown == pb.breakdown)
		rc = stats_json_bands(j, sa, sb, d->top);
	else
		json_null(j, "heap_bands");
	json_end_object(j);
	json_end_object(j);
	return rc;
}

/* The data as JSON in a memory buffer (malloc'd), for write_script_safe:
 * of `page`, or of `diff` when it is not NULL. */
static char *data_json(const report_page *page, const report_diff *diff,
		       size_t *len)
{
	char *buf = NULL;
	FILE *mem = open_memstream(&buf, len);
	json_out j;
	int bad;

	if (!mem)
		return NULL;
	json_init_compact(&j, mem);
	bad = (diff ? json_diff(&j, diff) : json_page(&j, page)) < 0;
	if (fclose(mem) != 0) /* closed whatever json_page said */
		bad = 1;
	if (bad) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int write_template(FILE *f, const report_page *page,
			  const report_diff *diff)
{
	const char *t = (const char *)report_template;
	const char *js = strstr(t, MARK_CHARTJS);
	const char *data = js ? strstr(js, MARK_DATA) : NULL;
	size_t len;
	char *json;

	if (!data) { /* the build embeds the template that has them */
		errno = EINVAL;
		return -1;
	}
	if (!(json = data_json(page, diff, &len)))
		return -1;
	fwrite(t, 1, (size_t)(js - t), f);
	/* Chart.js has no "</script" in it (the build checks). */
	fwrite(report_chartjs, 1, report_chartjs_len, f);
	js += strlen(MARK_CHARTJS);
	fwrite(js, 1, (size_t)(data - js), f);
	write_script_safe(f, json, len);
	data += strlen(MARK_DATA);
	fwrite(data, 1, report_template_len - (size_t)(data - t), f);
	free(json);
	return ferror(f) ? -1 : 0;
}

int report_page_write(FILE *f, const report_page *page)
{
	return write_template(f, page, NULL);
}

int report_diff_write(FILE *f, const report_diff *diff)
{
	return write_template(f, NULL, diff);
}
