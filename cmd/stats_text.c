/*
 * evtool stats, numbers as its text prints them: thousands separated as
 * the RTS's, durations with three significant digits; and its lists in
 * the order they are printed (stats_sorted). A leaf: the summary
 * (stats_print.c), the comparison (stats_compare.c), --follow, the JSON
 * (stats_json.c) and the spans (stats_spans.c) call it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats_cli.h"

const void **stats_sorted(const ev_stats *st, size_t n,
			  const void *(*at)(const ev_stats *st, size_t i),
			  int (*cmp)(const void *a, const void *b))
{
	const void **order = malloc((n ? n : 1) * sizeof *order);

	if (!order)
		return NULL;
	for (size_t i = 0; i < n; i++)
		order[i] = at(st, i);
	qsort(order, n, sizeof *order, cmp);
	return order;
}

const char *stats_commas(uint64_t v, char *out, size_t len)
{
	char digits[24];
	int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
	size_t o = 0;

	for (int i = 0; i < n && o + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	return out;
}

/* `v` with three significant digits (up to 999) and `unit`. */
static const char *three_digits(double v, const char *unit, char *out,
				size_t len)
{
	snprintf(out, len, v < 9.995 ? "%.2f%s" : v < 99.95 ? "%.1f%s"
						: "%.0f%s", v, unit);
	return out;
}

const char *stats_duration(uint64_t ns, char *out, size_t len)
{
	if (ns < 1000)
		snprintf(out, len, "%" PRIu64 "ns", ns);
	else if (ns < 999500)
		three_digits((double)ns / 1e3, "us", out, len);
	else if (ns < 999500000)
		three_digits((double)ns / 1e6, "ms", out, len);
	else
		snprintf(out, len, "%.3fs", (double)ns / 1e9);
	return out;
}
