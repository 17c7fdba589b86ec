/*
 * evtool: what an ev_stats accumulator learns beyond the `+RTS -s`
 * summary: per thread (run time, runs, stop reasons, label), per
 * capability (mutator, GC and idle time, migrations), the distribution of
 * GC pauses (percentiles and the longest ones, overall and per
 * generation), the running totals of a log still being read, and the
 * named figures and conditions of a performance gate.
 *
 * The same accumulator collects all of it while it is fed events
 * (ev_stats_add); the per-thread and per-capability figures and the
 * pause summaries are complete after ev_stats_finish. Memory stays
 * bounded whatever the log's size: when asked to (ev_stats_keep_threads)
 * EV_STATS_MAX_THREADS threads are kept one by one and any further ones
 * are summed into one "other threads" entry; pauses go into a log-linear histogram (percentiles within 1/32
 * of the true value, the maximum exact) and a fixed list of the
 * EV_STATS_LONGEST_PAUSES longest.
 *
 *     ev_stats_keep_threads(st);          // before the first event
 *     ev_reader_feed(reader, ev_stats_consumer(), st);
 *     ev_stats_finish(st);
 *     for (size_t i = 0; i < ev_stats_thread_count(st); i++)
 *             use(ev_stats_thread_at(st, i));
 *     const ev_stats_pauses *all = ev_stats_pauses_of(st, 0,
 *                                                      EV_STATS_ALL_GENS);
 */
#ifndef EVTOOL_STATS_ANALYSIS_H
#define EVTOOL_STATS_ANALYSIS_H

#include "common.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Threads
 * ---------------------------------------------------------------------- */

/** STOP_THREAD (2) status codes counted, 0 to 20 (doc/format.md section 5);
 *  a larger code counts as 0, "no stop status". */
#define EV_STATS_STOP_REASONS 21u
/** The stop reason of a thread that finished ("thread finished"), in
 *  stops_by_reason whatever numbering the log's header gives. */
#define EV_STATS_STOP_FINISHED 5u
/** Threads kept one by one; the ones first seen after them are summed
 *  into ev_stats_thread_others(). About 230 bytes each. */
#define EV_STATS_MAX_THREADS 65536u
/** Bytes of a thread's label kept (THREAD_LABEL, 44); longer ones are
 *  cut at a UTF-8 character boundary. */
#define EV_STATS_MAX_LABEL 255u

/** One Haskell thread: its runs between RUN_THREAD (1) and STOP_THREAD
 *  (2) on a capability. */
typedef struct ev_stats_thread {
	uint32_t tid;         /**< 0 in the total and "others" entries */
	const char *label;    /**< its last THREAD_LABEL, or NULL */
	uint64_t runs;        /**< RUN_THREAD events */
	uint64_t run_ns;      /**< time between its runs and their stops */
	uint64_t migrations;  /**< MIGRATE_THREAD (4) events */
	uint64_t stops;       /**< STOP_THREAD events, all reasons */
	/** STOP_THREAD events by status code; names from
	 *  ev_stats_stop_reason_name(). */
	uint64_t stops_by_reason[EV_STATS_STOP_REASONS];
} ev_stats_thread;

/**
 * Keeps every thread's figures (up to EV_STATS_MAX_THREADS), not only
 * their total: memory then grows with the number of threads. Call it
 * before the first event; EV_OK, or EV_EINVAL after one.
 */
EV_API int ev_stats_keep_threads(ev_stats *st);

/** Threads kept one by one, in the order they were first seen; 0 unless
 *  ev_stats_keep_threads was called. */
EV_API size_t ev_stats_thread_count(const ev_stats *st);

/** Thread `i` (< ev_stats_thread_count), or NULL out of range. Owned by
 *  `st`, valid until ev_stats_free; complete after ev_stats_finish. */
EV_API const ev_stats_thread *ev_stats_thread_at(const ev_stats *st,
						 size_t i);

/** The sum over every thread of the log, kept or not (tid 0, no label). */
EV_API const ev_stats_thread *ev_stats_thread_total(const ev_stats *st);

/**
 * The sum over the threads first seen after EV_STATS_MAX_THREADS others
 * (tid 0, no label), or NULL when every thread was kept.
 */
EV_API const ev_stats_thread *ev_stats_thread_others(const ev_stats *st);

/** The text ghc-events shows for STOP_THREAD status `code` ("blocked on
 *  an MVar" for 7); "No stop thread status" for unknown codes. */
EV_API const char *ev_stats_stop_reason_name(unsigned code);

/* ------------------------------------------------------------------------
 * Capabilities
 * ---------------------------------------------------------------------- */

/** How one capability spent its process's elapsed time. */
typedef struct ev_stats_capability {
	uint16_t cap;
	int have_process;      /**< it belongs to a process ... */
	uint32_t capset;       /**< ... of this capset */
	uint64_t span_ns;      /**< its process's elapsed time (else its own
				    first to last event) */
	uint64_t mutator_ns;   /**< running Haskell threads */
	uint64_t gc_ns;        /**< between its GC_START and GC_END */
	uint64_t idle_ns;      /**< the rest of span_ns */
	uint64_t runs;         /**< RUN_THREAD events on it */
	uint64_t migrations_out; /**< threads it sent to another cap */
	uint64_t migrations_in;  /**< threads other caps sent to it */
} ev_stats_capability;

/** Capabilities that posted events, after ev_stats_finish. */
EV_API size_t ev_stats_capability_count(const ev_stats *st);

/** Capability `i` in cap order, or NULL out of range. Owned by `st`. */
EV_API const ev_stats_capability *ev_stats_capability_at(const ev_stats *st,
							 size_t i);

/* ------------------------------------------------------------------------
 * GC pauses
 * ---------------------------------------------------------------------- */

/** How many of the longest pauses are kept. */
#define EV_STATS_LONGEST_PAUSES 10u
/** The `gen` of ev_stats_pauses_of() for every generation together. */
#define EV_STATS_ALL_GENS 0xffffu
/** Processes whose pauses are analysed; a further process's pauses are
 *  still in its ev_stats_process figures but ev_stats_pauses_of() gives
 *  NULL for it. About 10 KB per process and generation. */
#define EV_STATS_MAX_PAUSE_PROCESSES 64u

/** One collection's pause, on the cap that led it. */
typedef struct ev_stats_pause {
	uint64_t start_ns;    /**< its GC_START's timestamp */
	uint64_t duration_ns; /**< GC_END - GC_START */
	uint16_t gen;         /**< the generation collected */
	uint16_t cap;         /**< the cap that led it */
} ev_stats_pause;

/** The distribution of a set of pauses. Percentiles are by nearest rank
 *  (the ceil(q * count)th shortest pause): exact when that pause is among
 *  the longest kept or is the shortest, else taken from a histogram whose
 *  buckets are 1/32 of their value wide, so at most 1/32 above the true
 *  one, and never above max. */
typedef struct ev_stats_pauses {
	uint64_t count;
	uint64_t total_ns;
	uint64_t min_ns, max_ns; /**< exact */
	uint64_t p50_ns, p90_ns, p99_ns;
	size_t n_longest;        /**< up to EV_STATS_LONGEST_PAUSES */
	ev_stats_pause longest[EV_STATS_LONGEST_PAUSES]; /**< longest first,
				      ties by start time */
} ev_stats_pauses;

/**
 * The pauses of process `process` (as ev_stats_process_at) in generation
 * `gen`, or in all of them for EV_STATS_ALL_GENS; after ev_stats_finish.
 * NULL when the process or generation has no timed collection, or the
 * process is past EV_STATS_MAX_PAUSE_PROCESSES. Owned by `st`.
 */
EV_API const ev_stats_pauses *ev_stats_pauses_of(const ev_stats *st,
						 size_t process, unsigned gen);

/**
 * The `q` quantile (0 < q <= 1) of the same pauses, after ev_stats_finish,
 * computed as the percentiles of ev_stats_pauses are. EV_OK, or EV_EINVAL
 * when there are no such pauses or q is out of range.
 */
EV_API int ev_stats_pause_quantile(const ev_stats *st, size_t process,
				   unsigned gen, double q, uint64_t *ns);

/** Called for every timed pause as it is added; see ev_stats_on_pause. */
typedef void (*ev_stats_pause_fn)(void *ctx, uint32_t capset,
				  const ev_stats_pause *pause);

/** Calls `fn` (NULL: none) for each timed pause, in the order the events
 *  come: for a time line of pauses without keeping them all. */
EV_API void ev_stats_on_pause(ev_stats *st, ev_stats_pause_fn fn, void *ctx);

/* ------------------------------------------------------------------------
 * Running totals, for a log still being read
 * ---------------------------------------------------------------------- */

/** The totals over every process of what was added so far. */
typedef struct ev_stats_now {
	uint64_t time_ns;         /**< the latest event time seen */
	uint64_t allocated_bytes; /**< each cap's last HEAP_ALLOCATED */
	uint64_t live_bytes;      /**< each process's last HEAP_LIVE */
	uint64_t heap_bytes;      /**< each process's last HEAP_SIZE */
	uint64_t collections;
	uint64_t gc_elapsed_ns;   /**< timed pauses so far */
} ev_stats_now;

/** Fills `out` with the totals so far; usable before ev_stats_finish. */
EV_API void ev_stats_now_get(const ev_stats *st, ev_stats_now *out);

/**
 * Processes known so far, before ev_stats_finish (0 after it): a live
 * log's, for ev_stats_live_process.
 */
EV_API size_t ev_stats_live_count(const ev_stats *st);

/**
 * Fills `out` with the summary of process `i` (< ev_stats_live_count, in
 * capset order) as ev_stats_finish would compute it if the log ended
 * after the events added so far, leaving the accumulator as it is: for a
 * log still being read (evtool monitor). Its running totals only grow as
 * events are added; after the last event they equal ev_stats_finish's
 * but for collections whose GC_END never came (untimed at the finish).
 * out->gens points into `st`, valid until the next ev_stats_add. EV_OK,
 * or EV_EINVAL out of range or after ev_stats_finish.
 */
EV_API int ev_stats_live_process(ev_stats *st, size_t i,
				 ev_stats_process *out);

/** One more than the highest capability number that posted events so
 *  far, for ev_stats_live_capability. */
EV_API size_t ev_stats_live_cap_limit(const ev_stats *st);

/**
 * Fills `out` with capability `cap`'s figures so far, before
 * ev_stats_finish: mutator_ns counts the runs that have stopped, gc_ns
 * the collections that have ended, span_ns its own first to last event.
 * EV_OK, or EV_EINVAL when `cap` posted nothing or after the finish.
 */
EV_API int ev_stats_live_capability(ev_stats *st, size_t cap,
				    ev_stats_capability *out);

/* ------------------------------------------------------------------------
 * Figures and conditions: a performance gate
 * ---------------------------------------------------------------------- */

/** What a figure counts, and so which units its values take. */
typedef enum ev_stats_unit {
	EV_STATS_UNIT_COUNT = 0, /**< a plain number */
	EV_STATS_UNIT_NS,        /**< a time: ns, us, ms or s */
	EV_STATS_UNIT_BYTES,     /**< B, KB, MB, GB (1000s), KiB, MiB, GiB */
	EV_STATS_UNIT_RATIO,     /**< 0 to 1, or N% */
	EV_STATS_UNIT_BYTES_PER_S /**< bytes per second, as BYTES */
} ev_stats_unit;

/** A named figure of one process ("gc-time", "max-pause"). */
typedef struct ev_stats_figure {
	const char *name;
	ev_stats_unit unit;
	const char *help;  /**< one line for --help and the man page */
} ev_stats_figure;

/** Number of figures. */
EV_API size_t ev_stats_figure_count(void);

/** Figure `i`, or NULL out of range; static storage. */
EV_API const ev_stats_figure *ev_stats_figure_at(size_t i);

/** Index of the figure named `name` ('-' and '_' alike), or -1. */
EV_API int ev_stats_figure_find(const char *name);

/**
 * The value of figure `figure` for process `process`, after
 * ev_stats_finish. EV_OK; EV_EINVAL when either is out of range;
 * EV_END when the process has no such value (no pauses, no heap
 * statistics): *out is then 0.
 */
EV_API int ev_stats_figure_value(const ev_stats *st, size_t process,
				 size_t figure, double *out);

/** Comparison operators of a condition. */
typedef enum ev_stats_op {
	EV_STATS_LT = 0, /**< < */
	EV_STATS_GT,     /**< > */
	EV_STATS_LE,     /**< <= */
	EV_STATS_GE      /**< >= */
} ev_stats_op;

/** What a condition's figure belongs to. */
typedef enum ev_stats_subject {
	EV_STATS_OF_PROCESS = 0, /**< a process: ev_stats_figure_at(figure) */
	EV_STATS_OF_SPAN,        /**< the spans `name` ("span:NAME.FIG",
				      include/evtool/stats_spans.h):
				      figure is an ev_stats_span_figure */
	EV_STATS_OF_BAND         /**< the heap-profile band `name`
				      ("band:NAME.FIG", stats_heap.h):
				      figure 0 peak, 1 mean (bytes) */
} ev_stats_subject;

/** A parsed condition "FIGURE OP VALUE". */
typedef struct ev_stats_condition {
	size_t figure;  /**< index for ev_stats_figure_at, or see subject */
	ev_stats_subject subject;
	const char *name; /**< the span's or band's name, borrowed from the text
			       parsed; NULL for a process figure */
	size_t name_len;
	ev_stats_op op;
	int relative;   /**< VALUE was +N% or -N%: a change from the base */
	double value;   /**< in the figure's base unit; relative: the
			     fraction (+10% is 0.10) */
} ev_stats_condition;

/**
 * Parses a condition: a figure name (or "span:NAME.FIG", FIG one of
 * ev_stats_span_figure_name(): count, total, mean, min, max, p50, p90,
 * p99; or "band:NAME.peak" or "band:NAME.mean", a heap-profile band's
 * residency; NAME runs to the last '.' before the operator), an operator
 * (< > <= >=) and a value that is either absolute, a number with a unit the figure takes
 * ("50ms", "2GiB", "0.9" or "90%" for a ratio), or relative to a base
 * run: a signed percentage, "+10%" or "-5%". Spaces are allowed around
 * the operator. EV_OK, or EV_EINVAL with a message for the user in
 * `diag` (origin EV_ORIGIN_OPTIONS; may be NULL).
 */
EV_API int ev_stats_condition_parse(const char *text, ev_stats_condition *out,
				    ev_diag *diag);

/**
 * Whether the condition holds for `value`: compared with the absolute
 * value, or for a relative one with base * (1 + fraction). Returns 1
 * when it holds, 0 when not, EV_EINVAL for a relative condition without
 * a base (has_base 0).
 */
EV_API int ev_stats_condition_holds(const ev_stats_condition *c,
				    double value, int has_base, double base);

#ifdef __cplusplus
}
#endif

#endif
