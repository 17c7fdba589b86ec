/*
 * evtool: the index behind `evtool view`, the timeline of a log of any
 * size. One streaming pass over a reader's events fills, per capability,
 * a row of time buckets of one power-of-two width: the nanoseconds spent
 * running Haskell threads (RUN_THREAD to STOP_THREAD of the same thread)
 * and in GC (GC_START to GC_END), as `evtool stats --caps` counts them,
 * the thread that ran longest in it, and the offset of the capability's
 * block to read from to find its exact events. When the log outgrows the
 * row, neighbouring buckets are summed (the width doubles); when more
 * capabilities appear than the cell budget holds, too: memory stays within
 * `max_cells` buckets, whatever the log's size. Coarser resolutions are
 * sums of the buckets, so a range's figures are exact at every width a
 * multiple of the bucket's.
 *
 * Beside the rows it keeps the first EV_VIEW_MAX_TEXTS markers, the
 * first EV_VIEW_MAX_TEXTS user messages and the first EV_VIEW_MAX_TEXTS
 * thread labels (cut to EV_VIEW_TEXT_MAX bytes) for search.
 *
 *     ev_view_index *ix;
 *     ev_view_index_new(&ix, 0, NULL);
 *     while ((rc = ev_reader_next(r, &ev)) == EV_OK)
 *             if (ev_view_index_add(ix, &ev) < 0) ... ev_view_index_diag(ix)
 *     ev_view_index_finish(ix);
 *     ev_view_tile(ix, cap, from, to, width, cells);
 */
#ifndef EVTOOL_VIEW_H
#define EVTOOL_VIEW_H

#include "common.h"
#include "reader.h"
#include "stats_analysis.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Buckets of all capabilities together when the caller says 0
 *  (ev_view_memory says their bytes). */
#define EV_VIEW_DEFAULT_CELLS (1u << 19)
/** The fewest buckets a capability's row is given, whatever the budget. */
#define EV_VIEW_MIN_ROW 64u
/** Markers kept for search, and messages, and labels; later ones are
 *  counted. */
#define EV_VIEW_MAX_TEXTS 65536u
/** Bytes of a text kept (cut at a UTF-8 character boundary). */
#define EV_VIEW_TEXT_MAX 128u

/** Heap-profile bands kept by name; the later ones are summed into one
 *  more, "(other)". */
#define EV_VIEW_MAX_BANDS 63u
/** Heap-profile samples kept; past them, evenly thinned. */
#define EV_VIEW_MAX_SAMPLES 4096u

/** The index of one log (opaque). */
typedef struct ev_view_index ev_view_index;

/** The phases of a GC on a capability, as ThreadScope draws them: sync
 *  (GC_START to the first GC_WORK, GC_IDLE or GC_DONE), work, idle and
 *  done (each from its event to the next other one, or GC_END). */
enum ev_view_gc_phase {
	EV_VIEW_GC_SYNC = 0,
	EV_VIEW_GC_WORK = 1,
	EV_VIEW_GC_IDLE = 2,
	EV_VIEW_GC_DONE = 3,
	EV_VIEW_GC_PHASES = 4
};

/** What a capability did within one span of time. */
typedef struct ev_view_cell {
	uint64_t run_ns;  /**< running Haskell threads */
	uint64_t gc_ns;   /**< between its GC_START and GC_END */
	uint64_t idle_ns; /**< the rest of the span inside the run's time */
	uint32_t tid;     /**< the thread that ran longest in it, 0: none */
	/** gc_ns by phase (ev_view_gc_phase): they add up to gc_ns. */
	uint64_t gc_phase_ns[EV_VIEW_GC_PHASES];
} ev_view_cell;

/** The heap within one span of time. */
typedef struct ev_view_heap_cell {
	uint64_t size_bytes;      /**< the largest HEAP_SIZE in it, 0: none */
	uint64_t live_bytes;      /**< the largest HEAP_LIVE in it, 0: none */
	uint64_t allocated_bytes; /**< allocated in it (HEAP_ALLOCATED) */
} ev_view_heap_cell;

/** A capability's sparks within one span of time (SPARK_COUNTERS). */
typedef struct ev_view_spark_cell {
	uint64_t created;   /**< sparks created in it */
	uint64_t converted; /**< sparks converted in it */
	uint64_t pool;      /**< the pool's size at its last count;
			         UINT64_MAX: no count in it */
} ev_view_spark_cell;

/** What a kept text is. */
typedef enum ev_view_text_kind {
	EV_VIEW_MARKER = 0,  /**< USER_MARKER (58) */
	EV_VIEW_MESSAGE = 1, /**< USER_MSG (19) */
	EV_VIEW_LABEL = 2    /**< THREAD_LABEL (44) */
} ev_view_text_kind;

/** Threads summarised one by one; later ones are counted only. */
#define EV_VIEW_MAX_THREADS 65536u

/** A Haskell thread's life, as far as the log tells it. */
typedef struct ev_view_thread {
	uint32_t tid;
	uint64_t created_ns;   /**< CREATE_THREAD (0); UINT64_MAX: not seen */
	uint64_t first_run_ns; /**< its first RUN_THREAD; UINT64_MAX: none */
	uint64_t last_stop_ns; /**< its last STOP_THREAD; UINT64_MAX: none */
	uint64_t finished_ns;  /**< the stop that finished it; UINT64_MAX: none */
	uint64_t runs;         /**< RUN_THREAD events */
	uint64_t run_ns;       /**< time between its runs and their stops */
	uint64_t migrations;   /**< MIGRATE_THREAD (4) events */
	uint16_t last_cap;     /**< where it last ran */
	const char *label;     /**< its last THREAD_LABEL kept, or NULL */
} ev_view_thread;

/** A marker, message or thread label. */
typedef struct ev_view_text {
	uint64_t time;
	uint16_t cap;       /**< EV_NO_CAP for the global buffer */
	uint8_t kind;       /**< ev_view_text_kind */
	uint32_t tid;       /**< the labelled thread (EV_VIEW_LABEL) */
	const char *text;   /**< NUL-terminated, owned by the index */
} ev_view_text;

/** The user's spans kept; later ones are counted. */
#define EV_VIEW_MAX_SPANS 65536u

/** A user's span: a START/STOP pair of USER_MSG of one name on one
 *  Haskell thread, as `evtool stats --spans` pairs them
 *  (include/evtool/stats_spans.h). */
typedef struct ev_view_span {
	uint64_t start_ns, duration_ns;
	uint32_t tid;        /**< the thread, 0: none ran */
	uint16_t cap;        /**< the capability of its STOP */
	uint32_t name_index; /**< its name's, first seen first, from 0 */
	const char *name;    /**< owned by the index */
} ev_view_span;

/** Processes (heap capsets) whose heap is kept apart; the heap events of
 *  further ones count in ev_view_heap only. */
#define EV_VIEW_MAX_HEAP_PROCS 8u

/** Threads given a row of states, the first seen first. */
#define EV_VIEW_MAX_THREAD_ROWS 4096u
/** Buckets of all thread rows together (40 bytes each: 10 MiB), or half
 *  the index's budget when that is less. */
#define EV_VIEW_THREAD_CELLS (1u << 18)
/** Thread events held to be taken in time order (24 bytes each, 12 MiB;
 *  up to twice that while queues grow), or the index's budget of buckets
 *  when that is less (at least 64). */
#define EV_VIEW_REORDER (1u << 19)

/** What a thread did within one span of time. */
typedef struct ev_view_thread_cell {
	uint64_t run_ns;      /**< running (its runs, as stats --threads) */
	uint64_t runnable_ns; /**< created, yielded, woken: waiting to run */
	uint64_t blocked_ns;  /**< stopped for a blocking reason */
	/** The STOP_THREAD status (as ghc-events numbers them, 0 to 20)
	 *  that blocked it longest in the span; 0 when none did. */
	uint8_t reason;
} ev_view_thread_cell;

/** A new, empty index of at most `max_cells` buckets in all (0:
 *  EV_VIEW_DEFAULT_CELLS). EV_ENOMEM. */
EV_API int ev_view_index_new(ev_view_index **out, size_t max_cells,
			     ev_diag *diag);

/** Frees an index; NULL is fine. */
EV_API void ev_view_index_free(ev_view_index *ix);

/**
 * Adds one event as a reader returned it, block markers included (they
 * give the offsets). Events must come in the reader's order. EV_OK;
 * EV_EFORMAT for a thread or GC event too short for its fields, EV_ENOMEM,
 * with ev_view_index_diag() saying where.
 */
EV_API int ev_view_index_add(ev_view_index *ix, const ev_event *ev);

/**
 * Reads `r`'s header (EV_OK, or the reader's failure) and records where
 * its events start (ev_view_data_offset): before the first
 * ev_view_index_add of a caller that feeds the events itself.
 */
EV_API int ev_view_index_begin(ev_view_index *ix, ev_reader *r);

/**
 * Adds every event `r` has left, to its end (EV_END, EV_ETRUNCATED when
 * the input ends before the data end: a later call goes on when it has
 * grown), or the reader's or the index's failure; begins (as
 * ev_view_index_begin) the first time.
 */
EV_API int ev_view_index_read(ev_view_index *ix, ev_reader *r);

/** What went wrong last. */
EV_API const ev_diag *ev_view_index_diag(const ev_view_index *ix);

/** The first event time seen (0 before any event). */
EV_API uint64_t ev_view_start(const ev_view_index *ix);
/** The last event time seen (0 before any event). */
EV_API uint64_t ev_view_end(const ev_view_index *ix);

/** Capabilities: 1 + the highest cap number that posted an event. */
EV_API size_t ev_view_cap_count(const ev_view_index *ix);

/** The width of a bucket, a power of two nanoseconds. */
EV_API uint64_t ev_view_bucket_ns(const ev_view_index *ix);

/** Bytes the index holds now (its rows and texts). */
EV_API size_t ev_view_memory(const ev_view_index *ix);

/**
 * What `cap` did in `width` equal spans of [from, to): `cells` gets
 * `width` entries. A bucket that a span covers only in part counts in
 * proportion; runs and GCs still open count up to the last event seen.
 * EV_OK; EV_EINVAL for from >= to or width 0.
 */
EV_API int ev_view_tile(const ev_view_index *ix, uint16_t cap, uint64_t from,
			uint64_t to, size_t width, ev_view_cell *cells);

/**
 * The heap in `width` equal spans of [from, to), from the buckets: the
 * largest size and live bytes of the buckets a span touches, and the
 * bytes allocated in them (in proportion for a bucket cut by the span).
 * Their sum over the whole run is `evtool stats`' bytes allocated.
 * EV_OK; EV_EINVAL as ev_view_tile.
 */
EV_API int ev_view_heap(const ev_view_index *ix, uint64_t from, uint64_t to,
			size_t width, ev_view_heap_cell *cells);

/**
 * The heap of one process, as ev_view_heap: its heap events name
 * `capset` (the process's OS-process capset). EV_OK; EV_EINVAL as
 * ev_view_tile or for a capset with no heap events kept.
 */
EV_API int ev_view_heap_of(const ev_view_index *ix, uint32_t capset,
			   uint64_t from, uint64_t to, size_t width,
			   ev_view_heap_cell *cells);

/** Capsets whose heap is kept apart (ev_view_heap_of). */
EV_API size_t ev_view_heap_count(const ev_view_index *ix);
/** Capset `i` of them, first seen first; UINT32_MAX out of range. */
EV_API uint32_t ev_view_heap_capset(const ev_view_index *ix, size_t i);

/**
 * `cap`'s sparks in `width` equal spans of [from, to), from the buckets
 * (created and converted in proportion for a bucket cut by the span).
 * Their sums over the whole run are `evtool stats`' sparks created and
 * converted. EV_OK; EV_EINVAL as ev_view_tile.
 */
EV_API int ev_view_sparks(const ev_view_index *ix, uint16_t cap,
			  uint64_t from, uint64_t to, size_t width,
			  ev_view_spark_cell *cells);

/**
 * The offset of a block marker of `cap` (EV_NO_CAP: the global buffer)
 * from which a reader finds every event of `cap` at or after `time`
 * (earlier ones come first, to be skipped). The data offset when the cap
 * has no block yet.
 */
EV_API uint64_t ev_view_block_at(const ev_view_index *ix, uint16_t cap,
				 uint64_t time);

/**
 * What `cap` did in `width` equal spans of [from, to), exactly, from its
 * events: `r` reads the log from ev_view_block_at(ix, cap, from) (an
 * ev_view_source), and is read up to the cap's first event at or after
 * `to`. A run or GC still open there counts up to `to`. For ranges of a
 * few buckets, where ev_view_tile can only share a bucket out in
 * proportion. EV_OK, EV_EINVAL as ev_view_tile, or the reader's failure.
 */
EV_API int ev_view_tile_exact(const ev_view_index *ix, ev_reader *r,
			      uint16_t cap, uint64_t from, uint64_t to,
			      size_t width, ev_view_cell *cells);

/**
 * What `cap` did in [from, to) as `evtool stats` counts it in a slice of
 * the log that keeps only the events of [from, to) (`evtool filter --from
 * --to`): the runs and GCs whose start and end events both lie inside,
 * whole; one that crosses the start counts nothing, a run that crosses
 * the end counts up to the cap's last event inside (ev_view_whole_exact
 * of the window's last part says it). Here from the buckets:
 * the runs and GCs that end in [from, to), multiples of
 * ev_view_bucket_ns, and start at or after `since` (<= from); `c` gets
 * run_ns and gc_ns. A window whose edges cut buckets adds the parts at
 * either end from ev_view_whole_exact, with the same `since`. EV_OK;
 * EV_EINVAL for from >= to, since > from or an edge off a bucket's.
 */
EV_API int ev_view_whole(const ev_view_index *ix, uint16_t cap,
			 uint64_t since, uint64_t from, uint64_t to,
			 ev_view_cell *c);

/**
 * As ev_view_whole, exactly from the events, for any [from, to) of the
 * window [since, until): `r` reads the log from ev_view_block_at(ix, cap,
 * from) (an ev_view_source) up to the cap's first event at or after
 * `to`. When `to` is the window's end, a run still open there that began
 * inside counts up to the cap's last event before it, as `evtool stats`
 * ends a run still open at the end of what it reads (a GC, nothing).
 * EV_OK, EV_EINVAL (from >= to, since > from, to > until), or the
 * reader's failure.
 */
EV_API int ev_view_whole_exact(const ev_view_index *ix, ev_reader *r,
			       uint16_t cap, uint64_t since, uint64_t from,
			       uint64_t to, uint64_t until, ev_view_cell *c);

/** GC pauses kept for a window's figures (32 bytes each: 8 MiB), the
 *  first to end first; later ones are counted (ev_view_pauses_dropped). */
#define EV_VIEW_MAX_PAUSES (1u << 18)

/**
 * The GC pauses of process `capset` (the capset its GC_STATS_GHC names)
 * in [from, to), all generations, as `evtool stats` gives them
 * (ev_stats_pauses_at) for the slice `evtool filter --from --to` keeps:
 * the collections whose GC_START, GC_STATS_GHC and GC_END on the cap
 * that led them all lie inside, each lasting GC_START to GC_END. From the
 * pauses the index keeps, so as exact as stats' own figures. *complete
 * is 0 when pauses past EV_VIEW_MAX_PAUSES were dropped and `to` lies
 * past the start of the first dropped one: the figures are then those of
 * the kept pauses only. EV_OK (out->count 0: none), EV_EINVAL for
 * from >= to, EV_ENOMEM.
 */
EV_API int ev_view_pauses(const ev_view_index *ix, uint32_t capset,
			  uint64_t from, uint64_t to, ev_stats_pauses *out,
			  int *complete);

/** Pauses seen past EV_VIEW_MAX_PAUSES, not kept. */
EV_API uint64_t ev_view_pauses_dropped(const ev_view_index *ix);

/** A capability's running total of bytes allocated (HEAP_ALLOCATED, 49)
 *  within a range, and its first event there that is not metadata. */
typedef struct ev_view_alloc {
	int have;             /**< a HEAP_ALLOCATED of the cap in the range */
	uint64_t first, last; /**< the total at its first and at its last */
	int have_work;        /**< an event that is not metadata (exact only) */
	uint64_t first_work_ns; /**< the first of them */
} ev_view_alloc;

/** HEAP_ALLOCATED events kept for a window's allocation (24 bytes each:
 *  6 MiB), the first to come; past them a window's allocation is read
 *  from the buckets and the events (ev_view_alloc_whole, _exact). */
#define EV_VIEW_MAX_ALLOCS (1u << 18)

/**
 * The HEAP_ALLOCATED totals of caps 0 to n_caps - 1 in [from, to), in
 * `a[cap]`, from the events the index keeps (have_work stays 0). 1 when
 * they hold every one of the range, 0 when some past EV_VIEW_MAX_ALLOCS
 * may lie in it (then `a` is not set: ev_view_alloc_whole and _exact
 * answer), EV_EINVAL for from >= to.
 */
EV_API int ev_view_alloc_kept(const ev_view_index *ix, uint64_t from,
			      uint64_t to, ev_view_alloc *a, size_t n_caps);

/**
 * `cap`'s HEAP_ALLOCATED totals in [from, to) from the buckets (multiples
 * of ev_view_bucket_ns; have_work stays 0). EV_OK; EV_EINVAL for
 * from >= to or an edge off a bucket's.
 */
EV_API int ev_view_alloc_whole(const ev_view_index *ix, uint16_t cap,
			       uint64_t from, uint64_t to, ev_view_alloc *a);

/**
 * The same exactly from the events, for any [from, to): `r` reads the log
 * from ev_view_block_at(ix, cap, from) (an ev_view_source) up to the
 * cap's first event at or after `to`. EV_OK, EV_EINVAL (from >= to) or
 * the reader's failure.
 */
EV_API int ev_view_alloc_exact(const ev_view_index *ix, ev_reader *r,
			       uint16_t cap, uint64_t from, uint64_t to,
			       ev_view_alloc *a);

/** `a` followed by `later` (of the range right after a's): the first
 *  total from the earlier, the last from the later. */
EV_API void ev_view_alloc_join(ev_view_alloc *a, const ev_view_alloc *later);

/**
 * `evtool stats` counts a process's running totals (bytes allocated)
 * from their first value in a slice when it takes the slice for a part
 * of its run: when the process's capabilities have no event that is not
 * metadata within a few milliseconds of its start `start_ns` (its
 * CAPSET_CREATE). This is the end of that part of [from, to): when the
 * process's caps have no such event in [from, ev_view_slice_until(...))
 * (ev_view_alloc_exact's have_work), the slice counts from the first
 * values; `from` when [from, to) starts past it (always a slice).
 */
EV_API uint64_t ev_view_slice_until(uint64_t start_ns, uint64_t from,
				    uint64_t to);

/** Where the events start: the offset after the header. */
EV_API uint64_t ev_view_data_offset(const ev_view_index *ix);

/** The summary of thread `tid`, or NULL when it was not seen or not kept
 *  (past EV_VIEW_MAX_THREADS); owned by the index, valid until its next
 *  ev_view_index_add. */
EV_API const ev_view_thread *ev_view_thread_find(const ev_view_index *ix,
						 uint32_t tid);

/** Thread summary `i` (< ev_view_thread_count), first seen first, or NULL
 *  out of range; the first EV_VIEW_MAX_THREAD_ROWS have rows. Owned by the
 *  index, valid until its next ev_view_index_add. */
EV_API const ev_view_thread *ev_view_thread_at(const ev_view_index *ix,
					       size_t i);

/** Threads summarised, and those seen past EV_VIEW_MAX_THREADS. */
EV_API size_t ev_view_thread_count(const ev_view_index *ix);
/** Threads seen but not summarised. */
EV_API uint64_t ev_view_threads_dropped(const ev_view_index *ix);

/** The width of a thread row's bucket (a power of two ns, at least
 *  ev_view_bucket_ns). */
EV_API uint64_t ev_view_thread_bucket_ns(const ev_view_index *ix);

/** Threads with a row (the first EV_VIEW_MAX_THREAD_ROWS). */
EV_API size_t ev_view_thread_rows(const ev_view_index *ix);

/**
 * What thread `tid` did in `width` equal spans of [from, to), from its
 * row: running (its runs, which add up to its run_ns), runnable and
 * blocked (from its events in time order: created or woken is runnable,
 * a STOP_THREAD leaves it runnable, blocked or finished by its status)
 * and the reason that blocked it longest. A bucket that a span covers in
 * part counts in proportion. The thread events are taken in time order
 * through queues of EV_VIEW_REORDER: the states of those still in them
 * come in with ev_view_index_finish. EV_OK; EV_EINVAL
 * as ev_view_tile, or for a thread without a row.
 */
EV_API int ev_view_thread_tile(const ev_view_index *ix, uint32_t tid,
			       uint64_t from, uint64_t to, size_t width,
			       ev_view_thread_cell *cells);

/** A thread's state in an ev_view_thread_interval. */
enum ev_view_thread_state {
	EV_VIEW_THREAD_RUNNING = 1,  /**< from its RUN_THREAD */
	EV_VIEW_THREAD_RUNNABLE = 2, /**< created, yielded, woken */
	EV_VIEW_THREAD_BLOCKED = 3   /**< stopped for a blocking reason */
};

/** One state of a thread, [from, to), as its events give it. */
typedef struct ev_view_thread_interval {
	uint64_t from, to;
	uint8_t state;  /**< ev_view_thread_state */
	uint8_t reason; /**< the STOP_THREAD status that left it so, 0: none */
} ev_view_thread_interval;

/** The exact states of some threads in a short range, from their events
 *  (ev_view_thread_replay_new). */
typedef struct ev_view_thread_replay ev_view_thread_replay;

/**
 * A replay of the threads `tids` (`n` of them, each with a row) over
 * [from, to): each starts in the state its row's index keeps for the
 * start of its bucket that holds `from` (ev_view_thread_replay_start),
 * then follows its events by ev_view_thread_tile's rules, in time order
 * (ties: in the order given). Give it every capability's events from
 * there with ev_view_thread_replay_read, then ev_view_thread_replay_finish.
 * The caller owns *out (ev_view_thread_replay_free). EV_OK; EV_EINVAL as
 * ev_view_tile or for a thread without a row, EV_ENOMEM.
 */
EV_API int ev_view_thread_replay_new(ev_view_thread_replay **out,
				     const ev_view_index *ix,
				     const uint32_t *tids, size_t n,
				     uint64_t from, uint64_t to);
/** Where the events must be read from: a time at or before `from`. */
EV_API uint64_t ev_view_thread_replay_start(const ev_view_thread_replay *rp);
/**
 * Takes the thread events of capability `cap` that `r` reads (from
 * ev_view_block_at(ix, cap, ev_view_thread_replay_start(rp)), an
 * ev_view_cap_source), up to its first event at or after the range's
 * end. EV_OK, EV_ENOMEM, or the reader's failure.
 */
EV_API int ev_view_thread_replay_read(ev_view_thread_replay *rp,
				      ev_reader *r, uint16_t cap);
/**
 * Replays the events taken. A state still open at `to` lasts to it,
 * unless the thread's last event in the log began it (the rows count a
 * state from the event that begins it to the next). EV_OK, EV_ENOMEM.
 */
EV_API int ev_view_thread_replay_finish(ev_view_thread_replay *rp);
/** Thread `k`'s (of `tids`) states in [from, to) after the finish, in
 *  time order, cut to the range; their number. Borrowed from `rp`. */
EV_API size_t ev_view_thread_replay_intervals(const ev_view_thread_replay *rp,
					      size_t k,
					      const ev_view_thread_interval **out);
/** Thread `k`'s states in `width` equal spans of the range, as
 *  ev_view_thread_tile gives them, exactly. EV_OK; EV_EINVAL. */
EV_API int ev_view_thread_replay_tile(const ev_view_thread_replay *rp,
				      size_t k, size_t width,
				      ev_view_thread_cell *cells);
/** Frees `rp`; NULL is fine. */
EV_API void ev_view_thread_replay_free(ev_view_thread_replay *rp);

/**
 * Ends the index of a log that has ended: the thread events still held
 * for their order are taken in (ev_view_index_read does it at EV_END).
 */
EV_API void ev_view_index_finish(ev_view_index *ix);

/** Texts kept, in log order. */
EV_API size_t ev_view_text_count(const ev_view_index *ix);
/** Text `i`, or NULL out of range; owned by the index. */
EV_API const ev_view_text *ev_view_text_at(const ev_view_index *ix, size_t i);
/** Texts not kept, past EV_VIEW_MAX_TEXTS of their kind. */
EV_API uint64_t ev_view_texts_dropped(const ev_view_index *ix);

/** The user's spans kept, in the order they ended. */
EV_API size_t ev_view_span_count(const ev_view_index *ix);
/** Spans that ended past EV_VIEW_MAX_SPANS (not kept). */
EV_API uint64_t ev_view_spans_dropped(const ev_view_index *ix);
/** Fills `out` with span `i`: EV_OK, or EV_EINVAL out of range. */
EV_API int ev_view_span_at(const ev_view_index *ix, size_t i,
			   ev_view_span *out);
/** Names of spans seen (a span's name_index is below it). */
EV_API size_t ev_view_span_name_count(const ev_view_index *ix);
/** Name `i`, or NULL out of range; owned by the index. */
EV_API const char *ev_view_span_name(const ev_view_index *ix, size_t i);


/* ---- a cache file ----
 * A complete index saved to a file and loaded again instead of reading
 * the log, while the log is what it was. */

/** What a cache is checked against: the log's size, its modification
 *  time (ns) and an xxh3-64 digest of its first and last MiB. */
typedef struct ev_view_log_id {
	uint64_t size;
	uint64_t mtime_ns;
	uint64_t digest;
} ev_view_log_id;

/** The identity of the log open on `fd` (read with pread). EV_OK,
 *  EV_EIO. */
EV_API int ev_view_log_id_of(int fd, ev_view_log_id *out);

/**
 * Writes the index (complete: every event added) to `fd` (a new file,
 * from where it stands), with the log's `id`. EV_OK, EV_EIO (errno says
 * why).
 */
EV_API int ev_view_index_save(const ev_view_index *ix, int fd,
			      const ev_view_log_id *id);

/**
 * Reads an index ev_view_index_save wrote to `fd` (from its start; the
 * descriptor's offset moves): *out when it was
 * written by this build for the log `id`; *out NULL (a stale, foreign or
 * damaged file, to be replaced) otherwise. EV_OK; EV_EIO, EV_ENOMEM.
 */
EV_API int ev_view_index_load(ev_view_index **out, int fd,
			      const ev_view_log_id *id);

/* ---- the heap profile (-hc, -hy, -hT, ...: HEAP_PROF_SAMPLE_*) ----
 * The samples of the log's first heap profile, each band's bytes in it
 * (its entries summed by band name, the name `evtool export --format hp`
 * gives), kept evenly thinned to at most EV_VIEW_MAX_SAMPLES: the first
 * EV_VIEW_MAX_BANDS bands by first sight, then "(other)". */

/** Bands (0: no heap profile). */
EV_API size_t ev_view_band_count(const ev_view_index *ix);
/** Band `band`'s name, owned by the index; NULL out of range. */
EV_API const char *ev_view_band_name(const ev_view_index *ix, size_t band);
/** Band `band`'s bytes summed over every sample of the log (its rank). */
EV_API uint64_t ev_view_band_total(const ev_view_index *ix, size_t band);
/** The profile's breakdown, HEAP_PROF_BEGIN's (1: by cost centre, 2:
 *  module, 3: description, 4: type, 5: retainer, 6: biography, 7:
 *  closure type, ...; as ev_stats_breakdown_flag names them); 0: none. */
EV_API uint32_t ev_view_band_breakdown(const ev_view_index *ix);
/** Samples kept, in time order. */
EV_API size_t ev_view_sample_count(const ev_view_index *ix);
/** Samples in the log (kept or not). */
EV_API uint64_t ev_view_samples_seen(const ev_view_index *ix);
/** Sample `sample`'s time (its HEAP_PROF_SAMPLE_BEGIN's). */
EV_API uint64_t ev_view_sample_time(const ev_view_index *ix, size_t sample);
/** Band `band`'s bytes in sample `sample`; 0 out of range. */
EV_API uint64_t ev_view_sample_bytes(const ev_view_index *ix, size_t sample,
				     size_t band);

/* ---- the preview ----
 * The whole run's picture before the index has read it: per capability,
 * the time running and in GC (by ev_view_tile's rules) in a fixed grid of
 * EV_VIEW_PREVIEW_BUCKETS buckets (fewer when many capabilities post
 * events) of a power of two ns from time 0, covering the latest end time
 * of the blocks, read by workers over the blocks of a plain log. Exact at
 * its resolution: a bucket holds what the index's buckets of its time
 * add up to. */

/** Buckets of a preview's row. */
#define EV_VIEW_PREVIEW_BUCKETS 2048u

/** A preview (opaque). */
typedef struct ev_view_preview ev_view_preview;

/**
 * The preview of the log `r` reads (opened on a plain file, nothing read
 * yet), on `threads` workers (0: one). EV_OK and *out (the caller frees
 * it); EV_END, *out NULL, for a log it cannot preview (compressed, not a
 * regular file, not one session tiled by blocks, damaged: the index
 * reads and reports it); EV_ENOMEM. The reader is left as it was.
 */
EV_API int ev_view_preview_new(ev_view_preview **out, ev_reader *r,
			       unsigned threads);
/** Frees a preview; NULL is fine. */
EV_API void ev_view_preview_free(ev_view_preview *pv);
/** Its bucket's width. */
EV_API uint64_t ev_view_preview_bucket_ns(const ev_view_preview *pv);
/** The first event time of the log. */
EV_API uint64_t ev_view_preview_start(const ev_view_preview *pv);
/** The last event time of the log. */
EV_API uint64_t ev_view_preview_end(const ev_view_preview *pv);
/** 1 + the highest capability that ran a thread or a GC. */
EV_API size_t ev_view_preview_cap_count(const ev_view_preview *pv);
/** As ev_view_tile, from the preview's buckets: run_ns, gc_ns (all in
 *  the sync phase), idle_ns; tid 0. EV_OK; EV_EINVAL as ev_view_tile. */
EV_API int ev_view_preview_tile(const ev_view_preview *pv, uint16_t cap,
				uint64_t from, uint64_t to, size_t width,
				ev_view_cell *cells);

/**
 * Reading a plain log on a descriptor from one of its blocks: the header
 * (the bytes before ev_view_data_offset), then the log from `at`, so that
 * a reader sees a log whose first block is the one asked for. The caller
 * owns it and the descriptor; fill it and give ev_view_source_read and it
 * to ev_reader_open_fn (with EV_READER_RAW).
 */
typedef struct ev_view_source {
	int fd;              /**< the plain log, read with pread */
	uint64_t header_len; /**< ev_view_data_offset() */
	uint64_t at;         /**< ev_view_block_at() */
	uint64_t pos;        /**< bytes given so far; 0 to start */
} ev_view_source;

/** An ev_read_fn over an ev_view_source. */
EV_API int ev_view_source_read(void *ctx, void *dst, size_t cap, size_t *got);

/**
 * The first block of `cap` (EV_NO_CAP: the global buffer) at or after
 * `at`, the offset of a block marker in the log of `s`: hops over the
 * other capabilities' blocks by their declared sizes, reading only their
 * markers, so that a capability's events are found past any amount of
 * the others'. *out gets that block's offset, or the offset of the first
 * bytes that are not a block marker (an event outside every block, the
 * data end, a marker too short), from which a reader goes on as ever.
 * EV_OK, EV_EIO.
 */
EV_API int ev_view_source_seek(const ev_view_source *s, uint16_t cap,
			       uint64_t at, uint64_t *out);

/**
 * One capability's blocks of a plain log, from one of them: the header,
 * then the block at `src.at` and the capability's later blocks, the
 * others' hopped over (ev_view_source_seek), so that a reader of one
 * capability's events reads none of the others'. Bytes that are no block
 * marker where a block should start (an event outside every block, the
 * data end) are given with all that follows. The events' offsets are
 * not the log's. Fill `src` as for ev_view_source_read, the rest 0.
 */
typedef struct ev_view_cap_source {
	ev_view_source src;
	uint16_t cap;  /**< the capability (EV_NO_CAP: the global buffer) */
	uint64_t left; /**< bytes of the current block still to give */
	int all;       /**< past the blocks: everything is given */
} ev_view_cap_source;

/** An ev_read_fn over an ev_view_cap_source. */
EV_API int ev_view_cap_source_read(void *ctx, void *dst, size_t cap,
				   size_t *got);

#ifdef __cplusplus
}
#endif

#endif
