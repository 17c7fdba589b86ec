/*
 * evtool: decoding an event's payload into named fields.
 *
 * The catalogue says how each type's payload is laid out (an ev_layout
 * per form of a payload); the decoder walks a payload along its layout and
 * hands back one value per field, borrowing the payload's bytes. Both the
 * ghc-events text of `evtool show` and its NDJSON are built on it.
 */
#ifndef EVTOOL_DECODE_H
#define EVTOOL_DECODE_H

#include "catalog.h"
#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One decoded field. */
typedef struct ev_value {
	const ev_field *field;
	uint64_t num;         /**< integer fields; the count of a U32_LIST */
	const uint8_t *bytes; /**< text, strings, list and byte fields: the
				   raw bytes, borrowed from the payload */
	uint32_t len;         /**< bytes at `bytes` (a TEXT_NUL's NUL not
				   counted) */
} ev_value;

/** The most fields any layout has. */
#define EV_MAX_FIELDS 12

/** A decoded payload. */
typedef struct ev_decoded {
	const ev_layout *layout; /**< NULL: the event is of an unknown form */
	unsigned n;              /**< fields present (a payload may stop
				      before its optional trailing fields) */
	ev_value values[EV_MAX_FIELDS];
} ev_decoded;

/**
 * Decodes `ev` by its catalogue layout. Returns 1 and fills `out` when the
 * type has a layout for this payload size, 0 when it has none (out->layout
 * is NULL): ghc-events shows such an event by its header description.
 * Values stay valid as long as ev->payload does.
 */
EV_API int ev_decode(const ev_event *ev, ev_decoded *out);

/** Integer value of field `i`, or 0 when the payload stopped before it. */
static inline uint64_t ev_decoded_num(const ev_decoded *d, unsigned i)
{
	return i < d->n ? d->values[i].num : 0;
}

/** The value of the field named `name`, or NULL when absent. */
EV_API const ev_value *ev_decoded_field(const ev_decoded *d, const char *name);

/** WALL_CLOCK_TIME seconds beyond this (year 2255) are not a clock
 *  reading; the bound keeps seconds * 10^9 + nanoseconds in an int64. */
#define EV_WALL_CLOCK_MAX_SEC 9000000000ull

/**
 * The Unix time, in nanoseconds, of the log's timestamp 0, from a
 * WALL_CLOCK_TIME event (43: capset u32, seconds u64, nanoseconds u32,
 * doc/format.md section 6): the clock reading minus the event's own timestamp.
 * The one place evtool turns a wall clock into an epoch; merge, filter,
 * repair and the process list all go through it.
 *
 * EV_OK and `*epoch_ns` set; EV_EINVAL when `ev` is not a WALL_CLOCK_TIME
 * or stops before the nanoseconds (such an event says nothing; callers
 * skip it, diag untouched); EV_EFORMAT when the fields are not a clock
 * reading: nanoseconds of 10^9 or more, seconds beyond
 * EV_WALL_CLOCK_MAX_SEC, or a timestamp beyond INT64_MAX. On EV_EFORMAT,
 * `diag` (may be NULL) gets the event's offset and index and the message
 * "WALL_CLOCK_TIME S s N ns is not a clock reading".
 */
EV_API int ev_wall_clock_epoch(const ev_event *ev, int64_t *epoch_ns,
			       ev_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
