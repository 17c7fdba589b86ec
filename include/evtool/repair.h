/*
 * evtool: repairing and cutting eventlogs.
 *
 * A repair copies a log from a reader to a sink and makes the result a
 * complete, well-formed log whatever happened to the input:
 *
 * - a log cut short (a program killed by SIGKILL or the OOM killer, a copy
 *   or a disk that stopped early) keeps every complete event; the last
 *   block's size is fixed so that it ends exactly at the last kept event,
 *   its end time is lowered to the latest kept event, and the data-end
 *   marker is appended (doc/format.md sections 2 and 4);
 * - with EV_REPAIR_RESYNC, garbage in the middle (an event type the header
 *   does not declare, an event running past its block, bytes after a
 *   data-end marker) is skipped up to the next plausible block marker
 *   (ev_reader_resync) and every skipped range is reported; an event
 *   whose time is impossible in its block (damaged bytes that still read
 *   as an event) is dropped and reported too;
 * - a good log can be cut to a prefix: by time, by number of events, or
 *   by byte offset, and one session of a restarted stream can be taken.
 *
 * Every block that is complete and untouched is copied byte for byte, so
 * a complete log passes through unchanged. Memory is bounded: one block
 * (at most EV_MAX_BLOCK_SIZE) is held back until it is known to be
 * complete; a block declaring more than that is re-blocked.
 *
 * The library never prints: each change is described to a callback as an
 * ev_repair_notice, and totals are in the ev_repair_summary.
 *
 *     ev_repair_options o = EV_REPAIR_OPTIONS_INIT;
 *     ev_repair *rp;
 *     ev_repair_new(&rp, &o);
 *     if (ev_repair_run(rp, in, sink) < 0) ... ev_repair_diag(rp)
 *     else if (ev_repair_summary_of(rp)->damaged) ... repaired
 *     ev_sink_commit(sink);
 *     ev_repair_free(rp);
 */
#ifndef EVTOOL_REPAIR_H
#define EVTOOL_REPAIR_H

#include "common.h"
#include "pipeline.h"
#include "reader.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A repair of a log cut short or damaged (opaque). */
typedef struct ev_repair ev_repair;

/** What a notice reports. */
typedef enum ev_repair_notice_kind {
	/** The input ends early. [offset, offset + length) is the incomplete
	 *  tail after the last complete event (length 0 when the input ends
	 *  between events, just without the data-end marker). */
	EV_REPAIR_TRUNCATED = 1,
	/** EV_REPAIR_RESYNC passed over [offset, offset + length). */
	EV_REPAIR_SKIPPED = 2,
	/** The block at `offset` was rewritten: its size (`block.size`
	 *  declared, `new_size` written) and end time (`block.end_time`,
	 *  `new_end_time`). */
	EV_REPAIR_BLOCK_FIXED = 3,
	/** The block at `offset` declares more than EV_MAX_BLOCK_SIZE bytes;
	 *  its events were written as several blocks. */
	EV_REPAIR_BLOCK_SPLIT = 4,
	/** A later session's header is incomplete: [offset, offset + length)
	 *  was dropped. */
	EV_REPAIR_HEADER_DROPPED = 5,
	/** EV_REPAIR_RESYNC dropped the event at [offset, offset + length)
	 *  of the block `block`: its time is impossible there (after the
	 *  block's declared end, before its start, or before an earlier
	 *  event of the block beyond GC_END's early stamps), so its bytes
	 *  are damaged. */
	EV_REPAIR_EVENT_DROPPED = 6
} ev_repair_notice_kind;

/** One change a repair made; valid during the callback only. */
typedef struct ev_repair_notice {
	ev_repair_notice_kind kind;
	unsigned session;      /**< 1-based */
	uint64_t offset;       /**< in the (decompressed) input */
	uint64_t length;
	ev_block block;        /**< BLOCK_FIXED, BLOCK_SPLIT: as declared */
	uint32_t new_size;     /**< BLOCK_FIXED */
	uint64_t new_end_time; /**< BLOCK_FIXED */
	const char *message;   /**< one English line, no offset prefix */
} ev_repair_notice;

/** Called with each change a repair makes (ev_repair_options.notify). */
typedef void (*ev_repair_notify_fn)(void *ctx, const ev_repair_notice *n);

/** ev_repair_options.flags */
enum ev_repair_flag {
	/** Skip damaged regions to the next plausible block marker instead
	 *  of failing with EV_EFORMAT. */
	EV_REPAIR_RESYNC = 1u << 0
};

/** "No limit" for the limits of ev_repair_options. */
#define EV_REPAIR_NO_LIMIT UINT64_MAX

/** What ev_repair_options.max_time counts from. */
typedef enum ev_repair_time_base {
	/** ns after the first event of each session (the default). */
	EV_REPAIR_TIME_RELATIVE = 0,
	/** A raw timestamp: ns since the RTS started, as events carry it;
	 *  each session is cut at the same timestamp. */
	EV_REPAIR_TIME_RAW = 1,
	/** Unix time in ns (ev_time_parse()'s EV_TIME_WALL): ev_repair_run
	 *  first reads the whole input to turn it into a raw timestamp by
	 *  the WALL_CLOCK_TIME (43) of the session asked for (`session`, 0
	 *  for the first of a log that holds only one), posted at the
	 *  timestamp it names: raw = its time + wall time - its clock, 0
	 *  when that is before the RTS started. Failures concern the option
	 *  (EV_ORIGIN_OPTIONS): EV_EFORMAT when that session has no
	 *  WALL_CLOCK_TIME or its first is not a clock reading (with its
	 *  offset, ev_wall_clock_epoch()), EV_EINVAL when there is no such
	 *  session or `session` is 0 and the log holds several. */
	EV_REPAIR_TIME_WALL = 2
} ev_repair_time_base;

/** Repair options; initialise with EV_REPAIR_OPTIONS_INIT. */
typedef struct ev_repair_options {
	unsigned version;         /**< EV_REPAIR_OPTIONS_VERSION */
	unsigned flags;           /**< EV_REPAIR_* flags */
	/** Keep only what lies within the first `max_bytes` bytes of the
	 *  (decompressed) input, rounded down to an event boundary: the
	 *  result equals the repair of the input cut there. */
	uint64_t max_bytes;
	/** Keep at most this many events (block markers not counted) and
	 *  stop reading after the last one. */
	uint64_t max_events;
	/** Keep the events stamped less than `max_time` ns after the first
	 *  event of their session (in file order, block markers included).
	 *  A block is kept when it holds a kept event or its marker is
	 *  stamped before that cut; the whole input is read, since a block
	 *  written late can hold early events (doc/format.md section 3). */
	uint64_t max_time;
	/** 0: every session; N: only the Nth (1-based); reading stops after
	 *  it. EV_EINVAL (see the diagnostic) when there is no such session. */
	unsigned session;
	ev_repair_notify_fn notify; /**< may be NULL */
	void *notify_ctx;
	/** What max_time counts from: an ev_repair_time_base (since
	 *  version 2). */
	unsigned time_base;
} ev_repair_options;

/** The layout of ev_repair_options this header describes; version 1
 *  (without time_base) is still accepted. */
#define EV_REPAIR_OPTIONS_VERSION 2
/** The default repair options: no resync, no limit, every session. */
#define EV_REPAIR_OPTIONS_INIT                                         \
	{ EV_REPAIR_OPTIONS_VERSION, 0, EV_REPAIR_NO_LIMIT,                \
	  EV_REPAIR_NO_LIMIT, EV_REPAIR_NO_LIMIT, 0, NULL, NULL,           \
	  EV_REPAIR_TIME_RELATIVE }


/** What a repair kept and dropped. */
typedef struct ev_repair_summary {
	unsigned sessions;      /**< sessions written */
	uint64_t events;        /**< events written, markers not counted */
	uint64_t blocks;        /**< blocks written */
	uint64_t first_time;    /**< earliest time of an event written */
	uint64_t last_time;     /**< latest; both 0 when events is 0 */
	uint64_t input_bytes;   /**< input bytes examined (decompressed) */
	uint64_t kept_bytes;    /**< input bytes whose events were written */
	uint64_t output_bytes;  /**< bytes written to the sink */
	uint64_t tail_bytes;    /**< incomplete bytes at the input's end */
	uint64_t skipped_bytes; /**< passed over by EV_REPAIR_RESYNC */
	uint64_t skipped_ranges;
	uint64_t cut_events;    /**< complete events left out by max_time */
	uint64_t blocks_fixed;  /**< blocks whose size or end time changed */
	/** The input lacked its data-end marker, had damage or inconsistent
	 *  block sizes: what was written differs from it beyond what the
	 *  options asked for. 0 for a complete, well-formed input. */
	int damaged;
	/** Reading stopped at a limit (max_bytes, max_events, session)
	 *  before the end of the input. */
	int stopped_early;
	/** Events EV_REPAIR_RESYNC dropped for an impossible time
	 *  (EV_REPAIR_EVENT_DROPPED); their bytes count as not kept. */
	uint64_t dropped_events;
	/** max_time as the repair applied it: a raw timestamp for
	 *  EV_REPAIR_TIME_RAW and EV_REPAIR_TIME_WALL (placed by the
	 *  session's clock), else ns after each session's first event. */
	uint64_t cut_time;
} ev_repair_summary;

/** Creates a repair; `opts` NULL means the defaults. */
EV_API int ev_repair_new(ev_repair **out, const ev_repair_options *opts);

/** Reports the progress of ev_repair_run() to `fn` (NULL: none): the
 *  stored bytes of the input read by the repair, out of its size (the
 *  pass that places a wall-clock time is not counted). */
EV_API void ev_repair_set_progress(ev_repair *rp, ev_progress_fn fn,
				   void *ctx);

/**
 * Reads the log `in` (pipeline.h) from its start and writes the
 * repaired log to `sink`, which stays the caller's: commit it after
 * success. Returns EV_OK when a complete log was written (see the
 * summary for what changed), or an error with ev_repair_diag():
 * EV_ETRUNCATED when the input ends inside its first header (there is
 * nothing to recover), EV_EFORMAT with EV_REASON_EMPTY_INPUT when it
 * holds no byte, EV_EFORMAT for damage without EV_REPAIR_RESYNC,
 * EV_EINVAL when max_bytes cuts the first header or the session asked
 * for does not exist, EV_EIO, EV_ENOMEM. Run once per repair.
 */
EV_API int ev_repair_run(ev_repair *rp, ev_input *in, ev_sink *sink);

/** The totals of the run so far; owned by the repair. */
EV_API const ev_repair_summary *ev_repair_summary_of(const ev_repair *rp);

/** Details of the last failure. */
EV_API const ev_diag *ev_repair_diag(const ev_repair *rp);

/** Frees a repair; NULL is fine. */
EV_API void ev_repair_free(ev_repair *rp);

#ifdef __cplusplus
}
#endif

#endif
