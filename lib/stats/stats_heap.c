/*
 * The bands of a log's heap profile (include/evtool/stats_heap.h): each
 * sample's entries, read by lib/inspect/heap_samples.c (the one reader of
 * samples, as export's hp format and the report read them), summed per
 * band name within the sample (a cost-centre stack cut to 25 bytes may
 * name two entries alike), then the band's peak and running sum updated
 * when the sample ends. Cost centres are looked up in session 0: a log
 * of several sessions names the stacks of its later ones as the first.
 *
 * Layering: called by stats.c (events, the free) and stats_finish.c; it
 * calls lib/inspect and lib/format.
 */
#include <stdlib.h>
#include <string.h>

#include "heap_samples.h"
#include "internal.h"
#include "stats_internal.h"
#include "text.h"

#define OTHER_BAND "(other)"

typedef struct band {
	ev_stats_band pub;
	size_t name_len;
	uint64_t sum;        /* over the samples */
	uint64_t in_sample;  /* in the sample being read */
	uint64_t seen_in;    /* the sample it was last seen in (from 1) */
} band;

struct evi_bands {
	evi_heap_samples heap;
	ev_stats_heap_profile profile;
	ev_text name;        /* the band name of an entry */
	band *bands;         /* EV_STATS_MAX_BANDS, then "(other)" */
	size_t n, alloc;
	int have_other;
	evi_idmap index;     /* hash of a name -> its first band */
	ev_stats_band *out;  /* ev_stats_finish's list */
	size_t n_out;
};

int ev_stats_keep_bands(ev_stats *st)
{
	if (st->an.started)
		return evi_fail(&st->diag, EV_EINVAL, 0, 0,
				"ev_stats_keep_bands: before the first event");
	if (st->bands)
		return EV_OK;
	if (!(st->bands = calloc(1, sizeof *st->bands)) ||
	    evi_heap_samples_init(&st->bands->heap) < 0) {
		free(st->bands);
		st->bands = NULL;
		return evi_fail(&st->diag, EV_ENOMEM, 0, 0, "out of memory");
	}
	return EV_OK;
}

static uint64_t text_hash(const char *text, size_t len)
{
	return evi_hash_bytes(text, len, 0);
}

static long find_band(const evi_bands *b, const char *name, size_t len)
{
	uint64_t first;

	if (evi_idmap_get(&b->index, text_hash(name, len), &first) &&
	    b->bands[first].name_len == len &&
	    memcmp(b->bands[first].pub.name, name, len) == 0)
		return (long)first;
	for (size_t i = 0; i < b->n; i++) /* another name of that hash */
		if (b->bands[i].name_len == len &&
		    memcmp(b->bands[i].pub.name, name, len) == 0)
			return (long)i;
	return -1;
}

/* The band named `name`, added on first sight; past EV_STATS_MAX_BANDS
 * "(other)". NULL out of memory (st->diag). */
static band *band_get(ev_stats *st, const char *name, size_t len)
{
	evi_bands *b = st->bands;
	long i = find_band(b, name, len);
	band *n;

	if (i >= 0)
		return &b->bands[i];
	if (b->n == EV_STATS_MAX_BANDS) {
		if ((i = find_band(b, OTHER_BAND, strlen(OTHER_BAND))) >= 0)
			return &b->bands[i];
		name = OTHER_BAND;
		len = strlen(OTHER_BAND);
		b->have_other = 1;
	}
	if (evi_grow(&b->bands, &b->alloc, b->n + 1, sizeof *b->bands) < 0)
		goto nomem;
	n = &b->bands[b->n];
	memset(n, 0, sizeof *n);
	if (!(n->pub.name = evi_text_copy(name, len, len, &n->name_len)))
		goto nomem;
	if (evi_idmap_add(&b->index, text_hash(name, len), b->n, SIZE_MAX,
			  NULL) < 0) {
		free((char *)n->pub.name);
		goto nomem;
	}
	b->n++;
	return n;
nomem:
	evi_fail(&st->diag, EV_ENOMEM, 0, 0, "out of memory");
	return NULL;
}

static int on_entry(ev_stats *st, const evi_heap_entry *e)
{
	evi_bands *b = st->bands;
	band *n;

	b->name.len = 0;
	evi_heap_band_name(&b->heap, 0, e, &b->name);
	if (b->name.failed)
		return evi_fail(&st->diag, EV_ENOMEM, 0, 0, "out of memory");
	if (!(n = band_get(st, b->name.data, b->name.len)))
		return st->diag.status;
	if (n->seen_in != b->profile.samples) {
		n->seen_in = b->profile.samples;
		n->in_sample = 0;
		n->pub.sampled++;
	}
	n->in_sample += e->bytes;
	n->sum += e->bytes;
	return EV_OK;
}

/* The sample ends: each band in it may have reached its peak. */
static void on_end(evi_bands *b)
{
	for (size_t i = 0; i < b->n; i++) {
		band *n = &b->bands[i];
		if (n->seen_in == b->profile.samples &&
		    n->in_sample > n->pub.peak_bytes)
			n->pub.peak_bytes = n->in_sample;
	}
}

int evi_bands_add(ev_stats *st, const ev_event *ev)
{
	evi_bands *b = st->bands;
	int had = b->heap.have_profile;
	evi_heap_entry e;
	int kind = evi_heap_samples_event(&b->heap, 0, ev, &e, &st->diag);

	if (kind < 0)
		return kind;
	/* HEAP_PROF_BEGIN: profile u8, period u64, breakdown u32. */
	if (!had && b->heap.have_profile) {
		b->profile.have = 1;
		b->profile.breakdown = ev->size >= 13 ? ev_load32(ev->payload + 9)
						      : 0;
	}
	if (kind == EVI_HEAP_BEGIN)
		b->profile.samples++;
	else if (kind == EVI_HEAP_ENTRY)
		return on_entry(st, &e);
	else if (kind == EVI_HEAP_END)
		on_end(b);
	return EV_OK;
}

int evi_bands_finish(ev_stats *st)
{
	evi_bands *b = st->bands;

	if (!b)
		return EV_OK;
	if (b->n && !(b->out = calloc(b->n, sizeof *b->out)))
		return evi_fail(&st->diag, EV_ENOMEM, 0, 0, "out of memory");
	for (size_t i = 0; i < b->n; i++) {
		band *n = &b->bands[i];
		n->pub.mean_bytes = b->profile.samples
			? n->sum / b->profile.samples : 0;
		b->out[b->n_out++] = n->pub;
	}
	return EV_OK;
}

void evi_bands_free(evi_bands *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n; i++)
		free((char *)b->bands[i].pub.name);
	evi_heap_samples_free(&b->heap);
	free(b->name.data);
	free(b->bands);
	free(b->out);
	evi_idmap_free(&b->index);
	free(b);
}

void ev_stats_heap_profile_get(const ev_stats *st, ev_stats_heap_profile *out)
{
	memset(out, 0, sizeof *out);
	if (st->bands)
		*out = st->bands->profile;
}

size_t ev_stats_band_count(const ev_stats *st)
{
	return st->bands ? st->bands->n_out : 0;
}

const ev_stats_band *ev_stats_band_at(const ev_stats *st, size_t i)
{
	return i < ev_stats_band_count(st) ? &st->bands->out[i] : NULL;
}

long ev_stats_band_find(const ev_stats *st, const char *name, size_t len)
{
	return st->bands && st->bands->out ? find_band(st->bands, name, len)
					   : -1;
}

const char *ev_stats_breakdown_flag(uint32_t b)
{
	static const char *const flags[] = { "c", "m", "d", "y", "r", "b",
					     "T", "i", "e" };

	return b >= 1 && b <= 9 ? flags[b - 1] : NULL;
}
