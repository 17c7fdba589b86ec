/*
 * The heap profile of a log as its readers (export's hp format, report)
 * take it: the cost-centre definitions (cost_centres.c) and one reader of
 * the samples (heap_samples.c); not installed.
 */
#ifndef EVTOOL_LIB_HEAP_SAMPLES_H
#define EVTOOL_LIB_HEAP_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "evtool/show.h"
#include "internal.h"

/* ---- cost centres (cost_centres.c): at most EV_EXPORT_MAX_COST_CENTRES
 * ---- */

/* One HEAP_PROF_COST_CENTRE definition; texts point into the table. */
typedef struct evi_cc {
	uint64_t key;       /* session << 32 | cost-centre id */
	const char *label, *module, *srcloc;
	uint32_t index;     /* in definition order, from 0 */
} evi_cc;

typedef struct evi_cc_table evi_cc_table;

int evi_cc_table_new(evi_cc_table **out);
void evi_cc_table_free(evi_cc_table *t);
/* Adds the definition of a HEAP_PROF_COST_CENTRE event (a repeated id
 * keeps its first definition). EV_OK, EV_ENOMEM or EV_ELIMIT (diag set). */
int evi_cc_define(evi_cc_table *t, unsigned session, const ev_event *ev,
		  ev_diag *diag);
/* The definition of `id` in `session`, or NULL. */
const evi_cc *evi_cc_find(const evi_cc_table *t, unsigned session,
			  uint32_t id);
/* Definitions in definition order: i < evi_cc_count(t). */
size_t evi_cc_count(const evi_cc_table *t);
const evi_cc *evi_cc_at(const evi_cc_table *t, size_t i);

/* ---- heap-profile samples (heap_samples.c) ----
 *
 * The first heap profile of a log (the first HEAP_PROF_BEGIN's profile
 * id; later ones are counted): its samples, HEAP_PROF_SAMPLE_BEGIN or
 * HEAP_BIO_PROF_SAMPLE_BEGIN to HEAP_PROF_SAMPLE_END (nested ones are
 * part of the outer one), and their entries, by closure type, description
 * and so on (HEAP_PROF_SAMPLE_STRING) or by cost-centre stack (-hc,
 * HEAP_PROF_SAMPLE_COST_CENTRE). */

typedef struct evi_heap_samples {
	evi_cc_table *ccs;
	unsigned session;
	int have_profile;
	uint8_t profile;
	unsigned depth;         /* open sample begins: 0 between samples */
} evi_heap_samples;

/* What an event is to the profile (evi_heap_samples_event). */
enum evi_heap_sample_kind {
	EVI_HEAP_NONE,          /* nothing */
	EVI_HEAP_OTHER_PROFILE, /* the HEAP_PROF_BEGIN of a later profile */
	EVI_HEAP_BEGIN,         /* a sample begins */
	EVI_HEAP_ENTRY,         /* one band's residency in the sample */
	EVI_HEAP_END            /* the sample ends */
};

/* An entry: a label (label_len bytes, to its NUL or the payload's end),
 * or, when `label` is NULL, a cost-centre stack of `depth` u32 ids,
 * innermost first. */
typedef struct evi_heap_entry {
	uint64_t bytes;
	const uint8_t *label;
	size_t label_len;
	const uint8_t *ccs;
	unsigned depth;
} evi_heap_entry;

/* Whether events of `type` may be part of a heap profile: the ones
 * evi_heap_samples_event reads (HEAP_PROF_BEGIN, _COST_CENTRE, the sample
 * begins, its entries and its end). */
static inline int evi_heap_samples_type(uint16_t type)
{
	switch (type) {
	case EV_HEAP_PROF_BEGIN:
	case EV_HEAP_PROF_COST_CENTRE:
	case EV_HEAP_PROF_SAMPLE_BEGIN:
	case EV_HEAP_BIO_PROF_SAMPLE_BEGIN:
	case EV_HEAP_PROF_SAMPLE_STRING:
	case EV_HEAP_PROF_SAMPLE_COST_CENTRE:
	case EV_HEAP_PROF_SAMPLE_END:
		return 1;
	default:
		return 0;
	}
}

/* EV_OK or EV_ENOMEM. */
int evi_heap_samples_init(evi_heap_samples *h);
void evi_heap_samples_free(evi_heap_samples *h);

/* What `ev` (of session `session`) is to the profile; *e filled for
 * EVI_HEAP_ENTRY. A negative error (diag set) when a cost-centre
 * definition does not fit. */
int evi_heap_samples_event(evi_heap_samples *h, unsigned session,
			   const ev_event *ev, evi_heap_entry *e,
			   ev_diag *diag);

/* The longest cost-centre stack name (the RTS's default +RTS -L). */
#define EVI_CCS_LENGTH 25u

/* Appends the band name of `e` to `t`: its label, or its cost-centre
 * stack as the RTS's fprint_ccs prints it, without the "(ccsID)" prefix
 * no event carries: innermost label first, "/" between, a CAF as
 * MODULE.CAF, "MAIN" for an empty stack, cut to EVI_CCS_LENGTH bytes as
 * 21 bytes and "...". */
void evi_heap_band_name(const evi_heap_samples *h, unsigned session,
			const evi_heap_entry *e, ev_text *t);

#endif
