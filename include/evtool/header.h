/*
 * evtool: the eventlog header, the list of declared event types.
 *
 * A header keeps every declared type's id, declared size, description and
 * extra bytes exactly as read, so that a writer reproduces it byte for
 * byte. It also knows each type's effective payload size, which differs
 * from the declared one only for the GHC 6.12 quirk (doc/format.md section 4).
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

/** Quirk flags found in a header. */
enum ev_header_quirk {
	/** GHC 6.12: thread ids declared 8 bytes but written as 4, STARTUP
	 *  declared 0 bytes but carrying 2. Detected by CREATE_THREAD's
	 *  declared size of 8. */
	EV_QUIRK_GHC612 = 1u << 0,
	/** GHC 7.8.2: STOP_THREAD statuses from 8 up numbered one higher
	 *  (it inserted BlockedOnMVarRead at 8; ghc-events mkStopStatus782).
	 *  Detected as ghc-events does: USER_MARKER declared, HACK_BUG_T9003
	 *  not. */
	EV_QUIRK_GHC782 = 1u << 1
};

/** Creates an empty header. Free it with ev_header_free(). */
EV_API int ev_header_new(ev_header **out, ev_diag *diag);

/** Deep copy of `src`. */
EV_API int ev_header_copy(ev_header **out, const ev_header *src);

/** Frees a header; NULL is fine. */
EV_API void ev_header_free(ev_header *h);

/**
 * Declares a type. `size` is the declared size (EV_SIZE_VARIABLE for
 * variable). Declaring an id twice is EV_EINVAL. Types are kept in the
 * order added; GHC adds them in ascending id order.
 */
EV_API int ev_header_add(ev_header *h, uint16_t id, int32_t size,
			 const char *desc, uint32_t desc_len,
			 const uint8_t *extra, uint32_t extra_len);

/** Number of declared types. */
EV_API size_t ev_header_count(const ev_header *h);

/** The i-th declared type in header order, or NULL out of range. */
EV_API const ev_type_decl *ev_header_at(const ev_header *h, size_t i);

/** The declaration of `id`, or NULL when it is not declared. */
EV_API const ev_type_decl *ev_header_find(const ev_header *h, uint16_t id);

/** EV_QUIRK_* flags that apply to this header. */
EV_API unsigned ev_header_quirks(const ev_header *h);

/** Bytes that ev_header_encode() writes for this header. */
EV_API size_t ev_header_encoded_size(const ev_header *h);

/**
 * Encodes the header from "hdrb" through "datb" into `buf`, which must
 * hold ev_header_encoded_size() bytes. Returns the bytes written.
 */
EV_API size_t ev_header_encode(const ev_header *h, uint8_t *buf);

#ifdef __cplusplus
}
#endif

#endif
