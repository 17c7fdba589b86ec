/*
 * evtool: spans of the user's own code, as an ev_stats accumulator sees
 * them. A Haskell program marks its phases with
 * Debug.Trace.traceEventIO "START name" and "STOP name" (USER_MSG, 19:
 * the convention ghc-events-analyze reads) or with traceMarkerIO "name"
 * (USER_MARKER, 58). A span is the time between a START and the STOP of
 * the same name on the same Haskell thread (the thread running on the
 * event's capability; nested and overlapping names are fine: a STOP
 * closes the latest open START of its name and thread), or, when asked,
 * between two consecutive markers of one name on one thread.
 *
 * Per name, and per name and thread, the accumulator keeps the count,
 * total, minimum, maximum and the distribution of the durations in the
 * histogram of the GC pauses (ev_stats_pauses: percentiles at most 1/32
 * above the true value, exact when among the 10 longest), so memory is
 * bounded whatever the number of spans: EV_STATS_MAX_SPAN_NAMES names,
 * EV_STATS_MAX_SPAN_THREADS (name, thread) pairs kept one by one,
 * EV_STATS_MAX_OPEN_SPANS spans open at once.
 *
 * Pairs are made in the order the events are added. A thread's events
 * are in time order within its capability; a thread that migrated may
 * have its STOP on a capability whose block the log holds first: such a
 * STOP waits for a START of its name and thread that comes later in the
 * log but not later in time, and pairs with it; a STOP still waiting at
 * the end counts as one without its START (unmatched_stops is complete
 * after ev_stats_finish).
 *
 *     ev_stats_keep_spans(st, EV_STATS_SPANS_EVENTS);  // before events
 *     ev_reader_feed(reader, ev_stats_consumer(), st);
 *     ev_stats_finish(st);
 *     for (size_t i = 0; i < ev_stats_span_count(st); i++)
 *             use(ev_stats_span_at(st, i));
 */
#ifndef EVTOOL_STATS_SPANS_H
#define EVTOOL_STATS_SPANS_H

#include "common.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Which spans ev_stats_keep_spans collects (bits). */
enum ev_stats_span_kind {
	EV_STATS_SPANS_EVENTS = 1u << 0,  /**< START/STOP user messages */
	EV_STATS_SPANS_MARKERS = 1u << 1  /**< consecutive markers */
};

/** Distinct names kept; spans of further names are only counted in
 *  ev_stats_spans_summary's dropped. */
#define EV_STATS_MAX_SPAN_NAMES 256u
/** (name, thread) pairs kept one by one (about 11 KB each); the spans of
 *  further pairs count in their name's figures only. */
#define EV_STATS_MAX_SPAN_THREADS 1024u
/** Spans open at once; a START past them counts as dropped. */
#define EV_STATS_MAX_OPEN_SPANS 65536u
/** Bytes of a name kept; a longer one is cut at a character boundary. */
#define EV_STATS_MAX_SPAN_NAME 255u

/** The durations of a set of spans. Percentiles by nearest rank, as
 *  ev_stats_pauses: at most 1/32 above the true value, never above max. */
typedef struct ev_stats_span_figures {
	uint32_t tid;      /**< the thread; 0 in a name's overall figures */
	uint64_t count;
	uint64_t total_ns, min_ns, max_ns, mean_ns;
	uint64_t p50_ns, p90_ns, p99_ns;
} ev_stats_span_figures;

/** The spans of one name. */
typedef struct ev_stats_span {
	const char *name;   /**< without "START " / "STOP " */
	unsigned kind;      /**< EV_STATS_SPANS_EVENTS or _MARKERS */
	ev_stats_span_figures all;  /**< every thread together */
	uint64_t first_ns;  /**< the start of its earliest span */
	uint64_t unmatched_stops;  /**< STOPs without their START (after
				        ev_stats_finish) */
	uint64_t unstopped; /**< STARTs still open at the end (EVENTS only) */
	size_t n_threads;   /**< threads kept one by one, first seen first */
	const ev_stats_span_figures *threads;
	uint64_t other_threads_count; /**< spans of threads not kept */
} ev_stats_span;

/** What the spans could not keep. */
typedef struct ev_stats_spans_summary {
	uint64_t spans;          /**< spans measured, every name */
	uint64_t unmatched_stops, unstopped;
	uint64_t dropped;        /**< spans and STARTs past the limits */
} ev_stats_spans_summary;

/**
 * Collects spans of the kinds `kinds` (EV_STATS_SPANS_* bits). Call it
 * before the first event; EV_OK, or EV_EINVAL after one or for no kind.
 */
EV_API int ev_stats_keep_spans(ev_stats *st, unsigned kinds);

/** Names seen, first seen first. The figures are running totals while
 *  events are added (count, total, min, max) and complete after
 *  ev_stats_finish (mean, percentiles, unstopped). */
EV_API size_t ev_stats_span_count(const ev_stats *st);

/** Name `i`, or NULL out of range. Owned by `st`, valid until the free. */
EV_API const ev_stats_span *ev_stats_span_at(const ev_stats *st, size_t i);

/** The index of the spans named `name` (`len` bytes) of kind `kind`
 *  (0: either, events first), or -1. */
EV_API long ev_stats_span_find(const ev_stats *st, const char *name,
			       size_t len, unsigned kind);

/** Fills `out` with what the spans could not keep; after ev_stats_finish. */
EV_API void ev_stats_spans_summary_get(const ev_stats *st,
				       ev_stats_spans_summary *out);

/** One span as it ends, for a time line of spans without keeping them. */
typedef struct ev_stats_span_end {
	const ev_stats_span *span; /**< its name's entry */
	uint32_t tid;
	uint16_t cap;              /**< of its STOP (or closing marker) */
	uint64_t start_ns, duration_ns;
} ev_stats_span_end;

/** Called for every span as it ends; see ev_stats_on_span. */
typedef void (*ev_stats_span_fn)(void *ctx, const ev_stats_span_end *s);

/** Calls `fn` (NULL: none) for each span as it ends, in the order the
 *  events come. */
EV_API void ev_stats_on_span(ev_stats *st, ev_stats_span_fn fn, void *ctx);

/** The figures of spans a gate may name, "span:NAME.FIGURE". */
enum ev_stats_span_figure {
	EV_STATS_SPAN_COUNT = 0, EV_STATS_SPAN_TOTAL, EV_STATS_SPAN_MEAN,
	EV_STATS_SPAN_MIN, EV_STATS_SPAN_MAX, EV_STATS_SPAN_P50,
	EV_STATS_SPAN_P90, EV_STATS_SPAN_P99, EV_STATS_SPAN_FIGURES
};

/** The name of span figure `f` ("p99"), or NULL out of range. */
EV_API const char *ev_stats_span_figure_name(unsigned f);

/** Value of figure `f` of `fig`: a count, or nanoseconds. */
EV_API double ev_stats_span_figure_value(const ev_stats_span_figures *fig,
					 unsigned f);

#ifdef __cplusplus
}
#endif

#endif
