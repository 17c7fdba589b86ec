/*
 * A log's blocks, found without reading their events, for the parallel
 * front end (doc/architecture.md, "Reading in parallel"): a plain log in
 * a regular file is mapped, its header parsed, and the first pass hops
 * from block marker to block marker by their sizes (doc/format.md
 * section 2) to the data end. Workers then walk the blocks' events with
 * a cursor (evi_block_next) that hands each out exactly as the
 * sequential reader does (ev_reader_next: type, time, size, payload,
 * offset, the block's capability), and that says when a block holds
 * anything the reader would take otherwise (an event across the block's
 * end, an undeclared type, a marker or the data end inside it): the
 * caller then reads the log sequentially, so that every finding on a
 * damaged log is the sequential reader's.
 *
 * Only a log that is one session of blocks from the header to the data
 * end, with nothing after it, is found here; anything else (gzip, pipes,
 * several sessions, events outside blocks, damage between blocks) takes
 * the sequential path.
 *
 * Two ways to run workers over the blocks: evi_blocks_run (each block
 * walked in the mapping, results kept by block) and, for a new user, the
 * scan (evi_blocks_scan_*, below: blocks read by offset into buffers of
 * the workers, no page faults, results taken back in file order on the
 * caller's thread), which info, filter, cat and validate read with.
 *
 * Layering: uses the reader (for the header), the wire table and
 * lib/common's pool and digest; the analyses that read in parallel
 * (lib/inspect's info, lib/filter, the plain copy of blocks_copy.c) call
 * it.
 */
#ifndef EVTOOL_LIB_FORMAT_BLOCKS_H
#define EVTOOL_LIB_FORMAT_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

#include "evtool/reader.h"
#include "wire.h"

/* One block: its marker's offset, its declared size (marker included)
 * and its capability. */
typedef struct evi_block_span {
	uint64_t offset;
	uint32_t size;
	uint16_t cap;
} evi_block_span;

typedef struct evi_blocks {
	const uint8_t *map;
	size_t len;
	ev_reader *header_reader; /* over the map; owns the header */
	const ev_header *header;
	evi_wire_table wire;
	evi_block_span *spans;
	size_t n;
	uint64_t data_end; /* offset of the data-end marker */
	int digest_wanted; /* the reader was opened with EV_READER_DIGEST */
	int fd;            /* the reader's (not read: pread only) */
	uint32_t max_block; /* the largest block's size */
	uint64_t end_time;  /* the latest end time of the blocks' markers */
} evi_blocks;

/*
 * The blocks of the log `r` reads, when `r` has read nothing yet and its
 * input is a plain regular file of one session tiled by block markers:
 * EV_OK and *out. EV_END (and *out NULL): the sequential path reads this
 * log. EV_ENOMEM.
 */
int evi_blocks_open(evi_blocks **out, ev_reader *r);

void evi_blocks_free(evi_blocks *b);

/* Walks one block's events, marker first: `pos` and `end` are offsets in
 * the file, the byte at offset `pos` is map[pos - base]. */
typedef struct evi_block_cursor {
	const uint8_t *map;
	uint64_t pos;
	uint64_t end;
	const evi_wire_table *wire;
	uint16_t cap;
	uint64_t index; /* counted from 0 at the block's marker */
	uint64_t base;  /* the file offset of map[0] */
} evi_block_cursor;

/* Over the mapped log. */
static inline void evi_block_cursor_init(evi_block_cursor *c,
					 const evi_blocks *b, size_t block)
{
	c->map = b->map;
	c->pos = b->spans[block].offset;
	c->end = c->pos + b->spans[block].size;
	c->wire = &b->wire;
	c->cap = b->spans[block].cap;
	c->index = 0;
	c->base = 0;
}

/* 1: `ev` is the block's next event (its index counted from the block's
 * marker); 0: the block is done; -1: the sequential reader would read
 * this block otherwise, and must. */
static inline int evi_block_next(evi_block_cursor *c, ev_event *ev)
{
	const uint8_t *p = c->map + (c->pos - c->base);
	uint64_t left = c->end - c->pos;
	uint32_t head = EVI_EVENT_HEADER, size;
	uint16_t type;
	int32_t wire;

	if (left == 0)
		return 0;
	if (left < EVI_EVENT_HEADER)
		return -1;
	type = ev_load16(p);
	wire = evi_wire_size(c->wire, type);
	if (wire == EVI_UNDECLARED || type == EVI_DATA_END ||
	    (type == EV_BLOCK_MARKER && c->index > 0))
		return -1;
	if (wire == EV_SIZE_VARIABLE) {
		head = EVI_VAR_HEADER;
		if (left < head)
			return -1;
		size = ev_load16(p + EVI_EVENT_HEADER);
	} else {
		size = (uint32_t)wire;
	}
	if (left < (uint64_t)head + size)
		return -1;
	ev->type = type;
	ev->time = ev_load64(p + 2);
	ev->size = size;
	ev->payload = p + head;
	ev->offset = c->pos;
	ev->index = c->index++;
	ev->cap = c->cap;
	c->pos += head + size;
	return 1;
}

/* A cursor past the marker of `block`, for a worker that walks its
 * events: EV_OK, or EV_EFORMAT (no marker: read sequentially). */
static inline int evi_block_open(evi_block_cursor *c, const evi_blocks *b,
				 size_t block)
{
	ev_event marker;

	evi_block_cursor_init(c, b, block);
	return evi_block_next(c, &marker) == 1 ? EV_OK : EV_EFORMAT;
}

/* The event a worker found in `block` at `offset`, its `index` counted
 * from the block's marker, read again: 1, or -1 when it is not one. */
static inline int evi_block_event_at(const evi_blocks *b, size_t block,
				     uint64_t offset, uint64_t index,
				     ev_event *ev)
{
	evi_block_cursor c;

	evi_block_cursor_init(&c, b, block);
	c.pos = offset;
	c.index = index;
	return evi_block_next(&c, ev) == 1 ? 1 : -1;
}

/*
 * A reader over the mapped log, at the marker of `block` (at the data end
 * for b->n) as if it had read the `index` events before it (markers
 * included): the sequential path reads on from there, whatever it finds
 * (a block the cursor refused; the data end, and what follows for a
 * reader of sessions). EV_OK and *out, or EV_ENOMEM. The reader reads
 * the map: free it before `b`.
 */
int evi_blocks_resume(const evi_blocks *b, size_t block, uint64_t index,
		      ev_reader **out);

/* Lets the mapped pages of `block` go (the page cache keeps them): a
 * block read once need not stay in the process's memory. */
void evi_blocks_release(const evi_blocks *b, size_t block);

/*
 * Runs work(ctx, block, worker) on every block, on `threads` workers of a
 * pool (`worker` 0 .. threads - 1, for per-worker state), each taking the
 * next block not yet taken (and letting its mapped pages go after it);
 * `alongside`, when not NULL, runs first as one more job on the same
 * workers (alongside(alongside_ctx, 0, worker)), for a pass of its own
 * over the input (a digest). EV_OK, or the first negative
 * status a job returned (a block's EV_EFORMAT: read sequentially).
 */
int evi_blocks_run(const evi_blocks *b, unsigned threads,
		   int (*work)(void *ctx, size_t block, unsigned worker),
		   void *ctx, int (*alongside)(void *, unsigned, unsigned),
		   void *alongside_ctx);

/* ---- the scan: blocks read by offset, results in file order ----
 *
 * The shape every analysis that reads in parallel takes (info, filter,
 * cat; doc/architecture.md "Reading in parallel"): the blocks are cut
 * into chunks of consecutive blocks (about EVI_CHUNK_BYTES, at least one
 * block), each read by a worker with pread into the buffer of one of the
 * scan's slots (no mapping: no page faults), and worked on block by
 * block by the caller's `work` on that worker; the caller then takes the
 * chunks back one by one in file order (evi_blocks_scan_next), bytes and
 * all, and adds up the workers' results: that, and the digest of the log
 * when the reader was opened with EV_READER_DIGEST (hashed from the
 * chunks as they come back), is the serial part.
 *
 * Memory: 2 x threads slots, each one chunk (EVI_CHUNK_BYTES, or the
 * largest block when larger, at most EVI_CHUNK_MAX_BYTES), whatever the
 * log's size; the caller keeps its per-chunk results by slot.
 *
 * Speed: a work function counts into locals (or per-worker memory) and
 * stores into arrays indexed by block or slot once per block: two
 * workers on neighbouring blocks writing such an array at every event
 * fight over the cache lines they share (info -T 2 ran at one core's
 * speed that way).
 */

#define EVI_CHUNK_BYTES (2u << 20)
#define EVI_CHUNK_MAX_BYTES (15u << 20)

/* A run of consecutive blocks read into a slot's buffer. */
typedef struct evi_chunk {
	size_t first;        /* its first block */
	size_t n;            /* its blocks worked on */
	int refused;         /* block first + n is the sequential reader's */
	unsigned slot;       /* 0 .. evi_blocks_scan_slots() - 1 */
	uint64_t offset;     /* the file offset of data[0]: first's marker */
	size_t len;          /* the bytes of its blocks */
	const uint8_t *data;
} evi_chunk;

/* The blocks' events, in a chunk's bytes. */
static inline void evi_block_cursor_init_chunk(evi_block_cursor *c,
					       const evi_blocks *b,
					       const evi_chunk *chunk,
					       size_t block)
{
	evi_block_cursor_init(c, b, block);
	c->map = chunk->data;
	c->base = chunk->offset;
}

/* The work on one block of `chunk`, on a worker (`worker` 0 .. threads -
 * 1, for per-worker state; chunk->slot for per-chunk results): EV_OK;
 * EV_EFORMAT when the cursor refused the block (the chunk ends before
 * it: chunk->refused); another negative status fails the scan. */
typedef int (*evi_block_fn)(void *ctx, const evi_chunk *chunk, size_t block,
			    unsigned worker);

typedef struct evi_blocks_scan evi_blocks_scan;

/*
 * A scan of `b`'s blocks on `threads` workers. EV_OK and *out; EV_END
 * when a block is larger than EVI_CHUNK_MAX_BYTES (read sequentially);
 * EV_ENOMEM.
 */
int evi_blocks_scan_open(evi_blocks_scan **out, const evi_blocks *b,
			 unsigned threads, evi_block_fn work, void *ctx);

/* The slots (2 x threads), for the caller's per-chunk results. */
unsigned evi_blocks_scan_slots(const evi_blocks_scan *s);

/*
 * The next chunk in file order, its blocks worked on: 1 and *chunk, its
 * bytes valid until the next call; after a chunk->refused, or when every
 * block was taken, 0 (the caller reads on sequentially from block
 * chunk->first + chunk->n, or from the data end: evi_blocks_resume);
 * a negative status when the scan failed.
 */
int evi_blocks_scan_next(evi_blocks_scan *s, const evi_chunk **chunk);

/* The xxh3-64 of the whole log (as ev_reader_digest gives it), once
 * evi_blocks_scan_next returned 0 after the last block: EV_OK; EV_EINVAL
 * when it was not wanted or the scan stopped early. */
int evi_blocks_scan_digest(const evi_blocks_scan *s, uint64_t *out);

/* Stops the workers and frees the scan; NULL is fine. */
void evi_blocks_scan_free(evi_blocks_scan *s);

#endif
