/*
 * evtool: a log converted for the viewers people already use.
 *
 * An exporter is fed a log's events in time order (the sorter's streaming
 * form, ev_sorter_visit, driving ev_exporter_consumer()) and writes one of
 * three formats to a sink:
 *
 * - EV_EXPORT_PERFETTO: the Trace Event Format JSON that ui.perfetto.dev,
 *   chrome://tracing and speedscope open. One process per OS process of
 *   the log, one track per capability, Haskell thread runs and GCs as
 *   complete slices, markers and messages as instant events, heap and
 *   spark figures as counters. Timestamps are microseconds with three
 *   decimals (nanosecond precision). Written as the events come.
 * - EV_EXPORT_SPEEDSCOPE: speedscope's own JSON file format: the
 *   cost-centre time profile of a profiled run (+RTS -p -l), one sampled
 *   profile per capability. Samples are spilled to an unnamed temporary
 *   file and written at the end.
 * - EV_EXPORT_HP: the .hp text of hp2ps and eventlog2html, from the heap
 *   profile samples (-hT, -hc, -hy, -hd, -hm, ...) of the first heap
 *   profile in the log.
 *
 *     ev_exporter *x;
 *     ev_export_options o = EV_EXPORT_OPTIONS_INIT;
 *     o.format = EV_EXPORT_HP;
 *     ev_exporter_new(&x, &o, sink, NULL);
 *     rc = ev_sorter_visit(sorter, in, ev_exporter_consumer(), x);
 *     (the consumer's finish ended the output: ev_exporter_finish; or
 *     ev_exporter_set_threads(x, n) and ev_exporter_visit(x, sorter,
 *     in), the same output, read by n workers where the format allows)
 *     rc EV_EXPORT_NOTHING: the log has nothing for the format; nothing
 *     was written to the sink.
 *     ev_exporter_free(x);
 *
 * The formatting runs on a second thread, beside the caller (the
 * sorter): each event is copied into a batch that the thread formats and
 * writes to the sink, in order; ev_exporter_finish and ev_exporter_free
 * wait for it. One exporter is used from one thread at a time.
 *
 * Memory stays bounded whatever the log's size: per-capability state, one
 * entry per process, the cost-centre definitions, a bounded table of
 * thread labels (EV_EXPORT_MAX_LABELS; see ev_export_stats) and four
 * batches of 128 KiB.
 */
#ifndef EVTOOL_EXPORT_H
#define EVTOOL_EXPORT_H

#include "common.h"
#include "header.h"
#include "reader.h"
#include "sort.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The formats an exporter writes. */
typedef enum ev_export_format {
	EV_EXPORT_PERFETTO = 0, /**< Trace Event Format JSON */
	EV_EXPORT_SPEEDSCOPE,   /**< speedscope's file format JSON */
	EV_EXPORT_HP            /**< hp2ps's heap profile text */
} ev_export_format;

/** ev_exporter_finish's status when the log holds nothing the format
 *  exports (no time-profile samples, no heap profile). */
#define EV_EXPORT_NOTHING 2

/** Thread labels kept at once for naming perfetto slices; a label is
 *  dropped when its thread finishes. Labels beyond it are not kept (their
 *  threads' slices are named "thread N") and counted in the stats. */
#define EV_EXPORT_MAX_LABELS 16384u

/** The most cost centres an exporter keeps (EV_ELIMIT beyond). */
#define EV_EXPORT_MAX_COST_CENTRES 1048576u

/** Exporter options; initialise with EV_EXPORT_OPTIONS_INIT. */
typedef struct ev_export_options {
	unsigned version;        /**< EV_EXPORT_OPTIONS_VERSION */
	ev_export_format format;
	const char *tmpdir;      /**< speedscope's spill; NULL: $TMPDIR, /tmp */
} ev_export_options;

/** The layout of ev_export_options this header describes. */
#define EV_EXPORT_OPTIONS_VERSION 1
/** The default options: perfetto, the default temporary folder. */
#define EV_EXPORT_OPTIONS_INIT { EV_EXPORT_OPTIONS_VERSION, EV_EXPORT_PERFETTO, NULL }

/** What an exporter wrote. */
typedef struct ev_export_stats {
	uint64_t events_in;      /**< events handed to the exporter */
	uint64_t records;        /**< slices, instants, counters, samples written */
	uint64_t labels_dropped; /**< thread labels beyond EV_EXPORT_MAX_LABELS */
	unsigned processes;      /**< processes (perfetto) */
	unsigned profiles;       /**< sampled profiles (speedscope) */
	uint64_t samples;        /**< time-profile or heap-profile samples */
	unsigned other_heap_profiles; /**< heap profiles after the first,
					   not exported (hp) */
} ev_export_stats;

/** A converter of one log into one viewer format (opaque). */
typedef struct ev_exporter ev_exporter;

/**
 * An exporter writing to `sink`, which stays the caller's (it is neither
 * committed nor freed). `opts` may be NULL for the defaults. EV_EINVAL for
 * bad options, EV_ENOMEM.
 */
EV_API int ev_exporter_new(ev_exporter **out, const ev_export_options *opts,
			   ev_sink *sink, ev_diag *diag);

/** Frees an exporter; NULL is fine. The events handed over are formatted
 *  (and written, as far as the output's chunks go) first. */
EV_API void ev_exporter_free(ev_exporter *x);

/** A session of the log starts; `h` stays valid until its last event. */
EV_API int ev_exporter_session(ev_exporter *x, unsigned session,
			       const ev_header *h);

/** The next event in time order, copied. EV_OK or a negative error (the
 *  sink's write failed, out of memory, a limit), see ev_exporter_diag():
 *  the events are formatted and written on a second thread, so a failure
 *  is returned by the call after it happened (this one, a later one or
 *  ev_exporter_finish). */
EV_API int ev_exporter_event(ev_exporter *x, const ev_event *ev);

/**
 * Ends the output: closes the slices still open at the last event, writes
 * what was held back and flushes to the sink. EV_OK; EV_EXPORT_NOTHING
 * when the log had nothing for the format (nothing was written); or a
 * negative error.
 */
EV_API int ev_exporter_finish(ev_exporter *x);

/** The exporter as an event consumer (consumer.h), on an ev_exporter:
 *  a source in time order (ev_sorter_visit) drives it; block markers are
 *  not wanted. Its finish calls ev_exporter_finish when the source ended
 *  or was cut, and returns EV_EXPORT_NOTHING when that does, else the
 *  source's status or the failure; after a failure it does nothing. */
EV_API const ev_consumer *ev_exporter_consumer(void);

/** Reads with `threads` workers in ev_exporter_visit (0 and 1: one, the
 *  caller's thread; the default). */
EV_API void ev_exporter_set_threads(ev_exporter *x, unsigned threads);

/**
 * Converts the log `in`: as ev_sorter_visit(s, in, ev_exporter_consumer(),
 * x) does, with its status and `s`'s diag, and the same output byte for
 * byte. With two threads or more (ev_exporter_set_threads), a format that
 * reads few event types (speedscope, hp) of a plain log of one session in
 * a regular file has them picked out of the log's blocks by the workers,
 * into an unnamed temporary file (in `opts.tmpdir`), which the sorter then
 * reads in place of the log; events_in (ev_export_stats) still counts
 * every event. Any other format and log (perfetto; gzip, pipes, logs
 * without block markers, damaged blocks) is converted sequentially.
 */
EV_API int ev_exporter_visit(ev_exporter *x, ev_sorter *s, ev_input *in);

/** What the exporter did so far: it waits until the events handed over
 *  are formatted (they are, on a second thread, behind the caller). */
EV_API const ev_export_stats *ev_exporter_result(const ev_exporter *x);

/** Details of the last failure. A malformed event is named by its byte
 *  offset; event_index is 0 (the formats run behind the caller, and only
 *  the offset goes with each event). */
EV_API const ev_diag *ev_exporter_diag(const ev_exporter *x);

#ifdef __cplusplus
}
#endif

#endif
