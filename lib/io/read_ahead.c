/*
 * Reading ahead in a thread (read_ahead.h): RING blocks of BLOCK bytes in
 * a ring of the threading layer (lib/common/pool.h) with one worker; the
 * worker fills a block as far as its fill function goes, the caller
 * empties them in order and hands each emptied block back to be filled
 * again. The last block holds the status that stopped the fill; blocks
 * handed over after it stay empty.
 */
#include "read_ahead.h"

#include <stdlib.h>
#include <string.h>

#include "evtool/common.h"
#include "pool.h"

#define RING 4u
#define BLOCK (1u << 20)

typedef struct ahead_block {
	uint8_t *data;
	size_t len;
	size_t pos;
	int rc;       /* of the last block: what stopped the fill */
	int last;
	uint64_t mark;
} ahead_block;

struct evi_ahead {
	evi_fill_fn fill;
	uint64_t (*mark)(void *ctx);
	void *ctx;
	evi_ring *ring;
	ahead_block blocks[RING];
	ahead_block *current; /* taken back, being emptied; NULL: none */
	int ended;            /* the worker's: the last block is filled */
	uint64_t taken_mark;
};

/* The worker's job: fills the block of `slot`. */
static int fill_block(void *arg, unsigned slot, unsigned worker)
{
	evi_ahead *a = arg;
	ahead_block *b = &a->blocks[slot];
	size_t got = 1;
	int rc = EV_OK;

	(void)worker;
	b->len = 0;
	b->pos = 0;
	if (a->ended)
		return EV_OK; /* after the last block: never taken */
	while (b->len < BLOCK && got > 0 && rc == EV_OK) {
		got = 0;
		rc = a->fill(a->ctx, b->data + b->len, BLOCK - b->len, &got);
		b->len += got;
	}
	b->rc = rc;
	b->last = rc != EV_OK || got == 0;
	b->mark = a->mark ? a->mark(a->ctx) : 0;
	a->ended = b->last;
	return EV_OK;
}

static void free_blocks(evi_ahead *a)
{
	for (unsigned i = 0; i < RING; i++)
		free(a->blocks[i].data);
	free(a);
}

evi_ahead *evi_ahead_start(evi_fill_fn fill, uint64_t (*mark)(void *ctx),
			   void *ctx)
{
	evi_ahead *a = calloc(1, sizeof *a);

	if (!a)
		return NULL;
	a->fill = fill;
	a->mark = mark;
	a->ctx = ctx;
	for (unsigned i = 0; i < RING; i++)
		if (!(a->blocks[i].data = malloc(BLOCK))) {
			free_blocks(a);
			return NULL;
		}
	if (evi_ring_new(&a->ring, RING, 1, fill_block, a) < 0) {
		free_blocks(a);
		return NULL;
	}
	/* Without a thread, the blocks are filled here, as they are
	 * handed over: the same bytes, only later. */
	for (unsigned i = 0; i < RING; i++)
		evi_ring_submit(a->ring);
	return a;
}

int evi_ahead_read(evi_ahead *a, uint8_t *dst, size_t cap, size_t *got)
{
	ahead_block *b = a->current;
	size_t n;

	if (!b) {
		unsigned slot;

		evi_ring_collect(a->ring, &slot); /* the status is the block's */
		b = a->current = &a->blocks[slot];
	}
	*got = 0;
	if (b->pos == b->len)
		return b->rc; /* the last block, emptied */
	n = b->len - b->pos;
	*got = n < cap ? n : cap;
	memcpy(dst, b->data + b->pos, *got);
	b->pos += *got;
	if (b->pos == b->len && !b->last) {
		a->taken_mark = b->mark;
		a->current = NULL;
		evi_ring_submit(a->ring); /* the slot just emptied */
	}
	return EV_OK;
}

uint64_t evi_ahead_mark(const evi_ahead *a)
{
	return a->taken_mark;
}

void evi_ahead_stop(evi_ahead *a)
{
	if (!a)
		return;
	evi_ring_free(a->ring);
	free_blocks(a);
}
