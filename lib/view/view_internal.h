/*
 * What view_index.c builds and view_query.c reads: the rows of buckets of
 * `evtool view`'s index (include/evtool/view.h).
 */
#ifndef EVTOOL_VIEW_INTERNAL_H
#define EVTOOL_VIEW_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "evtool/view.h"
#include "idmap.h"

/* The run and the GC open on a capability, at some point of its events. */
typedef struct view_open {
	uint64_t run_start, gc_start;
	uint32_t tid;
	uint8_t running, in_gc;
} view_open;

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
} view_bucket;

/* The heap in one bucket: HEAP_SIZE (50) and HEAP_LIVE (51) at their
 * largest, and the bytes allocated (HEAP_ALLOCATED (49) carries a
 * capability's running total: the growth since its last one). */
typedef struct view_heap {
	uint64_t size, live, alloc;
} view_heap;

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
} view_row;

/* What was open on `cap` at the start of the block ev_view_block_at
 * gives for `time`. */
view_open evi_view_open_at(const ev_view_index *ix, uint16_t cap,
			   uint64_t time);

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
	int any;
	uint64_t start, end;
	int have_data_offset;
	uint64_t data_offset;
	unsigned quirks;       /* the header's (STOP_THREAD numbering) */
	evi_idmap thread_ids;  /* tid -> index in threads */
	ev_view_thread *threads;
	size_t threads_cap;
	uint64_t threads_dropped;
	ev_view_text *texts;
	size_t n_texts, texts_cap, text_bytes;
	size_t kind_count[3]; /* texts kept of each ev_view_text_kind */
	uint64_t texts_dropped;
	ev_diag diag;
};

#endif
