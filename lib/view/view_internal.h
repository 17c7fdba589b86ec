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
} view_open;

/* The runs (RUN_THREAD to STOP_THREAD) or GCs (GC_START to GC_END) that
 * end in a bucket, whole: for a window's figures as `evtool stats` of
 * the window's slice counts them (only what starts and ends inside). */
typedef struct view_ends {
	uint64_t ns;       /* their lengths, summed */
	uint64_t first;    /* the start of the first to end, plus one (0: none) */
	uint64_t first_ns; /* its length */
} view_ends;

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
	view_ends run_ends, gc_ends;
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
	view_bands *bands;
	ev_diag diag;
};

#endif
