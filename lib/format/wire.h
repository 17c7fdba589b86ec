/*
 * The event wire (doc/format.md section 1): the one place that encodes an
 * event head (u16 type, u64 time, [u16 length for a variable-size type])
 * and its payload, the block marker, and the one table of payload sizes on
 * the wire by type id. Big-endian throughout. The encoders are inline: the
 * writer's and the sorter's hot paths call them for every event.
 */
#ifndef EVTOOL_LIB_FORMAT_WIRE_H
#define EVTOOL_LIB_FORMAT_WIRE_H

#include <stdint.h>
#include <string.h>

#include "evtool/header.h"
#include "evtool/reader.h"
#include "internal.h"

#define EVI_UNDECLARED INT32_MIN
#define EVI_SMALL_IDS 256

/* Payload sizes on the wire by type id (the header's wire_size), cached
 * for ids below EVI_SMALL_IDS; EVI_UNDECLARED for an undeclared type. */
typedef struct evi_wire_table {
	const ev_header *header;
	int32_t small[EVI_SMALL_IDS];
} evi_wire_table;

/* Fills `t` from `h`, which must outlive it. */
void evi_wire_table_init(evi_wire_table *t, const ev_header *h);

static inline int32_t evi_wire_size(const evi_wire_table *t, uint16_t type)
{
	const ev_type_decl *d;

	if (type < EVI_SMALL_IDS)
		return t->small[type];
	d = ev_header_find(t->header, type);
	return d ? d->wire_size : EVI_UNDECLARED;
}

/* A big-endian u16 store in one instruction and a rotate: GCC stores
 * ev_store16's two bytes one by one, and the head of every event written
 * has one or two. */
static inline void evi_wire_store16(uint8_t *out, uint16_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap16(v);
	memcpy(out, &v, sizeof v);
#else
	ev_store16(out, v);
#endif
}

/* Stores an event head at `out`: type, time and, if `variable`, the
 * payload length. Returns the bytes used. */
static inline size_t evi_wire_put_head(uint8_t *out, uint16_t type,
				       uint64_t time, int variable,
				       uint32_t size)
{
	evi_wire_store16(out, type);
	ev_store64(out + 2, time);
	if (!variable)
		return EVI_EVENT_HEADER;
	evi_wire_store16(out + EVI_EVENT_HEADER, (uint16_t)size);
	return EVI_VAR_HEADER;
}

/* Stores `ev` (head and payload) at `out`; returns the bytes used. */
static inline size_t evi_wire_put_event(uint8_t *out, const ev_event *ev,
					int variable)
{
	size_t head = evi_wire_put_head(out, ev->type, ev->time, variable,
					ev->size);

	if (ev->size)
		memcpy(out + head, ev->payload, ev->size);
	return head + ev->size;
}

/*
 * An event as the writer's block builder takes it (writer_block.h): the
 * fields of its head and where its payload is, all explicit, so that no
 * caller relies on where a head sits in memory. `variable`: its type is
 * variable-size in the output's header, so its head carries `size`
 * (EVI_VAR_HEADER bytes rather than EVI_EVENT_HEADER).
 */
typedef struct evi_wire_event {
	const uint8_t *payload;
	uint64_t time;
	uint32_t size;
	uint16_t type;
	uint8_t variable;
} evi_wire_event;

/* `ev` as a wire event of a `variable`-size type. */
static inline evi_wire_event evi_wire_event_of(const ev_event *ev,
					       int variable)
{
	evi_wire_event w = { ev->payload, ev->time, ev->size, ev->type,
			     (uint8_t)variable };
	return w;
}

/* The bytes `ev` takes on the wire, head included. */
static inline size_t evi_wire_len(const evi_wire_event *ev)
{
	return (ev->variable ? EVI_VAR_HEADER : EVI_EVENT_HEADER) + ev->size;
}

/* Stores a BLOCK_MARKER event (EVI_BLOCK_EVENT bytes) at `out`: its start
 * time, then the payload u32 size (including the marker), u64 end time,
 * u16 cap (doc/format.md section 2). */
static inline void evi_wire_put_marker(uint8_t *out, uint64_t start,
				       uint32_t size, uint64_t end,
				       uint16_t cap)
{
	evi_wire_put_head(out, EV_BLOCK_MARKER, start, 0, 0);
	ev_store32(out + EVI_EVENT_HEADER, size);
	ev_store64(out + EVI_EVENT_HEADER + 4, end);
	ev_store16(out + EVI_EVENT_HEADER + 12, cap);
}

/* Rewrites the start time, size and end time of the marker at `out`, whose
 * head is `head` bytes long (a log may declare the marker variable-size). */
static inline void evi_wire_set_marker(uint8_t *out, size_t head,
				       uint64_t start, uint32_t size,
				       uint64_t end)
{
	ev_store64(out + 2, start);
	ev_store32(out + head, size);
	ev_store64(out + head + 4, end);
}

/* Stores the data-end marker (in place of an event type); returns the
 * bytes used. */
static inline size_t evi_wire_put_data_end(uint8_t out[2])
{
	ev_store16(out, EVI_DATA_END);
	return 2;
}

#endif
