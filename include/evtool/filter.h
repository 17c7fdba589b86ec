/*
 * evtool: selecting events from a log.
 *
 * A filter holds selectors. Selectors of different kinds combine with AND,
 * the items of one list with OR; every selector can exclude instead of
 * include. Metadata that readers need (process identity, capsets and
 * capabilities, heap and profile definitions, see ev_filter_set_metadata)
 * is kept whatever the selectors say, unless ev_filter_set_metadata(f, 0).
 *
 * Some selectors depend on facts that can sit anywhere in a log: the time
 * of its first event, its wall clock, where user markers are, which
 * capabilities belong to a process (GHC writes the global buffer, which
 * holds most of these, last). Such a filter needs one or two learning
 * passes over the log before it can decide; ev_filter_run() does them,
 * reading the input (an ev_input, pipeline.h) again.
 *
 * Typical use:
 *
 *     ev_filter *f;
 *     ev_filter_new(&f, NULL, NULL);
 *     if (ev_filter_add(f, EV_FILTER_CLASS, "gc,user", 0) < 0)
 *             ... ev_filter_diag(f)->message
 *     if (ev_filter_run(f, in, sink) < 0)
 *             ... ev_filter_diag(f)
 *     ... ev_filter_result(f)->events_written
 *     ev_filter_free(f);
 */
#ifndef EVTOOL_FILTER_H
#define EVTOOL_FILTER_H

#include "common.h"
#include "pipeline.h"
#include "reader.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A selection of events and how to apply it (opaque). */
typedef struct ev_filter ev_filter;

/** What a list selector looks at. */
typedef enum ev_filter_kind {
	/** Event classes: the RTS `-l` letters s g p f u n T (several may
	 *  be run together, "sgu") or names ("gc", "heap-profile", as
	 *  ev_class_name gives them). "n" and "nonmoving" also cover the
	 *  concurrent mark and sweep events, as `+RTS -ln` does. */
	EV_FILTER_CLASS = 0,
	/** Event types: names ("RUN_THREAD", any case), ids and id ranges
	 *  ("9-12"). */
	EV_FILTER_TYPE,
	/** Capabilities and ranges ("0,2-3"), and "global" for events of
	 *  the global buffer and outside blocks. An event's capability is
	 *  its block's; an event without one matches a listed capability
	 *  that its payload names (TASK_CREATE, CAP_CREATE...). */
	EV_FILTER_CAP,
	/** Processes by OS pid (OSPROCESS_PID), for merged logs: the
	 *  events of the capabilities assigned to the process's capsets
	 *  and the events that name those capsets. */
	EV_FILTER_PROCESS,
	/** Processes by capset id: like EV_FILTER_PROCESS; given together
	 *  with it, either matches. */
	EV_FILTER_CAPSET,
	/** Threads and ranges: the events about a thread (the first thread
	 *  field of the payload: CREATE_THREAD, RUN_THREAD, STOP_THREAD,
	 *  MIGRATE_THREAD, THREAD_WAKEUP, THREAD_LABEL...). */
	EV_FILTER_THREAD
} ev_filter_kind;

/** What ev_filter_set_redact() blanks. */
enum ev_redact_flag {
	/** PROGRAM_ARGS: every argument after the program name becomes
	 *  "<redacted>". */
	EV_REDACT_ARGS = 1u << 0,
	/** PROGRAM_ENV: every value becomes "<redacted>" ("HOME=<redacted>");
	 *  names stay. */
	EV_REDACT_ENV = 1u << 1
};

/** Filter options; initialise with EV_FILTER_OPTIONS_INIT. */
typedef struct ev_filter_options {
	unsigned version;        /**< EV_FILTER_OPTIONS_VERSION */
	const char *tmpdir;      /**< where a pipe (standard input) is
				      copied when learning needs a second
				      read (pipeline.h); NULL: $TMPDIR or
				      /tmp */
	uint32_t max_block_size; /**< output blocks; 0: EV_MAX_BLOCK_SIZE */
} ev_filter_options;

/** The layout of ev_filter_options this header describes. */
#define EV_FILTER_OPTIONS_VERSION 1
/** The default filter options. */
#define EV_FILTER_OPTIONS_INIT { EV_FILTER_OPTIONS_VERSION, NULL, 0 }

/** Creates a filter that keeps everything; `opts` may be NULL for the
 *  defaults. EV_EINVAL for options of another version. */
EV_API int ev_filter_new(ev_filter **out, const ev_filter_options *opts,
			 ev_diag *diag);

/** Frees a filter; NULL is fine. */
EV_API void ev_filter_free(ev_filter *f);

/** Details of the last failure (a bad list, a missing wall clock...). */
EV_API const ev_diag *ev_filter_diag(const ev_filter *f);

/**
 * Adds a comma-separated list to the selector of `kind`: events must
 * match one item of it, or with `exclude` none. Adding to a kind twice
 * extends its list. EV_EINVAL with a message naming the bad item.
 */
EV_API int ev_filter_add(ev_filter *f, ev_filter_kind kind, const char *list,
			 int exclude);

/**
 * Sets a time window [from, to): either may be NULL (open). A time is
 * read by ev_time_parse(): a timestamp (ns since the RTS started, as
 * `ghc-events show` prints it: "1979690", "1.5ms", "@250us"), "+" and a
 * duration after the log's first event ("+10ms"), or an ISO 8601 date
 * and time ("2024-05-01T12:00:00.5Z", zone Z or +hh:mm, UTC without
 * one), wall-clock time, which needs the log's WALL_CLOCK_TIME. With
 * `exclude` the window's events are dropped instead. EV_EINVAL for text
 * that is not a time.
 */
EV_API int ev_filter_set_time(ev_filter *f, const char *from, const char *to,
			      int exclude);

/**
 * Sets a window from the first USER_MARKER (in time order) whose text
 * matches `start` to the next one after it that matches `end`, both
 * markers included. A pattern without `*`, `?` or `[` must equal the
 * whole text; with them it is a shell glob (fnmatch). NULL or "" for
 * `start` means from the log's start, for `end` to its end. When no
 * marker matches `start` the window is empty; when none matches `end`
 * after it, it runs to the end (see ev_filter_stats). With `exclude` the
 * window's events are dropped instead.
 */
EV_API int ev_filter_set_markers(ev_filter *f, const char *start,
				 const char *end, int exclude);

/** Blanks program arguments and/or environment: a comma-separated list
 *  of "args" and "env". EV_EINVAL for another word. */
EV_API int ev_filter_set_redact(ev_filter *f, const char *list);

/**
 * Keep (nonzero, the default) or select like any other event (0) the
 * metadata: capset and capability creation, assignment and removal
 * (25-28, 45-48), STARTUP, RTS identifier, program arguments and
 * environment, pid and parent pid, wall clock, heap info (52),
 * heap-profile and time-profile begin (160, 168), cost-centre (161),
 * info-table (169), ticky-counter (210) and perf-name (140) definitions,
 * and THREAD_LABEL, which is kept for the threads that the thread
 * selector keeps (all, without one). Kept metadata still obeys the
 * process selector and redaction, and an include time or marker window:
 * metadata stamped after the window's end concerns nothing in it and is
 * dropped, so that the slice ends with its window.
 */
EV_API void ev_filter_set_metadata(ev_filter *f, int keep);

/**
 * Reads with `threads` workers (0 and 1: one, the caller's thread): a
 * plain log in a regular file is read block by block in parallel when the
 * filter needs no learning pass (no marker window, no process selector,
 * no relative or wall-clock time), each event decided in file order as before;
 * any other log, and the rest of a log from a block the workers would
 * not take (a damaged one), is read sequentially. The output does not
 * depend on `threads`.
 */
EV_API void ev_filter_set_threads(ev_filter *f, unsigned threads);

/** Reports the progress of each later ev_filter_run() to `fn` (NULL:
 *  none): the stored bytes read by all its passes, out of the input's
 *  size times the passes (one, two when a selector needs facts
 *  from anywhere in the log, three for a marker window with both ends). */
EV_API void ev_filter_set_progress(ev_filter *f, ev_progress_fn fn, void *ctx);

/* ---- the whole pipeline ---- */

/** What ev_filter_run() did (ev_filter_result()). */
typedef struct ev_filter_stats {
	unsigned sessions;
	uint64_t events_read;     /**< input events, block markers not counted */
	uint64_t events_written;
	unsigned passes;          /**< reads of the input (or of its copy) */
	int spilled;              /**< the input, a pipe, was copied to a
				       temporary file to be read again */
	int truncated;            /**< the input ended early; its complete
				       events were used */
	/** Sessions where no marker matched the start pattern (their
	 *  window is empty), and where none matched the end pattern after
	 *  it (their window runs to the end). */
	unsigned start_marker_missing;
	unsigned end_marker_missing;
} ev_filter_stats;

/**
 * Filters the log `in` (gzip is inflated) into `out`, a new log with the
 * input's header per session whose events are re-blocked by capability.
 * A filter that needs learning passes reads the input more than once
 * (pipeline.h: a pipe is copied to a temporary file first). Returns
 * EV_OK; EV_ETRUNCATED when the input ended early (the output is
 * complete and holds what the complete events gave); EV_EFORMAT when it
 * ends inside its first header (nothing is written); or an error, with
 * ev_filter_diag() saying what failed and what it concerns (its origin).
 * ev_filter_result() says what the run did.
 */
EV_API int ev_filter_run(ev_filter *f, ev_input *in, ev_sink *out);

/** What the last ev_filter_run() did; owned by the filter. */
EV_API const ev_filter_stats *ev_filter_result(const ev_filter *f);

#ifdef __cplusplus
}
#endif

#endif
