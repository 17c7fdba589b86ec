/*
 * What view_index.c builds and view_query.c reads: the rows of buckets of
 * `evtool view`'s index (include/evtool/view.h).
 */
#ifndef EVTOOL_VIEW_INTERNAL_H
#define EVTOOL_VIEW_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evtool/view.h"
#include "idmap.h"

/* The run and the GC open on a capability, at some point of its events. */
typedef struct view_open {
	uint64_t run_start, gc_start;
	uint64_t last; /* the time of the cap's last event before it */
	uint32_t tid;
	uint8_t running, in_gc;
	uint8_t gc_phase;     /* 1 + ev_view_gc_phase; 0: none (view_gc.c) */
	uint64_t phase_start; /* since when */
} view_open;

/* What RUN_THREAD (1), STOP_THREAD (2) of thread `tid`, GC_START (9) or
 * GC_END (10) at `time` does to the run and the GC open on its capability
 * (the rules of the file comment of view_index.c, one place for the index
 * and the preview): 1 when it ends a run or a GC, which began at *from
 * (the run: of thread `tid`; empty when time <= *from); else 0. */
static inline int evi_view_open_step(view_open *o, uint16_t type,
				     uint64_t time, uint32_t tid,
				     uint64_t *from)
{
	switch (type) {
	case EV_RUN_THREAD:
		o->running = 1;
		o->tid = tid;
		o->run_start = time;
		return 0;
	case EV_STOP_THREAD:
		if (!o->running || o->tid != tid)
			return 0;
		o->running = 0;
		*from = o->run_start;
		return 1;
	case EV_GC_START:
		o->in_gc = 1;
		o->gc_start = time;
		return 0;
	case EV_GC_END:
		if (!o->in_gc)
			return 0;
		o->in_gc = 0;
		*from = o->gc_start;
		return 1;
	default:
		return 0;
	}
}

/* A GC phase that ended: [from, to) in `phase` (ev_view_gc_phase). */
typedef struct view_piece {
	uint64_t from, to;
	unsigned phase;
} view_piece;

/* Moves `o`'s GC phase on by `ev` (of its capability); 1 with the phase
 * that ended in *out, else 0 (view_gc.c). */
int evi_view_gc_phase(view_open *o, const ev_event *ev, view_piece *out);

/* Sets `c`'s sync phase to the rest of its GC time once its other phases
 * are in (view_gc.c). */
void evi_view_cell_sync(ev_view_cell *c);

/* Ends the cell of span [lo, hi): its sync phase, and its idle time, the
 * rest of the span inside the log's first to last event, [start, end]. */
static inline void evi_view_cell_end(ev_view_cell *c, uint64_t lo,
				     uint64_t hi, uint64_t start, uint64_t end)
{
	uint64_t a = lo > start ? lo : start, z = hi < end ? hi : end;

	evi_view_cell_sync(c);
	if (z > a && z - a > c->run_ns + c->gc_ns)
		c->idle_ns = z - a - c->run_ns - c->gc_ns;
}
/* The runs (RUN_THREAD to STOP_THREAD) or GCs (GC_START to GC_END) that
 * end in a bucket, whole: for a window's figures as `evtool stats` of
 * the window's slice counts them (only what starts and ends inside). */
typedef struct view_ends {
	uint64_t ns;       /* their lengths, summed */
	uint64_t first;    /* the start of the first to end, plus one (0: none) */
	uint64_t first_ns; /* its length */
} view_ends;

/* Whether a capability's event at or after the end of a range read again
 * from the log ends the read: GHC writes GC_GLOBAL_SYNC (54) and
 * GC_STATS_GHC (53) ahead of the GC_END (10) that it stamps earlier
 * (lib/stats/stats.c, gc_timed), so such a GC_END may still lie inside. */
static inline int evi_view_read_ends(const ev_event *ev)
{
	return ev->type != EV_GC_GLOBAL_SYNC && ev->type != EV_GC_STATS_GHC;
}

/* One bucket of a row: 2^shift ns from bucket index << shift. */
typedef struct view_bucket {
	uint64_t run_ns;
	uint64_t gc_ns;
	uint64_t block;  /* the block to read its events from ... */
	view_open open;  /* ... and what was open at that block's start */
	uint64_t tid_ns; /* how long `tid` ran in it */
	uint32_t tid;    /* the thread that ran longest in it, so far */
	/* SPARK_COUNTERS (34) carries the cap's running totals: the sparks
	 * created and converted since the last, and the pool's size at the
	 * last one in the bucket, plus one (0: none). */
	uint64_t sparks_created, sparks_converted, pool;
	/* The GC's work, idle and done phases (view_gc.c) in it; its sync
	 * phase is the rest of gc_ns. */
	uint64_t gc_phase_ns[EV_VIEW_GC_PHASES - 1];
	view_ends run_ends, gc_ends;
	/* The cap's HEAP_ALLOCATED totals at its first and last one in the
	 * bucket, plus one (0: none), for a window's allocation as `evtool
	 * stats` of the window's slice counts it (view_window.c). */
	uint64_t alloc_first, alloc_last;
} view_bucket;

/* The heap in one bucket: HEAP_SIZE (50) and HEAP_LIVE (51) at their
 * largest, and the bytes allocated (HEAP_ALLOCATED (49) carries a
 * capability's running total: the growth since its last one). */
typedef struct view_heap {
	uint64_t size, live, alloc;
} view_heap;

/* A collection being timed on a capability as `evtool stats` times a
 * pause (lib/stats/stats.c, gc_timed): its GC_START, GC_END and
 * GC_STATS_GHC (view_window.c). */
typedef struct view_gc_clock {
	uint64_t start, end, stats_at;
	uint32_t capset;   /* GC_STATS_GHC's */
	uint16_t gen;
	uint8_t have_start, have_end, counted;
} view_gc_clock;

/* A pause kept: GC_START to GC_END on `cap`, whose last event (GC_END or
 * GC_STATS_GHC) is at `last`. */
typedef struct view_pause {
	uint64_t start, duration, last;
	uint32_t capset;
	uint16_t gen, cap;
} view_pause;

/* Events kept for a window's figures (view_window.c): items whose first
 * field is their time, in the log's order, the first `max` to come; of
 * those dropped, the count and the earliest time. */
typedef struct view_kept {
	void *items;
	size_t n, alloc;
	uint64_t dropped, first_dropped;
} view_kept;

/* GC_START, GC_END or GC_STATS_GHC of a cap's row to the pauses. */
int evi_view_pause_event(ev_view_index *ix, view_gc_clock *c,
			 const ev_event *ev);
/* A HEAP_ALLOCATED kept: its time, cap and total. */
typedef struct view_alloc_ev {
	uint64_t time, bytes;
	uint16_t cap;
} view_alloc_ev;

/* HEAP_ALLOCATED's total `bytes` to the bucket of its time. */
void evi_view_alloc_put(view_bucket *k, uint64_t bytes);
/* ... and to the ones kept (view_window.c). */
int evi_view_alloc_keep(ev_view_index *ix, const ev_event *ev,
			uint64_t bytes);
/* The pauses and allocations kept, in a cache file (view_cache.c); -1
 * for what save did not write. */
void evi_view_kept_save(const ev_view_index *ix, FILE *f);
int evi_view_kept_load(ev_view_index *ix, FILE *f);
/* Their bytes. */
size_t evi_view_kept_memory(const ev_view_index *ix);

/* A capability's row (or the global buffer's: blocks only), and the run
 * and GC open on it. */
typedef struct view_row {
	view_bucket *b;  /* nb buckets */
	size_t filled;   /* buckets whose block is set */
	uint64_t block;  /* the row's last block marker ... */
	view_open block_open; /* ... and what was open at it */
	int seen;        /* it posted an event */
	view_open now;   /* what is open now */
	uint64_t allocated; /* its last HEAP_ALLOCATED */
	uint64_t created, converted; /* its last SPARK_COUNTERS totals */
	view_gc_clock gc_clock; /* the collection it is timing */
} view_row;

/* The heap profile's bands (view_bands.c); NULL until a heap-profile
 * event comes. */
typedef struct view_bands view_bands;
int evi_view_bands_add(ev_view_index *ix, const ev_event *ev);
void evi_view_bands_free(view_bands *b);
size_t evi_view_bands_memory(const view_bands *b);
/* The bands in a cache file (view_cache.c), as evi_view_bands_save
 * wrote them; -1 for what it did not write. */
void evi_view_bands_save(const view_bands *b, FILE *f);
int evi_view_bands_load(view_bands **out, FILE *f);

/* What was open on `cap` at the start of the block ev_view_block_at
 * gives for `time`. */
view_open evi_view_open_at(const ev_view_index *ix, uint16_t cap,
			   uint64_t time);

/* A user's span (view_spans.c): its name by index in span_stats. */
typedef struct view_span {
	uint64_t start, duration;
	uint32_t tid, name;
	uint16_t cap;
} view_span;

/* The spans' pairing: an ev_stats of the index (view_spans.c). */
int evi_view_spans_new(ev_view_index *ix);
void evi_view_spans_free(ev_view_index *ix);
/* A USER_MSG to the pairing, told first of the run open on its cap now
 * (`now`: the cap's; NULL: none seen). */
int evi_view_spans_message(ev_view_index *ix, const ev_event *ev,
			   const view_open *now);

/* Gives the pairing span name `name` (events' kind) as the next of its
 * names: a cached index's names, in their order (view_cache.c). */
int evi_view_spans_name(ev_view_index *ix, const char *name);

/* A thread's state (view_threads.c): T_NONE before it is created and
 * after it finishes; the others are ev_view_thread_state's. */
enum { T_NONE = 0, T_RUNNING, T_RUNNABLE, T_BLOCKED };

/* A thread's row (view_threads.c): its buckets and its state now. */
typedef struct view_tbucket {
	uint64_t ns[3];     /* running, runnable, blocked */
	uint64_t reason_ns; /* how long `reason` blocked it */
	uint8_t reason;     /* the longest blocking reason (a stop status) */
	/* Its state at the bucket's start (after the events before it) and
	 * the stop status that blocked it then, to replay its events from
	 * (view_thread_replay.c). */
	uint8_t start_state, start_reason;
} view_tbucket;

typedef struct view_trow {
	view_tbucket *b;    /* NULL: no row yet */
	uint64_t since;
	uint8_t state, reason;
} view_trow;

/* A thread event waiting to be taken in time order: its type and its
 * STOP_THREAD status (evi_stop_status). */
typedef struct view_tev {
	uint64_t time;
	uint32_t thread; /* its summary's index, or its tid when by_tid */
	uint32_t seq;    /* the order it came in (wrapping): ties by it */
	uint8_t type, status;
	uint8_t by_tid;  /* a wake-up may come before the thread's summary */
} view_tev;

/* The thread events of one capability waiting, in time order: a ring
 * of `alloc` (a power of two), from count head to count tail. */
typedef struct view_tq {
	view_tev *e;
	size_t head, tail, alloc;
} view_tq;

/* Thread rows (view_threads.c): events, runs, and the rows following the
 * capabilities' coarsening (after it) and shrinking (after nb halves). */
/* `thread`: the event's thread's summary index (SIZE_MAX: not kept), or
 * SIZE_MAX - 1 to find it by its id when the event is taken; the run it
 * ends, [run_from, its time) (none: run_from its time), goes to the
 * thread's row at once; `status`: a STOP_THREAD's (evi_stop_status). */
int evi_view_threads_event(ev_view_index *ix, const ev_event *ev,
			   size_t thread, uint64_t run_from, unsigned status);
void evi_view_threads_coarsen(ev_view_index *ix);
void evi_view_threads_fit(ev_view_index *ix);
void evi_view_threads_finish(ev_view_index *ix);
void evi_view_threads_free(ev_view_index *ix);

/* The state (T_*) a thread in `state` goes to by thread event `type`
 * (CREATE, RUN, STOP, RUNNABLE, WAKEUP; a STOP's status as
 * evi_stop_status gives it), or -1 when the event changes nothing. */
int evi_view_thread_next(unsigned state, unsigned type, unsigned status);

/* Thread summary `i`'s state at the start of its row's bucket `b`, the
 * stop status that blocked it then, and the time of its last event the
 * rows took (view_threads.c); -1 for a thread without a row. */
int evi_view_thread_start(const ev_view_index *ix, size_t i, uint64_t b,
			  uint8_t *state, uint8_t *reason, uint64_t *last);
/* A thread row's bucket: 2^(shift + tgap) ns. */
unsigned evi_view_thread_shift(const ev_view_index *ix);

/* a * b / c (c > 0), exactly: in 64 bits when a * b fits (a range's
 * nanoseconds times a width nearly always do), else in 128 (a call to
 * __udivti3, which the tiles' spans paid at every cell). */
static inline uint64_t evi_view_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t ab;

	if (!__builtin_mul_overflow(a, b, &ab))
		return ab / c;
	return (uint64_t)((unsigned __int128)a * b / c);
}

/* Adds what a source has of [lo, hi) on capability `cap` to `c`. */
typedef void evi_view_cell_fill(const void *src, uint16_t cap, uint64_t lo,
				uint64_t hi, ev_view_cell *c);

/* A tile: `width` cells of [from, to) on `cap`, each filled by `fill`
 * from `src`, then ended (evi_view_cell_end) within the log's [start,
 * end]. EV_EINVAL for an empty range or no cells (view_query.c). */
int evi_view_cells(uint64_t from, uint64_t to, size_t width,
		   ev_view_cell *cells, uint64_t start, uint64_t end,
		   evi_view_cell_fill *fill, const void *src, uint16_t cap);

/* Proportions of buckets, inline: the tiles call them at every bucket of
 * every span (view_query.c, view_threads.c). */

/* Span `i` of `width` equal spans of [from, to): [*lo, *hi). */
static inline void evi_view_span_of(uint64_t from, uint64_t to, size_t width,
				    size_t i, uint64_t *lo, uint64_t *hi)
{
	*lo = from + evi_view_muldiv(to - from, i, width);
	*hi = from + evi_view_muldiv(to - from, i + 1, width);
}

/* How much of bucket `b` (2^shift ns) lies in [lo, hi). */
static inline uint64_t evi_view_part_of(uint64_t b, unsigned shift,
					uint64_t lo, uint64_t hi)
{
	uint64_t b0 = b << shift, b1 = b0 + ((uint64_t)1 << shift);
	return (hi < b1 ? hi : b1) - (lo > b0 ? lo : b0);
}

/* A bucket's `value` for `part` of its width `w`: in proportion. */
static inline uint64_t evi_view_scaled(uint64_t value, uint64_t part,
				       uint64_t w)
{
	return part == w ? value : evi_view_muldiv(value, part, w);
}

/* The heap of one process (its OS-process capset, which heap events
 * name). */
typedef struct view_proc_heap {
	uint32_t capset;
	view_heap *h; /* nb buckets */
} view_proc_heap;

struct ev_view_index {
	size_t max_cells;
	size_t nb;          /* buckets per row, a power of two */
	unsigned shift;     /* a bucket is 2^shift ns */
	view_row *rows;     /* by cap; those of no event have no buckets */
	size_t n_rows;      /* allocated */
	size_t n_used;      /* with buckets */
	size_t n_caps;      /* 1 + the highest cap with buckets */
	view_row global;
	view_heap *heap;    /* nb buckets */
	view_proc_heap *heaps; /* per capset, EV_VIEW_MAX_HEAP_PROCS */
	size_t n_heaps;
	int any;
	uint64_t start, end;
	int have_data_offset;
	uint64_t data_offset;
	unsigned quirks;       /* the header's (STOP_THREAD numbering) */
	evi_idmap thread_ids;  /* tid -> index in threads */
	uint32_t *tid_index;   /* by tid below VIEW_TID_DIRECT: 1 + its index
				  in threads, 0: none (evi_view_thread_index) */
	size_t n_tid_index;
	ev_view_thread *threads;
	size_t threads_cap;
	uint64_t threads_dropped;
	ev_view_text *texts;
	size_t n_texts, texts_cap, text_bytes;
	size_t kind_count[3]; /* texts kept of each ev_view_text_kind */
	uint64_t texts_dropped;
	struct ev_stats *span_stats; /* pairs the spans (view_spans.c) */
	view_span *spans;
	size_t n_spans, spans_cap;
	uint64_t spans_dropped;
	uint32_t *told;        /* by cap: 1 + the thread the pairing knows
				  running there, 0: none (view_spans.c) */
	size_t n_told;
	view_trow *trows;      /* by thread summary index (view_threads.c) */
	size_t trows_cap, n_trows;
	unsigned tgap;         /* a thread bucket is 2^tgap cap buckets */
	view_tq *queues;       /* by cap (view_threads.c) */
	size_t n_queues, queued;
	size_t q_used;         /* 1 + the highest cap with a queue in use */
	uint32_t queue_seq;
	size_t life_thread;    /* the summary on_life saw last, or SIZE_MAX */
	view_bands *bands;
	view_kept pauses;      /* view_pause (view_window.c) */
	view_kept allocs;      /* view_alloc_ev */
	ev_diag diag;
};

/* Thread ids below this are found through a table (tid_index) rather
 * than the map: GHC numbers its threads from 1, and each thread event
 * looks its thread up. */
#define VIEW_TID_DIRECT (1u << 16)

/* The index in ix->threads of thread `tid`'s summary; SIZE_MAX: none. */
static inline size_t evi_view_thread_index(const ev_view_index *ix,
					   uint32_t tid)
{
	if (tid < ix->n_tid_index)
		return (size_t)ix->tid_index[tid] - 1;
	return tid < VIEW_TID_DIRECT ? SIZE_MAX
				     : evi_idmap_index(&ix->thread_ids, tid);
}

/* Adds thread `tid` to the map (and the table) as summary
 * thread_ids.count; *added 0 when it was there (view_index.c). EV_OK,
 * EV_ENOMEM or EV_ELIMIT. */
int evi_view_thread_id_add(ev_view_index *ix, uint32_t tid, int *added);

/* ---- the preview (view_preview.c) ---- */

/* STOP_THREADs of different threads kept before a chunk's first
 * RUN_THREAD on a cap; past them the preview gives up (GHC stops one
 * thread there). */
#define VIEW_PV_STOPS 8u

/* One capability's run and GC events in a chunk, for the join: those
 * whose effect depends on what was open before, and what is open at the
 * chunk's end of what the chunk fixed. */
typedef struct view_pv_part {
	uint16_t cap;
	uint8_t run_known, gc_known; /* a RUN_THREAD; a GC_START or GC_END */
	uint8_t gc_end_first;        /* a GC_END came first: at gc_end */
	uint8_t n_stops;
	uint64_t gc_end;
	struct { uint64_t time; uint32_t tid; } stops[VIEW_PV_STOPS];
	view_open now;               /* its known halves */
} view_pv_part;

/* A chunk of events as one worker walked them: a part per capability,
 * and the first and last event times. */
typedef struct view_pv_chunk {
	view_pv_part *parts;
	size_t n, alloc;
	uint32_t *part_of; /* by cap: 1 + its part, 0: none */
	int any;
	uint64_t start, end;
} view_pv_chunk;

/* A preview of a grid over [0, end] for caps below `n_caps` (`caps_used`
 * of them post events) and `workers` workers' grids. EV_OK, EV_ENOMEM. */
int evi_view_preview_make(ev_view_preview **out, uint64_t end, size_t n_caps,
			  size_t caps_used, unsigned workers);
/* Empties a chunk for the next; frees one. */
void evi_view_chunk_reset(view_pv_chunk *c);
void evi_view_chunk_free(view_pv_chunk *c);
/* One event of a chunk, on `worker`: EV_OK; EV_EFORMAT for a thread
 * event too short for its fields, EV_END (a cap past n_caps, a run past
 * the grid, too many stops kept), EV_ENOMEM. */
int evi_view_chunk_event(ev_view_preview *pv, view_pv_chunk *c,
			 unsigned worker, const ev_event *ev);
/* The next chunk in file order joined; the workers' grids summed once
 * every chunk is. EV_OK, EV_END (a run past the grid), EV_ENOMEM. */
int evi_view_chunk_join(ev_view_preview *pv, const view_pv_chunk *c);
int evi_view_preview_done(ev_view_preview *pv);

#endif
