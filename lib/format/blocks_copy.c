/*
 * A plain copy of a log in parallel (writer.h, ev_writer_copy_blocks), on
 * blocks.h's scan: the workers walk each block with the cursor (which
 * refuses what ev_reader_next would read otherwise) and count its events;
 * the caller writes the chunks' bytes as they come back in file order,
 * which is what a PRESERVE writer writes event by event. Where the
 * workers stop (the data end, or a block they refuse), a reader over the
 * mapped log reads on, and owns the mapping.
 *
 * Layering: blocks_copy.c -> blocks_scan.c, blocks.c, writer.c.
 */
#include "evtool/writer.h"

#include <stdlib.h>

#include "blocks.h"
#include "internal.h"

/* One chunk's events (markers aside), by slot. */
typedef struct copy_slot {
	uint64_t events;
	uint64_t blocks;
} copy_slot;

typedef struct copy_scan {
	const evi_blocks *b;
	copy_slot *slots;
} copy_scan;

static int walk_block(void *ctx, const evi_chunk *chunk, size_t block,
		      unsigned worker)
{
	copy_scan *cs = ctx;
	copy_slot *sl = &cs->slots[chunk->slot];
	evi_block_cursor c;
	ev_event ev;
	uint64_t events = 0;
	int rc;

	(void)worker;
	if (block == chunk->first)
		sl->events = sl->blocks = 0;
	evi_block_cursor_init_chunk(&c, cs->b, chunk, block);
	if (evi_block_next(&c, &ev) != 1)
		return EV_EFORMAT;
	while ((rc = evi_block_next(&c, &ev)) == 1)
		events++;
	if (rc != 0)
		return EV_EFORMAT;
	sl->events += events;
	sl->blocks++;
	return EV_OK;
}

/* Writes the chunks in file order; *stop is the block the sequential
 * reader reads on from (b->n: the data end), *index the events and
 * markers before it. */
static int write_chunks(copy_scan *cs, evi_blocks_scan *s, ev_writer *w,
			size_t *stop, uint64_t *index)
{
	const evi_chunk *chunk;
	int rc;

	*stop = cs->b->n;
	while ((rc = evi_blocks_scan_next(s, &chunk)) == 1) {
		const copy_slot *sl = &cs->slots[chunk->slot];
		size_t end = chunk->first + chunk->n;
		size_t len = chunk->refused
				     ? (size_t)(cs->b->spans[end].offset -
						chunk->offset)
				     : chunk->len;

		if (chunk->refused)
			*stop = end;
		if (len && (rc = evi_writer_copy_bytes(w, chunk->data, len,
							sl->events)) < 0)
			return rc;
		*index += sl->events + sl->blocks;
	}
	return rc;
}

static void free_blocks(void *b)
{
	evi_blocks_free(b);
}

/* The scan of b's blocks into `w`, and the reader that reads on. */
static int copy(evi_blocks *b, unsigned threads, ev_writer *w,
		ev_reader **rest)
{
	copy_scan cs = { b, NULL };
	evi_blocks_scan *s;
	size_t stop = 0;
	uint64_t index = 0;
	int rc = evi_blocks_scan_open(&s, b, threads, walk_block, &cs);

	if (rc != EV_OK)
		return rc;
	if (!(cs.slots = calloc(evi_blocks_scan_slots(s), sizeof *cs.slots)))
		rc = EV_ENOMEM;
	if (rc == EV_OK)
		rc = write_chunks(&cs, s, w, &stop, &index);
	evi_blocks_scan_free(s);
	free(cs.slots);
	if (rc == EV_OK)
		rc = evi_blocks_resume(b, stop, index, rest);
	return rc;
}

int ev_writer_copy_blocks(ev_writer **w, ev_sink *sink, ev_reader **r,
			  unsigned threads)
{
	evi_blocks *b = NULL;
	ev_reader *rest = NULL;
	int rc;

	*w = NULL;
	if (threads < 2)
		return EV_END;
	if ((rc = evi_blocks_open(&b, *r)) != EV_OK)
		return rc;
	if (b->max_block > EVI_CHUNK_MAX_BYTES) {
		evi_blocks_free(b);
		return EV_END;
	}
	if ((rc = ev_writer_open(w, sink, b->header, NULL, NULL)) == EV_OK)
		rc = copy(b, threads, *w, &rest);
	if (rc < 0) {
		if (!*w || rc == EV_ENOMEM) {
			ev_writer_free(*w);
			*w = NULL;
		}
		evi_blocks_free(b);
		return rc;
	}
	evi_reader_on_free(rest, free_blocks, b);
	ev_reader_free(*r);
	*r = rest;
	return EV_OK;
}
