/*
 * evtool: a log bucketed into a fixed number of time buckets, for a
 * report to draw (evtool report).
 *
 * An accumulator is fed events in file order and keeps, per capability,
 * the time spent running Haskell code (RUN_THREAD to STOP_THREAD), in GC
 * (GC_START to GC_END) and idle; per process the heap size (HEAP_SIZE),
 * live bytes (HEAP_LIVE), bytes allocated (HEAP_ALLOCATED) and the
 * collections and their pauses (as its ev_stats times them); the bands
 * of a heap profile
 * (HEAP_PROF_SAMPLE_*); user markers; and who each process is. Events of
 * different capabilities arrive out of time order, so the buckets adapt:
 * when an event falls outside them, their width doubles and neighbours
 * merge, until the log's whole span fits. Memory is fixed by the bucket
 * count and the limits below, whatever the log's size. The same events
 * feed an ev_stats accumulator (stats.h, stats_analysis.h: the +RTS -s
 * figures, threads, pause percentiles), which the report owns.
 *
 *     ev_report *rep;
 *     ev_report_options o = EV_REPORT_OPTIONS_INIT;
 *     ev_report_new(&rep, &o, NULL);
 *     rc = ev_reader_feed(r, ev_report_consumer(), rep);
 *     if (rc < 0 && rc != EV_ETRUNCATED) ... ev_report_diag(rep)
 *     (finished by the consumer's finish)
 *     const ev_stats *st = ev_report_stats(rep);
 *     const ev_report_grid *g = ev_report_buckets(rep);
 *     for (size_t i = 0; i < ev_report_process_count(rep); i++)
 *             draw(g, ev_report_process_at(rep, i));
 *     ev_report_free(rep);
 */
#ifndef EVTOOL_REPORT_H
#define EVTOOL_REPORT_H

#include "common.h"
#include "reader.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An accumulator of a log's time buckets (opaque). */
typedef struct ev_report ev_report;

/** Options of ev_report_new(); start from EV_REPORT_OPTIONS_INIT. */
typedef struct ev_report_options {
	unsigned version; /**< EV_REPORT_OPTIONS_VERSION */
	/** Buckets kept while reading, 16 to EV_REPORT_MAX_BUCKETS; after
	 *  the consumer's finish between a quarter of them and all of them cover
	 *  the log (the width doubles in steps). */
	unsigned buckets;
	/** Heap-profile bands given by peak; the rest are grouped as one. */
	unsigned bands;
} ev_report_options;

/** The version of ev_report_options these headers describe. */
#define EV_REPORT_OPTIONS_VERSION 1
/** Default options: 1024 buckets, 15 bands. */
#define EV_REPORT_OPTIONS_INIT { EV_REPORT_OPTIONS_VERSION, 1024, 15 }

/** The time buckets after the consumer's finish: bucket i covers
 *  [start_ns + i * width_ns, start_ns + (i + 1) * width_ns). */
typedef struct ev_report_grid {
	uint64_t start_ns;   /**< start of the first bucket */
	uint64_t width_ns;   /**< width of every bucket */
	size_t buckets;      /**< buckets that cover the log's events */
	uint64_t first_ns;   /**< the earliest event time */
	uint64_t last_ns;    /**< the latest event time */
} ev_report_grid;

/** One capability's time in a bucket. Outside the capability's first
 *  and last events the three are 0. */
typedef struct ev_report_cap_bucket {
	uint64_t running_ns; /**< a Haskell thread ran (RUN/STOP_THREAD) */
	uint64_t gc_ns;      /**< between GC_START and GC_END */
	uint64_t idle_ns;    /**< neither */
} ev_report_cap_bucket;

/** One capability: its number in the log and its buckets. */
typedef struct ev_report_cap {
	uint16_t cap;
	const ev_report_cap_bucket *buckets; /**< grid.buckets entries */
} ev_report_cap;

/** Flags of ev_report_heap_bucket.have. */
enum ev_report_have {
	EV_REPORT_HAVE_SIZE = 1u << 0, /**< heap_size_bytes is a sample */
	EV_REPORT_HAVE_LIVE = 1u << 1  /**< live_bytes is a sample */
};

/** A process's heap and collections in one bucket. */
typedef struct ev_report_heap_bucket {
	uint64_t allocated_bytes; /**< allocated in the bucket, all caps */
	uint64_t heap_size_bytes; /**< largest HEAP_SIZE in the bucket */
	uint64_t live_bytes;      /**< largest HEAP_LIVE in the bucket */
	uint64_t collections;     /**< timed collections that began here */
	uint64_t pause_ns;        /**< sum of their pauses */
	uint64_t max_pause_ns;    /**< longest of them */
	unsigned have;            /**< ev_report_have flags */
} ev_report_heap_bucket;

/** A user marker (USER_MARKER, 58). */
typedef struct ev_report_marker {
	uint64_t time_ns;
	uint16_t cap;       /**< EV_NO_CAP when posted outside a cap block */
	const char *text;   /**< NUL-terminated, cut at EV_REPORT_MAX_TEXT */
} ev_report_marker;

/** One process: a log has one, a merged log several. Strings and arrays
 *  are owned by the ev_report and valid until ev_report_free. */
typedef struct ev_report_process {
	uint32_t capset;          /**< its OS-process capset */
	int known;                /**< 0: caps whose process the log does not
				       name (no CAPSET_ASSIGN_CAP) */
	int have_pid;
	uint32_t pid;
	const char *rts_identifier; /**< RTS_IDENTIFIER text, or NULL */
	const char *args;         /**< PROGRAM_ARGS: NUL-separated, or NULL */
	size_t args_len;          /**< bytes of `args` */
	size_t n_caps;
	const ev_report_cap *caps; /**< its capabilities, ascending */
	int have_heap;            /**< it posted heap or GC statistics */
	const ev_report_heap_bucket *heap; /**< grid.buckets entries */
	size_t n_markers;
	const ev_report_marker *markers; /**< in the order they were read */
	uint64_t markers_dropped; /**< past EV_REPORT_MAX_MARKERS */
} ev_report_process;

/** One band of a heap profile: a closure type, cost centre, etc. */
typedef struct ev_report_band {
	const char *label;       /**< "(other)" for the grouped rest */
	uint64_t peak_bytes;     /**< largest residency in one sample */
	/** Residency in each bucket's last sample; 0 where the bucket has
	 *  no sample (see ev_report_profile.sampled). */
	const uint64_t *bytes;
} ev_report_band;

/** The heap profile (HEAP_PROF_*), when the log has one. Its events name
 *  no process: in a merged log it is the log's, not one process's. */
typedef struct ev_report_profile {
	uint64_t samples;         /**< HEAP_PROF_SAMPLE_BEGIN events */
	const uint8_t *sampled;   /**< per bucket: 1 when it has a sample */
	size_t n_bands;           /**< the largest bands, then "(other)" */
	const ev_report_band *bands;
	uint64_t labels;          /**< distinct labels seen */
} ev_report_profile;

/** Span names given a series of buckets (the first ones seen). */
#define EV_REPORT_MAX_SPAN_SERIES 16u

/** The user's spans that ended in one bucket (stats_spans.h). */
typedef struct ev_report_span_bucket {
	uint64_t count;
	uint64_t total_ns;
	uint64_t max_ns;   /**< the longest of them */
} ev_report_span_bucket;

/** The spans of one name over time: the first EV_REPORT_MAX_SPAN_SERIES
 *  names seen; their figures are in the report's ev_stats. */
typedef struct ev_report_span_series {
	const char *name;  /**< as ev_stats_span's, owned by the ev_stats */
	unsigned kind;     /**< EV_STATS_SPANS_EVENTS or _MARKERS */
	const ev_report_span_bucket *buckets; /**< grid.buckets entries */
} ev_report_span_series;

/** A new accumulator, with an ev_stats of its own that keeps threads
 *  (ev_stats_keep_threads), spans of both kinds (ev_stats_keep_spans)
 *  and the heap profile's bands (ev_stats_keep_bands). `opt` NULL: the defaults. EV_EINVAL for
 *  options out of range, EV_ENOMEM. Free it with ev_report_free(). */
EV_API int ev_report_new(ev_report **out, const ev_report_options *opt,
			 ev_diag *diag);

/** Frees an accumulator; NULL is fine. */
EV_API void ev_report_free(ev_report *rep);

/**
 * The report as an event consumer (consumer.h), on an ev_report: each
 * session's header goes to the report's ev_stats (ev_stats_consumer),
 * each event to the buckets and the stats, block markers included; its
 * finish closes the open intervals, gives every capability its process,
 * picks the heap-profile bands and finishes the stats when the source
 * ended or was cut, and nothing after a failure. A source returns
 * EV_END when the stream ended cleanly, EV_ETRUNCATED when it was cut
 * (the complete events were added), or the error of the source or of the
 * report (ev_report_diag; its status is then negative).
 */
EV_API const ev_consumer *ev_report_consumer(void);

/** The report's ev_stats, fed the same events: its processes are those
 *  of the report with `known` set, by capset. Owned by `rep`; finished
 *  by the consumer's finish. */
EV_API const ev_stats *ev_report_stats(const ev_report *rep);

/** The buckets after the consumer's finish (0 of them for a log without
 *  timed events). Owned by `rep`. */
EV_API const ev_report_grid *ev_report_buckets(const ev_report *rep);

/** Number of processes after the consumer's finish, in capset order; caps
 *  of no known process come last, as one process with `known` 0. */
EV_API size_t ev_report_process_count(const ev_report *rep);

/** Process `i`, or NULL out of range. Owned by `rep`. */
EV_API const ev_report_process *ev_report_process_at(const ev_report *rep,
						     size_t i);

/** The heap profile, or NULL when the log has no sample. Owned by `rep`. */
EV_API const ev_report_profile *ev_report_heap_profile(const ev_report *rep);

/** Span series after ev_stats_finish: up to EV_REPORT_MAX_SPAN_SERIES. */
EV_API size_t ev_report_span_series_count(const ev_report *rep);

/** Series `i`, or NULL out of range; owned by `rep`. */
EV_API const ev_report_span_series *ev_report_span_series_at(
	const ev_report *rep, size_t i);

/** Details of the last failure. */
EV_API const ev_diag *ev_report_diag(const ev_report *rep);

/* Limits that keep an accumulator's memory bounded on hostile input. */
#define EV_REPORT_MAX_BUCKETS 65536u   /**< ev_report_options.buckets */
#define EV_REPORT_MAX_CAPS 1024u       /**< capabilities with a timeline */
#define EV_REPORT_MAX_PROCESSES 256u   /**< OS-process capsets */
#define EV_REPORT_MAX_MARKERS 1000u    /**< markers kept; the rest counted */
#define EV_REPORT_MAX_LABELS 256u      /**< heap-profile labels kept apart;
					    later ones join "(other)" */
#define EV_REPORT_MAX_TEXT 256u        /**< bytes kept of one string */
#define EV_REPORT_MAX_ARGS 4096u       /**< bytes kept of PROGRAM_ARGS */

#ifdef __cplusplus
}
#endif

#endif
