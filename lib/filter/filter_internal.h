/*
 * Shared by the filter's source files: the times that windows take
 * (filter.h, ev_filter_set_time) and what the pipeline (filter_run.c)
 * asks of the filter (filter.c).
 */
#ifndef EVTOOL_LIB_FILTER_INTERNAL_H
#define EVTOOL_LIB_FILTER_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "evtool/filter.h"
#include "evtool/reader.h"
#include "blocks.h"
#include "idmap.h"

typedef enum evi_time_kind {
	EVI_TIME_NONE = 0,
	EVI_TIME_RELATIVE, /* ns after the session's first event */
	EVI_TIME_RAW,      /* a timestamp: ns since the RTS started */
	EVI_TIME_WALL      /* Unix time in ns */
} evi_time_kind;

typedef struct evi_time {
	evi_time_kind kind;
	uint64_t ns;
} evi_time;

/* ------------------------------------------------------------------------
 * The filter's state, shared by filter.c (building selectors) and
 * filter_decide.c (learning about a log, deciding event by event).
 * ---------------------------------------------------------------------- */

#define EV_ID_COUNT 65536u
#define EVI_FILTER_BITMAP_BYTES (EV_ID_COUNT / 8)
#define EVI_FILTER_MAX_PAYLOAD 65535u
#define EVI_FILTER_MAX_REFS 8

enum evi_direction { EVI_INCLUDE = 0, EVI_EXCLUDE = 1, EVI_N_DIRECTIONS = 2 };

/* What the per-type table says about an event type, before the selectors
 * that look at more than the type. */
enum evi_type_rule {
	EVI_RULE_DROP = 0,   /* fails the class or type evi_selector */
	EVI_RULE_SELECT,     /* passes them: check the other selectors */
	EVI_RULE_META,       /* metadata: kept if its process is */
	EVI_RULE_LABEL       /* THREAD_LABEL kept as metadata: and its thread */
};

typedef struct evi_range {
	uint64_t lo, hi;
} evi_range;

typedef struct evi_range_list {
	evi_range *items;
	size_t n, cap;
} evi_range_list;

typedef struct evi_window_spec {
	int set;
	evi_time from, to;
} evi_window_spec;

typedef struct evi_marker_spec {
	int set;
	char *start; /* NULL: from the log's start */
	char *end;   /* NULL: to the log's end */
} evi_marker_spec;

/* The selectors of one direction (include or exclude). */
typedef struct evi_selector {
	unsigned classes;   /* 0: no class evi_selector */
	uint8_t *types;     /* bitmap, NULL: no type evi_selector */
	uint8_t *caps;      /* bitmap, bit EV_NO_CAP = "global" */
	evi_range_list threads;
	evi_range_list pids;
	evi_range_list capsets;
	evi_window_spec time;
	evi_marker_spec markers;
} evi_selector;

typedef struct evi_capset_info {
	uint32_t id;
	uint16_t type;
	int has_pid;
	uint32_t pid;
} evi_capset_info;

/* The most capsets and (capset, cap) assignments one session may name
 * when a process selector needs them: far above what a merged log of
 * many processes holds, low enough to bound memory. */
#define EVI_FILTER_MAX_CAPSETS (1u << 16)
#define EVI_FILTER_MAX_ASSIGNMENTS (1u << 18)
/* The most distinct task ids one session may name under a process
 * selector (merge allows 65,536 per input). */
#define EVI_FILTER_MAX_TASKS (1u << 20)

/* Where the start and end markers of one window are in a session. */
typedef struct evi_marker_facts {
	int start_found, end_found;
	uint64_t start_time, start_index;
	uint64_t end_time, end_index;
} evi_marker_facts;

/* A process selector resolved for one session. */
typedef struct evi_process_set {
	uint8_t *caps;        /* bitmap */
	uint32_t *capsets;    /* sorted, distinct */
	size_t n_capsets, capsets_cap;
	int unattributed;     /* events naming no cap or capset belong */
} evi_process_set;

/* A window resolved to timestamps of one session: from <= t < to, or
 * t <= to when `to_inclusive`. */
typedef struct evi_time_window {
	int active;
	uint64_t from, to;
	int has_to, to_inclusive;
	int empty;
} evi_time_window;

/* What learning found in one session, and the windows resolved from it. */
typedef struct evi_session_facts {
	int have_first;
	uint64_t first;
	int have_wall;
	int wall_bad;        /* its WALL_CLOCK_TIME was not a clock reading */
	uint64_t wall_epoch; /* Unix ns at timestamp 0 */
	evi_marker_facts markers[EVI_N_DIRECTIONS];
	/* Hostile logs name capsets by the hundred thousand, so lookups
	 * go through hash maps (idmap.h). */
	evi_capset_info *capsets;
	size_t n_capsets, capsets_cap;
	evi_idmap capset_ids; /* capset id -> index in capsets */
	evi_idmap assigned;   /* (capset << 16 | cap) -> 0, in file order */
	evi_idmap task_caps;  /* task id -> the cap TASK_CREATE (55: task
				 u64, cap u16) put it on (doc/format.md s. 5-6) */

	int resolved;
	evi_time_window time[EVI_N_DIRECTIONS];
	evi_time_window marks[EVI_N_DIRECTIONS];
	evi_process_set process[EVI_N_DIRECTIONS];
	int process_ready;    /* process[] is resolved */
} evi_session_facts;

struct ev_filter {
	evi_selector sel[EVI_N_DIRECTIONS];
	unsigned redact;
	int keep_metadata;
	uint8_t *rules;   /* enum evi_type_rule per type id; NULL: rebuild */
	evi_session_facts *sessions;
	size_t n_sessions, sessions_cap;
	unsigned learned; /* learning passes ended */
	/* 1 + the session whose process sets are resolved, 0 for none: only
	 * one session holds them at a time (see ready_processes). */
	size_t process_holder;
	uint8_t *scratch; /* redacted payloads */
	char *text;       /* a marker's text, NUL-terminated */
	ev_diag diag;
	ev_filter_options opts;
	ev_filter_stats stats;   /* of the last ev_filter_run */
	ev_progress_fn progress; /* ev_filter_set_progress */
	void *progress_ctx;
	unsigned threads;        /* ev_filter_set_threads */
};

static inline int evi_bit_get(const uint8_t *bits, unsigned i)
{
	return bits[i >> 3] >> (i & 7) & 1;
}

static inline void evi_bit_set(uint8_t *bits, unsigned i)
{
	bits[i >> 3] = (uint8_t)(bits[i >> 3] | 1u << (i & 7));
}

/* Nonzero when a range of `l` holds `v`. */
int evi_ranges_hold(const evi_range_list *l, uint64_t v);

/* Allocates a zeroed bitmap of EV_ID_COUNT bits into *bits unless it
 * has one. */
int evi_bitmap_new(uint8_t **bits);

/* Fills the filter's diagnostic (a failure of its options); returns
 * `status`. */
int evi_filter_fail(ev_filter *f, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Frees what learning found (filter_decide.c). */
void evi_filter_free_sessions(ev_filter *f);

/* The filter's diagnostic, for the pipeline to fill. */
ev_diag *evi_filter_diag(ev_filter *f);

/* Sessions with events where a marker window's start pattern matched
 * nothing, and where its end pattern matched nothing after the start. */
void evi_filter_missing_markers(const ev_filter *f, unsigned *start,
				unsigned *end);

/* ------------------------------------------------------------------------
 * The learning protocol and the decisions, which filter_run.c drives.
 * ---------------------------------------------------------------------- */

/* ---- deciding event by event (ev_filter_run drives these) ---- */

/** Learning passes the filter needs before evi_filter_apply(): 0, 1, or
 *  2 when a marker window has both ends. */
unsigned evi_filter_learning_passes(const ev_filter *f);

/**
 * Feeds one event of learning pass `pass` (0-based): every event of
 * every session, in file order, block markers included or not.
 * `session` is the 0-based session (ev_reader_session()).
 */
int evi_filter_learn(ev_filter *f, unsigned pass, unsigned session,
			   const ev_event *ev);

/**
 * Ends learning pass `pass`. After the last one it resolves the times
 * and windows of every session: EV_EINVAL when a wall-clock time was
 * given and a session has no WALL_CLOCK_TIME.
 */
int evi_filter_end_learning(ev_filter *f, unsigned pass);

/**
 * Decides one event of `session`: 1 to keep it, with `out` set to the
 * event to write (a copy of `ev`, or for redaction one whose payload the
 * filter owns until the next call), 0 to drop it. Block markers are
 * always dropped: the output is re-blocked.
 */
int evi_filter_apply(ev_filter *f, unsigned session, const ev_event *ev,
			   ev_event *out);

/* The rule (enum evi_type_rule) of every type id, as evi_filter_apply
 * decides by them: an event whose rule is EVI_RULE_DROP is dropped
 * whatever else it holds. NULL when there is no memory (ev_filter_diag
 * says so). */
const uint8_t *evi_filter_rules(ev_filter *f);

/* ---- reading in parallel (filter_blocks.c) ---- */

typedef struct evi_filter_scan evi_filter_scan;

/* Workers on `threads` threads that read the blocks of `b` ahead, in
 * order, and hand over the events that evi_filter_apply may keep (rule
 * not EVI_RULE_DROP). EV_OK or EV_ENOMEM. */
int evi_filter_scan_open(evi_filter_scan **out, const evi_blocks *b,
			 const uint8_t *rules, unsigned threads);

/* The next event the workers did not drop, in file order: 1 and *ev
 * (valid until the next call); 0 when the scan stops, with *r a reader
 * over the rest of the log (from the data end, or from a block the
 * workers would not take), as the sequential reader would be there; a
 * negative status (EV_ENOMEM). `*events` grows by the events read (block
 * markers aside), as the sequential path counts them. */
int evi_filter_scan_next(evi_filter_scan *s, ev_event *ev, ev_reader **r,
			 uint64_t *events);

void evi_filter_scan_free(evi_filter_scan *s);

#endif
