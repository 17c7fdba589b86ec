/*
 * The writer: a header, events, block markers and the data-end marker
 * (doc/format.md sections 1 and 2).
 */
#include "evtool/writer.h"

#include <stdlib.h>
#include <string.h>

#include "evtool/catalog.h"
#include "internal.h"
#include "wire.h"
#include "writer_internal.h"

static const char block_marker_desc[] = "Block marker";

static int32_t wire_size(const ev_writer *w, uint16_t type)
{
	return evi_wire_size(&w->wire, type);
}

/* Re-blocked output needs BLOCK_MARKER declared with its 14-byte payload
 * (doc/format.md section 2) even if the input lacked it (a 6.12 STARTUP-only
 * log, or a header built by hand) or declared another size (a damaged
 * header: markers written under it would not read back). The input's
 * own type-18 events are dropped when re-blocking, so the declaration is
 * replaced where it stands in the header. */
static int declare_block_marker(ev_header **h)
{
	const ev_type_decl *t = ev_header_find(*h, EV_BLOCK_MARKER);
	ev_header *fixed;
	int rc;

	if (!t)
		return ev_header_add(*h, EV_BLOCK_MARKER, EVI_BLOCK_PAYLOAD,
				     block_marker_desc,
				     sizeof block_marker_desc - 1, NULL, 0);
	if (t->size == (int32_t)EVI_BLOCK_PAYLOAD)
		return EV_OK;
	if ((rc = ev_header_new(&fixed, NULL)) < 0)
		return rc;
	for (size_t i = 0; rc == EV_OK && i < ev_header_count(*h); i++) {
		t = ev_header_at(*h, i);
		rc = ev_header_add(fixed, t->id,
				   t->id == EV_BLOCK_MARKER
					   ? (int32_t)EVI_BLOCK_PAYLOAD
					   : t->size,
				   t->desc, t->desc_len, t->extra,
				   t->extra_len);
	}
	if (rc < 0) {
		ev_header_free(fixed);
		return rc;
	}
	ev_header_free(*h);
	*h = fixed;
	return EV_OK;
}

static int write_header(ev_writer *w)
{
	size_t n = ev_header_encoded_size(w->header);
	uint8_t *bytes = malloc(n);
	int rc;

	if (!bytes)
		return EV_ENOMEM;
	ev_header_encode(w->header, bytes);
	rc = ev_sink_write(w->sink, bytes, n);
	free(bytes);
	return rc;
}

/* Copies the session's header and writes it; the block buffer is made
 * once, for the first session. */
static int setup(ev_writer *w, const ev_header *header,
		 const ev_writer_options *opts)
{
	int rc;

	ev_header_free(w->header);
	w->header = NULL;
	rc = ev_header_copy(&w->header, header);
	if (rc == EV_OK && w->mode == EV_WRITE_REBLOCK) {
		if (!w->block) {
			w->max_block = opts && opts->max_block_size
					       ? opts->max_block_size
					       : EV_MAX_BLOCK_SIZE;
			if (w->max_block <= EVI_BLOCK_EVENT)
				return EV_EINVAL;
			w->block = malloc(w->max_block);
		}
		rc = w->block ? declare_block_marker(&w->header) : EV_ENOMEM;
	}
	if (rc == EV_OK)
		evi_wire_table_init(&w->wire, w->header);
	return rc == EV_OK ? write_header(w) : rc;
}

int ev_writer_open(ev_writer **out, ev_sink *sink, const ev_header *header,
		   const ev_writer_options *opts, ev_diag *diag)
{
	ev_writer *w;
	int rc;

	*out = NULL;
	if (opts && opts->version != EV_WRITER_OPTIONS_VERSION)
		return evi_options_failed(diag, "writer", opts->version,
					  EV_WRITER_OPTIONS_VERSION);
	if (!(w = calloc(1, sizeof *w)))
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	w->sink = sink;
	w->mode = opts ? opts->mode : EV_WRITE_PRESERVE;
	if ((rc = setup(w, header, opts)) < 0) {
		/* the header's write failed in the sink, or the block size
		 * or memory did */
		if (rc == EV_EINVAL)
			evi_fail_at(diag, EV_ORIGIN_OPTIONS, rc, 0, 0,
				    "blocks of %u bytes hold no event",
				    w->max_block);
		else
			evi_new_failed(diag, ev_sink_diag(sink), rc);
		ev_writer_free(w);
		return rc;
	}
	*out = w;
	return EV_OK;
}

int ev_writer_next_session(ev_writer *w, const ev_header *header)
{
	w->block_open = 0;
	w->block_len = 0;
	return setup(w, header, NULL);
}

/* What writer_slot.c made: the slots and the held block. */
static void free_slots(ev_writer *w)
{
	for (unsigned i = 0; i < EVI_WRITER_SLOTS; i++) {
		if (w->slots[i])
			free(w->slots[i]->buf);
		free(w->slots[i]);
	}
	free(w->hold.bytes);
}

void ev_writer_free(ev_writer *w)
{
	if (!w)
		return;
	ev_header_free(w->header);
	free(w->block);
	free_slots(w);
	free(w);
}

static int check_event(ev_writer *w, const ev_event *ev, int32_t wire)
{
	if (wire == EVI_UNDECLARED)
		return evi_fail(&w->diag, EV_EINVAL, ev_sink_bytes(w->sink),
				w->events,
				"event type %u is not declared in the output "
				"header", ev->type);
	if (wire == EV_SIZE_VARIABLE ? ev->size > UINT16_MAX
				     : ev->size != (uint32_t)wire)
		return evi_fail(&w->diag, EV_EINVAL, ev_sink_bytes(w->sink),
				w->events,
				"event type %u has a %u-byte payload; the output "
				"header says %d", ev->type, ev->size, wire);
	return EV_OK;
}

static int sink_failed(ev_writer *w, int rc)
{
	w->diag = *ev_sink_diag(w->sink);
	w->diag.status = rc;
	return rc;
}

int evi_writer_sink_failed(ev_writer *w, int rc)
{
	return sink_failed(w, rc);
}

/* Encodes the event straight into the sink's buffer: one copy. */
static int write_direct(ev_writer *w, const ev_event *ev, int variable)
{
	size_t head = variable ? EVI_VAR_HEADER : EVI_EVENT_HEADER;
	uint8_t *at = evi_sink_reserve(w->sink, head + ev->size);

	if (!at)
		return sink_failed(w, ev_sink_diag(w->sink)->status);
	evi_wire_put_head(at, ev->type, ev->time, variable, ev->size);
	if (ev->size)
		memcpy(at + head, ev->payload, ev->size);
	return EV_OK;
}

static int write_marker(ev_writer *w, uint16_t cap, uint64_t first,
			uint64_t last, size_t size)
{
	uint8_t marker[EVI_BLOCK_EVENT];
	int rc;

	evi_wire_put_marker(marker, first, (uint32_t)size, last, cap);
	rc = ev_sink_write(w->sink, marker, sizeof marker);
	return rc < 0 ? sink_failed(w, rc) : EV_OK;
}

int evi_writer_marker(ev_writer *w, uint16_t cap, uint64_t first,
		      uint64_t last, size_t size)
{
	return write_marker(w, cap, first, last, size);
}

/* Writes the open block: its marker (size including the marker itself,
 * stamped with the earliest time, ending at the latest), then its events.
 * A small block (in sorted output, blocks of a few events are the rule)
 * is encoded straight into the sink's buffer, marker and all. */
static int flush_block(ev_writer *w)
{
	size_t size = w->block_len + EVI_BLOCK_EVENT;
	uint8_t *at;
	int rc;

	if (!w->block_open)
		return EV_OK;
	w->block_open = 0;
	w->block_len = 0;
	if (size <= EVI_SINK_RESERVE_MAX) {
		if (!(at = evi_sink_reserve(w->sink, size)))
			return sink_failed(w, ev_sink_diag(w->sink)->status);
		evi_wire_put_marker(at, w->block_first, (uint32_t)size,
				    w->block_last, w->block_cap);
		memcpy(at + EVI_BLOCK_EVENT, w->block, size - EVI_BLOCK_EVENT);
		return EV_OK;
	}
	rc = write_marker(w, w->block_cap, w->block_first, w->block_last,
			  size);
	if (rc == EV_OK)
		rc = ev_sink_write(w->sink, w->block, size - EVI_BLOCK_EVENT);
	return rc < 0 ? sink_failed(w, rc) : EV_OK;
}

static void open_block(ev_writer *w, const ev_event *ev)
{
	w->block_open = 1;
	w->block_cap = ev->cap;
	w->block_first = ev->time;
	w->block_last = ev->time;
}

static int write_blocked(ev_writer *w, const ev_event *ev, int variable)
{
	size_t bytes = (variable ? EVI_VAR_HEADER : EVI_EVENT_HEADER) + ev->size;
	int rc;

	if (w->block_open && (ev->cap != w->block_cap ||
			      EVI_BLOCK_EVENT + w->block_len + bytes >
				      w->max_block))
		if ((rc = flush_block(w)) < 0)
			return rc;
	if (EVI_BLOCK_EVENT + bytes > w->max_block) {
		/* Larger than the block size asked for: a block of its own. */
		rc = write_marker(w, ev->cap, ev->time, ev->time,
				  EVI_BLOCK_EVENT + bytes);
		return rc < 0 ? rc : write_direct(w, ev, variable);
	}
	if (!w->block_open)
		open_block(w, ev);
	if (ev->time < w->block_first)
		w->block_first = ev->time;
	if (ev->time > w->block_last)
		w->block_last = ev->time;
	w->block_len += evi_wire_put_head(w->block + w->block_len, ev->type,
					  ev->time, variable, ev->size);
	if (ev->size)
		memcpy(w->block + w->block_len, ev->payload, ev->size);
	w->block_len += ev->size;
	return EV_OK;
}

int ev_writer_write(ev_writer *w, const ev_event *ev)
{
	int32_t wire = wire_size(w, ev->type);
	int rc;

	/* Re-blocking drops the input's markers before checking them: their
	 * declaration may have been replaced (declare_block_marker). */
	if (w->mode == EV_WRITE_REBLOCK && ev->type == EV_BLOCK_MARKER)
		return EV_OK;
	if ((rc = check_event(w, ev, wire)) < 0)
		return rc;
	if (w->mode == EV_WRITE_REBLOCK) {
		rc = write_blocked(w, ev, wire == EV_SIZE_VARIABLE);
	} else {
		rc = write_direct(w, ev, wire == EV_SIZE_VARIABLE);
	}
	if (rc == EV_OK && ev->type != EV_BLOCK_MARKER)
		w->events++; /* markers are framing, not events */
	return rc;
}

/* evi_writer_copy when the event may not go at the end of the open block
 * as it is: no block open, another capability's, full, a variable size,
 * a type that needs checking. */
static __attribute__((noinline)) int copy_slow(ev_writer *w,
					       const ev_event *ev)
{
	int32_t wire = wire_size(w, ev->type);
	size_t head = wire == EV_SIZE_VARIABLE ? EVI_VAR_HEADER
					       : EVI_EVENT_HEADER;
	size_t bytes = head + ev->size;

	if (w->mode != EV_WRITE_REBLOCK || ev->type == EV_BLOCK_MARKER ||
	    wire == EVI_UNDECLARED ||
	    (wire != EV_SIZE_VARIABLE && ev->size != (uint32_t)wire) ||
	    EVI_BLOCK_EVENT + bytes > w->max_block)
		return ev_writer_write(w, ev);
	if (w->block_open && (ev->cap != w->block_cap ||
			      EVI_BLOCK_EVENT + w->block_len + bytes >
				      w->max_block)) {
		int rc = flush_block(w);
		if (rc < 0)
			return rc;
	}
	if (!w->block_open) {
		open_block(w, ev);
	} else {
		if (ev->time < w->block_first)
			w->block_first = ev->time;
		if (ev->time > w->block_last)
			w->block_last = ev->time;
	}
	memcpy(w->block + w->block_len, ev->payload - head, bytes);
	w->block_len += bytes;
	w->events++;
	return EV_OK;
}

int evi_writer_copy(ev_writer *w, const ev_event *ev)
{
	size_t bytes = EVI_EVENT_HEADER + ev->size;

	if (ev->type >= EVI_SMALL_IDS || w->wire.small[ev->type] < 0 ||
	    ev->size != (uint32_t)w->wire.small[ev->type] ||
	    ev->type == EV_BLOCK_MARKER || !w->block_open ||
	    ev->cap != w->block_cap ||
	    EVI_BLOCK_EVENT + w->block_len + bytes > w->max_block ||
	    w->mode != EV_WRITE_REBLOCK)
		return copy_slow(w, ev);
	if (ev->time < w->block_first)
		w->block_first = ev->time;
	if (ev->time > w->block_last)
		w->block_last = ev->time;
	evi_copy_short(w->block + w->block_len, ev->payload - EVI_EVENT_HEADER,
		   bytes);
	w->block_len += bytes;
	w->events++;
	return EV_OK;
}

int evi_writer_copy_run(ev_writer *w, const evi_run *run)
{
	size_t size = EVI_BLOCK_EVENT + run->len;
	uint8_t *at;
	int rc;

	if (w->mode != EV_WRITE_REBLOCK)
		return 0;
	if (w->block_open && (run->cap != w->block_cap ||
			      EVI_BLOCK_EVENT + w->block_len + run->len >
				      w->max_block)) {
		/* The same capability's block would fill up inside the run:
		 * only event by event says where it is cut. */
		if (run->cap == w->block_cap)
			return 0;
		if ((rc = flush_block(w)) < 0)
			return rc;
	}
	if (size > w->max_block)
		return 0;
	if (!w->block_open && run->closes && size <= EVI_SINK_RESERVE_MAX) {
		/* A whole block (in sorted output of capabilities taking
		 * turns, most are): the bytes flush_block would write, with
		 * one copy. */
		if (!(at = evi_sink_reserve(w->sink, size)))
			return sink_failed(w, ev_sink_diag(w->sink)->status);
		evi_wire_put_marker(at, run->first, (uint32_t)size, run->last,
				    run->cap);
		memcpy(at + EVI_BLOCK_EVENT, run->p, run->len);
		w->events += run->n;
		return 1;
	}
	if (!w->block_open) {
		w->block_open = 1;
		w->block_cap = run->cap;
		w->block_first = run->first;
		w->block_last = run->last;
	} else {
		if (run->first < w->block_first)
			w->block_first = run->first;
		if (run->last > w->block_last)
			w->block_last = run->last;
	}
	memcpy(w->block + w->block_len, run->p, run->len);
	w->block_len += run->len;
	w->events += run->n;
	return 1;
}

int evi_writer_copy_bytes(ev_writer *w, const uint8_t *p, size_t len,
			  uint64_t events)
{
	int rc = ev_sink_write(w->sink, p, len);

	if (rc < 0)
		return sink_failed(w, rc);
	w->events += events;
	return EV_OK;
}

int ev_writer_finish(ev_writer *w)
{
	uint8_t end[2];
	int rc = flush_block(w);

	if (rc < 0)
		return rc;
	rc = ev_sink_write(w->sink, end, evi_wire_put_data_end(end));
	return rc < 0 ? sink_failed(w, rc) : EV_OK;
}

uint64_t ev_writer_events(const ev_writer *w)
{
	return w->events;
}

const ev_diag *ev_writer_diag(const ev_writer *w)
{
	return &w->diag;
}
