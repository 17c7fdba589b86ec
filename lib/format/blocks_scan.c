/*
 * The scan of a log's blocks (blocks.h, "the scan"): chunks of
 * consecutive blocks handed in file order to a ring of slots on the
 * threading layer; a worker reads its chunk by offset into the slot's
 * buffer and runs the caller's work on each block; the caller takes the
 * chunks back in file order and, when the digest is wanted, hashes them
 * as they come back.
 *
 * Layering: blocks_scan.c -> blocks.c (the spans), lib/common's ring and
 * digest.
 */
#include "blocks.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "digest.h"
#include "internal.h"
#include "pool.h"

typedef struct scan_slot {
	evi_chunk chunk;
	uint8_t *buf;
	size_t cap;
	size_t planned;   /* blocks handed to the worker */
} scan_slot;

struct evi_blocks_scan {
	const evi_blocks *b;
	evi_block_fn work;
	void *ctx;
	evi_ring *ring;
	scan_slot *slots;
	unsigned n_slots;
	size_t next_block;   /* the first block not handed out */
	int stopped;         /* a chunk was refused */
	int ended;           /* every block was taken back */
	evi_digest *digest;  /* NULL: not wanted */
};

/* Reads the chunk's bytes by offset: 0, or -1 when the file gave fewer
 * (then the sequential reader reads from the chunk's first block). */
static int read_chunk(int fd, scan_slot *sl)
{
	size_t got = 0;

	while (got < sl->chunk.len) {
		ssize_t n = pread(fd, sl->buf + got, sl->chunk.len - got,
				  (off_t)(sl->chunk.offset + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

/* A worker's job: one chunk, read, then worked on block by block. */
static int scan_chunk(void *ctx, unsigned slot, unsigned worker)
{
	evi_blocks_scan *s = ctx;
	scan_slot *sl = &s->slots[slot];
	evi_chunk *c = &sl->chunk;
	int rc = EV_OK;

	c->n = 0;
	c->refused = 0;
	c->data = sl->buf;
	if (read_chunk(s->b->fd, sl) < 0) {
		c->refused = 1;
		return EV_OK;
	}
	while (c->n < sl->planned &&
	       (rc = s->work(s->ctx, c, c->first + c->n, worker)) == EV_OK)
		c->n++;
	if (rc == EV_EFORMAT) {
		c->refused = 1;
		rc = EV_OK;
	}
	return rc;
}

/* The next chunk from s->next_block in `sl`: consecutive blocks up to
 * EVI_CHUNK_BYTES (or the first block's size, when larger). */
static int plan_chunk(evi_blocks_scan *s, scan_slot *sl)
{
	const evi_block_span *spans = s->b->spans;
	size_t first = s->next_block, last = first;
	size_t limit = spans[first].size > EVI_CHUNK_BYTES ? spans[first].size
							  : EVI_CHUNK_BYTES;
	size_t len = 0;

	while (last < s->b->n && len + spans[last].size <= limit)
		len += spans[last++].size;
	if (len > sl->cap) {
		uint8_t *buf = realloc(sl->buf, len);
		if (!buf)
			return EV_ENOMEM;
		sl->buf = buf;
		sl->cap = len;
	}
	sl->chunk.first = first;
	sl->chunk.offset = spans[first].offset;
	sl->chunk.len = len;
	sl->planned = last - first;
	s->next_block = last;
	return EV_OK;
}

/* Every free slot gets the next chunk. */
static int top_up(evi_blocks_scan *s)
{
	int rc;

	while (!s->stopped && s->next_block < s->b->n &&
	       evi_ring_pending(s->ring) < s->n_slots) {
		scan_slot *sl = &s->slots[evi_ring_slot(s->ring)];
		if ((rc = plan_chunk(s, sl)) < 0)
			return rc;
		sl->chunk.slot = evi_ring_slot(s->ring);
		evi_ring_submit(s->ring);
	}
	return EV_OK;
}

int evi_blocks_scan_open(evi_blocks_scan **out, const evi_blocks *b,
			 unsigned threads, evi_block_fn work, void *ctx)
{
	evi_blocks_scan *s;
	unsigned n = threads ? threads : 1;

	*out = NULL;
	if (b->max_block > EVI_CHUNK_MAX_BYTES)
		return EV_END;
	if (!(s = calloc(1, sizeof *s)))
		return EV_ENOMEM;
	s->b = b;
	s->work = work;
	s->ctx = ctx;
	s->n_slots = 2 * n;
	if (!(s->slots = calloc(s->n_slots, sizeof *s->slots)) ||
	    evi_ring_new(&s->ring, s->n_slots, n, scan_chunk, s) < 0 ||
	    (b->digest_wanted && evi_digest_new(&s->digest) < 0)) {
		evi_blocks_scan_free(s);
		return EV_ENOMEM;
	}
	/* The header, before the first block. */
	if (s->digest)
		evi_digest_update(s->digest, b->map,
				  b->n ? b->spans[0].offset : b->data_end);
	*out = s;
	return EV_OK;
}

unsigned evi_blocks_scan_slots(const evi_blocks_scan *s)
{
	return s->n_slots;
}

int evi_blocks_scan_next(evi_blocks_scan *s, const evi_chunk **chunk)
{
	unsigned slot;
	int rc;

	*chunk = NULL;
	if (s->stopped || s->ended)
		return 0;
	/* The chunk the caller had is done with: its slot is free. */
	if ((rc = top_up(s)) < 0)
		return rc;
	if (evi_ring_pending(s->ring) == 0) {
		s->ended = 1;
		if (s->digest) /* the data end and anything after it */
			evi_digest_update(s->digest, s->b->map + s->b->data_end,
					  s->b->len - s->b->data_end);
		return 0;
	}
	if ((rc = evi_ring_collect(s->ring, &slot)) < 0)
		return rc;
	*chunk = &s->slots[slot].chunk;
	if ((*chunk)->refused)
		s->stopped = 1;
	else if (s->digest)
		evi_digest_update(s->digest, (*chunk)->data, (*chunk)->len);
	return 1;
}

int evi_blocks_scan_digest(const evi_blocks_scan *s, uint64_t *out)
{
	if (!s->digest || !s->ended || s->stopped)
		return EV_EINVAL;
	*out = evi_digest_value(s->digest);
	return EV_OK;
}

void evi_blocks_scan_free(evi_blocks_scan *s)
{
	if (!s)
		return;
	evi_ring_free(s->ring);
	for (unsigned i = 0; s->slots && i < s->n_slots; i++)
		free(s->slots[i].buf);
	free(s->slots);
	evi_digest_free(s->digest);
	free(s);
}
