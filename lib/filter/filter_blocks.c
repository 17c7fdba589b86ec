/*
 * filter reading in parallel (filter_internal.h, evi_filter_scan): a ring
 * of batches on the threading layer, one block each, read ahead by the
 * workers, which list the events of their block that the filter may keep
 * (its rule by type is not EVI_RULE_DROP); the caller takes the batches
 * back in file order and decides those events one by one, as it would
 * have read them (evi_filter_apply keeps its state: windows, processes,
 * threads). A block the workers refuse (blocks.h), and the data end, are
 * handed back to the sequential reader, which reads on from there.
 *
 * Memory: at most 2 x threads batches in flight, each the offsets of one
 * block's events (a block is at most 2 MiB).
 *
 * Layering: filter_run.c -> this file -> lib/format's blocks and
 * lib/common's ring.
 */
#include <stdlib.h>

#include "filter_internal.h"
#include "internal.h"
#include "pool.h"

/* One block's events that may be kept. */
typedef struct scan_batch {
	size_t block;
	uint64_t events;    /* block markers aside */
	uint64_t *offsets;  /* of the events to decide */
	uint32_t *indexes;  /* theirs, counted from the block's marker */
	size_t n, cap;
} scan_batch;

struct evi_filter_scan {
	const evi_blocks *b;
	const uint8_t *rules;
	evi_ring *ring;
	scan_batch *batches;
	unsigned slots;
	size_t submitted;   /* blocks handed to the workers */
	scan_batch *cur;    /* the batch being handed out, or NULL */
	size_t cur_i;
	uint64_t index;     /* events (markers included) before cur's block */
	int stopped;
};

static int keep_offset(scan_batch *batch, const ev_event *ev)
{
	size_t cap = batch->cap;

	if (batch->n == cap &&
	    (evi_grow((void **)&batch->offsets, &cap, batch->n + 1,
		      sizeof *batch->offsets) < 0 ||
	     evi_grow((void **)&batch->indexes, &batch->cap, batch->n + 1,
		      sizeof *batch->indexes) < 0))
		return EV_ENOMEM;
	batch->offsets[batch->n] = ev->offset;
	batch->indexes[batch->n] = (uint32_t)ev->index;
	batch->n++;
	return EV_OK;
}

/* A worker's job: one block. EV_EFORMAT when the cursor refuses it. */
static int scan_block(void *ctx, unsigned slot, unsigned worker)
{
	evi_filter_scan *s = ctx;
	scan_batch *batch = &s->batches[slot];
	evi_block_cursor c;
	ev_event ev;
	int rc;

	(void)worker;
	batch->events = 0;
	batch->n = 0;
	evi_block_cursor_init(&c, s->b, batch->block);
	if (evi_block_next(&c, &ev) != 1)
		return EV_EFORMAT;
	while ((rc = evi_block_next(&c, &ev)) == 1) {
		batch->events++;
		if (s->rules[ev.type] != EVI_RULE_DROP &&
		    keep_offset(batch, &ev) < 0)
			return EV_ENOMEM;
	}
	return rc == 0 ? EV_OK : EV_EFORMAT;
}

int evi_filter_scan_open(evi_filter_scan **out, const evi_blocks *b,
			 const uint8_t *rules, unsigned threads)
{
	evi_filter_scan *s = calloc(1, sizeof *s);

	*out = NULL;
	if (!s)
		return EV_ENOMEM;
	s->b = b;
	s->rules = rules;
	s->slots = 2 * (threads ? threads : 1);
	if (!(s->batches = calloc(s->slots, sizeof *s->batches)) ||
	    evi_ring_new(&s->ring, s->slots, threads, scan_block, s) < 0) {
		evi_filter_scan_free(s);
		return EV_ENOMEM;
	}
	*out = s;
	return EV_OK;
}

void evi_filter_scan_free(evi_filter_scan *s)
{
	if (!s)
		return;
	evi_ring_free(s->ring);
	for (unsigned i = 0; s->batches && i < s->slots; i++) {
		free(s->batches[i].offsets);
		free(s->batches[i].indexes);
	}
	free(s->batches);
	free(s);
}

/* Keeps the workers busy: every free slot gets the next block. */
static void top_up(evi_filter_scan *s)
{
	while (s->submitted < s->b->n &&
	       evi_ring_pending(s->ring) < s->slots) {
		s->batches[evi_ring_slot(s->ring)].block = s->submitted++;
		evi_ring_submit(s->ring);
	}
}

/* The reader that reads on from the start of `block` (b->n: the data
 * end); the scan stops. */
static int hand_back(evi_filter_scan *s, size_t block, ev_reader **r)
{
	int rc = evi_blocks_resume(s->b, block, s->index, r);

	s->stopped = 1;
	return rc < 0 ? rc : 0;
}

/* The next batch in file order, or 0 (handed back) / negative. */
static int next_batch(evi_filter_scan *s, ev_reader **r, uint64_t *events)
{
	unsigned slot;
	int rc;

	if (s->cur) {
		s->index += s->cur->events + 1;
		evi_blocks_release(s->b, s->cur->block);
		s->cur = NULL;
	}
	top_up(s);
	if (evi_ring_pending(s->ring) == 0)
		return hand_back(s, s->b->n, r);
	rc = evi_ring_collect(s->ring, &slot);
	if (rc == EV_EFORMAT)
		return hand_back(s, s->batches[slot].block, r);
	if (rc < 0)
		return rc;
	s->cur = &s->batches[slot];
	s->cur_i = 0;
	*events += s->cur->events;
	return 1;
}

int evi_filter_scan_next(evi_filter_scan *s, ev_event *ev, ev_reader **r,
			 uint64_t *events)
{
	evi_block_cursor c;
	int rc;

	if (s->stopped)
		return EV_EINVAL;
	while (!s->cur || s->cur_i == s->cur->n)
		if ((rc = next_batch(s, r, events)) <= 0)
			return rc;
	evi_block_cursor_init(&c, s->b, s->cur->block);
	c.pos = s->cur->offsets[s->cur_i];
	c.index = s->cur->indexes[s->cur_i];
	s->cur_i++;
	if (evi_block_next(&c, ev) != 1)
		return EV_EINVAL; /* a worker read it: cannot be */
	ev->index += s->index;
	return 1;
}
