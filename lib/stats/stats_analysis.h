/*
 * The state of an ev_stats accumulator beyond the `+RTS -s` figures
 * (include/evtool/stats_analysis.h): threads and capabilities
 * (stats_threads.c), pauses (stats_pauses.c). Not installed.
 */
#ifndef EVTOOL_LIB_STATS_ANALYSIS_H
#define EVTOOL_LIB_STATS_ANALYSIS_H

#include "evtool/stats_analysis.h"
#include "evtool/stats_heap.h"
#include "evtool/stats_spans.h"
#include "idmap.h"

/* What one capability is doing, and what it did. */
typedef struct evi_cap_use {
	int running;        /* a RUN_THREAD without its STOP_THREAD yet */
	uint32_t tid;
	uint64_t run_start;
	int in_gc;          /* a GC_START without its GC_END yet */
	uint64_t gc_start;
	uint64_t mutator_ns, gc_ns, runs, migrations_out, migrations_in;
} evi_cap_use;

/* The pauses of one process and generation (or all generations):
 * a log-linear histogram of their durations beside the exact figures. */
typedef struct evi_pause_set {
	ev_stats_pauses pub; /* `longest` is a min-heap until finished */
	uint64_t *buckets;   /* EVI_PAUSE_BUCKETS counts */
} evi_pause_set;

typedef struct evi_proc_pauses {
	evi_pause_set all;
	evi_pause_set *gens[EV_STATS_MAX_GENS]; /* NULL until a pause */
} evi_proc_pauses;

typedef struct evi_analysis {
	ev_stats_thread *threads;  /* first seen first; labels malloc'd */
	size_t n_threads, threads_alloc;
	evi_idmap index;           /* tid -> position in threads */
	int started;               /* an event was added */
	int keep_threads;          /* ev_stats_keep_threads was called */
	ev_stats_thread total, others;
	int have_others;

	evi_cap_use *uses;         /* indexed by cap */
	size_t n_uses;
	ev_stats_capability *caps; /* ev_stats_finish's results */
	size_t n_caps;

	unsigned pause_procs;      /* processes with an evi_proc_pauses */
	ev_stats_pause_fn on_pause;
	void *on_pause_ctx;
} evi_analysis;

struct ev_stats;
struct evi_stats_proc;

/* Every event; it takes the scheduler events (1, 2, 4, 44) and each
 * cap's GC_START/GC_END (9, 10). EV_OK, EV_EFORMAT for one too short
 * for its fields, or EV_ENOMEM (in st->diag). */
int evi_threads_add(struct ev_stats *st, const ev_event *ev);

/* The entry of thread `tid`, added on first sight (the "others" entry
 * past EV_STATS_MAX_THREADS or when threads are not kept); NULL when out
 * of memory (in st->diag). */
ev_stats_thread *evi_thread_get(struct ev_stats *st, uint32_t tid);

/* The use of `cap`, grown on first sight; NULL when out of memory. */
evi_cap_use *evi_cap_use_get(struct ev_stats *st, uint16_t cap);

/* The thread running on `cap` (RUN_THREAD without its STOP_THREAD yet),
 * 0 for none (and for EV_NO_CAP). */
uint32_t evi_running_thread(const struct ev_stats *st, uint16_t cap);

/* Closes the runs still open at the end, fills the capabilities. */
int evi_threads_finish(struct ev_stats *st);

void evi_threads_free(evi_analysis *an);

/* One timed pause of process `p`. EV_OK or EV_ENOMEM (in st->diag). */
int evi_pauses_add(struct ev_stats *st, struct evi_stats_proc *p,
		   const ev_stats_pause *pause);

/* Sorts each process's longest pauses and computes its percentiles. */
void evi_pauses_finish(struct ev_stats *st);

void evi_pauses_free(struct evi_stats_proc *p);

/* A set of durations in the pauses' histogram, for other durations than
 * pauses (the spans, stats_spans.c): init (EV_OK or EV_ENOMEM), add,
 * finish (sorts the longest, computes the percentiles), free. */
int evi_duration_set_init(evi_pause_set *set);
void evi_duration_set_add(evi_pause_set *set, const ev_stats_pause *d);
void evi_duration_set_finish(evi_pause_set *set);
void evi_duration_set_free(evi_pause_set *set);

/* The spans of the user's code (stats_spans.c), NULL unless asked for. */
typedef struct evi_spans evi_spans;

/* A USER_MSG or USER_MARKER, when st->spans, posted while `tid` ran on
 * its cap (0: none). EV_OK or EV_ENOMEM. */
int evi_spans_add(struct ev_stats *st, const ev_event *ev, uint32_t tid);

/* The kinds of spans collected (ev_stats_keep_spans). */
unsigned evi_spans_kinds(const evi_spans *sp);

/* The names of the span figures, in ev_stats_span_figure order, NULL
 * last (stats_gate.c, which parses them). */
extern const char *const evi_span_figure_names[EV_STATS_SPAN_FIGURES + 1];

/* Counts the spans never stopped, computes the percentiles. */
int evi_spans_finish(struct ev_stats *st);

void evi_spans_free(evi_spans *sp);

/* The bands of the heap profile (stats_heap.c), NULL unless asked for. */
typedef struct evi_bands evi_bands;

/* A heap-profile event (HEAP_PROF_*), when st->bands. EV_OK, EV_ENOMEM,
 * or a cost-centre definition's error. */
int evi_bands_add(struct ev_stats *st, const ev_event *ev);

/* Each band's mean; the list. */
int evi_bands_finish(struct ev_stats *st);

void evi_bands_free(evi_bands *b);

#endif
