/*
 * evtool: common definitions shared by every module of libevtool.
 *
 * Status codes, the per-handle diagnostic, byte-order helpers and the
 * library version. Every libevtool function that can fail returns an int
 * status: EV_OK (0) or a positive status with a defined meaning, or a
 * negative EV_E* error.
 */
#ifndef EVTOOL_COMMON_H
#define EVTOOL_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library version these headers belong to (see ev_version()). */
#define EV_VERSION_MAJOR 0        /**< changes break the API or ABI */
#define EV_VERSION_MINOR 1        /**< changes add to the API */
#define EV_VERSION_PATCH 0        /**< changes fix without adding */
#define EV_VERSION_STRING "0.1.0" /**< "MAJOR.MINOR.PATCH" */

/*
 * Only the public API is exported from the shared library: libevtool is
 * built with -fvisibility=hidden, so its internal functions stay internal
 * and the ABI is exactly what these headers declare.
 */
#if defined(__GNUC__) || defined(__clang__)
/** Marks a public function for export from libevtool.so. */
#define EV_API __attribute__((visibility("default")))
#else
#define EV_API /**< no visibility attributes: everything is exported */
#endif

/** Status codes returned by libevtool functions. */
enum ev_status {
	EV_OK = 0,          /**< success */
	EV_END = 1,         /**< a reader reached the data-end marker */
	EV_ETRUNCATED = -1, /**< input ended before the data end; more may come */
	EV_EFORMAT = -2,    /**< the input is not a well-formed eventlog */
	EV_EIO = -3,        /**< reading or writing failed (see errno text) */
	EV_ENOMEM = -4,     /**< out of memory */
	EV_EINVAL = -5,     /**< the caller passed an invalid argument */
	EV_ELIMIT = -6      /**< the input exceeds a resource limit */
};

/** A short English name for a status code; never NULL. */
EV_API const char *ev_strerror(int status);

/** The library version as "MAJOR.MINOR.PATCH". */
EV_API const char *ev_version(void);

/** Which part of an operation a failure concerns (ev_diag.origin). */
typedef enum ev_origin {
	EV_ORIGIN_NONE = 0,
	/** The input log: the diagnostic's offset and event index are in
	 *  it (the decompressed stream for gzip input). */
	EV_ORIGIN_INPUT,
	/** The output sink or writer. */
	EV_ORIGIN_OUTPUT,
	/** Temporary files; the message names the folder. */
	EV_ORIGIN_TEMP,
	/** The caller's options (EV_EINVAL); the message says which. */
	EV_ORIGIN_OPTIONS
} ev_origin;

/**
 * What was wrong, for the failures a caller handles by kind
 * (ev_diag.reason). The message says it to a person and may be reworded;
 * these values stay. EV_REASON_NONE when the status and the origin say
 * all a caller can act on (an I/O error, a malformed header, a limit).
 */
typedef enum ev_reason {
	EV_REASON_NONE = 0,
	/** An event's type is not declared in its session's header
	 *  (EV_EFORMAT from a reader, offset at the event). */
	EV_REASON_UNDECLARED_TYPE,
	/** Bytes after a data-end marker that do not begin another
	 *  session's header (EV_EFORMAT from a reader). */
	EV_REASON_TRAILING_DATA,
	/** The input's compression, not the log in it: damaged gzip data
	 *  (its deflate stream, a check, a member header, bytes after the
	 *  last member) or a compressor evtool does not read (zstd, xz,
	 *  bzip2, ...). EV_EFORMAT, or EV_ELIMIT for an oversized gzip
	 *  member header. */
	EV_REASON_COMPRESSION,
	/** A merge aligning by wall clock (without EV_MERGE_START_FALLBACK)
	 *  has an input without WALL_CLOCK_TIME (EV_EINVAL). */
	EV_REASON_NO_WALL_CLOCK,
	/** A merge's inputs declare an event type with different fixed
	 *  payload sizes that EV_MERGE_WIDEN would convert (EV_EINVAL). */
	EV_REASON_SIZE_DIFFERS,
	/** A merge's inputs declare an event type with sizes EV_MERGE_WIDEN
	 *  cannot convert: fixed against variable size, or no exact
	 *  conversion between the fixed sizes (EV_EINVAL). */
	EV_REASON_NO_CONVERSION,
	/** A merge's input holds several sessions (a restarted eventlog,
	 *  logs concatenated): merge takes one session per input
	 *  (EV_EINVAL, offset at the second session's header). */
	EV_REASON_SESSIONS,
	/** The input ended before its first byte: it holds no eventlog
	 *  (EV_EFORMAT from a reader's header, offset 0). The reader is not
	 *  failed: a follower may call again, as a live log that has not
	 *  begun yet may still come. */
	EV_REASON_EMPTY_INPUT
} ev_reason;

/**
 * Where and why an operation failed: the one failure shape of every
 * handle (reader, writer, sink and each operation). Handles keep one; it
 * is valid until the next call on the same handle.
 */
typedef struct ev_diag {
	int status;           /**< the status the failing call returned */
	/** what the failure concerns; EV_ORIGIN_NONE when the operation
	 *  has only one thing it can concern (a reader: its input) */
	ev_origin origin;
	/** what was wrong, when a caller may act on it by kind; an
	 *  operation failing on a reader's failure keeps the reader's */
	ev_reason reason;
	/** which input, from 0, for EV_ORIGIN_INPUT of an operation with
	 *  several (merge); 0 otherwise */
	unsigned input;
	uint64_t offset;      /**< byte offset in the (decompressed) stream */
	uint64_t event_index; /**< events read before the problem */
	char message[320];    /**< one line, no trailing newline */
} ev_diag;

/**
 * Progress of a long operation, for a caller that shows it (evtool's
 * progress bar). The library calls it from the thread that runs the
 * operation, after each read from an input (at most every 256 KiB of
 * stored input, never per event), with the stored bytes (compressed ones
 * for gzip) read so far and an estimate of all it will read, passes over
 * the input included; `total` is 0 when unknown (a pipe). `done` only
 * grows and may pass an estimated `total`.
 */
typedef void (*ev_progress_fn)(void *ctx, uint64_t done, uint64_t total);

/** Capability value meaning "no capability" (global buffer, no block). */
#define EV_NO_CAP 0xffffu

/** How many values a 16-bit id takes (event types, capabilities): the
 *  size of a table indexed by one. */
#define EV_ID_COUNT 65536u

/** Declared size of a variable-size event type. */
#define EV_SIZE_VARIABLE (-1)

/** The largest block GHC's RTS writes (its per-capability buffer). */
#define EV_MAX_BLOCK_SIZE (2u * 1024u * 1024u)

/** What a time given as text counts from (ev_time_parse()). */
typedef enum ev_time_base {
	/** A timestamp: ns since the RTS started, as events carry it and
	 *  `evtool show`, `info` and `validate` print it. */
	EV_TIME_RAW = 0,
	/** ns after the first event of the log (of each session). */
	EV_TIME_RELATIVE = 1,
	/** Unix time in ns: needs the log's WALL_CLOCK_TIME to place. */
	EV_TIME_WALL = 2
} ev_time_base;

/**
 * Parses a time as every evtool option takes it, so that what evtool
 * prints can be pasted back:
 * - a duration is a bare number of nanoseconds ("1979690", as show
 *   prints timestamps), or numbers with units, ns, us (or µs), ms, s, m
 *   and h, decimals allowed, summed ("1.5ms", "227240 ns", "1m 30s",
 *   show --pretty-time's "0s   1ms 979.690us", whose "456.7  us"
 *   means 456 us and 7 ns as ghc-events prints it);
 * - a duration alone, or after "@", is a timestamp (EV_TIME_RAW);
 * - "+" and a duration is that long after the log's first event
 *   (EV_TIME_RELATIVE);
 * - ISO 8601 "YYYY-MM-DDTHH:MM[:SS[.fraction]][Z|+hh:mm|-hh:mm]" (T or
 *   a space; UTC without a zone), as info prints the wall clock, is
 *   EV_TIME_WALL.
 * Blanks around the text and a colon after it (show's "1979690:") are
 * ignored. EV_OK, or EV_EINVAL for text that is not a time.
 */
EV_API int ev_time_parse(const char *text, ev_time_base *base, uint64_t *ns);

/**
 * Parses a signed duration (a shift): an optional "+" or "-", then a
 * duration as ev_time_parse() reads it ("+15ms", "-1.5s", "-250").
 * EV_OK, or EV_EINVAL for text that is not one or does not fit.
 */
EV_API int ev_duration_parse(const char *text, int64_t *ns);

/*
 * Big-endian loads and stores of 16, 32 and 64 bits: every integer of the
 * wire format is big-endian (doc/format.md section 1). `p` must point to at
 * least 2, 4 or 8 bytes; no alignment is needed.
 */

/** The big-endian 16-bit value at `p`. */
static inline uint16_t ev_load16(const uint8_t *p)
{
	return (uint16_t)((uint16_t)p[0] << 8 | p[1]);
}

/** The big-endian 32-bit value at `p`. */
static inline uint32_t ev_load32(const uint8_t *p)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* One load and a byte swap, where gcc would not merge the bytes. */
	uint32_t v;
	memcpy(&v, p, sizeof v);
	return __builtin_bswap32(v);
#else
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
#endif
}

/** The big-endian 64-bit value at `p`. */
static inline uint64_t ev_load64(const uint8_t *p)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t v;
	memcpy(&v, p, sizeof v);
	return __builtin_bswap64(v);
#else
	return (uint64_t)ev_load32(p) << 32 | ev_load32(p + 4);
#endif
}

/** Stores `v` big-endian in the 2 bytes at `p`. */
static inline void ev_store16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/** Stores `v` big-endian in the 4 bytes at `p`. */
static inline void ev_store32(uint8_t *p, uint32_t v)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap32(v);
	memcpy(p, &v, sizeof v);
#else
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
#endif
}

/** Stores `v` big-endian in the 8 bytes at `p`. */
static inline void ev_store64(uint8_t *p, uint64_t v)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap64(v);
	memcpy(p, &v, sizeof v);
#else
	ev_store32(p, (uint32_t)(v >> 32));
	ev_store32(p + 4, (uint32_t)v);
#endif
}

#ifdef __cplusplus
}
#endif

#endif
