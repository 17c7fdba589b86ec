/*
 * The writer's state, shared by its two files: writer.c (the header, events
 * given one by one, re-blocking) and writer_slot.c (blocks that merge and
 * repair fill in place: reserve room, encode into it, commit). Every byte
 * of a log evtool writes goes through one ev_writer; the block markers and
 * the data-end marker are framed only here. Not installed.
 *
 * The struct is here rather than in internal.h because it holds an
 * evi_wire_table (wire.h, which includes internal.h). writer_slot.c calls
 * into writer.c, not the other way (ev_writer_free frees the slots).
 */
#ifndef EVTOOL_LIB_FORMAT_WRITER_INTERNAL_H
#define EVTOOL_LIB_FORMAT_WRITER_INTERNAL_H

#include "evtool/writer.h"
#include "internal.h"
#include "wire.h"

/* A block its owner fills in place (merge: the capability block being
 * copied, the global block being merged): evi_slot_reserve makes room at
 * the end (evi_slot_end), the owner encodes events there, evi_slot_commit
 * counts them.
 * When the room runs out the slot writes what it holds as one block, a
 * "piece", and goes on with an empty one of the same cap. A piece's
 * marker runs from its earliest event to its latest, except that a block
 * begun with marker times (copied whole) keeps its start in the first
 * piece and its end in the last. */
typedef struct evi_slot {
	ev_writer *w;
	uint16_t cap;
	int marker_times;
	uint64_t start;
	uint64_t end;
	unsigned pieces;     /* written for this block so far */
	int has_events;      /* in the current piece */
	uint64_t min;        /* their earliest and latest time */
	uint64_t max;
	size_t len;
	size_t room;         /* event bytes in one piece */
	uint8_t *buf;        /* room, plus one event of any size */
} evi_slot;

#define EVI_WRITER_SLOTS 2

/* A block held back until its owner (repair) knows it is complete: its
 * marker as read, then its events, written in one go by
 * evi_writer_hold_close with the marker as it is or restamped. */
typedef struct evi_hold {
	uint8_t *bytes;      /* EV_MAX_BLOCK_SIZE bytes, made on first use */
	size_t len;
	size_t marker_len;   /* bytes of the marker event, head included */
	size_t payload_at;   /* where its payload starts: after its head */
} evi_hold;

struct ev_writer {
	ev_sink *sink;
	ev_header *header;
	ev_write_mode mode;
	uint32_t max_block;
	evi_wire_table wire;
	uint64_t events;
	ev_diag diag;

	/* REBLOCK: the open block's events, encoded, after a marker gap. */
	uint8_t *block;
	size_t block_len;
	int block_open;
	uint16_t block_cap;
	uint64_t block_first;
	uint64_t block_last;

	/* Blocks filled in place (writer_slot.c). */
	evi_slot *slots[EVI_WRITER_SLOTS];
	evi_hold hold;
};

/* Records a failure of w's sink (status `rc`) as the writer's; returns rc. */
int evi_writer_sink_failed(ev_writer *w, int rc);

/* Writes a BLOCK_MARKER of `cap` for a block of `size` bytes, marker
 * included, from `first` to `last`. */
int evi_writer_marker(ev_writer *w, uint16_t cap, uint64_t first,
		      uint64_t last, size_t size);

/* ---- slots ---- */

/* Slot `i` (below EVI_WRITER_SLOTS) of `w`, made on first use for blocks
 * of at most `max_block` bytes, marker included, or of one larger event;
 * NULL when out of memory. It starts empty, without marker times, for
 * cap EV_NO_CAP. */
evi_slot *evi_writer_slot(ev_writer *w, unsigned i, uint32_t max_block);

/* Starts a block of `cap` in the empty slot `s`; with `marker_times`, it
 * starts at `start` and ends at `end` whatever its events' times. */
void evi_slot_begin(evi_slot *s, uint16_t cap, int marker_times,
		    uint64_t start, uint64_t end);

/* Writes what `s` holds as a piece (`last`: the block's last). */
int evi_slot_flush(evi_slot *s, int last);

/* Ends the block of `s`: its last piece is written if it has events or
 * marker times. `s` stays for its cap, empty, without marker times. */
int evi_slot_close(evi_slot *s);

/* Makes room for `len` more bytes at the end of `s`, writing the full
 * piece first: EV_OK, or a failure ev_writer_diag describes. (A status
 * rather than a pointer that may be NULL: merge runs this for every event,
 * and the test of the pointer would cost an instruction more.) */
static inline int evi_slot_reserve(evi_slot *s, size_t len)
{
	if (s->len + len > s->room && s->len)
		return evi_slot_flush(s, 0);
	return EV_OK;
}

/* Where the room reserved starts: the end of what `s` holds. */
static inline uint8_t *evi_slot_end(const evi_slot *s)
{
	return s->buf + s->len;
}

/* Counts `len` bytes encoded at the room reserved: an event at `time`. */
static inline void evi_slot_commit(evi_slot *s, size_t len, uint64_t time)
{
	if (!s->has_events || time < s->min)
		s->min = time;
	if (!s->has_events || time > s->max)
		s->max = time;
	s->has_events = 1;
	s->len += len;
}

/* The latest time of the events in the current piece of `s`. */
static inline uint64_t evi_slot_latest(const evi_slot *s)
{
	return s->max;
}

/* ---- the held block ---- */

/* Holds back a block starting with `marker`, a BLOCK_MARKER event of
 * `wire` bytes on the wire (a log may declare it variable-size), encoded
 * as it was read. Whatever was held before is dropped. */
int evi_writer_hold_open(ev_writer *w, const ev_event *marker, size_t wire);

/* Nonzero when `len` more bytes fit in the held block: EV_MAX_BLOCK_SIZE
 * bytes in all. */
static inline int evi_writer_hold_fits(const ev_writer *w, size_t len)
{
	return w->hold.len + len <= EV_MAX_BLOCK_SIZE;
}

/* Where bytes that fit go: the end of the held block. */
static inline uint8_t *evi_writer_hold_reserve(ev_writer *w)
{
	return w->hold.bytes + w->hold.len;
}

/* Counts `len` bytes encoded at the room reserved. */
static inline void evi_writer_hold_commit(ev_writer *w, size_t len)
{
	w->hold.len += len;
}

/* Bytes held, the marker included. */
static inline size_t evi_writer_hold_len(const ev_writer *w)
{
	return w->hold.len;
}

/* Writes the held block: as held, or with `restamp` its marker's start,
 * size (the bytes held) and end rewritten. Its marker stays held, so
 * events appended next make a further piece of the same block. */
int evi_writer_hold_close(ev_writer *w, int restamp, uint64_t start,
			  uint64_t end);

#endif
