/*
 * The validator's state, shared by validate.c (driver, structure,
 * ordering, references), validate_sched.c (threads, GC, tasks, heap
 * samples) and validate_table.c (the bounded tables). Not installed.
 */
#ifndef EVTOOL_LIB_VALIDATE_INTERNAL_H
#define EVTOOL_LIB_VALIDATE_INTERNAL_H

#include "evtool/catalog.h"
#include "evtool/consumer.h"
#include "evtool/validate.h"
#include "internal.h"

#define EVV_CAPS 65536u
#define EVV_SMALL_IDS 256u
#define EVV_MAX_TASKS (1u << 16)
#define EVV_MAX_CAPSETS 4096u

/* Per-type flags, looked up once per event. */
enum evv_type_flag {
	EVV_TF_VAR = 1u << 0,     /* variable size: u16 length on the wire */
	EVV_TF_MARKER = 1u << 1,  /* BLOCK_MARKER */
	EVV_TF_OTHER = 1u << 2,   /* not a GHC type (Eden, Mercury, unknown) */
	EVV_TF_REFS = 1u << 3,    /* payload names a cap or capset */
	EVV_TF_CREATE = 1u << 4,  /* creates a cap or capset (17, 25, 27, 45) */
	EVV_TF_PAYLOAD = 1u << 5, /* known layout with a minimum length */
	EVV_TF_SCHED = 1u << 6,   /* handled by the semantic checks */
	EVV_TF_LATE = 1u << 7     /* posted after GC_END's clock reading */
};

/* The cap and capset fields of one small type's payloads. */
#define EVV_MAX_REFS 2
typedef struct evv_refs {
	uint8_t n;
	evi_ref ref[EVV_MAX_REFS];
} evv_refs;

/* State of a per-cap machine: not yet known (stream started mid-run, or
 * nothing seen yet), known idle, or known active. */
enum evv_state { EVV_UNKNOWN = 0, EVV_IDLE, EVV_ACTIVE };

/* Which halves of each pair a cap has shown (evv_cap.seen). A pairing
 * check applies only once the cap has shown the other half: a log that
 * lacks one half altogether (evtool filter --type RUN_THREAD) is partial,
 * not broken. */
enum evv_seen {
	EVV_SEEN_RUN = 1u << 0,
	EVV_SEEN_STOP = 1u << 1,
	EVV_SEEN_GC_START = 1u << 2,
	EVV_SEEN_GC_END = 1u << 3,
	EVV_SEEN_SAMPLE_BEGIN = 1u << 4,
	EVV_SEEN_SAMPLE_END = 1u << 5
};

/* Where something happened, for findings reported later. */
typedef struct evv_where {
	uint64_t offset;
	uint64_t index;
	uint64_t time;
	uint16_t type;
	uint16_t cap;
	uint8_t has_event;
} evv_where;

/* One capability's stream (index EV_NO_CAP: the global buffer). */
typedef struct evv_cap {
	uint64_t hwm;            /* latest event time seen in its blocks */
	uint64_t settled;        /* hwm before the last run of EVV_TF_LATE
				    events, valid while hwm is still
				    settled + late_span, where it left */
	uint64_t block_end_time; /* end time of its previous block */
	uint8_t has_block;
	uint8_t used;            /* named by a block or a payload */
	uint8_t created;         /* by CAP_CREATE */
	uint8_t assigned;        /* by CAPSET_ASSIGN_CAP */
	uint8_t run_state;       /* evv_state: a thread runs on it */
	uint8_t gc_state;        /* evv_state: between GC_START and GC_END */
	uint8_t sample_state;    /* evv_state: inside a heap sample */
	uint8_t seen;            /* evv_seen */
	uint32_t running;        /* the running thread when ACTIVE */
	uint32_t late_span;      /* (in a hole of the layout: 64K caps) */
	uint64_t run_since;
	void *running_entry;     /* its table entry, while running_gen holds */
	uint32_t running_gen;
	uint64_t gc_since;       /* time of its last GC_START or GC_END */
	uint64_t sample_era;
	uint64_t sample_offset;
	evv_where first_use;
} evv_cap;

/* A bounded open-addressing hash table of fixed-size entries that start
 * with an evv_slot. Linear probing; grows by doubling up to `max`. */
typedef struct evv_slot {
	uint64_t key;
	uint32_t used;
	uint32_t aux;
} evv_slot;

typedef struct evv_table {
	uint8_t *entries;
	size_t entry_size;
	uint32_t size;  /* power of two, or 0 before the first insert */
	uint32_t count;
	uint32_t max;   /* the most entries it may hold */
	uint32_t gen;   /* changes whenever entries move */
	uint64_t seed;  /* of the hash */
} evv_table;

typedef struct evv {
	ev_reader *r;       /* the file path's (evv_run_log); NULL as a consumer */
	const ev_header *h;
	ev_validate_options o;
	ev_finding_fn fn;
	void *ctx;
	ev_validate_result *res;
	int stop;
	unsigned session;
	uint64_t session_start;
	int session_ended;  /* 0 running, 1 data end, 2 truncated, 3 failed */
	int in_session;     /* begun and not ended (the consumer's) */
	uint64_t tail;      /* past the last event a source handed over */

	/* What the header says about the writer. */
	int modern;         /* GHC >= 7.8.3: precise scheduler events */
	int ghc_writer;     /* a header GHC's runtime could write */
	int quirk612;
	int has_sample_end; /* HEAP_PROF_SAMPLE_END declared */
	uint8_t tf[EVV_SMALL_IDS];
	evv_refs refs[EVV_SMALL_IDS];

	/* The block the stream is in (mirrors the reader). */
	int in_block;
	uint64_t blk_offset, blk_end;
	uint64_t blk_start_time, blk_end_time;
	uint32_t blk_size;
	evv_cap *blk_cs;

	uint64_t global_hwm; /* for the sorted check */

	/* Creation events seen in this session. */
	int any_cap_create, any_capset_create, any_capset_assign;
	int have_startup;
	uint32_t startup_caps;
	int limit_reported;

	evv_cap *caps;      /* EVV_CAPS entries, initialised on first use */
	uint8_t touched[EVV_CAPS / 8];
	evv_table threads, tasks, capsets;
} evv;

/* ---- validate_report.c ---- */

/* Reports a finding about `ev` (NULL: none; `offset` is used then). */
void evv_report(evv *v, ev_severity sev, const char *check,
		const ev_event *ev, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Reports a finding at a remembered place. */
void evv_report_at(evv *v, ev_severity sev, const char *check,
		   const evv_where *w, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Past the event being checked (or the header, or data end): the
 * reader's offset, or as a consumer, where the event handed over ends. */
uint64_t evv_offset(const evv *v);

/* The state of `cap`, initialised on first use in the session. */
evv_cap *evv_cap_state(evv *v, uint16_t cap);

/* Catalogue name of a type, or "UNKNOWN". */
const char *evv_type_name(uint16_t type);

/* ---- validate.c ---- */

/* Notes that a block or payload names `cap` (for the reference check). */
void evv_use_cap(evv *v, uint16_t cap, const ev_event *ev);

/* Setting up a validator's state for the log `r` reads (EV_EINVAL for
 * options of another version, EV_ENOMEM), and freeing it. evv_init is
 * evv_setup without a reader, for a source that drives the consumer. */
int evv_setup(evv *v, ev_reader *r, const ev_validate_options *opts,
	      ev_finding_fn fn, void *ctx, ev_validate_result *out);
int evv_init(evv *v, const ev_validate_options *opts, ev_finding_fn fn,
	     void *ctx, ev_validate_result *out);
void evv_teardown(evv *v);

/* Validates the log v->r reads in one pass, from its header: EV_OK once
 * a verdict is reached, or a failure to read (validate.h). */
int evv_run_log(evv *v);

/* The one pass as an event consumer (consumer.h) on an evv of evv_init,
 * for any source; its finish is evv_stopped's: the status the source
 * stopped with, made findings (a cut log, a failure to read), then EV_OK
 * once a verdict is reached, or the failure. A callback stops the source
 * with EVV_STOPPED when the findings' callback asked to stop. */
const ev_consumer *evv_consumer(void);
int evv_stopped(evv *v, int status);
#define EVV_STOPPED (-100)


/* A session's start (its header read: v->r's) and its end-of-session
 * checks (references). */
void evv_begin_session(evv *v);
void evv_end_session(evv *v);

/* The parallel path (validate_blocks.c) splits the checks of an event of
 * a block in two: those of its cap's stream (structure, window, order,
 * the cap's scheduler machines), which evv_cap_event makes and which
 * need only the cap's state, and those of the whole log (creations,
 * references, tasks), evv_global_event; the thread table's are the
 * parallel path's own. evv_cap_event returns the type's flags. */
uint8_t evv_cap_event(evv *v, const ev_event *ev);
void evv_global_event(evv *v, const ev_event *ev, uint8_t flags);
uint8_t evv_type_flags(const evv *v, uint16_t type);

/* The caps `ev`'s payload names (EVV_TF_REFS), each handed to cap(); 1
 * when it names a capset too (evv_global_event notes those). */
int evv_cap_refs(const evv *v, const ev_event *ev,
		 void (*cap)(void *ctx, uint16_t cap), void *ctx);

/* The scheduler machines of a cap. */
enum evv_machine {
	EVV_MACHINE_RUN = 1u << 0,    /* RUN, STOP, MIGRATE_THREAD */
	EVV_MACHINE_GC = 1u << 1,     /* GC_START, GC_END */
	EVV_MACHINE_SAMPLE = 1u << 2  /* heap samples */
};

/* Whether `a` and `b` will judge any later events of their cap alike
 * (their times, and the machines in `machines`), and copying that state
 * (the stream's times, and the machines in `machines`) from `from`. */
int evv_cap_same(const evv_cap *a, const evv_cap *b, unsigned machines);
void evv_cap_adopt(evv_cap *to, const evv_cap *from, unsigned machines);

/* ---- validate_blocks.c ---- */

/* Validates the log v->r reads in parallel on `threads` workers: EV_OK
 * with v->res filled when the log is a plain one-session log of blocks
 * and nothing in it is a finding; EV_END when the sequential path must
 * read it (anything else, or any finding: it says which, and where, as
 * it always has; nothing of `v` is changed then); EV_ENOMEM. */
int evv_run_blocks(evv *v, unsigned threads, ev_progress_fn progress,
		   void *progress_ctx);

/* ---- validate_sched.c ---- */

/* Sets up the thread and task tables (freed with evv_table_free). */
void evv_sched_init(evv *v);

/* The semantic checks of one event in a cap block (`cs` is its cap), or
 * of a global event when `cs` is NULL. */
void evv_sched_event(evv *v, const ev_event *ev, evv_cap *cs);

/* The part of evv_sched_event that reads and changes the cap's state
 * only (no thread or task table), and the task checks. */
void evv_sched_cap_event(evv *v, const ev_event *ev, evv_cap *cs);
void evv_task_event(evv *v, const ev_event *ev);

/* ---- validate_table.c ---- */

/* Tables: init (entries of `entry_size` bytes, at most `max`), lookup,
 * insert (zeroed entry; NULL when full at `max`), clear, free. */
void evv_table_init(evv_table *t, size_t entry_size, uint32_t max);
void *evv_table_find(const evv_table *t, uint64_t key);
void *evv_table_insert(evv_table *t, uint64_t key);
void evv_table_clear(evv_table *t);
void evv_table_free(evv_table *t);
/* Calls fn for every entry, in no order. */
void evv_table_each(const evv_table *t, void (*fn)(void *entry, void *ctx),
		    void *ctx);
/* Keeps only the entries `keep` accepts; 0 when that worked (else the
 * table is unchanged). */
int evv_table_filter(evv_table *t, int (*keep)(const void *entry));

/* A capset's entry (in v->capsets). */
typedef struct evv_capset {
	evv_slot slot;
	uint8_t created;
	uint8_t referenced;
	evv_where first_ref;
} evv_capset;

#endif
