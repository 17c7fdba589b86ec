/*
 * The series of a report's time buckets and the grid arithmetic under
 * them: widening the grid and re-bucketing a series onto the wider one.
 * The bottom of the report's files: report_grid.c and report_profile.c
 * call it, it calls neither.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "report_internal.h"

evi_grid evi_grid_widened(const evi_grid *g, uint64_t lo, uint64_t hi)
{
	evi_grid w = *g;

	/* The first width >= g->width whose aligned start below `lo`
	 * leaves `hi` inside: (hi - start) / width < n. Terminates: at a
	 * width of 2^63 any u64 lies in bucket 0 or 1 of start 0 or 2^63. */
	while ((hi - (lo - lo % w.width)) / w.width >= w.n)
		w.width *= 2;
	w.base = lo - lo % w.width;
	return w;
}

void evi_grid_remap(const evi_grid *from, const evi_grid *to, void *arr,
		    size_t size, void *scratch, evi_merge_fn merge)
{
	uint8_t *dst = scratch;
	const uint8_t *src = arr;

	memset(scratch, 0, to->n * size);
	/* Buckets with data lie inside `to`; the others, which may not
	 * (their start can even pass 2^64), are empty and skipped. */
	for (size_t i = 0; i < from->n; i++) {
		uint64_t off = (uint64_t)i * from->width;
		uint64_t start = from->base + off;
		if (off > UINT64_MAX - from->base || !evi_grid_covers(to, start))
			continue;
		merge(dst + evi_grid_index(to, start) * size, src + i * size);
	}
	memcpy(arr, scratch, to->n * size);
}

void *evi_report_series(const ev_report *rep, size_t elem_size)
{
	return calloc(rep->grid.n, elem_size);
}
