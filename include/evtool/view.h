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
 *     ev_view_index_new(&ix, 0);
 *     while ((rc = ev_reader_next(r, &ev)) == EV_OK)
 *             if (ev_view_index_add(ix, &ev) < 0) ... ev_view_index_diag(ix)
 *     ev_view_index_finish(ix);
 *     ev_view_tile(ix, cap, from, to, width, cells);
 */
#ifndef EVTOOL_VIEW_H
#define EVTOOL_VIEW_H

#include "common.h"
#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Buckets of all capabilities together when the caller says 0 (64
 *  bytes each: 32 MiB). */
#define EV_VIEW_DEFAULT_CELLS (1u << 19)
/** The fewest buckets a capability's row is given, whatever the budget. */
#define EV_VIEW_MIN_ROW 64u
/** Markers kept for search, and messages, and labels; later ones are
 *  counted. */
#define EV_VIEW_MAX_TEXTS 65536u
/** Bytes of a text kept (cut at a UTF-8 character boundary). */
#define EV_VIEW_TEXT_MAX 128u

/** The index of one log (opaque). */
typedef struct ev_view_index ev_view_index;

/** What a capability did within one span of time. */
typedef struct ev_view_cell {
	uint64_t run_ns;  /**< running Haskell threads */
	uint64_t gc_ns;   /**< between its GC_START and GC_END */
	uint64_t idle_ns; /**< the rest of the span inside the run's time */
	uint32_t tid;     /**< the thread that ran longest in it, 0: none */
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

/** A new, empty index of at most `max_cells` buckets in all (0:
 *  EV_VIEW_DEFAULT_CELLS). EV_ENOMEM. */
EV_API int ev_view_index_new(ev_view_index **out, size_t max_cells);

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

/** Where the events start: the offset after the header. */
EV_API uint64_t ev_view_data_offset(const ev_view_index *ix);

/** The summary of thread `tid`, or NULL when it was not seen or not kept
 *  (past EV_VIEW_MAX_THREADS); owned by the index, valid until its next
 *  ev_view_index_add. */
EV_API const ev_view_thread *ev_view_thread_of(const ev_view_index *ix,
					       uint32_t tid);

/** Threads summarised, and those seen past EV_VIEW_MAX_THREADS. */
EV_API size_t ev_view_thread_count(const ev_view_index *ix);
/** Threads seen but not summarised. */
EV_API uint64_t ev_view_threads_dropped(const ev_view_index *ix);

/** Texts kept, in log order. */
EV_API size_t ev_view_text_count(const ev_view_index *ix);
/** Text `i`, or NULL out of range; owned by the index. */
EV_API const ev_view_text *ev_view_text_at(const ev_view_index *ix, size_t i);
/** Texts not kept, past EV_VIEW_MAX_TEXTS of their kind. */
EV_API uint64_t ev_view_texts_dropped(const ev_view_index *ix);


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

#ifdef __cplusplus
}
#endif

#endif
