/*
 * evtool: writing eventlogs.
 *
 * A sink is where bytes go: a file written atomically (a temporary file in
 * the same directory, renamed over the target by ev_sink_commit), a file
 * descriptor, or memory. A writer encodes a header and events into a sink,
 * either preserving the caller's block markers byte for byte or grouping
 * events into fresh blocks by capability.
 */
#ifndef EVTOOL_WRITER_H
#define EVTOOL_WRITER_H

#include "common.h"
#include "header.h"
#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Where bytes go: a file written atomically, a descriptor or memory (opaque). */
typedef struct ev_sink ev_sink;

/**
 * Opens an atomic file sink: bytes go to a temporary file beside `path`
 * that ev_sink_commit() renames to `path`. Until then `path` is untouched;
 * freeing an uncommitted sink removes the temporary file. A `path` that
 * exists and is neither a regular file nor a folder (/dev/null, a FIFO)
 * is opened and written directly instead, so the device stays itself.
 */
EV_API int ev_sink_open_path(ev_sink **out, const char *path, ev_diag *diag);

/** A sink writing to `fd`, which stays the caller's. */
EV_API int ev_sink_open_fd(ev_sink **out, int fd, const char *name,
			   ev_diag *diag);

/** A sink collecting bytes in memory; see ev_sink_memory(). */
EV_API int ev_sink_open_memory(ev_sink **out, ev_diag *diag);

/** Appends `len` bytes. */
EV_API int ev_sink_write(ev_sink *s, const void *data, size_t len);

/** Flushes, and for a path sink syncs and renames into place. */
EV_API int ev_sink_commit(ev_sink *s);

/** Frees a sink, removing an uncommitted temporary file; NULL is fine. */
EV_API void ev_sink_free(ev_sink *s);

/** The temporary file's path of a path sink (for signal-time cleanup),
 *  NULL for other sinks or once committed. Owned by the sink. */
EV_API const char *ev_sink_temp_path(const ev_sink *s);

/** Bytes written so far. */
EV_API uint64_t ev_sink_bytes(const ev_sink *s);

/** The bytes of a memory sink; valid until the next write or the free. */
EV_API const uint8_t *ev_sink_memory(const ev_sink *s, size_t *len);

/** Details of the last failure. */
EV_API const ev_diag *ev_sink_diag(const ev_sink *s);

/** A writer of events into blocks on a sink (opaque). */
typedef struct ev_writer ev_writer;

/** How a writer treats blocks. */
typedef enum ev_write_mode {
	/** Events, block markers included, are written exactly as given:
	 *  copying a log event by event reproduces it byte for byte. */
	EV_WRITE_PRESERVE = 0,
	/** Block markers given are dropped; each run of consecutive events
	 *  of one capability becomes a block of at most max_block_size bytes
	 *  whose size includes the marker, whose timestamp is the run's
	 *  earliest and whose end time its latest. */
	EV_WRITE_REBLOCK = 1
} ev_write_mode;

/** Writer options; initialise with EV_WRITER_OPTIONS_INIT. */
typedef struct ev_writer_options {
	unsigned version;          /**< EV_WRITER_OPTIONS_VERSION */
	ev_write_mode mode;
	uint32_t max_block_size;   /**< REBLOCK only; 0 means EV_MAX_BLOCK_SIZE */
} ev_writer_options;

/** The layout of ev_writer_options this header describes. */
#define EV_WRITER_OPTIONS_VERSION 1
/** The default writer options: preserve the caller's blocks. */
#define EV_WRITER_OPTIONS_INIT { EV_WRITER_OPTIONS_VERSION, EV_WRITE_PRESERVE, 0 }

/**
 * Starts a log in `sink` (which stays the caller's) and writes `header`
 * (copied). `opts` may be NULL for the defaults.
 */
EV_API int ev_writer_open(ev_writer **out, ev_sink *sink,
			  const ev_header *header,
			  const ev_writer_options *opts, ev_diag *diag);

/**
 * Writes one event. Its type must be declared in the header and a fixed
 * size type must have the header's payload size (EV_EINVAL otherwise).
 * In REBLOCK mode `ev->cap` chooses the block and BLOCK_MARKER events are
 * skipped.
 */
EV_API int ev_writer_write(ev_writer *w, const ev_event *ev);

/** Flushes the open block and writes the data-end marker. */
EV_API int ev_writer_finish(ev_writer *w);

/**
 * Starts another session in the same sink after ev_writer_finish(): writes
 * `header` (copied) as a restarted eventlog does (doc/format.md section 4).
 * The mode, block size and block buffer are kept, so a log of many
 * sessions costs one buffer; ev_writer_events() keeps counting.
 */
EV_API int ev_writer_next_session(ev_writer *w, const ev_header *header);

/** Events written so far; block markers, given or made, are not events
 *  and not counted (as `evtool info` counts). */
EV_API uint64_t ev_writer_events(const ev_writer *w);

/** Frees a writer; NULL is fine. Does not finish the log. */
EV_API void ev_writer_free(ev_writer *w);

/** Details of the last failure. */
EV_API const ev_diag *ev_writer_diag(const ev_writer *w);

/**
 * Copies the first session of the log `*r` reads (nothing read from it
 * yet) to `sink` with `threads` workers reading its blocks ahead, when it
 * is a plain log of one session in a regular file (the man page's
 * "Reading in parallel"): as ev_reader_read_header, ev_writer_open with
 * its header in EV_WRITE_PRESERVE mode, and ev_writer_write of each event
 * ev_reader_next gives would, up to the data end or to the first block
 * the workers cannot read as ev_reader_next does.
 *
 * EV_OK: *w is that writer, open, and *r (the reader given is freed) a
 * reader of the same log positioned where the workers stopped, its header
 * read: read on from it and finish *w as after those calls. EV_END: the
 * log is not one the workers read, or `threads` is below 2; nothing was
 * read or written and *w is NULL. A negative status: writing failed
 * (*w is the writer, for ev_writer_diag; free it) or no memory (*w NULL).
 */
EV_API int ev_writer_copy_blocks(ev_writer **w, ev_sink *sink, ev_reader **r,
				 unsigned threads);

#ifdef __cplusplus
}
#endif

#endif
