/*
 * The parallel pass of `evtool info` (info_blocks.h), on blocks.h's scan:
 * workers count each block's events per type, its time range and
 * per-capability inversions inside the block, and list where the few
 * events info decodes are; the caller's thread takes the chunks back in
 * file order, copies those events (the scan hashes the log meanwhile).
 *
 * Layering: info.c -> info_blocks.c -> lib/format's blocks.
 */
#include "info_blocks.h"

#include <stdlib.h>
#include <string.h>

#include "evtool/catalog.h"
#include "internal.h"

/* One worker's counts. */
typedef struct info_worker {
	uint64_t per_type[EV_ID_COUNT];
} info_worker;

/* Where a chunk's noted events are, by slot. */
typedef struct info_slot {
	evi_info_noted *noted;
	size_t n, cap;
} info_slot;

typedef struct info_scan {
	evi_info_pass *pass;
	info_worker **workers;
	info_slot *slots;
} info_scan;

static int is_noted(const evi_info_pass *pass, uint16_t type)
{
	return pass->noted_types[type / 8] & (1u << (type % 8));
}

static int note(info_slot *sl, const ev_event *ev, size_t block)
{
	if (evi_grow((void **)&sl->noted, &sl->cap, sl->n + 1,
		     sizeof *sl->noted) < 0)
		return EV_ENOMEM;
	sl->noted[sl->n].ev = *ev;
	sl->noted[sl->n].block = block;
	sl->n++;
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

static int scan_block(void *ctx, const evi_chunk *chunk, size_t block,
		      unsigned worker)
{
	info_scan *scan = ctx;
	evi_info_pass *pass = scan->pass;
	info_worker *w = scan->workers[worker];
	info_slot *sl = &scan->slots[chunk->slot];
	evi_info_block f = { 0 }; /* here, not in pass->blocks: the workers'
				   * blocks share cache lines there */
	evi_block_cursor c;
	ev_event ev;
	int rc;

	if (block == chunk->first)
		sl->n = 0;
	evi_block_cursor_init_chunk(&c, pass->b, chunk, block);
	if (evi_block_next(&c, &ev) != 1)
		return EV_EFORMAT; /* no marker: the finder saw one */
	while ((rc = evi_block_next(&c, &ev)) == 1) {
		w->per_type[ev.type]++;
		count(&f, &ev);
		if (is_noted(pass, ev.type) && note(sl, &ev, block) < 0)
			return EV_ENOMEM;
	}
	pass->blocks[block] = f;
	return rc == 0 ? EV_OK : EV_EFORMAT;
}

/* The chunk's noted events, payloads copied (they point into the
 * chunk's bytes, which go with the next chunk). */
static int take_noted(evi_info_pass *pass, const info_slot *sl)
{
	for (size_t i = 0; i < sl->n; i++) {
		const ev_event *ev = &sl->noted[i].ev;
		if (pass->n_bytes + ev->size > EVI_INFO_NOTED_BYTES)
			return EV_EFORMAT;
		if (evi_grow((void **)&pass->noted, &pass->cap_noted,
			     pass->n_noted + 1, sizeof *pass->noted) < 0 ||
		    evi_grow((void **)&pass->bytes, &pass->cap_bytes,
			     pass->n_bytes + ev->size + 1, 1) < 0)
			return EV_ENOMEM;
		pass->noted[pass->n_noted] = sl->noted[i];
		pass->noted[pass->n_noted].at = pass->n_bytes;
		if (ev->size)
			memcpy(pass->bytes + pass->n_bytes, ev->payload,
			       ev->size);
		pass->n_bytes += ev->size;
		pass->n_noted++;
	}
	return EV_OK;
}

/* The copied payloads, where they now are. */
static void point_payloads(evi_info_pass *pass)
{
	for (size_t i = 0; i < pass->n_noted; i++)
		pass->noted[i].ev.payload = pass->bytes + pass->noted[i].at;
}

/* Every chunk in file order; the digest at the end. */
static int take_chunks(evi_info_pass *pass, info_scan *scan,
		       evi_blocks_scan *s)
{
	const evi_chunk *chunk;
	int rc;

	while ((rc = evi_blocks_scan_next(s, &chunk)) == 1) {
		if (chunk->refused)
			return EV_EFORMAT;
		if ((rc = take_noted(pass, &scan->slots[chunk->slot])) < 0)
			return rc;
	}
	if (rc < 0)
		return rc;
	point_payloads(pass);
	if (pass->b->digest_wanted &&
	    evi_blocks_scan_digest(s, &pass->digest) < 0)
		return EV_EFORMAT;
	return EV_OK;
}

/* The workers' counts summed. */
static int gather(evi_info_pass *pass, info_worker **workers, unsigned n)
{
	if (!(pass->per_type = calloc(EV_ID_COUNT, sizeof *pass->per_type)))
		return EV_ENOMEM;
	for (unsigned i = 0; i < n; i++)
		for (size_t t = 0; t < EV_ID_COUNT; t++)
			pass->per_type[t] += workers[i]->per_type[t];
	return EV_OK;
}

static int run_scan(evi_info_pass *pass, info_scan *scan, unsigned threads)
{
	evi_blocks_scan *s;
	unsigned slots;
	int rc = evi_blocks_scan_open(&s, pass->b, threads, scan_block, scan);

	if (rc != EV_OK)
		return rc;
	slots = evi_blocks_scan_slots(s);
	if (!(scan->slots = calloc(slots, sizeof *scan->slots)))
		rc = EV_ENOMEM;
	if (rc == EV_OK)
		rc = take_chunks(pass, scan, s);
	evi_blocks_scan_free(s); /* the workers stop before the slots go */
	for (unsigned i = 0; scan->slots && i < slots; i++)
		free(scan->slots[i].noted);
	free(scan->slots);
	return rc;
}

int evi_info_scan(evi_info_pass *pass, unsigned threads)
{
	info_worker **workers = calloc(threads, sizeof *workers);
	info_scan scan = { pass, workers, NULL };
	int rc = workers ? EV_OK : EV_ENOMEM;

	for (unsigned i = 0; rc == EV_OK && i < threads; i++)
		if (!(workers[i] = calloc(1, sizeof *workers[i])))
			rc = EV_ENOMEM;
	if (rc == EV_OK && !(pass->blocks = calloc(pass->b->n ? pass->b->n : 1,
						   sizeof *pass->blocks)))
		rc = EV_ENOMEM;
	if (rc == EV_OK)
		rc = run_scan(pass, &scan, threads);
	if (rc == EV_OK)
		rc = gather(pass, workers, threads);
	for (unsigned i = 0; workers && i < threads; i++)
		free(workers[i]);
	free(workers);
	return rc;
}

void evi_info_pass_free(evi_info_pass *pass)
{
	free(pass->blocks);
	free(pass->per_type);
	free(pass->noted);
	free(pass->bytes);
}
