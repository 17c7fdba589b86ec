/*
 * The one reader of a log's heap-profile samples (heap_samples.h): which
 * profile, which events open and close a sample, what each entry says,
 * and the name of its band. Export's hp format and the report both read
 * samples through it.
 *
 * And the numbering of bands by name that stats and view share.
 *
 * Layering: lib/inspect, called by export_hp.c, report_profile.c,
 * stats_heap.c and view_bands.c; it calls cost_centres.c,
 * lib/common and lib/format.
 */
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "evtool/catalog.h"
#include "hash.h"
#include "heap_samples.h"
#include "text.h"

#define STRING_FIELDS 9u /* profile id u8, residency u64, then the label */
#define CCS_FIELDS 10u   /* profile id u8, residency u64, depth u8, ids */

int evi_heap_samples_init(evi_heap_samples *h)
{
	memset(h, 0, sizeof *h);
	return evi_cc_table_new(&h->ccs);
}

void evi_heap_samples_free(evi_heap_samples *h)
{
	evi_cc_table_free(h->ccs);
	h->ccs = NULL;
}

static int on_begin_profile(evi_heap_samples *h, const ev_event *ev)
{
	if (ev->size < 1)
		return EVI_HEAP_NONE;
	if (!h->have_profile) {
		h->have_profile = 1;
		h->profile = ev->payload[0];
		return EVI_HEAP_NONE;
	}
	return ev->payload[0] != h->profile ? EVI_HEAP_OTHER_PROFILE
					    : EVI_HEAP_NONE;
}

static int on_string(const evi_heap_samples *h, const ev_event *ev,
		     evi_heap_entry *e)
{
	size_t len = 0;

	if (!h->depth || ev->size < STRING_FIELDS ||
	    ev->payload[0] != h->profile)
		return EVI_HEAP_NONE;
	while (STRING_FIELDS + len < ev->size &&
	       ev->payload[STRING_FIELDS + len])
		len++;
	*e = (evi_heap_entry){ ev_load64(ev->payload + 1),
			       ev->payload + STRING_FIELDS, len, NULL, 0 };
	return EVI_HEAP_ENTRY;
}

static int on_ccs(const evi_heap_samples *h, const ev_event *ev,
		  evi_heap_entry *e)
{
	unsigned depth;

	if (!h->depth || ev->size < CCS_FIELDS ||
	    ev->payload[0] != h->profile)
		return EVI_HEAP_NONE;
	depth = ev->payload[9];
	if (CCS_FIELDS + 4u * depth > ev->size)
		depth = (ev->size - CCS_FIELDS) / 4;
	*e = (evi_heap_entry){ ev_load64(ev->payload + 1), NULL, 0,
			       ev->payload + CCS_FIELDS, depth };
	return EVI_HEAP_ENTRY;
}

int evi_heap_samples_event(evi_heap_samples *h, unsigned session,
			   const ev_event *ev, evi_heap_entry *e,
			   ev_diag *diag)
{
	int rc;

	switch (ev->type) {
	case EV_HEAP_PROF_BEGIN:
		return on_begin_profile(h, ev);
	case EV_HEAP_PROF_COST_CENTRE:
		rc = evi_cc_define(h->ccs, session, ev, diag);
		return rc < 0 ? rc : EVI_HEAP_NONE;
	case EV_HEAP_PROF_SAMPLE_BEGIN:
	case EV_HEAP_BIO_PROF_SAMPLE_BEGIN:
		if (!h->have_profile || h->depth++)
			return EVI_HEAP_NONE;
		return EVI_HEAP_BEGIN;
	case EV_HEAP_PROF_SAMPLE_STRING:
		return on_string(h, ev, e);
	case EV_HEAP_PROF_SAMPLE_COST_CENTRE:
		return on_ccs(h, ev, e);
	case EV_HEAP_PROF_SAMPLE_END:
		return h->depth && --h->depth == 0 ? EVI_HEAP_END
						   : EVI_HEAP_NONE;
	default:
		return EVI_HEAP_NONE;
	}
}

/* Appends `s` to the band name in `buf` (len so far in *n), as the RTS's
 * buf_append: the count may run past the buffer, the bytes do not. */
static void band_append(char *buf, size_t *n, const char *s)
{
	for (; *s; s++, (*n)++)
		if (*n < EVI_CCS_LENGTH + 1)
			buf[*n] = *s;
}

static void put_ccs(ev_text *t, const evi_heap_samples *h, unsigned session,
		    const uint8_t *ids, unsigned depth)
{
	char buf[EVI_CCS_LENGTH + 1];
	size_t n = 0;

	if (depth == 0) {
		evi_puts(t, "MAIN");
		return;
	}
	for (unsigned i = 0; i < depth && n < EVI_CCS_LENGTH + 1; i++) {
		uint32_t id = ev_load32(ids + 4 * i);
		const evi_cc *cc = evi_cc_find(h->ccs, session, id);
		char unknown[24];
		if (!cc) {
			snprintf(unknown, sizeof unknown, "cc%u", (unsigned)id);
			band_append(buf, &n, unknown);
		} else if (strcmp(cc->label, "CAF") == 0) {
			band_append(buf, &n, cc->module);
			band_append(buf, &n, ".CAF");
		} else {
			band_append(buf, &n, cc->label);
			if (i + 1 < depth)
				band_append(buf, &n, "/");
		}
	}
	if (n >= EVI_CCS_LENGTH + 1) {
		evi_put(t, buf, EVI_CCS_LENGTH - 4);
		evi_puts(t, "...");
	} else {
		evi_put(t, buf, n);
	}
}

void evi_heap_band_name(const evi_heap_samples *h, unsigned session,
			const evi_heap_entry *e, ev_text *t)
{
	if (e->label)
		evi_put(t, e->label, e->label_len);
	else
		put_ccs(t, h, session, e->ccs, e->depth);
}

/* ---- the bands of a profile, by name ---- */

void evi_band_names_init(evi_band_names *t, size_t max)
{
	memset(t, 0, sizeof *t);
	t->max = max;
}

void evi_band_names_free(evi_band_names *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->bands[i].name);
	free(t->bands);
	evi_idmap_free(&t->index);
	memset(t, 0, sizeof *t);
}

static uint64_t name_hash(const char *name, size_t len)
{
	return evi_hash_bytes(name, len, 0);
}

long evi_band_names_find(const evi_band_names *t, const char *name,
			 size_t len)
{
	uint64_t first;

	if (evi_idmap_get(&t->index, name_hash(name, len), &first) &&
	    t->bands[first].len == len &&
	    memcmp(t->bands[first].name, name, len) == 0)
		return (long)first;
	for (size_t i = 0; i < t->n; i++) /* another name of that hash */
		if (t->bands[i].len == len &&
		    memcmp(t->bands[i].name, name, len) == 0)
			return (long)i;
	return -1;
}

long evi_band_names_get(evi_band_names *t, const char *name, size_t len)
{
	long i = evi_band_names_find(t, name, len);
	evi_band_name *b;

	if (i >= 0)
		return i;
	if (t->n >= t->max) {
		name = EVI_OTHER_BAND;
		len = strlen(EVI_OTHER_BAND);
		if ((i = evi_band_names_find(t, name, len)) >= 0)
			return i;
	}
	if (evi_grow(&t->bands, &t->alloc, t->n + 1, sizeof *t->bands) < 0)
		return -1;
	b = &t->bands[t->n];
	if (!(b->name = evi_text_copy(name, len, len, &b->len)))
		return -1;
	if (evi_idmap_add(&t->index, name_hash(name, len), t->n, SIZE_MAX,
			  NULL) < 0) {
		free(b->name);
		return -1;
	}
	return (long)t->n++;
}
