/*
 * The block builder (writer_block.h): pieces of blocks, framed with their
 * BLOCK_MARKER (doc/format.md section 2) and written to the sink.
 */
#include "writer_block.h"

#include <stdlib.h>
#include <string.h>

int evi_sink_failed(ev_diag *d, const ev_sink *sink, int rc)
{
	*d = *ev_sink_diag(sink);
	d->status = rc;
	return rc;
}

/* Empties the current piece. */
static void empty(evi_block *b)
{
	b->len = 0;
	b->min = UINT64_MAX;
	b->max = 0;
}

/* Begins a block with a marker of `marker_len` bytes at the buffer's
 * start. */
static void begin(evi_block *b, uint16_t cap, enum evi_block_marker how,
		  size_t marker_len)
{
	b->cap = cap;
	b->marker = (uint8_t)how;
	b->marker_len = marker_len;
	b->events = b->buf + marker_len;
	b->room = b->max_block - marker_len;
	b->pieces = 0;
	empty(b);
}

evi_block *evi_block_new(ev_sink *sink, ev_diag *diag, uint32_t max_block)
{
	evi_block *b;

	if (max_block <= EVI_BLOCK_EVENT || !(b = calloc(1, sizeof *b)))
		return NULL;
	/* One event of any size fits an empty piece (a block of its own). */
	if (!(b->buf = malloc((size_t)max_block + EVI_VAR_HEADER +
			      UINT16_MAX))) {
		free(b);
		return NULL;
	}
	b->sink = sink;
	b->diag = diag;
	b->max_block = max_block;
	begin(b, EV_NO_CAP, EVI_MARKER_EVENTS, EVI_BLOCK_EVENT);
	return b;
}

void evi_block_free(evi_block *b)
{
	if (b)
		free(b->buf);
	free(b);
}

void evi_block_begin(evi_block *b, uint16_t cap)
{
	begin(b, cap, EVI_MARKER_EVENTS, EVI_BLOCK_EVENT);
}

void evi_block_begin_times(evi_block *b, uint16_t cap, uint64_t start,
			   uint64_t end)
{
	begin(b, cap, EVI_MARKER_GIVEN, EVI_BLOCK_EVENT);
	b->start = start;
	b->end = end;
}

void evi_block_begin_marker(evi_block *b, const evi_wire_event *marker)
{
	size_t len = evi_wire_len(marker);

	begin(b, EV_NO_CAP, EVI_MARKER_READ, len);
	b->marker_head = (uint8_t)evi_wire_put_head(b->buf, marker->type,
						    marker->time,
						    marker->variable,
						    marker->size);
	if (marker->size)
		memcpy(b->buf + b->marker_head, marker->payload,
		       marker->size);
	b->start = marker->time;
}

/* The marker and the events of the piece, in one write. */
static int write_piece(evi_block *b)
{
	int rc = ev_sink_write(b->sink, b->buf, b->marker_len + b->len);

	empty(b);
	b->pieces++;
	return rc < 0 ? evi_sink_failed(b->diag, b->sink, rc) : EV_OK;
}

int evi_block_write(evi_block *b, int restamp, uint64_t start,
		    uint64_t end)
{
	if (restamp)
		evi_wire_set_marker(b->buf, b->marker_head, start,
				    (uint32_t)evi_block_bytes(b), end);
	return write_piece(b);
}

int evi_block_flush(evi_block *b, int last)
{
	int given = b->marker == EVI_MARKER_GIVEN;
	uint64_t start = given && b->pieces == 0 ? b->start : b->min;
	uint64_t end = given && last ? b->end : b->max;

	if (b->marker == EVI_MARKER_READ)
		return evi_block_write(b, 1, b->pieces ? b->min : b->start,
				       b->max > b->min ? b->max : b->min);
	evi_wire_put_marker(b->buf, start, (uint32_t)evi_block_bytes(b), end,
			    b->cap);
	return write_piece(b);
}

int evi_block_close(evi_block *b)
{
	int rc = EV_OK;

	if (b->len || b->marker == EVI_MARKER_GIVEN)
		rc = evi_block_flush(b, 1);
	begin(b, b->cap, EVI_MARKER_EVENTS, EVI_BLOCK_EVENT);
	return rc;
}

int evi_block_switch(evi_block *b, uint16_t cap)
{
	int rc = evi_block_close(b);

	b->cap = cap;
	return rc;
}

int evi_block_put_run(evi_block *b, const evi_run *run)
{
	size_t size = EVI_BLOCK_EVENT + run->len;
	uint8_t *at;
	int rc;

	if (b->len && (run->cap != b->cap || b->len + run->len > b->room)) {
		/* The same capability's block would fill up inside the run:
		 * only event by event says where it is cut. */
		if (run->cap == b->cap)
			return 0;
		if ((rc = evi_block_close(b)) < 0)
			return rc;
	}
	if (run->len > b->room)
		return 0;
	b->cap = run->cap;
	if (!b->len && run->closes && size <= EVI_SINK_RESERVE_MAX) {
		/* A whole block (in sorted output of capabilities taking
		 * turns, most are): the bytes a piece would be, with one
		 * copy. */
		if (!(at = evi_sink_reserve(b->sink, size)))
			return evi_sink_failed(b->diag, b->sink,
					       ev_sink_diag(b->sink)->status);
		evi_wire_put_marker(at, run->first, (uint32_t)size, run->last,
				    run->cap);
		memcpy(at + EVI_BLOCK_EVENT, run->p, run->len);
		b->count += run->n;
		return 1;
	}
	memcpy(b->events + b->len, run->p, run->len);
	if (run->first < b->min)
		b->min = run->first;
	if (run->last > b->max)
		b->max = run->last;
	b->len += run->len;
	b->count += run->n;
	return 1;
}
