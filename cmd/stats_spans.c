/*
 * evtool stats --spans: the spans of the user's own code
 * (include/evtool/stats_spans.h) as a table sorted by total time, as
 * JSON, side by side for two runs, per interval of --follow, and their
 * figures for --fail-if 'span:NAME.FIG...'.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats_cli.h"
#include "stats_json.h"

unsigned stats_span_kinds(unsigned parts)
{
	return ((parts & STATS_SPAN_EVENTS) ? EV_STATS_SPANS_EVENTS : 0) |
	       ((parts & STATS_SPAN_MARKERS) ? EV_STATS_SPANS_MARKERS : 0);
}

/* The run's elapsed time, the whole a span's share is of: its longest
 * process's. */
static uint64_t run_ns(const ev_stats *st)
{
	uint64_t most = 0;

	for (size_t i = 0; i < ev_stats_process_count(st); i++)
		if (ev_stats_process_at(st, i)->elapsed_ns > most)
			most = ev_stats_process_at(st, i)->elapsed_ns;
	return most;
}

static int by_total(const void *a, const void *b)
{
	const ev_stats_span *x = *(const void *const *)a;
	const ev_stats_span *y = *(const void *const *)b;

	if (x->all.total_ns != y->all.total_ns)
		return x->all.total_ns < y->all.total_ns ? 1 : -1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(x->name, y->name);
}

static const void *span_at(const ev_stats *st, size_t i)
{
	return ev_stats_span_at(st, i);
}

/* The spans of `st`, most total time first: an array of
 * ev_stats_span_count() pointers to its ev_stats_span items, to free(),
 * NULL when out of memory. */
static const void **spans_by_total(const ev_stats *st)
{
	return stats_sorted(st, ev_stats_span_count(st), span_at, by_total);
}

static const char *kind_word(unsigned kind)
{
	return kind == EV_STATS_SPANS_MARKERS ? "marker" : "span";
}

/* ---- text ---- */

static void print_row(const char *what, const ev_stats_span_figures *f,
		      uint64_t whole)
{
	char count[32], d[6][16];

	printf("  %-22s %8s %9s %6.1f%% %9s %9s %9s %9s %9s\n", what,
	       stats_commas(f->count, count, sizeof count),
	       stats_duration(f->total_ns, d[0], sizeof d[0]),
	       whole ? 100.0 * (double)f->total_ns / (double)whole : 0.0,
	       stats_duration(f->mean_ns, d[1], sizeof d[1]),
	       stats_duration(f->p50_ns, d[2], sizeof d[2]),
	       stats_duration(f->p90_ns, d[3], sizeof d[3]),
	       stats_duration(f->p99_ns, d[4], sizeof d[4]),
	       stats_duration(f->max_ns, d[5], sizeof d[5]));
}

static void print_problems(const ev_stats_span *s)
{
	if (s->unmatched_stops)
		printf("    %" PRIu64 " STOP%s without its START\n",
		       s->unmatched_stops, s->unmatched_stops == 1 ? "" : "s");
	if (s->unstopped)
		printf("    %" PRIu64 " START%s never stopped\n", s->unstopped,
		       s->unstopped == 1 ? "" : "s");
	if (s->other_threads_count)
		printf("    %" PRIu64 " spans of threads past the %u kept\n",
		       s->other_threads_count, EV_STATS_MAX_SPAN_THREADS);
}

static void print_span(const ev_stats_span *s, uint64_t whole)
{
	char what[40];

	snprintf(what, sizeof what, "%s%s", s->name,
		 s->kind == EV_STATS_SPANS_MARKERS ? " (marker)" : "");
	print_row(what, &s->all, whole);
	for (size_t t = 0; s->n_threads > 1 && t < s->n_threads; t++) {
		snprintf(what, sizeof what, "  thread %" PRIu32,
			 s->threads[t].tid);
		print_row(what, &s->threads[t], whole);
	}
	print_problems(s);
}

void stats_print_spans(const stats_file *f)
{
	const void **order = spans_by_total(f->st);
	ev_stats_spans_summary sum;
	uint64_t whole = run_ns(f->st);

	ev_stats_span_totals(f->st, &sum);
	printf("\n  Spans: %" PRIu64 " measured\n\n  %-22s %8s "
	       "%9s %7s %9s %9s %9s %9s %9s\n", sum.spans, "name", "count",
	       "total", "share", "mean", "p50", "p90", "p99", "max");
	if (!order) {
		puts("  (out of memory: no list)");
		return;
	}
	for (size_t i = 0; i < ev_stats_span_count(f->st); i++) {
		const ev_stats_span *s = order[i];

		if (s->all.count || s->unmatched_stops ||
		    s->unstopped) /* a marker seen once is no span */
			print_span(s, whole);
	}
	if (sum.dropped)
		printf("  %" PRIu64 " spans not measured: more than %u names "
		       "or %u open at once\n", sum.dropped,
		       EV_STATS_MAX_SPAN_NAMES, EV_STATS_MAX_OPEN_SPANS);
	free(order);
}

/* ---- JSON ---- */

static void json_figures(json_out *j, const ev_stats_span_figures *f,
			 uint64_t whole)
{
	json_uint(j, "count", f->count);
	json_uint(j, "total_ns", f->total_ns);
	json_double(j, "share", whole ? (double)f->total_ns / (double)whole
				      : 0.0);
	json_uint(j, "mean_ns", f->mean_ns);
	json_uint(j, "min_ns", f->min_ns);
	json_uint(j, "p50_ns", f->p50_ns);
	json_uint(j, "p90_ns", f->p90_ns);
	json_uint(j, "p99_ns", f->p99_ns);
	json_uint(j, "max_ns", f->max_ns);
}

static void json_span(json_out *j, const ev_stats_span *s, uint64_t whole)
{
	json_begin_object(j, NULL);
	json_cstring(j, "name", s->name);
	json_cstring(j, "kind", kind_word(s->kind));
	json_figures(j, &s->all, whole);
	json_uint(j, "first_ns", s->first_ns);
	json_uint(j, "unmatched_stops", s->unmatched_stops);
	json_uint(j, "unstopped", s->unstopped);
	json_uint(j, "other_threads_count", s->other_threads_count);
	json_begin_array(j, "threads");
	for (size_t t = 0; t < s->n_threads; t++) {
		json_begin_object(j, NULL);
		json_uint(j, "thread", s->threads[t].tid);
		json_figures(j, &s->threads[t], whole);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

void stats_json_spans(json_out *j, const ev_stats *st)
{
	const void **order = spans_by_total(st);
	ev_stats_spans_summary sum;
	uint64_t whole = run_ns(st);

	ev_stats_span_totals(st, &sum);
	json_begin_object(j, "spans");
	json_uint(j, "run_ns", whole);
	json_uint(j, "measured", sum.spans);
	json_uint(j, "unmatched_stops", sum.unmatched_stops);
	json_uint(j, "unstopped", sum.unstopped);
	json_uint(j, "dropped", sum.dropped);
	json_begin_array(j, "list");
	for (size_t i = 0; order && i < ev_stats_span_count(st); i++)
		json_span(j, order[i], whole);
	json_end_array(j);
	json_end_object(j);
	free(order);
}

/* ---- the gate's figures ---- */

int stats_span_value(const stats_file *f, const ev_stats_condition *c,
		     double *v)
{
	long i = ev_stats_span_find(f->st, c->name, c->name_len, 0);
	const ev_stats_span *s = i >= 0 ? ev_stats_span_at(f->st, (size_t)i)
					: NULL;

	if (!s)
		return 0;
	*v = ev_stats_span_figure_value(&s->all, (unsigned)c->figure);
	return 1;
}

/* ---- two runs ---- */

/* The figures of one name compared: those a reader of a latency table
 * looks at. */
static const unsigned compared[] = {
	EV_STATS_SPAN_COUNT, EV_STATS_SPAN_TOTAL, EV_STATS_SPAN_P50,
	EV_STATS_SPAN_P99, EV_STATS_SPAN_MAX
};

static const ev_stats_span *same_span(const ev_stats *st,
				      const ev_stats_span *s)
{
	long i = ev_stats_span_find(st, s->name, strlen(s->name), s->kind);

	return i >= 0 ? ev_stats_span_at(st, (size_t)i) : NULL;
}

static void figure_text(unsigned fig, double v, char *out, size_t len)
{
	if (fig == EV_STATS_SPAN_COUNT)
		stats_commas((uint64_t)v, out, len);
	else
		stats_duration((uint64_t)v, out, len);
}

static void compare_row(const ev_stats_span *a, const ev_stats_span *b,
			const char *name)
{
	for (size_t k = 0; k < sizeof compared / sizeof compared[0]; k++) {
		unsigned fig = compared[k];
		char what[48], ta[32] = "-", tb[32] = "-", tc[24] = "";
		double va = a ? ev_stats_span_figure_value(&a->all, fig) : 0;
		double vb = b ? ev_stats_span_figure_value(&b->all, fig) : 0;
		snprintf(what, sizeof what, "span:%s.%s", name,
			 ev_stats_span_figure_name(fig));
		if (a)
			figure_text(fig, va, ta, sizeof ta);
		if (b)
			figure_text(fig, vb, tb, sizeof tb);
		if (a && b && va != 0)
			snprintf(tc, sizeof tc, "%+.1f%%",
				 (vb - va) / va * 100);
		else if (!a || !b)
			snprintf(tc, sizeof tc, a ? "gone" : "new");
		printf("  %-26s %14s %14s %9s\n", what, ta, tb, tc);
	}
}

void stats_compare_spans(const stats_file *a, const stats_file *b)
{
	const void **order = spans_by_total(b->st);

	if (!order)
		return;
	printf("\n  %-26s %14s %14s %9s\n", "span", "base", "new", "change");
	for (size_t i = 0; i < ev_stats_span_count(b->st); i++) {
		const ev_stats_span *s = order[i];

		compare_row(same_span(a->st, s), s, s->name);
	}
	for (size_t i = 0; i < ev_stats_span_count(a->st); i++) {
		const ev_stats_span *s = ev_stats_span_at(a->st, i);
		if (!same_span(b->st, s))
			compare_row(s, NULL, s->name);
	}
	free(order);
}

/* ---- --follow ---- */

void stats_follow_spans(const ev_stats *st, uint64_t **last_counts,
			size_t *n_last)
{
	size_t n = ev_stats_span_count(st);
	uint64_t *grown;

	if (n > *n_last) {
		if (!(grown = realloc(*last_counts, n * sizeof *grown)))
			return; /* this interval without its spans */
		memset(grown + *n_last, 0, (n - *n_last) * sizeof *grown);
		*last_counts = grown;
		*n_last = n;
	}
	for (size_t i = 0; i < n; i++) {
		const ev_stats_span *s = ev_stats_span_at(st, i);
		char total[16], max[16];
		if (s->all.count == (*last_counts)[i])
			continue;
		printf("%11s %-20s %" PRIu64 " ended, %s in all so far, "
		       "max %s\n", kind_word(s->kind), s->name,
		       s->all.count - (*last_counts)[i],
		       stats_duration(s->all.total_ns, total, sizeof total),
		       stats_duration(s->all.max_ns, max, sizeof max));
		(*last_counts)[i] = s->all.count;
	}
}
