/*
 * The writer's blocks filled in place (writer_internal.h): slots, which
 * merge fills and the writer frames with a fresh marker, and the held
 * block, which repair fills behind the marker it read and the writer
 * writes as it is or restamped (doc/format.md section 2).
 */
#include <stdlib.h>

#include "writer_internal.h"

evi_slot *evi_writer_slot(ev_writer *w, unsigned i, uint32_t max_block)
{
	evi_slot *s = w->slots[i];
	size_t room = max_block - EVI_BLOCK_EVENT;

	if (s)
		return s;
	/* One event of any size fits an empty slot (a block of its own). */
	if (!(s = calloc(1, sizeof *s)) ||
	    !(s->buf = malloc(room + EVI_VAR_HEADER + UINT16_MAX))) {
		free(s);
		return NULL;
	}
	s->w = w;
	s->room = room;
	s->cap = EV_NO_CAP;
	w->slots[i] = s;
	return s;
}

void evi_slot_begin(evi_slot *s, uint16_t cap, int marker_times,
		    uint64_t start, uint64_t end)
{
	s->cap = cap;
	s->marker_times = marker_times;
	s->start = start;
	s->end = end;
	s->pieces = 0;
	s->has_events = 0;
	s->len = 0;
}

/* The marker, then the events. */
int evi_slot_flush(evi_slot *s, int last)
{
	uint64_t start = s->marker_times && s->pieces == 0 ? s->start : s->min;
	uint64_t end = s->marker_times && last ? s->end : s->max;
	int rc = evi_writer_marker(s->w, s->cap, start, end,
				   EVI_BLOCK_EVENT + s->len);

	if (rc == EV_OK && s->len &&
	    (rc = ev_sink_write(s->w->sink, s->buf, s->len)) < 0)
		evi_writer_sink_failed(s->w, rc);
	s->len = 0;
	s->pieces++;
	s->has_events = 0;
	return rc < 0 ? rc : EV_OK;
}

int evi_slot_close(evi_slot *s)
{
	int rc = EV_OK;

	if (s->has_events || s->marker_times)
		rc = evi_slot_flush(s, 1);
	evi_slot_begin(s, s->cap, 0, 0, 0);
	return rc;
}

int evi_writer_hold_open(ev_writer *w, const ev_event *marker, size_t wire)
{
	evi_hold *h = &w->hold;

	if (!h->bytes && !(h->bytes = malloc(EV_MAX_BLOCK_SIZE)))
		return EV_ENOMEM;
	h->payload_at = wire - marker->size;
	h->marker_len = evi_wire_put_event(h->bytes, marker,
					   h->payload_at == EVI_VAR_HEADER);
	h->len = h->marker_len;
	return EV_OK;
}

int evi_writer_hold_close(ev_writer *w, int restamp, uint64_t start,
			  uint64_t end)
{
	evi_hold *h = &w->hold;
	int rc;

	if (restamp)
		evi_wire_set_marker(h->bytes, h->payload_at,
				    start, (uint32_t)h->len, end);
	rc = ev_sink_write(w->sink, h->bytes, h->len);
	h->len = h->marker_len;
	return rc < 0 ? evi_writer_sink_failed(w, rc) : EV_OK;
}
