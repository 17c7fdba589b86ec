/*
 * evtool: what a log is and what it holds, in one pass (`evtool info`).
 *
 * Its status (complete, cut, invalid and where), its sessions, processes
 * (process.h), capabilities and capsets, first and last timestamp, events
 * per type, class and capability, per-capability time inversions, the
 * bytes of log read and stored and the digest of the input as stored. The
 * library computes; the caller formats.
 *
 *     ev_info_options o = EV_INFO_OPTIONS_INIT;
 *     ev_info *in;
 *     ev_info_new(&in, &o, NULL);
 *     ev_reader_open_path(&r, path, EV_READER_DIGEST, NULL);
 *     if (ev_info_read(in, r) < 0) ... ev_reader_diag(r)
 *     use(ev_info_result(in)), ev_info_type_events(in, id), ...
 *     ev_info_free(in);
 *
 * The analysis is an event consumer too (consumer.h): any source drives
 * it, a followed live log or merged inputs as well as a file
 * (ev_merge_visit(m, ev_info_consumer(), in)).
 */
#ifndef EVTOOL_INFO_H
#define EVTOOL_INFO_H

#include "common.h"
#include "catalog.h"
#include "consumer.h"
#include "process.h"
#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An analysis of one log (opaque, about 3 MB: one count per type and
 *  per capability id). */
typedef struct ev_info ev_info;

/** Options of ev_info_new; initialise with EV_INFO_OPTIONS_INIT. */
typedef struct ev_info_options {
	unsigned version;             /**< EV_INFO_OPTIONS_VERSION */
	/** Sessions described one by one (ev_info_summary.session_list);
	 *  the rest are only counted. */
	unsigned max_listed_sessions;
	/** Capsets listed (ev_info_summary.capsets), in order of first
	 *  CAPSET_CREATE; the rest are not. */
	unsigned max_listed_capsets;
} ev_info_options;

/** The layout of ev_info_options this header describes. */
#define EV_INFO_OPTIONS_VERSION 1
/** The defaults: 256 sessions and 64 capsets listed. */
#define EV_INFO_OPTIONS_INIT { EV_INFO_OPTIONS_VERSION, 256, 64 }

/** One session of the stream: header ... data end (doc/format.md s. 4). */
typedef struct ev_info_session {
	uint64_t start;  /**< offset of its header */
	uint64_t end;    /**< past its data end, or its last complete event */
	uint64_t events; /**< block markers not counted */
	int status;      /**< as ev_info_summary.status, for this session */
} ev_info_session;

/** A capset as CAPSET_CREATE (25: capset u32, capset_type u16) made it. */
typedef struct ev_info_capset {
	uint32_t id;
	uint16_t type; /**< an ev_capset_type */
} ev_info_capset;

/** What ev_info_read found; owned by the ev_info. */
typedef struct ev_info_summary {
	/** EV_END: complete; EV_ETRUNCATED: cut short; else the error that
	 *  stopped the reading, or EV_EFORMAT for a WALL_CLOCK_TIME that is
	 *  not a clock reading (ev_wall_clock_epoch) in a log read to its
	 *  end. */
	int status;
	ev_diag diag;           /**< where and what, when status is not EV_END */
	int gzip;               /**< the input is gzip-compressed */
	uint64_t stored_bytes;  /**< bytes of input as stored */
	/** Bytes of log read: to the data end, the last complete event of a
	 *  cut log, or the problem. */
	uint64_t log_bytes;
	int have_digest;        /**< the reader was opened with
				     EV_READER_DIGEST */
	uint64_t digest;        /**< xxh3-64 of the input as stored */
	unsigned sessions;
	uint64_t blocks;        /**< block markers */
	uint64_t events;        /**< events, block markers not counted */
	int have_time;          /**< any event was read */
	uint64_t first_time, last_time;
	/** STARTUP's n_caps (0 without): the capabilities when no block or
	 *  CAP_CREATE names one. */
	uint16_t startup_caps;
	/** Capabilities seen: in a block marker or CAP_CREATE. */
	unsigned caps_seen;
	/** Per capability, times that go back in a session (doc/format.md s. 3),
	 *  summed, and how many of them are GC_END (which GHC stamps early). */
	uint64_t inversions, gc_end_inversions;
	unsigned n_capsets;
	const ev_info_capset *capsets;
	/** The first min(sessions, max_listed_sessions) sessions. */
	unsigned n_listed_sessions;
	const ev_info_session *session_list;
} ev_info_summary;

/** A new analysis. EV_OK, EV_ENOMEM, or EV_EINVAL for an options version
 *  this library does not know; `opts` may be NULL (the defaults). */
EV_API int ev_info_new(ev_info **out, const ev_info_options *opts,
		       ev_diag *diag);

/** Frees an analysis; NULL is fine. */
EV_API void ev_info_free(ev_info *in);

/**
 * Reads with `threads` workers (ev_info_read; 0 and 1: one, the caller's
 * thread). A plain log in a regular file, one session of blocks, is then
 * read block by block in parallel (its digest hashed alongside); every
 * other log (gzip, a pipe, several sessions, a damaged block) is read
 * sequentially. Either way the analysis is the same.
 */
EV_API void ev_info_set_threads(ev_info *in, unsigned threads);

/**
 * Reads every session of `r` (freshly opened) to its end and analyses it;
 * call once. A log that is cut or invalid is still analysed up to the
 * problem, which the summary's status and diag describe: EV_OK then.
 * EV_ENOMEM; EV_EINVAL when called again; or the reader's error while
 * reading the rest of the input for its digest (ev_reader_diag()), after
 * which the summary holds all but the digest. Without EV_READER_DIGEST
 * at open, have_digest stays 0.
 */
EV_API int ev_info_read(ev_info *in, ev_reader *r);

/**
 * The analysis as an event consumer (consumer.h), on an ev_info that
 * nothing read yet: any source drives it once (ev_info_read is the
 * reader's way, with the input's facts). The summary is then the one
 * ev_info_read makes of the same events and sessions, but for what only
 * a reader knows: `gzip`, `stored_bytes` and the digest stay 0, and when
 * the source stopped before the end (`status`: finish's) `diag` holds
 * that status and where the events stopped, and the session it stopped
 * in ends past its last event (or at its header's offset without one),
 * as the events' offsets say (the sorter's do not: sort.h). Finish
 * returns the source's status, or EV_ENOMEM; a second run EV_EINVAL.
 */
EV_API const ev_consumer *ev_info_consumer(void);

/** What was found; valid until ev_info_free. */
EV_API const ev_info_summary *ev_info_result(const ev_info *in);

/** The log's processes (finished; see process.h); owned by `in`. */
EV_API const ev_process_list *ev_info_processes(const ev_info *in);

/** Events of type `id`. A type the header declares with another meaning
 *  than GHC's is counted under its id too (see ev_info_type_name). */
EV_API uint64_t ev_info_type_events(const ev_info *in, uint16_t id);

/** GHC's name of type `id`, or "UNKNOWN" when GHC has none or the log's
 *  header declares the id with another meaning (another program reusing
 *  it). */
EV_API const char *ev_info_type_name(const ev_info *in, uint16_t id);

/** Events of class `cls` (one EV_CLASS_* bit): those of the types whose
 *  lowest class bit it is; a type the header redeclares counts as
 *  EV_CLASS_OTHER. */
EV_API uint64_t ev_info_class_events(const ev_info *in, ev_class cls);

/** Events in blocks of capability `cap`; EV_NO_CAP: the global buffer
 *  and events outside any block. Block markers not counted. */
EV_API uint64_t ev_info_cap_events(const ev_info *in, uint16_t cap);

/** Nonzero when capability `cap` was seen (a block or CAP_CREATE). */
EV_API int ev_info_cap_seen(const ev_info *in, uint16_t cap);

#ifdef __cplusplus
}
#endif

#endif
