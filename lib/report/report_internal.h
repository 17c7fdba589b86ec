/*
 * The state of an ev_report accumulator, shared by report.c (feeding
 * events), report_grid.c (the adaptive buckets), report_profile.c (heap
 * profile bands) and report_finish.c; not installed.
 */
#ifndef EVTOOL_LIB_REPORT_INTERNAL_H
#define EVTOOL_LIB_REPORT_INTERNAL_H

#include "evtool/report.h"
#include "evtool/stats_heap.h"
#include "evtool/stats_spans.h"
#include "capsets.h"
#include "heap_samples.h"

/* ---- the buckets ---- */

/* `n` buckets of `width` ns from `base`, a multiple of `width`: bucket i
 * covers [base + i * width, base + (i + 1) * width). Unset until the
 * first timed event. */
typedef struct evi_grid {
	uint64_t base, width;
	size_t n;
	int set;
} evi_grid;

/* Merges bucket `src` of an array into bucket `dst` of another, where
 * `dst` covers `src` after a doubling. */
typedef void (*evi_merge_fn)(void *dst, const void *src);

/* The bucket of `t`, which the grid covers. */
static inline size_t evi_grid_index(const evi_grid *g, uint64_t t)
{
	return (size_t)((t - g->base) / g->width);
}

/* Nonzero when the grid covers `t`. */
static inline int evi_grid_covers(const evi_grid *g, uint64_t t)
{
	return g->set && t >= g->base && (t - g->base) / g->width < g->n;
}

/* The grid that covers [lo, hi] with the fewest doublings of `g`. */
evi_grid evi_grid_widened(const evi_grid *g, uint64_t lo, uint64_t hi);

/* Re-buckets `arr` (g->n elements of `size` bytes) from `from` onto `to`
 * through `scratch` (as large as `arr`), merging with `merge`. */
void evi_grid_remap(const evi_grid *from, const evi_grid *to, void *arr,
		    size_t size, void *scratch, evi_merge_fn merge);

/* ---- capabilities and processes ---- */

enum evi_cap_state { EVI_CAP_IDLE, EVI_CAP_RUNNING, EVI_CAP_GC };

typedef struct evi_report_cap {
	int seen;
	uint64_t first;            /* its first event's time */
	uint64_t since;            /* latest time seen: the state holds since */
	enum evi_cap_state state, state_before_gc;
	uint64_t gc_since;         /* its GC began (the state GC holds since) */
	evi_cap_claim claim;       /* its process (capsets.h) */
	int have_alloc;            /* HEAP_ALLOCATED seen: its running total */
	uint64_t last_alloc;
	uint64_t first_alloc;      /* ... its first value, where, whose: a */
	uint64_t first_alloc_ns;   /* slice's baseline (report_finish.c) */
	uint32_t first_alloc_capset;
	uint64_t markers_dropped;
	ev_report_cap_bucket *b;   /* grid n buckets */
} evi_report_cap;

typedef struct evi_report_proc {
	uint32_t capset;
	int os_process;
	int have_pid;
	uint32_t pid;
	int have_heap;
	char *rts_identifier;
	char *args;
	size_t args_len;
	ev_report_heap_bucket *heap; /* grid n buckets */
} evi_report_proc;

typedef struct evi_report_marker {
	uint64_t time;
	uint16_t cap;
	char *text;
} evi_report_marker;

/* ---- the heap profile ---- */

/* A band's residency in a bucket: that of the sample numbered `seq`
 * (from 1), which counts when it is the bucket's last sample. */
typedef struct evi_band_bucket {
	uint64_t bytes;
	uint64_t seq;
} evi_band_bucket;

typedef struct evi_band {
	char *label;
	uint64_t peak;
	evi_band_bucket *b;        /* grid n buckets */
} evi_band;

#define EVI_LABEL_SLOTS (2 * EV_REPORT_MAX_LABELS)

typedef struct evi_profile {
	evi_heap_samples heap;     /* the reader of the samples */
	unsigned sessions;         /* sessions begun (the consumer) */
	ev_text name;              /* the band name of an entry */
	uint64_t samples;          /* also the current sample's seq */
	uint64_t sample_time;
	uint64_t *last_seq;        /* per bucket: its last sample's seq */
	evi_band bands[EV_REPORT_MAX_LABELS + 1]; /* the last: "(other)" */
	size_t n_bands;            /* labels kept apart */
	uint16_t slots[EVI_LABEL_SLOTS]; /* hash of labels: band + 1, 0 free */
	uint64_t labels;           /* distinct labels, "(other)" ones too */
} evi_profile;

/* ---- the user's spans over time (report_spans.c) ---- */

typedef struct evi_span_series {
	const char *name;          /* the ev_stats's copy: stable */
	unsigned kind;
	ev_report_span_bucket *b;  /* grid n buckets */
} evi_span_series;

typedef struct evi_report_spans {
	evi_span_series series[EV_REPORT_MAX_SPAN_SERIES];
	size_t n;
	int status;                /* a failure in the callback */
	ev_report_span_series out[EV_REPORT_MAX_SPAN_SERIES];
} evi_report_spans;

/* The ev_stats_on_span callback of the report's ev_stats. */
void evi_report_on_span(void *ctx, const ev_stats_span_end *end);

/* Re-buckets the span series onto `to`. */
void evi_report_spans_remap(ev_report *rep, const evi_grid *to);

/* The output series, from bucket `first` (evi_report_finish). */
int evi_report_spans_finish(ev_report *rep, size_t first);

void evi_report_spans_free(evi_report_spans *rs);

/* ---- the accumulator ---- */

struct ev_report {
	ev_report_options opt;
	ev_stats *stats;           /* fed the same events */
	int pause_status;          /* a failure in the pause callback */
	evi_grid grid;
	uint64_t first_ns, last_ns;
	void *scratch;             /* one array of the largest bucket type */

	evi_report_cap *caps;      /* indexed by cap number */
	size_t n_caps;
	evi_capsets procs;         /* of evi_report_proc, by capset */
	evi_report_marker *markers;
	size_t n_markers;
	size_t markers_cap;
	evi_profile profile;
	evi_report_spans spans;

	int finished;
	ev_report_grid out_grid;
	ev_report_process *out;    /* evi_report_finish's results */
	size_t n_out;
	ev_report_cap *out_caps;
	ev_report_marker *out_markers;
	ev_report_profile out_profile;
	ev_report_band *out_bands;
	uint64_t *out_band_bytes;
	uint8_t *out_sampled;
	ev_diag diag;
};

/* Makes the grid cover `t`, re-bucketing every series. EV_OK or
 * EV_ENOMEM (the grid's first use allocates). */
int evi_report_cover(ev_report *rep, uint64_t t);

/* Process `i` of rep->procs. */
static inline evi_report_proc *evi_report_proc_at(const ev_report *rep,
						  size_t i)
{
	return rep->procs.items[i];
}

/* Adds [from, to) to the buckets `b` of a capability, in `state`. */
void evi_report_spread(ev_report *rep, ev_report_cap_bucket *b,
		       enum evi_cap_state state, uint64_t from, uint64_t to);

/* Moves [from, to) of the buckets `b` of a capability, counted in GC,
 * to `state`. */
void evi_report_ungc(ev_report *rep, ev_report_cap_bucket *b,
		     enum evi_cap_state state, uint64_t from, uint64_t to);

/* Bucket arrays of a new series, zeroed; NULL when out of memory. */
void *evi_report_series(const ev_report *rep, size_t elem_size);

/* Heap profile events (HEAP_PROF_SAMPLE_BEGIN/STRING/END). */
int evi_report_profile_event(ev_report *rep, const ev_event *ev);

/* Re-buckets the profile's arrays onto `to`. */
void evi_report_profile_remap(ev_report *rep, const evi_grid *to);

/* The profile's output bands (evi_report_finish). */
int evi_report_profile_finish(ev_report *rep, size_t first, size_t count);

void evi_report_profile_free(evi_profile *p);

/*
 * Adds one event, to the buckets and to the report's ev_stats. Feed
 * every event of a log (block markers included) in file order, as
 * ev_reader_next returns them; several sessions of one stream may follow
 * each other. EV_OK, EV_EFORMAT for an event too short for the fields it
 * needs, EV_ELIMIT past EV_REPORT_MAX_CAPS or EV_REPORT_MAX_PROCESSES
 * (or a limit of ev_stats_add), EV_ENOMEM, EV_EINVAL after
 * evi_report_finish; see ev_report_diag().
 */
int evi_report_add(ev_report *rep, const ev_event *ev);

/*
 * Closes the open intervals, gives every capability its process, picks
 * the heap-profile bands and finishes the report's ev_stats. Call it
 * once, after the last event (the consumer's finish does, for a
 * source); EV_OK, EV_ENOMEM, or EV_EINVAL when called
 * again.
 */
int evi_report_finish(ev_report *rep);

#endif
