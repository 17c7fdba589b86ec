/*
 * evtool stats A B: two runs side by side, figure by figure
 * (ev_stats_figure_at), with the change from the base run A to the new
 * run B; and the --fail-if conditions checked on the new run (or on the
 * only one), a performance gate for CI.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "stats_cli.h"

const char *stats_figure_text(const ev_stats_figure *fig, double v,
			      char *out, size_t len)
{
	char num[32];

	switch (fig->unit) {
	case EV_STATS_UNIT_NS:
		return stats_duration((uint64_t)v, out, len);
	case EV_STATS_UNIT_RATIO:
		snprintf(out, len, "%.1f%%", v * 100);
		return out;
	case EV_STATS_UNIT_BYTES_PER_S:
		snprintf(out, len, "%s/s", stats_commas((uint64_t)v, num,
							sizeof num));
		return out;
	default:
		return stats_commas((uint64_t)(v + 0.5), out, len);
	}
}

/* A figure of process `i` of `f`: 1 with *v when it has one. */
static int value_of(const stats_file *f, size_t i, size_t fig, double *v)
{
	return i < ev_stats_process_count(f->st) &&
	       ev_stats_figure_value(f->st, i, fig, v) == EV_OK;
}

/* The change from `base` to `v` as a fraction; 0 when 0 to 0, and
 * nothing (0 returned) from 0 to another value. */
static int change_of(double base, double v, double *change)
{
	if (base == 0)
		*change = 0;
	else
		*change = (v - base) / base;
	return base != 0 || v == 0;
}

static size_t pairs_of(const stats_file *a, const stats_file *b)
{
	size_t na = ev_stats_process_count(a->st);
	size_t nb = ev_stats_process_count(b->st);

	return na > nb ? na : nb;
}

/* ---- side by side ---- */

static void print_figure_row(const stats_file *a, const stats_file *b,
			     size_t i, size_t fig)
{
	const ev_stats_figure *f = ev_stats_figure_at(fig);
	char ta[48] = "-", tb[48] = "-", tc[24] = "";
	double va, vb, change;
	int have_a = value_of(a, i, fig, &va), have_b = value_of(b, i, fig, &vb);

	if (have_a)
		stats_figure_text(f, va, ta, sizeof ta);
	if (have_b)
		stats_figure_text(f, vb, tb, sizeof tb);
	if (have_a && have_b && change_of(va, vb, &change))
		snprintf(tc, sizeof tc, "%+.1f%%", change * 100);
	else if (have_a && have_b)
		snprintf(tc, sizeof tc, "new");
	printf("  %-18s %18s %18s %9s\n", f->name, ta, tb, tc);
}

static void print_side_by_side(const stats_file *a, const stats_file *b)
{
	size_t pairs = pairs_of(a, b);

	printf("base: %s\nnew:  %s\n", a->name, b->name);
	for (size_t i = 0; i < pairs; i++) {
		if (pairs > 1)
			printf("\nprocess %zu of %zu\n", i + 1, pairs);
		printf("\n  %-18s %18s %18s %9s\n", "figure", "base", "new",
		       "change");
		for (size_t fig = 0; fig < ev_stats_figure_count(); fig++)
			print_figure_row(a, b, i, fig);
	}
}

static void json_side_by_side(json_out *j, const stats_file *a,
			      const stats_file *b)
{
	json_begin_array(j, "comparison");
	for (size_t i = 0; i < pairs_of(a, b); i++) {
		json_begin_object(j, NULL);
		json_uint(j, "process", i);
		json_begin_array(j, "figures");
		for (size_t fig = 0; fig < ev_stats_figure_count(); fig++) {
			double va, vb, change;
			int have_a = value_of(a, i, fig, &va);
			int have_b = value_of(b, i, fig, &vb);
			json_begin_object(j, NULL);
			json_cstring(j, "figure", ev_stats_figure_at(fig)->name);
			have_a ? json_double(j, "base", va) : json_null(j, "base");
			have_b ? json_double(j, "new", vb) : json_null(j, "new");
			if (have_a && have_b && change_of(va, vb, &change))
				json_double(j, "change", change);
			else
				json_null(j, "change");
			json_end_object(j);
		}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
}

/* ---- the gate ---- */

typedef struct verdict {
	int failed;
	int have_value, have_base;
	double value, base;
} verdict;

/* The figure `c` names in process `i` of `f` (a span's: of the whole
 * log): 1 with *v when `f` has it. */
static int condition_value(const ev_stats_condition *c, const stats_file *f,
			   size_t i, double *v)
{
	if (c->subject == EV_STATS_OF_SPAN)
		return stats_span_value(f, c, v);
	if (c->subject == EV_STATS_OF_BAND)
		return stats_band_value(f, c, v);
	return value_of(f, i, c->figure, v);
}

/* The figure `c` names, for its value as text and in messages: `name`
 * holds a span figure's name. */
static ev_stats_figure figure_of(const ev_stats_condition *c, char *name,
				 size_t len)
{
	ev_stats_figure fig = { name, EV_STATS_UNIT_NS, NULL };

	if (c->subject == EV_STATS_OF_PROCESS)
		return *ev_stats_figure_at(c->figure);
	if (c->subject == EV_STATS_OF_BAND) {
		snprintf(name, len, "band:%.*s.%s", (int)c->name_len, c->name,
			 c->figure == 0 ? "peak" : "mean");
		fig.unit = EV_STATS_UNIT_BYTES;
		return fig;
	}
	snprintf(name, len, "span:%.*s.%s", (int)c->name_len, c->name,
		 ev_stats_span_figure_name((unsigned)c->figure));
	if (c->figure == EV_STATS_SPAN_COUNT)
		fig.unit = EV_STATS_UNIT_COUNT;
	return fig;
}

/* Condition `c` on process `i` of the new run `f` (base `b`, or NULL). A
 * figure the new run does not have fails: a gate that cannot measure
 * must not pass. */
static verdict check(const ev_stats_condition *c, const stats_file *f,
		     const stats_file *b, size_t i)
{
	verdict v = { 0, 0, 0, 0, 0 };

	v.have_value = condition_value(c, f, i, &v.value);
	v.have_base = b && condition_value(c, b, i, &v.base);
	if (!v.have_value || (c->relative && !v.have_base))
		v.failed = 1;
	else
		v.failed = ev_stats_condition_holds(c, v.value, v.have_base,
						    v.base) == 1;
	return v;
}

static void report_failure(const stats_file *f, const char *text,
			   const ev_stats_condition *c, const verdict *v,
			   size_t i, size_t pairs)
{
	char name[320];
	ev_stats_figure figure = figure_of(c, name, sizeof name);
	const ev_stats_figure *fig = &figure;
	char value[48], base[48], where[48] = "";
	double change;

	if (pairs > 1)
		snprintf(where, sizeof where, " (process %zu)", i + 1);
	if (!v->have_value) {
		cli_error(EXIT_INVALID, "%s: --fail-if '%s' failed%s: the run "
			  "has no %s", f->name, text, where, fig->name);
		return;
	}
	stats_figure_text(fig, v->value, value, sizeof value);
	if (!v->have_base) {
		cli_error(EXIT_INVALID, "%s: --fail-if '%s' failed%s: %s is "
			  "%s%s", f->name, text, where, fig->name, value,
			  c->relative ? ", and the base run has none" : "");
		return;
	}
	stats_figure_text(fig, v->base, base, sizeof base);
	if (change_of(v->base, v->value, &change))
		cli_error(EXIT_INVALID, "%s: --fail-if '%s' failed%s: %s is "
			  "%s, %+.1f%% of the base's %s", f->name, text, where,
			  fig->name, value, change * 100, base);
	else
		cli_error(EXIT_INVALID, "%s: --fail-if '%s' failed%s: %s is "
			  "%s, the base's %s", f->name, text, where, fig->name,
			  value, base);
}

static void json_verdict(json_out *j, const char *text, size_t i,
			 const verdict *v)
{
	json_begin_object(j, NULL);
	json_cstring(j, "condition", text);
	json_uint(j, "process", i);
	v->have_value ? json_double(j, "value", v->value)
		      : json_null(j, "value");
	v->have_base ? json_double(j, "base", v->base) : json_null(j, "base");
	json_bool(j, "failed", v->failed);
	json_end_object(j);
}

/* Every condition on every process of the new run: the number that
 * failed, each named on standard error. */
static int run_gate(const stats_file *base, const stats_file *f,
		    const ev_stats_condition *conds, const char *const *texts,
		    int n_conds, json_out *j)
{
	size_t pairs = base ? pairs_of(base, f)
			    : ev_stats_process_count(f->st);
	int failed = 0;

	if (j)
		json_begin_array(j, "conditions");
	for (int k = 0; k < n_conds; k++)
		for (size_t i = 0; i < pairs; i++) {
			if (conds[k].subject != EV_STATS_OF_PROCESS && i > 0)
				break; /* of the whole log: checked once */
			verdict v = check(&conds[k], f, base, i);
			if (j)
				json_verdict(j, texts[k], i, &v);
			if (v.failed)
				report_failure(f, texts[k], &conds[k], &v, i,
					       pairs);
			failed += v.failed;
		}
	if (j)
		json_end_array(j);
	return failed;
}

int stats_compare(const stats_file *a, const stats_file *b,
		  const ev_stats_condition *conds, const char *const *texts,
		  int n_conds, json_out *j)
{
	const stats_file *run = b ? b : a, *base = b ? a : NULL;

	if (b && j)
		json_side_by_side(j, a, b);
	else if (b)
		print_side_by_side(a, b);
	fflush(stdout);
	return run_gate(base, run, conds, texts, n_conds, j) ? EXIT_INVALID
							      : EXIT_OK;
}
