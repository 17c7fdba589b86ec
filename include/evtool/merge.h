/*
 * evtool: merging the eventlogs of several processes into one.
 *
 * Every GHC process numbers its capabilities from 0, uses capsets 0 and 1,
 * numbers threads from 1 and names tasks by pointer, and its clock starts
 * at its own start (doc/format.md section 6). A merge renumbers every
 * identifier so that no two inputs share one, shifts each input's clock so
 * that the processes line up in real time, and writes one log that holds
 * them all as separate OS-process capsets.
 *
 * It reads each input twice, in bounded memory: a first pass
 * (ev_merge_plan) finds each input's wall clock, its largest ids, its task
 * ids and its header, and decides the renumbering and shifts; the second
 * (ev_merge_run) streams the inputs into the output.
 *
 * Output order. A log's events are not in time order in its file: a
 * cap's block can be written long after the others' (section 3), so no
 * merge that keeps each input's file order gives a time-ordered file, and
 * readers (the ghc-events library, ThreadScope) order events by time
 * themselves. What the output promises instead:
 * - each input's events keep their file order;
 * - a capability's block (renumbered, its events all from one input) is
 *   copied whole with its marker's times, shifted; blocks are interleaved
 *   between inputs by aligned start time, ties by input order, except
 *   that a block comes earlier when a global event must wait until every
 *   input has been read up to its next global event;
 * - the log has one global buffer (cap 0xffff), so the global events of
 *   all inputs (and events outside blocks) are merged one by one by
 *   aligned time, ties by input order, into fresh global blocks;
 * so, per capability and for the global buffer, blocks are in time order
 * and do not overlap, as a single process's log has them. The order is
 * deterministic: the same inputs and options give the same bytes.
 * - a heap-profile sample (HEAP_PROF_SAMPLE_BEGIN ... END) or a ticky
 *   sample (TICKY_COUNTER_BEGIN_SAMPLE and its counters) is one unit,
 *   whose begin and end events name no process: it is copied whole, so
 *   that the events next to them (with their renumbered heap profile or
 *   counter ids) say whose it is. A global event of another input stamped
 *   inside such a sample is written right after it, at the sample's last
 *   time (ev_merge_input.restamped counts them).
 *
 *     ev_merge *m;
 *     ev_input *in;
 *     ev_merge_new(&m, NULL, NULL);
 *     if (ev_input_open(&in, "client.eventlog", NULL) < 0 ||
 *         ev_merge_add(m, in) < 0) ...
 *     ... the same for "server.eventlog"
 *     if (ev_merge_run(m, sink) < 0)
 *             ... ev_merge_diag(m)->message
 *     ev_merge_free(m);
 */
#ifndef EVTOOL_MERGE_H
#define EVTOOL_MERGE_H

#include "common.h"
#include "catalog.h"
#include "consumer.h"
#include "header.h"
#include "pipeline.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A merge of several logs into one (opaque). */
typedef struct ev_merge ev_merge;

/** How the inputs' clocks are lined up. */
typedef enum ev_merge_align {
	/** By each input's WALL_CLOCK_TIME (id 43): the earliest process
	 *  start is time 0 and every other input is shifted by how much
	 *  later it started. An input without one is an error. */
	EV_MERGE_ALIGN_WALL_CLOCK = 0,
	/** Each input's earliest timestamp becomes time 0. */
	EV_MERGE_ALIGN_START = 1,
	/** Timestamps are kept (each process's start is time 0). */
	EV_MERGE_ALIGN_NONE = 2
} ev_merge_align;

/** Flags of ev_merge_options. */
enum ev_merge_flag {
	/** Copy every identifier unchanged and synthesise nothing: for
	 *  inputs known to share no capability, capset, thread or task. */
	EV_MERGE_NO_RENUMBER = 1u << 0,
	/** Accept an event type whose fixed size differs between inputs (as
	 *  GC_STATS_GHC, 50 bytes before GHC 8.4 and 58 after): the output
	 *  declares the larger size and the shorter events get zero-filled
	 *  trailing fields (STOP_THREAD, GC_STATS_GHC) or are converted
	 *  (NONMOVING_HEAP_CENSUS 13 -> 14 bytes); other types stay an
	 *  error. Without it such inputs are an error. */
	EV_MERGE_WIDEN = 1u << 1,
	/** With EV_MERGE_ALIGN_WALL_CLOCK, an input without WALL_CLOCK_TIME
	 *  (logs before GHC 7.6, killed GHC <= 9.0 runs) is aligned by its
	 *  start, its first event at time 0, instead of being an error;
	 *  ev_merge_input.aligned_by_start says which were. */
	EV_MERGE_START_FALLBACK = 1u << 2
};

/** What `evtool merge` does unless --strict: widen where the conversion
 *  is exact, align an input without a wall clock by its start. */
#define EV_MERGE_LENIENT (EV_MERGE_WIDEN | EV_MERGE_START_FALLBACK)

/** Merge options; initialise with EV_MERGE_OPTIONS_INIT. */
typedef struct ev_merge_options {
	unsigned version;      /**< EV_MERGE_OPTIONS_VERSION */
	ev_merge_align align;
	unsigned flags;        /**< EV_MERGE_* */
	/** Folder for the spool of standard input and other inputs that
	 *  cannot be read twice (pipes); NULL: $TMPDIR, else /tmp. */
	const char *spool_dir;
} ev_merge_options;

/** The layout of ev_merge_options this header describes. */
#define EV_MERGE_OPTIONS_VERSION 1
/** The default merge options: align by wall clock, renumber. */
#define EV_MERGE_OPTIONS_INIT \
	{ EV_MERGE_OPTIONS_VERSION, EV_MERGE_ALIGN_WALL_CLOCK, 0, NULL }

/** Limits. More caps than EV_MERGE_MAX_CAPS in all, more than 256 heap
 *  profiles in all (the id is a byte) or more distinct task ids in one
 *  input than EV_MERGE_MAX_TASKS are errors (EV_ELIMIT). */
#define EV_MERGE_MAX_CAPS 0xffffu
/** The most distinct task ids one input may have (EV_ELIMIT beyond). */
#define EV_MERGE_MAX_TASKS 65536u
/** Blocks larger than this (GHC writes at most 2 MiB) are split. */
#define EV_MERGE_MAX_BLOCK (2u * EV_MAX_BLOCK_SIZE)

/** Synthesised creation events (ev_merge_input.synthesised). */
enum ev_merge_synth {
	EV_MERGE_SYNTH_OS_CAPSET = 1u << 0,    /**< CAPSET_CREATE, OS process */
	EV_MERGE_SYNTH_CLOCK_CAPSET = 1u << 1, /**< CAPSET_CREATE, clock domain */
	EV_MERGE_SYNTH_CAP_CREATE = 1u << 2,   /**< CAP_CREATE of some caps */
	EV_MERGE_SYNTH_CAP_ASSIGN = 1u << 3    /**< CAPSET_ASSIGN_CAP of some caps */
};

/** How one kind of identifier of one input is renumbered. */
typedef struct ev_merge_ids {
	int used;      /**< nonzero when the input names any */
	uint64_t max;  /**< the largest id of this kind it names */
	/** Output id = input id + base, except thread id 0 and a cap field
	 *  of all ones (which mean "none"). Always 0 for EV_REF_TASK: task
	 *  ids are renamed one by one, each to a value no earlier
	 *  input has. */
	uint64_t base;
} ev_merge_ids;

/** What the first pass found in one input, and the plan for it. */
typedef struct ev_merge_input {
	const char *name;          /**< as given; "<stdin>" for "-" */
	/* found */
	uint64_t events;           /**< events, block markers not counted */
	uint64_t blocks;
	unsigned sessions;         /**< 1: see EV_REASON_SESSIONS */
	int truncated;             /**< no data end: merged up to its last
				        complete event, see `truncation` */
	ev_diag truncation;
	int has_wall_clock;
	int64_t clock_origin;      /**< Unix ns at its time 0 (if has_wall_clock) */
	uint64_t first_time;       /**< its smallest timestamp */
	uint64_t last_time;        /**< its largest timestamp */
	/* planned */
	int64_t shift;             /**< ns added to each of its timestamps */
	ev_merge_ids ids[EV_REF_HEAP_PROFILE + 1]; /**< by ev_ref_kind */
	uint64_t tasks;            /**< distinct task ids */
	uint64_t tasks_renamed;    /**< of which renamed: another input had them */
	uint32_t os_capset;        /**< output id of its OS-process capset */
	uint32_t clock_capset;     /**< output id of its clock-domain capset */
	unsigned synthesised;      /**< EV_MERGE_SYNTH_* */
	uint32_t synthesised_events;
	/** It has no wall clock and was aligned by its start
	 *  (EV_MERGE_START_FALLBACK). */
	int aligned_by_start;
	/** Event types whose events of this input are written wider than it
	 *  declares them (EV_MERGE_WIDEN): at most STOP_THREAD, GC_STATS_GHC
	 *  and NONMOVING_HEAP_CENSUS, the only ones with exact conversions. */
	uint16_t widened[3];
	unsigned n_widened;        /**< entries of `widened` */
	/* written (by ev_merge_run) */
	/** Global events written later than stamped: they fell inside a
	 *  heap or ticky sample of another input, which is copied whole
	 *  (see "Output order"). */
	uint64_t restamped;
	uint64_t restamp_max_ns;   /**< the most one of them was moved */
	/** Heap censuses closed with a HEAP_PROF_SAMPLE_END (165) written
	 *  after them: its (older) runtime wrote none, and another input's
	 *  header declares it, so the merged log's censuses must all end. */
	uint64_t censuses_ended;
} ev_merge_input;

/** Creates a merge; `opts` may be NULL for the defaults. */
EV_API int ev_merge_new(ev_merge **out, const ev_merge_options *opts,
			ev_diag *diag);

/** Frees a merge, closing its inputs and removing spools; NULL is fine. */
EV_API void ev_merge_free(ev_merge *m);

/** Reports the progress of ev_merge_plan() and ev_merge_run() to `fn`
 *  (NULL: none): the stored bytes both read of all inputs, out of twice
 *  their sizes (each is read once to plan, once to write). */
EV_API void ev_merge_set_progress(ev_merge *m, ev_progress_fn fn, void *ctx);

/**
 * Adds the input `in` (pipeline.h), which the merge takes over and frees
 * with itself, also when adding fails. Standard input may be added once.
 * An input that cannot be read twice (a pipe) is first copied to an
 * unnamed spool file in ev_merge_options.spool_dir, so that it
 * disappears whenever the process ends, signals included.
 */
EV_API int ev_merge_add(ev_merge *m, ev_input *in);

/** Number of inputs added. */
EV_API size_t ev_merge_input_count(const ev_merge *m);

/**
 * Moves input `i` (0-based) by `ns` nanoseconds relative to the others,
 * on top of the alignment. When that would put an event before time 0,
 * all inputs are moved later by the same amount.
 */
EV_API int ev_merge_shift(ev_merge *m, size_t i, int64_t ns);

/**
 * The first pass: reads every input once and decides the output header,
 * the renumbering and the shifts. EV_OK, or an error with
 * ev_merge_diag() set. A truncated input is not an
 * error: see ev_merge_input.truncated.
 */
EV_API int ev_merge_plan(ev_merge *m);

/** Input `i` after ev_merge_plan, or NULL. Owned by the merge. */
EV_API const ev_merge_input *ev_merge_input_at(const ev_merge *m, size_t i);

/** The output header after ev_merge_plan, or NULL. Owned by the merge. */
EV_API const ev_header *ev_merge_header(const ev_merge *m);

/**
 * The second pass: writes the merged log into `sink` (which stays the
 * caller's; commit it afterwards). Plans first if that was not done.
 * Can be called once. EV_OK, or an error with ev_merge_diag().
 */
EV_API int ev_merge_run(ev_merge *m, ev_sink *sink);

/**
 * The second pass as a source of the consumer protocol (consumer.h):
 * drives `c` on `self` with the merged log's events (one session: begin
 * with ev_merge_header, each event in the merged time order with the
 * output's ids and times, block markers when `c` asks for them, end,
 * then finish), as a reader of what ev_merge_run writes sees them,
 * without storing the log: the pass runs on a thread of its own beside
 * the caller, into a pipe the caller reads (the progress, if set, is
 * reported from that thread). Plans first if that was not done; instead
 * of ev_merge_run, once. EV_OK, or the merge's failure
 * (ev_merge_diag(); EV_ORIGIN_OUTPUT for a consumer's), in every case as
 * `c`'s finish passes it on.
 */
EV_API int ev_merge_visit(ev_merge *m, const ev_consumer *c, void *self);

/** Events written by ev_merge_run (block markers not counted). */
EV_API uint64_t ev_merge_events_written(const ev_merge *m);

/**
 * Details of the last failure: its origin is the input (its index in
 * ev_diag.input when known), the output, the options, or none for a
 * limit (EV_ELIMIT). Inputs that cannot be merged with the options given
 * are EV_ORIGIN_OPTIONS and EV_EINVAL with a reason:
 * EV_REASON_NO_WALL_CLOCK (EV_MERGE_START_FALLBACK or another alignment
 * gets past it), EV_REASON_SIZE_DIFFERS (EV_MERGE_WIDEN does) or
 * EV_REASON_NO_CONVERSION (nothing does), and an input of several
 * sessions EV_REASON_SESSIONS (each session extracted is an input). An
 * input's read failure keeps the reader's reason.
 */
EV_API const ev_diag *ev_merge_diag(const ev_merge *m);

#ifdef __cplusplus
}
#endif

#endif
