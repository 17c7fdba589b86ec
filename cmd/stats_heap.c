/*
 * evtool stats A B: the two runs' heap profiles compared band by band
 * (include/evtool/stats_heap.h): each band's peak and mean residency in
 * both runs and their change, the largest change in peak first, the
 * first --top bands and the rest summed; and a band's figures for
 * --fail-if 'band:NAME.peak...'. Bands are matched by name; a band of one
 * run only is new or gone. Profiles of different breakdowns are refused.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats_cli.h"
#include "stats_json.h"

/* One band of either run. */
typedef struct band_pair {
	const char *name;
	const ev_stats_band *a, *b; /* NULL: not in that run */
	double change;              /* of the peak, in bytes */
} band_pair;

static int by_change(const void *x, const void *y)
{
	const band_pair *p = x, *q = y;
	double dp = p->change < 0 ? -p->change : p->change;
	double dq = q->change < 0 ? -q->change : q->change;

	if (dp != dq)
		return dp < dq ? 1 : -1;
	return strcmp(p->name, q->name);
}

static const ev_stats_band *band_named(const ev_stats *st, const char *name)
{
	long i = ev_stats_band_find(st, name, strlen(name));

	return i >= 0 ? ev_stats_band_at(st, (size_t)i) : NULL;
}

static double peak(const ev_stats_band *b)
{
	return b ? (double)b->peak_bytes : 0.0;
}

/* Every band of both runs, the largest change of peak first: an array of
 * *n pairs to free(), NULL when out of memory. */
static band_pair *pairs_of(const ev_stats *a, const ev_stats *b, size_t *n)
{
	size_t na = ev_stats_band_count(a), nb = ev_stats_band_count(b);
	band_pair *p = malloc((na + nb + 1) * sizeof *p);

	*n = 0;
	if (!p)
		return NULL;
	for (size_t i = 0; i < nb; i++) {
		const ev_stats_band *bb = ev_stats_band_at(b, i);
		const ev_stats_band *ba = band_named(a, bb->name);
		p[(*n)++] = (band_pair){ bb->name, ba, bb, peak(bb) - peak(ba) };
	}
	for (size_t i = 0; i < na; i++) {
		const ev_stats_band *ba = ev_stats_band_at(a, i);
		if (!band_named(b, ba->name))
			p[(*n)++] = (band_pair){ ba->name, ba, NULL, -peak(ba) };
	}
	qsort(p, *n, sizeof *p, by_change);
	return p;
}

/* The change from `base` to `v`, as text: "+12.5%", "new", "gone". */
static void change_text(const ev_stats_band *a, const ev_stats_band *b,
			double va, double vb, char *out, size_t len)
{
	if (!a)
		snprintf(out, len, "new");
	else if (!b)
		snprintf(out, len, "gone");
	else if (va == 0)
		snprintf(out, len, vb == 0 ? "+0.0%%" : "new");
	else
		snprintf(out, len, "%+.1f%%", (vb - va) / va * 100);
}

static void print_row(const char *name, const ev_stats_band *a,
		      const ev_stats_band *b)
{
	char pa[32] = "-", pb[32] = "-", ma[32] = "-", mb[32] = "-";
	char pc[16], mc[16];

	if (a) {
		stats_commas(a->peak_bytes, pa, sizeof pa);
		stats_commas(a->mean_bytes, ma, sizeof ma);
	}
	if (b) {
		stats_commas(b->peak_bytes, pb, sizeof pb);
		stats_commas(b->mean_bytes, mb, sizeof mb);
	}
	change_text(a, b, peak(a), peak(b), pc, sizeof pc);
	change_text(a, b, a ? (double)a->mean_bytes : 0,
		    b ? (double)b->mean_bytes : 0, mc, sizeof mc);
	printf("  %-32.32s %12s %12s %8s %12s %12s %8s\n", name, pa, pb, pc,
	       ma, mb, mc);
}

/* The sum of the bands past the first `top`. */
static void sum_rest(const band_pair *p, size_t n, size_t top,
		     ev_stats_band *a, ev_stats_band *b)
{
	memset(a, 0, sizeof *a);
	memset(b, 0, sizeof *b);
	for (size_t i = top; i < n; i++) {
		if (p[i].a) {
			a->peak_bytes += p[i].a->peak_bytes;
			a->mean_bytes += p[i].a->mean_bytes;
		}
		if (p[i].b) {
			b->peak_bytes += p[i].b->peak_bytes;
			b->mean_bytes += p[i].b->mean_bytes;
		}
	}
}

static void json_band(json_out *j, const char *name, const ev_stats_band *a,
		      const ev_stats_band *b)
{
	json_begin_object(j, NULL);
	if (name)
		json_cstring(j, "band", name);
	json_cstring(j, "status", !a ? "new" : !b ? "gone" : "both");
	a ? json_uint(j, "base_peak_bytes", a->peak_bytes)
	  : json_null(j, "base_peak_bytes");
	b ? json_uint(j, "new_peak_bytes", b->peak_bytes)
	  : json_null(j, "new_peak_bytes");
	a ? json_uint(j, "base_mean_bytes", a->mean_bytes)
	  : json_null(j, "base_mean_bytes");
	b ? json_uint(j, "new_mean_bytes", b->mean_bytes)
	  : json_null(j, "new_mean_bytes");
	if (a && b && a->peak_bytes)
		json_double(j, "peak_change", (peak(b) - peak(a)) / peak(a));
	else
		json_null(j, "peak_change");
	json_end_object(j);
}

static void json_bands(json_out *j, const band_pair *p, size_t n,
		       size_t shown, uint32_t breakdown, const ev_stats_band *ra,
		       const ev_stats_band *rb)
{
	json_begin_object(j, "heap_bands");
	json_cstring(j, "breakdown", ev_stats_breakdown_flag(breakdown));
	json_uint(j, "bands", n);
	json_begin_array(j, "list");
	for (size_t i = 0; i < shown; i++)
		json_band(j, p[i].name, p[i].a, p[i].b);
	json_end_array(j);
	if (n > shown) {
		json_uint(j, "rest_bands", n - shown);
		json_begin_array(j, "rest");
		json_band(j, NULL, ra, rb);
		json_end_array(j);
	}
	json_end_object(j);
}

int stats_json_bands(json_out *j, const ev_stats *a, const ev_stats *b,
		     size_t top)
{
	ev_stats_heap_profile pa;
	size_t n, shown;
	band_pair *p = pairs_of(a, b, &n);
	ev_stats_band ra, rb;

	if (!p)
		return -1;
	ev_stats_heap_profile_get(a, &pa);
	shown = n < top ? n : top;
	sum_rest(p, n, shown, &ra, &rb);
	json_bands(j, p, n, shown, pa.breakdown, &ra, &rb);
	free(p);
	return 0;
}

/* Both runs have a profile of the same breakdown: the table. */
static int compare(const stats_file *fa, const stats_file *fb, size_t top,
		   uint32_t breakdown, json_out *j)
{
	size_t n, shown;
	band_pair *p;
	ev_stats_band ra, rb;

	if (j)
		return stats_json_bands(j, fa->st, fb->st, top) < 0
			? cli_error(EXIT_SYSTEM, "out of memory") : EXIT_OK;
	if (!(p = pairs_of(fa->st, fb->st, &n)))
		return cli_error(EXIT_SYSTEM, "out of memory");
	shown = n < top ? n : top;
	sum_rest(p, n, shown, &ra, &rb);
	{
		printf("\n  heap profile by -h%s: %zu bands, the %zu with the "
		       "largest change of peak\n  %-32s %12s %12s %8s %12s "
		       "%12s %8s\n", ev_stats_breakdown_flag(breakdown), n,
		       shown, "band", "base peak", "new peak", "change",
		       "base mean", "new mean", "change");
		for (size_t i = 0; i < shown; i++)
			print_row(p[i].name, p[i].a, p[i].b);
		if (n > shown) {
			char what[48];
			snprintf(what, sizeof what, "(%zu more bands)",
				 n - shown);
			print_row(what, &ra, &rb);
		}
	}
	free(p);
	return EXIT_OK;
}

int stats_compare_bands(const stats_file *a, const stats_file *b, size_t top,
			json_out *j)
{
	ev_stats_heap_profile pa, pb;

	ev_stats_heap_profile_get(a->st, &pa);
	ev_stats_heap_profile_get(b->st, &pb);
	if (!pa.have && !pb.have)
		return EXIT_OK;
	if (!pa.have || !pb.have) {
		if (!j)
			printf("\n  heap profile: only %s has one; bands not "
			       "compared\n", pa.have ? a->name : b->name);
		return EXIT_OK;
	}
	if (pa.breakdown != pb.breakdown) {
		const char *fa = ev_stats_breakdown_flag(pa.breakdown);
		const char *fb = ev_stats_breakdown_flag(pb.breakdown);
		return cli_error(EXIT_INVALID, "%s and %s break their heap "
				 "profiles down differently (-h%s, -h%s): "
				 "their bands cannot be compared", a->name,
				 b->name, fa ? fa : "?", fb ? fb : "?");
	}
	return compare(a, b, top, pa.breakdown, j);
}

int stats_band_value(const stats_file *f, const ev_stats_condition *c,
		     double *v)
{
	long i = ev_stats_band_find(f->st, c->name, c->name_len);
	const ev_stats_band *b = i >= 0 ? ev_stats_band_at(f->st, (size_t)i)
					: NULL;

	if (!b)
		return 0;
	*v = c->figure == 0 ? (double)b->peak_bytes : (double)b->mean_bytes;
	return 1;
}
