/*
 * The state of an ev_stats accumulator, shared by stats.c (feeding
 * events) and stats_finish.c (the per-process summaries); not installed.
 */
#ifndef EVTOOL_LIB_STATS_INTERNAL_H
#define EVTOOL_LIB_STATS_INTERNAL_H

#include "evtool/stats.h"
#include "capsets.h"
#include "internal.h"
#include "slice.h"
#include "stats_analysis.h"

#define EVI_SPARK_FIELDS 6

/* What one capability contributed. Counters that the RTS keeps per
 * capability (allocation, sparks) are cumulative: the last event wins. */
typedef struct evi_stats_cap {
	int seen;           /* an event of its own (not a block marker) */
	uint64_t first_time, last_time;

	/* The collection this cap is in, or was in last: from its GC_START
	 * to the next one. Its GC_END and its GC_STATS_GHC come in either
	 * order (stats.c, gc_timed), so that file and time order agree. */
	int have_gc_start;  /* a GC_START: the collection's */
	uint64_t gc_start;
	int have_gc_end;    /* ... and its GC_END */
	uint64_t gc_end;
	int gc_counted;     /* its GC_STATS_GHC, not timed yet */
	uint32_t gc_capset; /* ... the process and generation it counted */
	uint16_t gc_gen;

	uint64_t allocated; /* last HEAP_ALLOCATED */
	uint64_t sparks[EVI_SPARK_FIELDS]; /* last SPARK_COUNTERS */
	int have_sparks;
	/* The first values of those running totals, which a slice of a run
	 * (filter --from) counts from; and its first and last events that
	 * are not metadata (evi_type_is_metadata, which filter keeps before
	 * its window), which bound a slice. */
	int have_allocated;
	uint64_t first_allocated;
	uint64_t first_sparks[EVI_SPARK_FIELDS];
	int have_work;
	uint64_t first_work, last_work;

	evi_cap_claim claim; /* its process (capsets.h) */
} evi_stats_cap;

/* One process, keyed by its capset. `pub` accumulates the counters and
 * gets the derived figures in ev_stats_finish. */
typedef struct evi_stats_proc {
	ev_stats_process pub;
	int os_process;       /* created as an OS-process capset */
	ev_stats_gen *gens;
	unsigned gens_seen;   /* 1 + the highest generation collected */
	unsigned gens_alloc;
	unsigned info_gens;   /* HEAP_INFO_GHC's generations, 0 if none */
	uint64_t mblock_size; /* HEAP_INFO_GHC's, for MEM_RETURN */
	uint32_t max_mem_return; /* largest MEM_RETURN current, mblocks */
	uint64_t last_live, last_heap; /* last HEAP_LIVE, HEAP_SIZE */
	evi_proc_pauses *pauses; /* NULL until a timed pause, or past
				    EV_STATS_MAX_PAUSE_PROCESSES */
	int have_created;     /* its CAPSET_CREATE: the RTS's start */
	uint64_t created_ns;
	int have_deleted;     /* its CAPSET_DELETE: the RTS's exit */
	uint64_t deleted_ns;
} evi_stats_proc;

struct ev_stats {
	evi_stats_cap *caps;   /* indexed by cap number */
	size_t n_caps;
	evi_capsets procs;     /* of evi_stats_proc, by capset (capsets.h) */
	ev_stats_process *out; /* ev_stats_finish's results */
	size_t n_out;
	unsigned unattributed;
	int finished;          /* ev_stats_finish ran */
	int have_time;         /* the earliest event of any kind */
	uint64_t first_time;
	unsigned quirks;       /* the session's header's: STOP_THREAD codes */
	evi_need_table need;   /* the payload sizes the handlers check */
	ev_diag diag;
	evi_analysis an;       /* threads, caps, pauses (stats_analysis.h) */
	evi_spans *spans;      /* the user's spans, when asked (stats_spans.c) */
	evi_bands *bands;      /* heap-profile bands, when asked (stats_heap.c) */
	unsigned threads;      /* ev_stats_set_threads (stats_blocks.c) */
	int replay_running;    /* in evi_stats_replay: the spans' thread is */
	uint32_t replay_tid;   /* ... this one, not the cap's */
};

/* Process `i` of st->procs. */
static inline evi_stats_proc *evi_stats_proc_at(const ev_stats *st, size_t i)
{
	return st->procs.items[i];
}

/* The process of `capset`, created when `create` and absent; NULL when
 * absent (or, with ENOMEM/ELIMIT, in st->diag). */
evi_stats_proc *evi_stats_proc_get(ev_stats *st, uint32_t capset,
				   int create);

/* Makes room for generations 0..n-1 of `p`; EV_OK, EV_ELIMIT, EV_ENOMEM. */
int evi_stats_reserve_gens(ev_stats *st, evi_stats_proc *p, unsigned n);

/* The state of `cap`, grown on first sight; NULL when out of memory (in
 * st->diag). */
evi_stats_cap *evi_stats_cap_get(ev_stats *st, uint16_t cap);

/* ---- reading in parallel (stats_blocks.c) ---- */

/* What the workers do with an event of a type: its time alone (PLAIN:
 * its cap's times, the log's first time), the block marker's nothing,
 * RUN_THREAD and STOP_THREAD summed per thread and cap, and the rest
 * replayed in file order by the caller through evi_stats_replay
 * (REPLAY_THREAD: after its thread is counted as seen). */
enum evi_stats_kind {
	EVI_STATS_PLAIN,
	EVI_STATS_MARKER,
	EVI_STATS_RUN,
	EVI_STATS_STOP,
	EVI_STATS_REPLAY,
	EVI_STATS_REPLAY_THREAD
};

/* The kind of `type` for an accumulator with st's options (spans, bands). */
enum evi_stats_kind evi_stats_kind_of(const ev_stats *st, uint16_t type);

/* ev_stats_add of an event the workers left to the caller, with the
 * thread that was running on its cap when it came (`running`, 0 for
 * none: the spans pair by it). */
int evi_stats_replay(ev_stats *st, const ev_event *ev, uint32_t running);

/* A new accumulator with st's options (threads kept, spans, bands) and
 * nothing added: EV_OK or EV_ENOMEM. */
int evi_stats_new_like(ev_stats **out, const ev_stats *st);

/* The process a capability belongs to, or NULL (stats_procs.c). */
evi_stats_proc *evi_stats_cap_owner(ev_stats *st, const evi_stats_cap *c);

/* The collection `c` counted last (its GC_STATS_GHC) gets no pause: its
 * GC_START or GC_END is missing (stats_procs.c). */
void evi_stats_gc_untimed(ev_stats *st, evi_stats_cap *c);

#endif
