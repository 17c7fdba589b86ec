/*
 * evtool: the streaming eventlog reader.
 *
 * A reader pulls bytes from a file, a file descriptor (standard input) or
 * a memory buffer, inflating gzip input on the fly, and hands out events
 * one at a time as borrowed views. Memory stays bounded: one window of
 * input plus the header, whatever the log's size.
 *
 * Typical use:
 *
 *     ev_reader *r;
 *     ev_diag why;
 *     ev_event ev;
 *     int rc;
 *     if (ev_reader_open_path(&r, path, 0, &why) < 0) ... why.message
 *     if (ev_reader_read_header(r) < 0) ... ev_reader_diag(r)->message
 *     while ((rc = ev_reader_next(r, &ev)) == EV_OK)
 *             use(&ev);
 *     rc is EV_END (complete), EV_ETRUNCATED (no data end) or an error.
 *     ev_reader_free(r);
 */
#ifndef EVTOOL_READER_H
#define EVTOOL_READER_H

#include "common.h"
#include "header.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A streaming reader of one log, plain or gzip (opaque). */
typedef struct ev_reader ev_reader;

/** One event, borrowed from the reader. */
typedef struct ev_event {
	uint16_t type;
	uint16_t cap;            /**< enclosing block's cap, or EV_NO_CAP */
	uint32_t size;           /**< payload bytes */
	uint64_t time;           /**< ns since the RTS instance started */
	const uint8_t *payload;  /**< valid until the next call on the reader */
	uint64_t offset;         /**< offset of the event's first byte */
	uint64_t index;          /**< 0-based, block markers included */
} ev_event;

/** Bytes the event occupies on the wire: type, time, [length], payload. */
static inline uint32_t ev_event_wire_size(const ev_event *ev, int variable)
{
	return 10u + (variable ? 2u : 0u) + ev->size;
}

/** The block a reader is inside, from its BLOCK_MARKER (doc/format.md s. 2). */
typedef struct ev_block {
	uint64_t offset;     /**< offset of the marker event */
	uint32_t size;       /**< declared size, marker included */
	uint64_t start_time; /**< the marker's timestamp */
	uint64_t end_time;
	uint16_t cap;        /**< EV_NO_CAP for the global buffer */
} ev_block;

/** Flags for the ev_reader_open_* functions. */
enum ev_reader_flag {
	/** Hash every input byte (as stored, before inflating) with xxh3-64;
	 *  see ev_reader_digest(). */
	EV_READER_DIGEST = 1u << 0,
	/** Do not inflate gzip input even when it starts with gzip magic. */
	EV_READER_RAW = 1u << 1,
	/** Start with a 64 KiB input window instead of 1 MiB (it grows when
	 *  an event or header needs more): for many readers open at once,
	 *  such as the live logs evtool monitor follows. */
	EV_READER_SMALL_WINDOW = 1u << 2
};

/**
 * Opens `path` for reading; "-" is standard input. The name used in
 * diagnostics is `path` ("<stdin>" for "-"). EV_EIO when it cannot be
 * opened, EV_ENOMEM; `diag` (may be NULL) says why.
 */
EV_API int ev_reader_open_path(ev_reader **out, const char *path,
			       unsigned flags, ev_diag *diag);

/** Reads from `fd`, which stays the caller's (it is not closed). */
EV_API int ev_reader_open_fd(ev_reader **out, int fd, const char *name,
			     unsigned flags, ev_diag *diag);

/** Reads `len` bytes at `data`, which must outlive the reader. */
EV_API int ev_reader_open_memory(ev_reader **out, const void *data, size_t len,
				 const char *name, unsigned flags,
				 ev_diag *diag);

/**
 * Gives input bytes: up to `cap` of them into `dst`, their number in
 * *got. Returns EV_OK (*got == 0: none for now, as at the end of a file
 * that may grow), EV_END at the end of the input, or a negative status,
 * which the reader returns as a read failure.
 */
typedef int (*ev_read_fn)(void *ctx, void *dst, size_t cap, size_t *got);

/**
 * Reads the bytes `fn` gives (called with `ctx`), for example the log an
 * ev_archive_reader inflates (with EV_READER_RAW, so that it is not
 * inflated again). `name` is used in diagnostics.
 */
EV_API int ev_reader_open_fn(ev_reader **out, ev_read_fn fn, void *ctx,
			     const char *name, unsigned flags, ev_diag *diag);

/** Frees a reader; NULL is fine. */
EV_API void ev_reader_free(ev_reader *r);

/**
 * Parses the header. EV_OK once parsed (later calls return EV_OK at
 * once); EV_ETRUNCATED when the input ends inside it, in which case the
 * call can be repeated when more input has arrived; EV_EFORMAT etc.
 * An input that ends before its first byte (an empty file or pipe) is
 * no eventlog: EV_EFORMAT with reason EV_REASON_EMPTY_INPUT, after which
 * the call can still be repeated (a followed log that has not begun).
 */
EV_API int ev_reader_read_header(ev_reader *r);

/** The parsed header, or NULL before ev_reader_read_header succeeded.
 *  Owned by the reader; valid until the next session or the free. */
EV_API const ev_header *ev_reader_header(const ev_reader *r);

/**
 * The next event, block markers included (type EV_BLOCK_MARKER).
 * EV_OK: `ev` is filled. EV_END: the data-end marker was reached.
 * EV_ETRUNCATED: the input ended before the data end; ev_reader_offset()
 * is the end of the last complete event and a later call resumes when
 * the input has grown. Negative: malformed input or I/O error, see
 * ev_reader_diag(). Reads the header first if that was not done.
 */
EV_API int ev_reader_next(ev_reader *r, ev_event *ev);

/**
 * After EV_END, moves to a following session (a second header after the
 * data end, as a restarted eventlog writes). EV_OK: a new header was
 * parsed; EV_END: the input ends cleanly here; EV_ETRUNCATED: it ends in
 * the middle of a header; EV_EFORMAT: other bytes follow the data end.
 */
EV_API int ev_reader_next_session(ev_reader *r);

/** 0-based index of the current session. */
EV_API unsigned ev_reader_session(const ev_reader *r);

/** Offset just past the last complete event (or header) read. */
EV_API uint64_t ev_reader_offset(const ev_reader *r);

/**
 * Bytes read from the input but not yet consumed. After EV_ETRUNCATED at
 * the end of the input this is the incomplete tail (a partial event or
 * header) that follows ev_reader_offset().
 */
EV_API uint64_t ev_reader_pending(const ev_reader *r);

/**
 * Skips damaged input up to the next plausible block marker (doc/format.md
 * section 2), for a log with garbage in the middle. Call it after
 * ev_reader_next failed with EV_EFORMAT or EV_ETRUNCATED, after
 * ev_reader_next_session failed with EV_EFORMAT, or to disown what the
 * last ev_reader_next returned (an event the caller found inconsistent,
 * or a data-end marker that is not the end). The skipped range starts at
 * that event, data-end marker or failure point; the scan starts one byte
 * after it. A candidate is a BLOCK_MARKER whose size is at least the
 * marker's and at most EV_MAX_BLOCK_SIZE, whose end time is not before
 * its start, whose cap is EV_NO_CAP, below 4096 or not above a cap seen
 * earlier in the session, and which is followed by up to four events of
 * declared types, stamped within its time window (1 ms of slack) and
 * inside the block, or by the block's exact end.
 *
 * EV_OK: the next ev_reader_next returns that marker; bytes
 * [*skipped_from, *skipped_from + *skipped_len) were passed over.
 * EV_ETRUNCATED: the input ended first; every byte from *skipped_from to
 * its end was passed over and the next ev_reader_next reports the end.
 * EV_EINVAL when no header has been read, or the error that stopped the
 * reader when it is not about the data (I/O, memory). Memory stays
 * bounded: the scan slides through the input window.
 */
EV_API int ev_reader_resync(ev_reader *r, uint64_t *skipped_from,
			    uint64_t *skipped_len);

/** Nonzero when an event is inside a block; fills `out` if not NULL. */
EV_API int ev_reader_block(const ev_reader *r, ev_block *out);

/** Nonzero when the input is gzip-compressed. Known once input has been
 *  read (after ev_reader_read_header), 0 before. */
EV_API int ev_reader_is_gzip(const ev_reader *r);

/** Bytes pulled from the underlying input so far (compressed bytes for
 *  gzip input). */
EV_API uint64_t ev_reader_input_bytes(const ev_reader *r);

/**
 * Reads the remaining input to its end and stores the xxh3-64 digest of
 * every byte of it in `out`. Requires EV_READER_DIGEST at open; after it,
 * no more events can be read.
 */
EV_API int ev_reader_digest(ev_reader *r, uint64_t *out);

/** The name given at open. */
EV_API const char *ev_reader_name(const ev_reader *r);

/** Details of the last failure or truncation. */
EV_API const ev_diag *ev_reader_diag(const ev_reader *r);

#ifdef __cplusplus
}
#endif

#endif
