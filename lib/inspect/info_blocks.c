/*
 * The parallel pass of `evtool info` (info_blocks.h): workers take blocks
 * one at a time (blocks.c) and count their events per type, time range
 * and per-capability inversions inside the block, and list where the few
 * events info decodes are; the digest of the log is hashed at the same
 * time by one more job.
 *
 * Layering: info.c -> info_blocks.c -> lib/format's blocks.
 */
#include "info_blocks.h"

#include <stdlib.h>
#include <string.h>

#include "evtool/catalog.h"
#include "internal.h"

/* One worker's counts and noted events. */
typedef struct info_worker {
	uint64_t per_type[EV_ID_COUNT];
	evi_info_noted *noted;
	size_t n_noted, cap_noted;
} info_worker;

typedef struct info_scan {
	evi_info_pass *pass;
	info_worker **workers;
} info_scan;

static int is_noted(const evi_info_pass *pass, uint16_t type)
{
	return pass->noted_types[type / 8] & (1u << (type % 8));
}

static int note(info_worker *w, const ev_event *ev)
{
	if (evi_grow((void **)&w->noted, &w->cap_noted, w->n_noted + 1,
		     sizeof *w->noted) < 0)
		return EV_ENOMEM;
	w->noted[w->n_noted].offset = ev->offset;
	w->noted[w->n_noted].index = ev->index;
	w->n_noted++;
	return EV_OK;
}

static void count(evi_info_block *f, const ev_event *ev)
{
	if (!f->events) {
		f->first_time = f->min_time = f->max_time = ev->time;
		f->first_type = ev->type;
	} else if (ev->time < f->last_time) {
		f->inversions++;
		if (ev->type == EV_GC_END)
			f->gc_end_inversions++;
	}
	if (ev->time < f->min_time)
		f->min_time = ev->time;
	if (ev->time > f->max_time)
		f->max_time = ev->time;
	f->last_time = ev->time;
	f->events++;
}

static int scan_block(void *ctx, size_t block, unsigned worker)
{
	info_scan *scan = ctx;
	evi_info_pass *pass = scan->pass;
	info_worker *w = scan->workers[worker];
	evi_info_block *f = &pass->blocks[block];
	evi_block_cursor c;
	ev_event ev;
	int rc;

	evi_block_cursor_init(&c, pass->b, block);
	if (evi_block_next(&c, &ev) != 1)
		return EV_EFORMAT; /* no marker: the finder saw one */
	while ((rc = evi_block_next(&c, &ev)) == 1) {
		w->per_type[ev.type]++;
		count(f, &ev);
		if (is_noted(pass, ev.type) && note(w, &ev) < 0)
			return EV_ENOMEM;
	}
	return rc == 0 ? EV_OK : EV_EFORMAT;
}

static int hash_log(void *ctx, unsigned slot, unsigned worker)
{
	evi_info_pass *pass = ctx;

	(void)slot;
	(void)worker;
	return evi_blocks_digest(pass->b, &pass->digest);
}

static int by_offset(const void *a, const void *b)
{
	const evi_info_noted *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The workers' counts summed, their noted events in file order. */
static int gather(evi_info_pass *pass, info_worker **workers, unsigned n)
{
	size_t total = 0;

	for (unsigned i = 0; i < n; i++)
		total += workers[i]->n_noted;
	if (!(pass->per_type = calloc(EV_ID_COUNT, sizeof *pass->per_type)) ||
	    !(pass->noted = malloc((total ? total : 1) * sizeof *pass->noted)))
		return EV_ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		for (size_t t = 0; t < EV_ID_COUNT; t++)
			pass->per_type[t] += workers[i]->per_type[t];
		if (workers[i]->n_noted)
			memcpy(pass->noted + pass->n_noted, workers[i]->noted,
			       workers[i]->n_noted * sizeof *pass->noted);
		pass->n_noted += workers[i]->n_noted;
	}
	qsort(pass->noted, pass->n_noted, sizeof *pass->noted, by_offset);
	return EV_OK;
}

int evi_info_scan(evi_info_pass *pass, unsigned threads)
{
	info_worker **workers = calloc(threads, sizeof *workers);
	info_scan scan = { pass, workers };
	int rc = workers ? EV_OK : EV_ENOMEM;

	for (unsigned i = 0; rc == EV_OK && i < threads; i++)
		if (!(workers[i] = calloc(1, sizeof *workers[i])))
			rc = EV_ENOMEM;
	if (rc == EV_OK && !(pass->blocks = calloc(pass->b->n ? pass->b->n : 1,
						   sizeof *pass->blocks)))
		rc = EV_ENOMEM;
	if (rc == EV_OK)
		rc = evi_blocks_run(pass->b, threads, scan_block, &scan,
				    pass->b->digest_wanted ? hash_log : NULL,
				    pass);
	if (rc == EV_OK)
		rc = gather(pass, workers, threads);
	for (unsigned i = 0; workers && i < threads; i++) {
		if (workers[i])
			free(workers[i]->noted);
		free(workers[i]);
	}
	free(workers);
	return rc;
}

void evi_info_pass_free(evi_info_pass *pass)
{
	free(pass->blocks);
	free(pass->per_type);
	free(pass->noted);
}
