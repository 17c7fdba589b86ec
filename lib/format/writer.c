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
#include "writer_block.h"

struct ev_writer {
	ev_sink *sink;
	ev_header *header;
	ev_write_mode mode;
	evi_wire_table wire;
	uint64_t events;      /* written directly (PRESERVE) */
	ev_diag diag;
	evi_block *block;     /* REBLOCK: the block being built */
	evi_block *blocks;    /* every builder of this writer, `block` too */
};

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
		return evi_header_add(*h, EV_BLOCK_MARKER, EVI_BLOCK_PAYLOAD,
				     block_marker_desc,
				     sizeof block_marker_desc - 1, NULL, 0);
	if (t->size == (int32_t)EVI_BLOCK_PAYLOAD)
		return EV_OK;
	if ((rc = evi_header_new(&fixed, NULL)) < 0)
		return rc;
	for (size_t i = 0; rc == EV_OK && i < ev_header_count(*h); i++) {
		t = ev_header_at(*h, i);
		rc = evi_header_add(fixed, t->id,
				   t->id == EV_BLOCK_MARKER
					   ? (int32_t)EVI_BLOCK_PAYLOAD
					   : t->size,
				   t->desc, t->desc_len, t->extra,
				   t->extra_len);
	}
	if (rc < 0) {
		evi_header_free(fixed);
		return rc;
	}
	evi_header_free(*h);
	*h = fixed;
	return EV_OK;
}

static int write_header(ev_writer *w)
{
	size_t n = evi_header_encoded_size(w->header);
	uint8_t *bytes = malloc(n);
	int rc;

	if (!bytes)
		return EV_ENOMEM;
	evi_header_encode(w->header, bytes);
	rc = ev_sink_write(w->sink, bytes, n);
	free(bytes);
	return rc;
}

/* Copies the session's header and writes it; the block builder is made
 * once, for the first session. */
static int setup(ev_writer *w, const ev_header *header,
		 const ev_writer_options *opts)
{
	int rc;

	evi_header_free(w->header);
	w->header = NULL;
	rc = evi_header_copy(&w->header, header);
	if (rc == EV_OK && w->mode == EV_WRITE_REBLOCK) {
		if (!w->block) {
			uint32_t max = opts && opts->max_block_size
					       ? opts->max_block_size
					       : EV_MAX_BLOCK_SIZE;
			if (max <= EVI_BLOCK_EVENT)
				return EV_EINVAL;
			w->block = evi_writer_new_block(w, max);
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
				    opts ? opts->max_block_size : 0);
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
	if (w->block)
		evi_block_begin(w->block, EV_NO_CAP);
	return setup(w, header, NULL);
}

evi_block *evi_writer_new_block(ev_writer *w, uint32_t max_block)
{
	evi_block *b = evi_block_new(w->sink, &w->diag, max_block);

	if (b) {
		b->next = w->blocks;
		w->blocks = b;
	}
	return b;
}

evi_block *evi_writer_block(ev_writer *w)
{
	return w->block;
}

void ev_writer_free(ev_writer *w)
{
	evi_block *b, *next;

	if (!w)
		return;
	evi_header_free(w->header);
	for (b = w->blocks; b; b = next) {
		next = b->next;
		evi_block_free(b);
	}
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
	return evi_sink_failed(&w->diag, w->sink, rc);
}

/* Encodes the event straight into the sink's buffer: one copy. */
static int write_direct(ev_writer *w, const evi_wire_event *ev)
{
	uint8_t *at = evi_sink_reserve(w->sink, evi_wire_len(ev));

	if (!at)
		return sink_failed(w, ev_sink_diag(w->sink)->status);
	at += evi_wire_put_head(at, ev->type, ev->time, ev->variable,
				ev->size);
	if (ev->size)
		memcpy(at, ev->payload, ev->size);
	return EV_OK;
}

int ev_writer_write(ev_writer *w, const ev_event *ev)
{
	int32_t wire = wire_size(w, ev->type);
	evi_wire_event out;
	int rc;

	/* Re-blocking drops the input's markers before checking them: their
	 * declaration may have been replaced (declare_block_marker). */
	if (w->mode == EV_WRITE_REBLOCK && ev->type == EV_BLOCK_MARKER)
		return EV_OK;
	if ((rc = check_event(w, ev, wire)) < 0)
		return rc;
	out = evi_wire_event_of(ev, wire == EV_SIZE_VARIABLE);
	if (w->mode == EV_WRITE_REBLOCK)
		return evi_block_put(w->block, ev->cap, &out);
	if ((rc = write_direct(w, &out)) == EV_OK &&
	    ev->type != EV_BLOCK_MARKER)
		w->events++; /* markers are framing, not events */
	return rc;
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
	int rc = w->block ? evi_block_close(w->block) : EV_OK;

	if (rc < 0)
		return rc;
	rc = ev_sink_write(w->sink, end, evi_wire_put_data_end(end));
	return rc < 0 ? sink_failed(w, rc) : EV_OK;
}

uint64_t ev_writer_events(const ev_writer *w)
{
	uint64_t n = w->events;

	for (const evi_block *b = w->blocks; b; b = b->next)
		n += b->count;
	return n;
}

const ev_diag *ev_writer_diag(const ev_writer *w)
{
	return &w->diag;
}
