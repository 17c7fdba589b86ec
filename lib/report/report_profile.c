/*
 * The heap profile of a report: the residency of each band (closure
 * type, description, ...: HEAP_PROF_SAMPLE_STRING, 164; cost-centre
 * stack: HEAP_PROF_SAMPLE_COST_CENTRE, 167) in each sample of the log's
 * first heap profile, read by lib/inspect/heap_samples.c as export's hp
 * format reads them (the same samples, entries and band names),
 * bucketed: a bucket shows its last sample,
 * as a plot of samples at that resolution would. Bands are kept apart
 * for the first EV_REPORT_MAX_LABELS labels, later labels join
 * "(other)"; at the end the largest by peak are given and the rest
 * grouped, as eventlog2html draws them.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "report_internal.h"

void evi_report_profile_free(evi_profile *p)
{
	evi_heap_samples_free(&p->heap);
	ev_text_free(&p->name);
	for (size_t i = 0; i <= EV_REPORT_MAX_LABELS; i++) {
		free(p->bands[i].label);
		free(p->bands[i].b);
	}
	free(p->last_seq);
}

static void merge_seq(void *dst, const void *src)
{
	uint64_t *d = dst;
	const uint64_t *s = src;

	if (*s > *d)
		*d = *s;
}

/* A later sample wins: buckets merge in time order, seqs grow. */
static void merge_band(void *dst, const void *src)
{
	evi_band_bucket *d = dst;
	const evi_band_bucket *s = src;

	if (s->seq > d->seq)
		*d = *s;
}

void evi_report_profile_remap(ev_report *rep, const evi_grid *to)
{
	evi_profile *p = &rep->profile;

	if (!p->last_seq)
		return;
	evi_grid_remap(&rep->grid, to, p->last_seq, sizeof *p->last_seq,
		       rep->scratch, merge_seq);
	for (size_t i = 0; i <= EV_REPORT_MAX_LABELS; i++)
		if (p->bands[i].b)
			evi_grid_remap(&rep->grid, to, p->bands[i].b,
				       sizeof *p->bands[i].b, rep->scratch,
				       merge_band);
}

static uint32_t label_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

static evi_band *new_band(ev_report *rep, evi_band *b, const char *label,
			  size_t len)
{
	if (!(b->b = evi_report_series(rep, sizeof *b->b)))
		return NULL;
	if (!(b->label = malloc(len + 1)))
		return NULL;
	memcpy(b->label, label, len);
	b->label[len] = '\0';
	return b;
}

/* The band of `label`, made on first sight; NULL when out of memory. */
static evi_band *band_of(ev_report *rep, const char *label, size_t len)
{
	evi_profile *p = &rep->profile;
	size_t slot = label_hash(label, len) % EVI_LABEL_SLOTS;
	evi_band *other = &p->bands[EV_REPORT_MAX_LABELS];

	for (; p->slots[slot]; slot = (slot + 1) % EVI_LABEL_SLOTS) {
		evi_band *b = &p->bands[p->slots[slot] - 1];
		if (strlen(b->label) == len && memcmp(b->label, label, len) == 0)
			return b;
	}
	p->labels++;
	if (p->n_bands == EV_REPORT_MAX_LABELS) /* half the slots: free */
		return other->b ? other : new_band(rep, other, "(other)", 7);
	if (!new_band(rep, &p->bands[p->n_bands], label, len))
		return NULL;
	p->slots[slot] = (uint16_t)(++p->n_bands);
	return &p->bands[p->n_bands - 1];
}

/* One entry of the current sample: its band's residency there. */
static int on_entry(ev_report *rep, const evi_heap_entry *e)
{
	evi_profile *p = &rep->profile;
	unsigned session = p->sessions ? p->sessions - 1 : 0;
	evi_band_bucket *bb;
	size_t len;
	evi_band *b;

	p->name.len = 0;
	evi_heap_band_name(&p->heap, session, e, &p->name);
	if (p->name.failed)
		return evi_fail(&rep->diag, EV_ENOMEM, 0, 0, "out of memory");
	len = p->name.len < EV_REPORT_MAX_TEXT ? p->name.len
					       : EV_REPORT_MAX_TEXT;
	if (!(b = band_of(rep, p->name.data ? p->name.data : "", len)))
		return evi_fail(&rep->diag, EV_ENOMEM, 0, 0, "out of memory");
	bb = &b->b[evi_grid_index(&rep->grid, p->sample_time)];
	/* Several entries of one sample can share a label (and "(other)"
	 * holds many): they add up. */
	if (bb->seq == p->samples)
		bb->bytes += e->bytes;
	else
		*bb = (evi_band_bucket){ e->bytes, p->samples };
	if (bb->bytes > b->peak)
		b->peak = bb->bytes;
	return EV_OK;
}

static int on_begin(ev_report *rep, const ev_event *ev)
{
	evi_profile *p = &rep->profile;

	if (!p->last_seq &&
	    !(p->last_seq = evi_report_series(rep, sizeof *p->last_seq)))
		return evi_fail(&rep->diag, EV_ENOMEM, 0, 0, "out of memory");
	p->samples++;
	p->sample_time = ev->time;
	p->last_seq[evi_grid_index(&rep->grid, ev->time)] = p->samples;
	return EV_OK;
}

int evi_report_profile_event(ev_report *rep, const ev_event *ev)
{
	evi_profile *p = &rep->profile;
	unsigned session = p->sessions ? p->sessions - 1 : 0;
	evi_heap_entry e;
	int kind = evi_heap_samples_event(&p->heap, session, ev, &e,
					  &rep->diag);

	if (kind == EVI_HEAP_BEGIN)
		return on_begin(rep, ev);
	if (kind == EVI_HEAP_ENTRY)
		return on_entry(rep, &e);
	return kind < 0 ? kind : EV_OK;
}

/* ---- the output: the largest bands by peak, the rest grouped ---- */

static int by_peak(const void *a, const void *b)
{
	const evi_band *x = *(evi_band *const *)a, *y = *(evi_band *const *)b;

	if (x->peak != y->peak)
		return x->peak < y->peak ? 1 : -1;
	return strcmp(x->label, y->label);
}

/* Band `b`'s residency in bucket i of the grid, 0 unless its entry is
 * of the bucket's last sample. */
static uint64_t band_bytes(const evi_profile *p, const evi_band *b, size_t i)
{
	return b->b[i].seq == p->last_seq[i] ? b->b[i].bytes : 0;
}

static int alloc_out(ev_report *rep, size_t n_out, size_t count)
{
	rep->out_bands = calloc(n_out, sizeof *rep->out_bands);
	rep->out_band_bytes = calloc(n_out * count, sizeof(uint64_t));
	rep->out_sampled = calloc(count, 1);
	if (!rep->out_bands || !rep->out_band_bytes || !rep->out_sampled)
		return evi_fail(&rep->diag, EV_ENOMEM, 0, 0, "out of memory");
	return EV_OK;
}

int evi_report_profile_finish(ev_report *rep, size_t first, size_t count)
{
	evi_profile *p = &rep->profile;
	evi_band *order[EV_REPORT_MAX_LABELS + 1];
	size_t n = 0, top, n_out;
	int rc;

	if (!p->last_seq)
		return EV_OK;
	for (size_t i = 0; i <= EV_REPORT_MAX_LABELS; i++)
		if (p->bands[i].b)
			order[n++] = &p->bands[i];
	qsort(order, n, sizeof *order, by_peak);
	top = n < rep->opt.bands ? n : rep->opt.bands;
	n_out = top + (n > top);
	if ((rc = alloc_out(rep, n_out ? n_out : 1, count)) < 0)
		return rc;
	for (size_t k = 0; k < n; k++) {
		size_t o = k < top ? k : top;
		ev_report_band *ob = &rep->out_bands[o];
		uint64_t *bytes = rep->out_band_bytes + o * count;
		ob->label = k < top ? order[k]->label : "(other)";
		ob->bytes = bytes;
		if (k < top)
			ob->peak_bytes = order[k]->peak;
		for (size_t i = 0; i < count; i++)
			bytes[i] += band_bytes(p, order[k], first + i);
	}
	if (n > top) /* the group's peak: its largest bucket */
		for (size_t i = 0; i < count; i++)
			if (rep->out_band_bytes[top * count + i] >
			    rep->out_bands[top].peak_bytes)
				rep->out_bands[top].peak_bytes =
					rep->out_band_bytes[top * count + i];
	for (size_t i = 0; i < count; i++)
		rep->out_sampled[i] = p->last_seq[first + i] != 0;
	rep->out_profile = (ev_report_profile){ p->samples, rep->out_sampled,
						n_out, rep->out_bands,
						p->labels };
	return EV_OK;
}
