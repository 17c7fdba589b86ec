/*
 * export reading in parallel (ev_exporter_visit, export_internal.h): for
 * a format that reads few event types (its ops' `reads`: speedscope, hp),
 * the workers of blocks.h's scan walk the log's blocks and pick the
 * events of those types, and of each block its earliest event, its
 * earliest that is not metadata and its latest; the caller's thread takes
 * the chunks back in file order and writes the picked events into a log
 * in an unnamed temporary file (re-blocked: a run of one capability's
 * events, a block), which the sorter then reads in place of the log.
 *
 * The output is the sequential path's byte for byte:
 * - the sorter hands events over by (time, offset in its file) (sort.c);
 *   the picked events keep the order of their offsets in the temporary
 *   log, so they come over in the order they come over from the log;
 * - the format acts on no event of a type it does not read, and reads of
 *   those at most the times of the first event, of the first that is not
 *   metadata and of the last (hp: where its profile starts and ends);
 *   each is the earliest (by time, then offset) of its kind, or the
 *   latest, in some block, and picked;
 * - the formats that pick name no event's offset in a failure (their
 *   limits, running out of memory);
 * - only a log of one session in blocks that the workers read whole is
 *   picked (blocks.h); any other log, one with a block the workers refuse
 *   (damage), and one whose pick failed (the temporary file, memory) is
 *   converted sequentially, from its start: nothing reached the format
 *   before the pick ended.
 *
 * Memory: the scan's 2 x threads chunks (blocks.h) and by slot the picks
 * of one chunk (24 bytes each), the writer's block; then the sorter's,
 * on the picked log.
 *
 * The serial part: writing the picked events, and the sorter and the
 * format on them (a few percent of the log's events for a profile).
 *
 * Layering: export.c -> this file -> lib/format's blocks, writer and
 * input, lib/io's temporary files.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blocks.h"
#include "export_internal.h"
#include "input.h"
#include "internal.h"
#include "tempfile.h"

/* A picked event: where it is in its block. */
typedef struct pick {
	uint64_t offset;
	uint64_t index; /* counted from the block's marker */
	size_t block;
} pick;

/* The picks of a slot's chunk, in file order. */
typedef struct pick_slot {
	pick *picks;
	size_t n, cap;
	uint64_t events; /* the chunk's, markers aside */
} pick_slot;

typedef struct pick_pass {
	const evi_blocks *b;
	uint8_t *reads;  /* by type: the format reads it */
	pick_slot *slots;
} pick_pass;

/* The earliest or latest event of a kind in a block. */
typedef struct block_end {
	int have;
	uint64_t time;
	pick at;
} block_end;

static void end_set(block_end *e, const ev_event *ev, size_t block)
{
	e->have = 1;
	e->time = ev->time;
	e->at = (pick){ ev->offset, ev->index, block };
}

/* Offsets grow in a block: the earliest of equal times is the first
 * seen, the latest the last. */
static void note_ends(block_end ends[3], const ev_event *ev, size_t block)
{
	if (!ends[0].have || ev->time < ends[0].time)
		end_set(&ends[0], ev, block);
	if (!evi_type_is_metadata(ev->type) &&
	    (!ends[1].have || ev->time < ends[1].time))
		end_set(&ends[1], ev, block);
	if (!ends[2].have || ev->time >= ends[2].time)
		end_set(&ends[2], ev, block);
}

static int add_pick(pick_slot *sl, const pick *p, size_t at)
{
	if (evi_grow((void **)&sl->picks, &sl->cap, sl->n + 1,
		     sizeof *sl->picks) < 0)
		return EV_ENOMEM;
	memmove(&sl->picks[at + 1], &sl->picks[at],
		(sl->n - at) * sizeof *sl->picks);
	sl->picks[at] = *p;
	sl->n++;
	return EV_OK;
}

/* A block's end among its picks, from `from` on, in offset order, unless
 * it is picked already. */
static int add_end(pick_slot *sl, size_t from, const block_end *e)
{
	size_t lo = from, hi = sl->n;

	if (!e->have)
		return EV_OK;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sl->picks[mid].offset < e->at.offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < sl->n && sl->picks[lo].offset == e->at.offset)
		return EV_OK;
	return add_pick(sl, &e->at, lo);
}

/* A worker: the events of one block the format reads, and its ends. The
 * slot is worked on in a copy: the slots' array is shared by the
 * workers, whose cache lines it would pass to and fro at every pick. */
static int pick_block(void *ctx, const evi_chunk *chunk, size_t block,
		      unsigned worker)
{
	pick_pass *pass = ctx;
	pick_slot sl = pass->slots[chunk->slot];
	block_end ends[3] = { { 0 } };
	evi_block_cursor c;
	ev_event ev;
	uint64_t events = 0;
	size_t from;
	int rc;

	(void)worker;
	if (block == chunk->first) {
		sl.n = 0;
		sl.events = 0;
	}
	from = sl.n;
	evi_block_cursor_init_chunk(&c, pass->b, chunk, block);
	if (evi_block_next(&c, &ev) != 1)
		return EV_EFORMAT; /* no marker: the finder saw one */
	while ((rc = evi_block_next(&c, &ev)) == 1) {
		pick p = { ev.offset, ev.index, block };
		events++;
		note_ends(ends, &ev, block);
		if (pass->reads[ev.type] && add_pick(&sl, &p, sl.n) < 0)
			break;
	}
	if (rc == 0)
		for (int i = 0; rc == 0 && i < 3; i++)
			rc = add_end(&sl, from, &ends[i]);
	sl.events += events;
	pass->slots[chunk->slot] = sl; /* its arrays, grown, kept */
	if (rc == 1 || rc == EV_ENOMEM)
		return EV_ENOMEM;
	return rc == 0 ? EV_OK : EV_EFORMAT;
}

/* The caller: a chunk's picks, read again from its bytes, written. */
static int write_picks(const pick_pass *pass, const evi_chunk *chunk,
		       const pick_slot *sl, ev_writer *w)
{
	for (size_t i = 0; i < sl->n; i++) {
		const pick *p = &sl->picks[i];
		evi_block_cursor c;
		ev_event ev;
		int rc;

		evi_block_cursor_init_chunk(&c, pass->b, chunk, p->block);
		c.pos = p->offset;
		c.index = p->index;
		if (evi_block_next(&c, &ev) != 1)
			return EV_EINVAL; /* a worker read it: cannot be */
		if ((rc = ev_writer_write(w, &ev)) < 0)
			return rc;
	}
	return EV_OK;
}

/* Every chunk in file order, its picks written; the events counted. */
static int take_chunks(pick_pass *pass, evi_blocks_scan *s, ev_writer *w,
		       uint64_t *events)
{
	const evi_chunk *chunk;
	int rc;

	while ((rc = evi_blocks_scan_next(s, &chunk)) == 1) {
		const pick_slot *sl = &pass->slots[chunk->slot];
		if (chunk->refused)
			return EV_EFORMAT;
		if ((rc = write_picks(pass, chunk, sl, w)) < 0)
			return rc;
		*events += sl->events;
	}
	return rc;
}

static int run_scan(pick_pass *pass, unsigned threads, ev_writer *w,
		    uint64_t *events)
{
	evi_blocks_scan *s;
	unsigned slots;
	int rc = evi_blocks_scan_open(&s, pass->b, threads, pick_block, pass);

	if (rc != EV_OK)
		return rc;
	slots = evi_blocks_scan_slots(s);
	if (!(pass->slots = calloc(slots, sizeof *pass->slots)))
		rc = EV_ENOMEM;
	if (rc == EV_OK)
		rc = take_chunks(pass, s, w, events);
	evi_blocks_scan_free(s); /* the workers stop before the slots go */
	for (unsigned i = 0; pass->slots && i < slots; i++)
		free(pass->slots[i].picks);
	free(pass->slots);
	return rc;
}

/* The picked events of `b` written to the temporary file `fd` as a log:
 * EV_OK and *left, the events left out. */
static int write_picked(ev_exporter *x, const evi_blocks *b, int fd,
			uint64_t *left)
{
	ev_writer_options wo = EV_WRITER_OPTIONS_INIT;
	pick_pass pass = { b, NULL, NULL };
	ev_sink *sink = NULL;
	ev_writer *w = NULL;
	uint64_t events = 0;
	int rc;

	wo.mode = EV_WRITE_REBLOCK;
	if (!(pass.reads = malloc(EV_ID_COUNT)))
		return EV_ENOMEM;
	for (size_t t = 0; t < EV_ID_COUNT; t++)
		pass.reads[t] = (uint8_t)(x->ops->reads((uint16_t)t) != 0);
	if ((rc = ev_sink_open_fd(&sink, fd, "", NULL)) == EV_OK &&
	    (rc = ev_writer_open(&w, sink, b->header, &wo, NULL)) == EV_OK &&
	    (rc = run_scan(&pass, x->threads, w, &events)) == EV_OK &&
	    (rc = ev_writer_finish(w)) == EV_OK)
		rc = ev_sink_commit(sink);
	if (rc == EV_OK)
		*left = events - ev_writer_events(w);
	ev_writer_free(w);
	ev_sink_free(sink); /* a descriptor's sink: fd stays open */
	free(pass.reads);
	return rc;
}

int evi_export_pick(ev_exporter *x, ev_input *in, ev_input **picked,
		    uint64_t *left)
{
	ev_reader *r = NULL;
	evi_blocks *b = NULL;
	ev_diag d;
	int fd = -1, rc = EV_END;

	*picked = NULL;
	if (x->threads < 2 || !x->ops->reads ||
	    evi_input_reader(in, 0, &r, &d) < 0 ||
	    evi_blocks_open(&b, r) != EV_OK ||
	    evi_temp_open(x->opts.tmpdir, &fd, &d) < 0)
		rc = EV_END;
	else if ((rc = write_picked(x, b, fd, left)) == EV_OK)
		rc = evi_input_fd(picked, fd, ev_input_name(in));
	else
		close(fd);
	evi_blocks_free(b);
	ev_reader_free(r);
	return rc == EV_OK ? EV_OK : EV_END;
}
