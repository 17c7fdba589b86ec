/*
 * filter reading in parallel (filter_internal.h, evi_filter_scan), on
 * blocks.h's scan: workers read chunks of blocks by offset and list the
 * events of each that the filter may keep (its rule by type is not
 * EVI_RULE_DROP); the caller takes the chunks back in file order and
 * decides those events one by one, as it would have read them
 * (evi_filter_apply keeps its state: windows, processes, threads). A
 * block the workers refuse (blocks.h), and the data end, are handed back
 * to the sequential reader, which reads on from there.
 *
 * Memory: the scan's slots (2 x threads chunks of about 2 MiB) and, per
 * slot, the offsets of the chunk's events to decide.
 *
 * Layering: filter_run.c -> this file -> lib/format's blocks.
 */
#include <stdlib.h>

#include "filter_internal.h"
#include "internal.h"

/* An event to decide: where it is, its index counted from the chunk's
 * first marker. */
typedef struct kept_event {
	uint64_t offset;
	uint64_t index;
	size_t block;
} kept_event;

/* One chunk's events that may be kept, by slot. */
typedef struct scan_slot {
	kept_event *kept;
	size_t n, cap;
	uint64_t events;  /* block markers aside */
	uint64_t read;    /* events and markers of its blocks worked on */
} scan_slot;

struct evi_filter_scan {
	const evi_blocks *b;
	const uint8_t *rules;
	evi_blocks_scan *scan; /* NULL: blocks too large, read sequentially */
	scan_slot *slots;
	unsigned n_slots;
	const evi_chunk *cur;  /* the chunk being handed out, or NULL */
	size_t cur_i;
	uint64_t index;        /* events (markers included) before cur */
	int stopped;
};

static int keep(scan_slot *sl, const ev_event *ev, size_t block)
{
	if (evi_grow((void **)&sl->kept, &sl->cap, sl->n + 1,
		     sizeof *sl->kept) < 0)
		return EV_ENOMEM;
	sl->kept[sl->n].offset = ev->offset;
	sl->kept[sl->n].index = sl->read + ev->index;
	sl->kept[sl->n].block = block;
	sl->n++;
	return EV_OK;
}

/* A worker's work on one block of a chunk. EV_EFORMAT when the cursor
 * refuses it (what it listed of the block is dropped). The slot is
 * worked on in a copy: the slots share cache lines. */
static int scan_block(void *ctx, const evi_chunk *chunk, size_t block,
		      unsigned worker)
{
	evi_filter_scan *s = ctx;
	scan_slot sl = s->slots[chunk->slot];
	size_t listed;
	uint64_t events = 0;
	evi_block_cursor c;
	ev_event ev;
	int rc, kept = EV_OK;

	(void)worker;
	if (block == chunk->first)
		sl.n = sl.events = sl.read = 0;
	listed = sl.n;
	evi_block_cursor_init_chunk(&c, s->b, chunk, block);
	rc = evi_block_next(&c, &ev) == 1 ? 1 : -1; /* the marker */
	while (rc == 1 && (rc = evi_block_next(&c, &ev)) == 1) {
		events++;
		if (s->rules[ev.type] != EVI_RULE_DROP &&
		    (kept = keep(&sl, &ev, block)) < 0)
			break;
	}
	if (rc == 0 && kept == EV_OK) {
		sl.events += events;
		sl.read += events + 1;
	} else {
		sl.n = listed;
	}
	s->slots[chunk->slot] = sl;
	if (kept < 0)
		return kept;
	return rc == 0 ? EV_OK : EV_EFORMAT;
}

int evi_filter_scan_open(evi_filter_scan **out, const evi_blocks *b,
			 const uint8_t *rules, unsigned threads)
{
	evi_filter_scan *s = calloc(1, sizeof *s);
	int rc;

	*out = NULL;
	if (!s)
		return EV_ENOMEM;
	s->b = b;
	s->rules = rules;
	rc = evi_blocks_scan_open(&s->scan, b, threads, scan_block, s);
	if (rc == EV_OK) {
		s->n_slots = evi_blocks_scan_slots(s->scan);
		if (!(s->slots = calloc(s->n_slots, sizeof *s->slots)))
			rc = EV_ENOMEM;
	}
	if (rc < 0) {
		evi_filter_scan_free(s);
		return rc;
	}
	*out = s;
	return EV_OK;
}

void evi_filter_scan_free(evi_filter_scan *s)
{
	if (!s)
		return;
	evi_blocks_scan_free(s->scan); /* the workers stop first */
	for (unsigned i = 0; s->slots && i < s->n_slots; i++)
		free(s->slots[i].kept);
	free(s->slots);
	free(s);
}

/* The reader that reads on from the start of `block` (b->n: the data
 * end); the scan stops. */
static int hand_back(evi_filter_scan *s, size_t block, ev_reader **r)
{
	int rc = evi_blocks_resume(s->b, block, s->index, r);

	s->stopped = 1;
	return rc < 0 ? rc : 0;
}

/* The next chunk in file order, or 0 (handed back) / negative. */
static int next_chunk(evi_filter_scan *s, ev_reader **r, uint64_t *events)
{
	const evi_chunk *last = s->cur;
	int rc;

	if (!s->scan)
		return hand_back(s, 0, r);
	if (last) {
		s->index += s->slots[last->slot].read;
		s->cur = NULL;
		if (last->refused)
			return hand_back(s, last->first + last->n, r);
	}
	if ((rc = evi_blocks_scan_next(s->scan, &s->cur)) <= 0)
		return rc < 0 ? rc : hand_back(s, s->b->n, r);
	s->cur_i = 0;
	*events += s->slots[s->cur->slot].events;
	return 1;
}

int evi_filter_scan_next(evi_filter_scan *s, ev_event *ev, ev_reader **r,
			 uint64_t *events)
{
	const kept_event *k;
	evi_block_cursor c;
	int rc;

	if (s->stopped)
		return EV_EINVAL;
	while (!s->cur || s->cur_i == s->slots[s->cur->slot].n)
		if ((rc = next_chunk(s, r, events)) <= 0)
			return rc;
	k = &s->slots[s->cur->slot].kept[s->cur_i++];
	evi_block_cursor_init_chunk(&c, s->b, s->cur, k->block);
	c.pos = k->offset;
	if (evi_block_next(&c, ev) != 1)
		return EV_EINVAL; /* a worker read it: cannot be */
	ev->index = s->index + k->index;
	return 1;
}
