/*
 * The cost-centre definitions of a log (HEAP_PROF_COST_CENTRE, 161): id,
 * label, module and source location, which name speedscope's frames and
 * the hp format's -hc bands. Kept in definition order, indexed by
 * (session, id); at most EV_EXPORT_MAX_COST_CENTRES.
 *
 * Layering: lib/inspect, called by heap_samples.c and export's speedscope
 * and hp formats; it calls only lib/format.
 */
#include <stdlib.h>
#include <string.h>

#include "evtool/export.h"
#include "heap_samples.h"
#include "idmap.h"

struct evi_cc_table {
	evi_cc *ccs;         /* definition order */
	size_t n, alloc;
	evi_idmap index;     /* key -> position in ccs */
};

int evi_cc_table_new(evi_cc_table **out)
{
	*out = calloc(1, sizeof **out);
	return *out ? EV_OK : EV_ENOMEM;
}

void evi_cc_table_free(evi_cc_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free((char *)t->ccs[i].label);
	free(t->ccs);
	evi_idmap_free(&t->index);
	free(t);
}

static int grow(evi_cc_table *t)
{
	return evi_grow(&t->ccs, &t->alloc, t->n + 1, sizeof *t->ccs);
}

const evi_cc *evi_cc_find(const evi_cc_table *t, unsigned session,
			  uint32_t id)
{
	uint64_t at;

	if (!evi_idmap_get(&t->index, (uint64_t)session << 32 | id, &at))
		return NULL;
	return &t->ccs[at];
}

/* The NUL-terminated text at p[*at, len), advancing past its NUL. */
static size_t next_text(const uint8_t *p, size_t len, size_t *at)
{
	size_t start = *at;

	while (*at < len && p[*at])
		(*at)++;
	if (*at < len)
		(*at)++;
	return start;
}

int evi_cc_define(evi_cc_table *t, unsigned session, const ev_event *ev,
		  ev_diag *diag)
{
	uint32_t id;
	size_t at = 4, starts[3], len = ev->size;
	char *texts;
	evi_cc *cc;

	if (len < 4)
		return EV_OK;
	id = ev_load32(ev->payload);
	if (evi_cc_find(t, session, id))
		return EV_OK;
	if (t->n >= EV_EXPORT_MAX_COST_CENTRES)
		return evi_fail(diag, EV_ELIMIT, 0, 0,
				"more than %u cost centres",
				EV_EXPORT_MAX_COST_CENTRES);
	for (int i = 0; i < 3; i++)
		starts[i] = next_text(ev->payload, len, &at) - 4;
	/* A copy of the texts, each NUL-terminated even if cut short. */
	if (grow(t) < 0 || !(texts = malloc(len - 4 + 3)))
		return evi_fail(diag, EV_ENOMEM, 0, 0, "out of memory");
	if (evi_idmap_add(&t->index, (uint64_t)session << 32 | id, t->n,
			  EV_EXPORT_MAX_COST_CENTRES, NULL) < 0) {
		free(texts);
		return evi_fail(diag, EV_ENOMEM, 0, 0, "out of memory");
	}
	memcpy(texts, ev->payload + 4, len - 4);
	memset(texts + len - 4, 0, 3);
	cc = &t->ccs[t->n];
	cc->key = (uint64_t)session << 32 | id;
	cc->label = texts + starts[0];
	cc->module = texts + starts[1];
	cc->srcloc = texts + starts[2];
	cc->index = (uint32_t)t->n;
	t->n++;
	return EV_OK;
}

size_t evi_cc_count(const evi_cc_table *t)
{
	return t->n;
}

const evi_cc *evi_cc_at(const evi_cc_table *t, size_t i)
{
	return &t->ccs[i];
}
