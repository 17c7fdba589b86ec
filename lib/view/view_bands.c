/*
 * The heap profile's bands in `evtool view`'s index (include/evtool/
 * view.h): each sample of the log's first heap profile (-hc, -hy, -hT
 * ...), read by lib/inspect/heap_samples.c as export's hp format, the
 * report and stats read them, its entries summed per band name (numbered
 * by evi_band_names, as stats numbers them) into the first
 * EV_VIEW_MAX_BANDS bands and one "(other)". At most EV_VIEW_MAX_SAMPLES
 * samples are kept: when full, every other one is dropped and from then
 * on one sample in twice as many is kept, so memory stays bounded and
 * the kept ones stay evenly spread. Each band's total over every sample
 * (kept or not) ranks it.
 *
 * Layering: called by view_index.c (events, the free); it calls
 * lib/inspect, lib/common and lib/format.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heap_samples.h"
#include "text.h"
#include "view_internal.h"

#define WIDTH (EV_VIEW_MAX_BANDS + 1) /* values of a sample */

struct view_bands {
	evi_heap_samples heap;
	evi_band_names names;
	ev_text name;          /* an entry's band name */
	uint64_t current[WIDTH];
	uint64_t current_time;
	uint64_t totals[WIDTH];
	uint64_t *times;       /* EV_VIEW_MAX_SAMPLES */
	uint64_t *values;      /* EV_VIEW_MAX_SAMPLES x WIDTH */
	size_t n;              /* samples kept */
	uint64_t seen;         /* samples ended */
	uint64_t stride;       /* one sample in `stride` is kept */
	uint32_t breakdown;    /* HEAP_PROF_BEGIN's, 0: not known */
};

static int nomem(ev_view_index *ix, const ev_event *ev)
{
	return evi_fail(&ix->diag, EV_ENOMEM, ev->offset, ev->index,
			"out of memory");
}

static view_bands *bands_new(void)
{
	view_bands *b = calloc(1, sizeof *b);

	if (!b)
		return NULL;
	evi_band_names_init(&b->names, EV_VIEW_MAX_BANDS);
	b->stride = 1;
	b->times = malloc(EV_VIEW_MAX_SAMPLES * sizeof *b->times);
	b->values = malloc((size_t)EV_VIEW_MAX_SAMPLES * WIDTH *
			   sizeof *b->values);
	if (!b->times || !b->values || evi_heap_samples_init(&b->heap) < 0) {
		evi_view_bands_free(b);
		return NULL;
	}
	return b;
}

void evi_view_bands_free(view_bands *b)
{
	if (!b)
		return;
	evi_heap_samples_free(&b->heap);
	evi_band_names_free(&b->names);
	free(b->name.data);
	free(b->times);
	free(b->values);
	free(b);
}

/* Drops every other sample kept: one in twice as many is kept. */
static void thin(view_bands *b)
{
	for (size_t i = 0; 2 * i < b->n; i++) {
		b->times[i] = b->times[2 * i];
		memcpy(b->values + i * WIDTH, b->values + 2 * i * WIDTH,
		       WIDTH * sizeof *b->values);
	}
	b->n = (b->n + 1) / 2;
	b->stride *= 2;
}

static void on_end(view_bands *b)
{
	uint64_t k = b->seen++;

	for (size_t i = 0; i < WIDTH; i++)
		b->totals[i] += b->current[i];
	if (k % b->stride)
		return;
	if (b->n == EV_VIEW_MAX_SAMPLES) {
		thin(b);
		if (k % b->stride)
			return;
	}
	b->times[b->n] = b->current_time;
	memcpy(b->values + b->n * WIDTH, b->current, sizeof b->current);
	b->n++;
}

int evi_view_bands_add(ev_view_index *ix, const ev_event *ev)
{
	view_bands *b = ix->bands;
	evi_heap_entry e;
	int had, kind;
	long i;

	if (!b && !(b = ix->bands = bands_new()))
		return nomem(ix, ev);
	had = b->heap.have_profile;
	if ((kind = evi_heap_samples_event(&b->heap, 0, ev, &e, &ix->diag)) < 0)
		return kind;
	/* HEAP_PROF_BEGIN: profile u8, period u64, breakdown u32. */
	if (!had && b->heap.have_profile && ev->size >= 13)
		b->breakdown = ev_load32(ev->payload + 9);
	switch (kind) {
	case EVI_HEAP_BEGIN:
		memset(b->current, 0, sizeof b->current);
		b->current_time = ev->time;
		break;
	case EVI_HEAP_ENTRY:
		b->name.len = 0;
		evi_heap_band_name(&b->heap, 0, &e, &b->name);
		if (b->name.failed ||
		    (i = evi_band_names_get(&b->names, b->name.data,
					    b->name.len)) < 0)
			return nomem(ix, ev);
		b->current[i] += e.bytes;
		break;
	case EVI_HEAP_END:
		on_end(b);
		break;
	default:
		break;
	}
	return EV_OK;
}

size_t evi_view_bands_memory(const view_bands *b)
{
	return b ? sizeof *b + (size_t)EV_VIEW_MAX_SAMPLES * (WIDTH + 1) * 8
		 : 0;
}

/* ---- what the index answers (include/evtool/view.h) ---- */

size_t ev_view_band_count(const ev_view_index *ix)
{
	return ix->bands ? ix->bands->names.n : 0;
}

const char *ev_view_band_name(const ev_view_index *ix, size_t band)
{
	return band < ev_view_band_count(ix) ? ix->bands->names.bands[band].name
					     : NULL;
}

uint64_t ev_view_band_total(const ev_view_index *ix, size_t band)
{
	return band < ev_view_band_count(ix) ? ix->bands->totals[band] : 0;
}

uint32_t ev_view_band_breakdown(const ev_view_index *ix)
{
	return ix->bands ? ix->bands->breakdown : 0;
}

size_t ev_view_sample_count(const ev_view_index *ix)
{
	return ix->bands ? ix->bands->n : 0;
}

uint64_t ev_view_samples_seen(const ev_view_index *ix)
{
	return ix->bands ? ix->bands->seen : 0;
}

uint64_t ev_view_sample_time(const ev_view_index *ix, size_t sample)
{
	return sample < ev_view_sample_count(ix) ? ix->bands->times[sample]
						 : 0;
}

uint64_t ev_view_sample_bytes(const ev_view_index *ix, size_t sample,
			      size_t band)
{
	if (sample >= ev_view_sample_count(ix) || band >= WIDTH)
		return 0;
	return ix->bands->values[sample * WIDTH + band];
}

/* ---- in a cache file (view_cache.c) ---- */

void evi_view_bands_save(const view_bands *b, FILE *f)
{
	uint64_t head[5] = { b != NULL, b ? b->names.n : 0, b ? b->n : 0,
			     b ? b->seen : 0, b ? b->stride : 0 };

	fwrite(head, sizeof head, 1, f);
	if (!b)
		return;
	fwrite(&b->breakdown, sizeof b->breakdown, 1, f);
	fwrite(b->totals, sizeof b->totals, 1, f);
	for (size_t i = 0; i < b->names.n; i++) {
		uint64_t len = b->names.bands[i].len;
		fwrite(&len, sizeof len, 1, f);
		fwrite(b->names.bands[i].name, 1, (size_t)len, f);
	}
	fwrite(b->times, sizeof *b->times, b->n, f);
	fwrite(b->values, sizeof *b->values * WIDTH, b->n, f);
}

static int load_names(view_bands *b, FILE *f, uint64_t n)
{
	char name[EVI_CCS_LENGTH + EV_VIEW_TEXT_MAX + 1024];

	for (uint64_t i = 0; i < n; i++) {
		uint64_t len;
		if (fread(&len, sizeof len, 1, f) != 1 || len >= sizeof name ||
		    fread(name, 1, (size_t)len, f) != len ||
		    evi_band_names_get(&b->names, name, (size_t)len) != (long)i)
			return -1;
	}
	return 0;
}

int evi_view_bands_load(view_bands **out, FILE *f)
{
	uint64_t head[5];
	view_bands *b;

	*out = NULL;
	if (fread(head, sizeof head, 1, f) != 1 || head[0] > 1)
		return -1;
	if (!head[0])
		return 0;
	if (head[1] > WIDTH || head[2] > EV_VIEW_MAX_SAMPLES || !head[4] ||
	    !(b = bands_new()))
		return -1;
	b->n = (size_t)head[2];
	b->seen = head[3];
	b->stride = head[4];
	if (fread(&b->breakdown, sizeof b->breakdown, 1, f) != 1 ||
	    fread(b->totals, sizeof b->totals, 1, f) != 1 ||
	    load_names(b, f, head[1]) < 0 ||
	    fread(b->times, sizeof *b->times, b->n, f) != b->n ||
	    fread(b->values, sizeof *b->values * WIDTH, b->n, f) != b->n) {
		evi_view_bands_free(b);
		return -1;
	}
	*out = b;
	return 0;
}
