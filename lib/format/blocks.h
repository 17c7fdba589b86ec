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
 * Layering: uses the reader (for the header), the wire table and
 * lib/common's pool; the analyses that read in parallel (lib/inspect's
 * info) call it.
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
} evi_blocks;

/*
 * The blocks of the log `r` reads, when `r` has read nothing yet and its
 * input is a plain regular file of one session tiled by block markers:
 * EV_OK and *out. EV_END (and *out NULL): the sequential path reads this
 * log. EV_ENOMEM.
 */
int evi_blocks_open(evi_blocks **out, ev_reader *r);

void evi_blocks_free(evi_blocks *b);

/* Walks one block's events, marker first. */
typedef struct evi_block_cursor {
	const uint8_t *map;
	uint64_t pos;
	uint64_t end;
	const evi_wire_table *wire;
	uint16_t cap;
	uint64_t index; /* counted from 0 at the block's marker */
} evi_block_cursor;

static inline void evi_block_cursor_init(evi_block_cursor *c,
					 const evi_blocks *b, size_t block)
{
	c->map = b->map;
	c->pos = b->spans[block].offset;
	c->end = c->pos + b->spans[block].size;
	c->wire = &b->wire;
	c->cap = b->spans[block].cap;
	c->index = 0;
}

/* 1: `ev` is the block's next event (its index counted from the block's
 * marker); 0: the block is done; -1: the sequential reader would read
 * this block otherwise, and must. */
static inline int evi_block_next(evi_block_cursor *c, ev_event *ev)
{
	const uint8_t *p = c->map + c->pos;
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

/* The xxh3-64 of the whole log in *out, as ev_reader_digest gives it
 * (the reader is left unread, for the sequential path). EV_OK or
 * EV_ENOMEM or EV_EIO. */
int evi_blocks_digest(const evi_blocks *b, uint64_t *out);

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

#endif
