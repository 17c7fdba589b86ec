/*
 * The writer's one door inside lib/: a block builder over explicit wire
 * events (doc/architecture.md, "Writing").
 *
 * Every block a log evtool writes is built here. An owner gets a builder
 * from its writer (evi_writer_new_block; a re-blocking writer fills its
 * own, evi_writer_block, for ev_writer_write and the sorter), begins a
 * block of a capability, adds events to it as evi_wire_event values
 * (wire.h: type, time, payload and size, and whether the type is
 * variable-size: never bytes found before a payload pointer), and closes
 * it. The builder encodes each event at the end of the block; when the
 * next would pass the block size it writes what it holds as one block,
 * a "piece", marker first, and goes on with an empty one of the same
 * capability. An event larger than the block size is a block of its own.
 *
 * The marker of each piece is the builder's: BLOCK_MARKER (type 18) with
 * the piece's size, marker included, its start and end time, and the
 * capability (doc/format.md section 2). Its times are, by how the block
 * was begun:
 *
 * - evi_block_begin: the earliest and the latest event of the piece
 *   (re-blocking, merge's global block);
 * - evi_block_begin_times: `start` for the first piece and `end` for the
 *   last, the events' times in between (a block copied whole: merge);
 * - evi_block_begin_marker: a marker as read, kept byte for byte (its
 *   head, payload and capability as they were), which evi_block_write
 *   writes as it is or with the start, size and end given (repair).
 *
 * The struct is here so that the functions merge and the sorter call for
 * every event can be inline; its fields are the builder's, read and
 * written by the functions below only. Not installed.
 */
#ifndef EVTOOL_LIB_FORMAT_WRITER_BLOCK_H
#define EVTOOL_LIB_FORMAT_WRITER_BLOCK_H

#include "evtool/writer.h"
#include "internal.h"
#include "wire.h"

/* How a builder's block stamps its marker (see above). */
enum evi_block_marker {
	EVI_MARKER_EVENTS,   /* the events' times */
	EVI_MARKER_GIVEN,    /* the times given, at the ends */
	EVI_MARKER_READ      /* as read, or as evi_block_write says */
};

typedef struct evi_block {
	ev_sink *sink;
	ev_diag *diag;         /* the writer's: a failure of the sink */
	struct evi_block *next; /* the writer's next builder */
	uint8_t *events;       /* buf + marker_len: where events go */
	size_t len;            /* event bytes in the current piece */
	size_t room;           /* event bytes in one piece */
	uint64_t min;          /* the piece's earliest event (none: max) */
	uint64_t max;          /* and latest (none: 0) */
	uint64_t count;        /* events added, every block (not markers) */
	uint16_t cap;
	uint8_t marker;        /* enum evi_block_marker */
	unsigned pieces;       /* written of this block so far */
	uint64_t start, end;   /* EVI_MARKER_GIVEN */
	size_t marker_len;     /* bytes of the marker */
	uint8_t marker_head;   /* of its head (EVI_MARKER_READ) */
	size_t max_block;      /* bytes of a piece, marker included */
	uint8_t *buf;          /* the marker, `room`, one event of any size */
} evi_block;

/* The builder ev_writer_write fills for a re-blocking writer (NULL for a
 * preserving one): the sorter adds to it too. ev_writer_finish closes
 * it, ev_writer_next_session empties it. */
evi_block *evi_writer_block(ev_writer *w);

/* A new builder for `w`'s sink, of pieces of at most `max_block` bytes,
 * marker included (more than EVI_BLOCK_EVENT): kept and freed by `w`,
 * its events counted by ev_writer_events; NULL when out of memory. It
 * starts empty, as evi_block_begin(b, EV_NO_CAP) leaves it. */
evi_block *evi_writer_new_block(ev_writer *w, uint32_t max_block);

/* Makes a builder for `sink` (failures recorded in `diag`); frees one. */
evi_block *evi_block_new(ev_sink *sink, ev_diag *diag, uint32_t max_block);
void evi_block_free(evi_block *b);

/* Records a failure (status `rc`) of `sink` in `d`; returns rc. */
int evi_sink_failed(ev_diag *d, const ev_sink *sink, int rc);

/* Empties `b` and begins a block of `cap`, stamped with its events'
 * times. What `b` held is dropped: close a block to write it. */
void evi_block_begin(evi_block *b, uint16_t cap);

/* The same, for a block whose first piece starts at `start` and whose
 * last ends at `end`, whatever its events' times. */
void evi_block_begin_times(evi_block *b, uint16_t cap, uint64_t start,
			   uint64_t end);

/* The same, for a block whose marker is `marker` as read (a
 * BLOCK_MARKER; a log may declare it variable-size), of at most
 * max_block bytes with its events. */
void evi_block_begin_marker(evi_block *b, const evi_wire_event *marker);

/* Writes what `b` holds as a piece (`last`: the block's last). */
int evi_block_flush(evi_block *b, int last);

/* Ends the block of `b`: its last piece is written if it has events or
 * given times. `b` stays for its cap, empty, stamped by its events. */
int evi_block_close(evi_block *b);

/* Writes the block begun with a marker as read: the marker as it is, or
 * with `restamp` its start, size (the bytes held: evi_block_bytes) and
 * end rewritten, then the events. The marker stays, so events added next
 * make a further piece of the same block. */
int evi_block_write(evi_block *b, int restamp, uint64_t start,
		    uint64_t end);

/* Closes the block of `b` and begins one of `cap` (evi_block_put). */
int evi_block_switch(evi_block *b, uint16_t cap);

/* Makes room for `ev` at the end of the block of `b`, writing the full
 * piece first (see the top), and encodes its head there: where its
 * payload goes, or NULL on a failure of the sink (ev_writer_diag says).
 * Always inline, as evi_block_add: merge and the sorter add every event
 * through them, and GCC, left to itself, calls them from merge (7% more
 * instructions). */
static inline __attribute__((always_inline)) uint8_t *
evi_block_head(evi_block *b, const evi_wire_event *ev)
{
	size_t bytes = evi_wire_len(ev);
	uint8_t *at;

	if (b->len + bytes > b->room && b->len && evi_block_flush(b, 0) < 0)
		return NULL;
	at = b->events + b->len;
	if (ev->time < b->min)
		b->min = ev->time;
	if (ev->time > b->max)
		b->max = ev->time;
	b->len += bytes;
	b->count++;
	return at + evi_wire_put_head(at, ev->type, ev->time, ev->variable,
				      ev->size);
}

/* Adds `ev` at the end of the block of `b`: evi_block_head, then its
 * payload. Returns where the payload went, for the owner to rewrite in
 * place (merge renumbers identifiers there), or NULL on a failure. */
static inline __attribute__((always_inline)) uint8_t *
evi_block_add(evi_block *b, const evi_wire_event *ev)
{
	uint8_t *at = evi_block_head(b, ev);

	if (at)
		evi_copy_short(at, ev->payload, ev->size);
	return at;
}

/* Adds `ev` with a payload of zeros (`ev->payload` unused), for the owner
 * to fill in place at the pointer returned (NULL: a failure). */
static inline uint8_t *evi_block_add_zeros(evi_block *b,
					   const evi_wire_event *ev)
{
	uint8_t *at = evi_block_head(b, ev);

	if (at)
		memset(at, 0, ev->size);
	return at;
}

/* Adds `ev` as an event of `cap`: a block of another cap is closed first
 * (re-blocking: each run of one capability's events is a block). */
static inline int evi_block_put(evi_block *b, uint16_t cap,
				const evi_wire_event *ev)
{
	int rc;

	if (cap != b->cap && (rc = evi_block_switch(b, cap)) < 0)
		return rc;
	return evi_block_add(b, ev) ? EV_OK : b->diag->status;
}

/* A run of `n` consecutive events of capability `cap` in their wire form
 * (`len` bytes at `p`, encoded under the output's header), stamped from
 * `first` to `last`. `closes`: the next event is another capability's, so
 * a block that holds this run ends with it. */
typedef struct evi_run {
	const uint8_t *p;
	size_t len;
	uint64_t n, first, last;
	uint16_t cap;
	int closes;
} evi_run;

/* Adds `run` as evi_block_put would its events one by one (a run that
 * closes a block of its own goes with its marker straight to the sink):
 * 1 when it did, 0 when that would need more than copying the bytes (the
 * run does not fit the block), or a failure. */
int evi_block_put_run(evi_block *b, const evi_run *run);

/* Nonzero when `bytes` more fit the current piece of `b`. */
static inline int evi_block_fits(const evi_block *b, size_t bytes)
{
	return b->len + bytes <= b->room;
}

/* Bytes of the current piece, marker included. */
static inline size_t evi_block_bytes(const evi_block *b)
{
	return b->marker_len + b->len;
}

/* The latest time of the events in the current piece of `b`. */
static inline uint64_t evi_block_latest(const evi_block *b)
{
	return b->max;
}

#endif
