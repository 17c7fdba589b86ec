/*
 * evtool: the eventlog header, the list of declared event types.
 *
 * A header keeps every declared type's id, declared size, description and
 * extra bytes exactly as read, so that a writer reproduces it byte for
 * byte. It also knows each type's effective payload size, which differs
 * from the declared one only for the GHC 6.12 quirk (doc/format.md section 4).
 * A caller reads the headers the library builds: a reader's
 * (ev_reader_header), a merge's (ev_merge_header).
 */
#ifndef EVTOOL_HEADER_H
#define EVTOOL_HEADER_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One declared event type. Pointers are owned by the header. */
typedef struct ev_type_decl {
	uint16_t id;
	int32_t size;         /**< declared payload size or EV_SIZE_VARIABLE */
	int32_t wire_size;    /**< payload size actually written, or EV_SIZE_VARIABLE */
	uint32_t desc_len;
	const char *desc;     /**< desc_len bytes, NUL-terminated for convenience */
	uint32_t extra_len;
	const uint8_t *extra; /**< extra_len bytes (GHC writes none) */
} ev_type_decl;

/** A log's header: its event types and their sizes (opaque). */
typedef struct ev_header ev_header;

/** Number of declared types. */
EV_API size_t ev_header_count(const ev_header *h);

/** The i-th declared type in header order, or NULL out of range. */
EV_API const ev_type_decl *ev_header_at(const ev_header *h, size_t i);

/** The declaration of `id`, or NULL when it is not declared. */
EV_API const ev_type_decl *ev_header_find(const ev_header *h, uint16_t id);

#ifdef __cplusplus
}
#endif

#endif
