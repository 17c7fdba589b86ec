/*
 * evtool: the validator, a streaming check that a log is what GHC's
 * runtime writes.
 *
 * A validator (ev_validator_run) reads a log to its end and reports every
 * problem it finds
 * as a finding (an error or a warning with a stable check id, a byte
 * offset and, where one is involved, the event), then a verdict: the log
 * is complete, truncated (it ends before its data-end marker, as a killed
 * program's log does) or invalid. Memory stays bounded whatever the log's
 * size: per-capability state, and tables of threads, tasks and capsets
 * with a hard cap on their entries.
 *
 * What is checked (evtool(1), "evtool validate", lists every check id):
 * - structure: header, declared sizes of known types, undeclared types,
 *   payload lengths, block sizes and boundaries, block time windows, the
 *   data end and what follows it;
 * - ordering: each capability's blocks in time order without overlap,
 *   time never going back within a capability except GHC's early-stamped
 *   GC_END and GC_START (doc/format.md section 3); optionally one global order;
 * - references: capabilities and capsets named by blocks and payloads
 *   exist when the log has their creation events;
 * - semantics (optional): threads, GC start/end, tasks, heap samples.
 *
 * Typical use:
 *
 *     ev_validate_options opts = EV_VALIDATE_OPTIONS_INIT;
 *     ev_validator *v;
 *     ev_validator_new(&v, &opts, NULL);
 *     ev_validator_set_findings(v, on_finding, ctx);
 *     if (ev_validator_run(v, in) < 0) ... ev_validator_diag(v)
 *     ev_validator_result(v)->verdict is EV_VERDICT_COMPLETE,
 *     _TRUNCATED or _INVALID
 *     ev_validator_free(v);
 *
 * The validator is an event consumer too (consumer.h): any source drives
 * it, merged inputs or a followed live log as well as a file
 * (ev_merge_visit(m, ev_validator_consumer(), v)).
 */
#ifndef EVTOOL_VALIDATE_H
#define EVTOOL_VALIDATE_H

#include "common.h"
#include "consumer.h"
#include "pipeline.h"
#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How far GC_END and GC_START may step back in time by default: GHC
 *  stamps GC_END up to ~13 us early (doc/format.md section 3) and GC_START
 *  with a time taken just before it posts it; this leaves a wide margin. */
#define EV_VALIDATE_GC_END_TOLERANCE_NS 1000000u

/** Threads tracked at once by default (160 bytes each at most). When the
 *  table fills, threads that are not running are forgotten. */
#define EV_VALIDATE_MAX_THREADS (1u << 14)

/** The layout of ev_validate_options this header describes. */
#define EV_VALIDATE_OPTIONS_VERSION 1

/** Options of a validator. Initialise with EV_VALIDATE_OPTIONS_INIT. */
typedef struct ev_validate_options {
	unsigned version;             /**< EV_VALIDATE_OPTIONS_VERSION */
	/** Require one global time order (what `evtool sort` writes). */
	int sorted;
	/** Check threads, GC start/end, tasks and heap samples. */
	int semantics;
	/** How far any event may step back in time, or lie outside its
	 *  block's time window, before it is an error. */
	uint64_t tolerance_ns;
	/** How far GC_END and GC_START may step back, or precede their
	 *  block (the larger of the two tolerances applies to them). */
	uint64_t gc_end_tolerance_ns;
	/** Threads tracked at once; 0 for EV_VALIDATE_MAX_THREADS. */
	uint32_t max_threads;
} ev_validate_options;

/** The default options of a validator. */
#define EV_VALIDATE_OPTIONS_INIT \
	{ EV_VALIDATE_OPTIONS_VERSION, 0, 1, 0, \
	  EV_VALIDATE_GC_END_TOLERANCE_NS, 0 }

/** How bad a finding is. Warnings fail only a strict gate. */
typedef enum ev_severity {
	EV_SEVERITY_ERROR = 0,
	EV_SEVERITY_WARNING = 1
} ev_severity;

/** One problem found in a log. Valid only during the callback. */
typedef struct ev_finding {
	ev_severity severity;
	const char *check;     /**< stable id, e.g. "block-end" */
	uint64_t offset;       /**< byte offset in the (decompressed) stream */
	unsigned session;      /**< 0-based session (header) it belongs to */
	int has_event;         /**< the event fields below describe one */
	uint64_t event_index;  /**< 0-based in its session, markers included */
	uint16_t event_type;
	uint16_t cap;          /**< EV_NO_CAP outside cap blocks */
	uint64_t time;         /**< the event's timestamp, ns */
	const char *message;   /**< one line, no trailing newline */
} ev_finding;

/** Called once per finding; return nonzero to stop validating. */
typedef int (*ev_finding_fn)(const ev_finding *finding, void *ctx);

/** What a log is, all findings considered. */
typedef enum ev_verdict {
	EV_VERDICT_COMPLETE = 0,  /**< ends with its data end; no error */
	EV_VERDICT_TRUNCATED = 1, /**< ends early; no other error */
	EV_VERDICT_INVALID = 2    /**< at least one error besides truncation */
} ev_verdict;

/** The outcome of a validation (ev_validator_result()). */
typedef struct ev_validate_result {
	ev_verdict verdict;
	uint64_t errors;     /**< error findings, "truncated" included */
	uint64_t warnings;
	uint64_t events;     /**< events read, block markers not
				  *  included (as `evtool info` counts) */
	uint64_t blocks;
	unsigned sessions;
	/** Offset just past the last complete event (or header, or data
	 *  end): where `evtool truncate` would cut a truncated log. */
	uint64_t last_complete_offset;
	int stopped;         /**< the callback asked to stop early */
} ev_validate_result;

/** A validator of logs (opaque). */
typedef struct ev_validator ev_validator;

/** Creates a validator; `opts` may be NULL for the defaults. EV_EINVAL
 *  for options of another version. */
EV_API int ev_validator_new(ev_validator **out,
			    const ev_validate_options *opts, ev_diag *diag);

/** Frees a validator; NULL is fine. */
EV_API void ev_validator_free(ev_validator *v);

/** Calls `fn` (NULL: none) with each finding of the later runs. */
EV_API void ev_validator_set_findings(ev_validator *v, ev_finding_fn fn,
				      void *ctx);

/** Reports the progress of each later ev_validator_run() to `fn` (NULL:
 *  none): the stored bytes read, out of the input's size. */
EV_API void ev_validator_set_progress(ev_validator *v, ev_progress_fn fn,
				      void *ctx);

/**
 * Validates each later log with `threads` workers (0 and 1: one, the
 * caller's): a plain log in a regular file, one session of blocks, is
 * checked block by block in parallel, and whenever the workers find
 * anything to report (or cannot read the log so) it is validated in one
 * pass, as with one thread; the findings, their order, the result and
 * the status never depend on `threads`. Without the sorted option.
 */
EV_API void ev_validator_set_threads(ev_validator *v, unsigned threads);

/**
 * Validates the log `in` (pipeline.h) from its start to its end. Returns
 * EV_OK once a verdict is reached (ev_validator_result()), even when the
 * log is invalid; a negative status when the input could not be read
 * (EV_EIO), holds not one byte (EV_EFORMAT, reason EV_REASON_EMPTY_INPUT:
 * no log to judge), memory ran out or an argument is invalid, with
 * ev_validator_diag() saying why (then the result holds the counts so
 * far and the verdict EV_VERDICT_INVALID). Findings come in file order,
 * except that those about references (cap-ref, cap-capset, capset-ref)
 * come at the end of their session.
 */
EV_API int ev_validator_run(ev_validator *v, ev_input *in);

/**
 * ev_validator_run() of the log `r` reads, from its current position:
 * for a caller that reads the log through a reader of its own (one that
 * also computes a digest, EV_READER_DIGEST). Progress is the reader's.
 */
EV_API int ev_validator_run_reader(ev_validator *v, ev_reader *r);

/**
 * The validator as an event consumer (consumer.h) on `v`: each run of a
 * source is one validation, as ev_validator_run's of the events the
 * source hands over (EV_CONSUME_MARKERS: the checks of the blocks need
 * their markers), with the same findings, result and verdict. What only
 * a reader knows becomes a finding of its own: where the source stopped
 * before the data end ("truncated") or could not go on ("input", or
 * "header" between sessions), with the source's status, at the end of
 * the last event handed over. Finish returns EV_OK once a verdict is
 * reached (the findings' callback asking to stop included), else the
 * failure (ev_validator_diag()). The checks of the blocks and of one
 * order assume the events' file order and offsets: in the sorter's time
 * order they find what a sorted log's blocks would not have.
 */
EV_API const ev_consumer *ev_validator_consumer(void);

/** The outcome of the last run; owned by the validator. */
EV_API const ev_validate_result *ev_validator_result(const ev_validator *v);

/** Details of the last failure to read (EV_ORIGIN_INPUT). */
EV_API const ev_diag *ev_validator_diag(const ev_validator *v);

/** "error" or "warning". */
EV_API const char *ev_severity_name(ev_severity severity);

/** "complete", "truncated" or "invalid". */
EV_API const char *ev_verdict_name(ev_verdict verdict);

/** One check the validator performs. */
typedef struct ev_check_info {
	const char *id;       /**< stable id, as in ev_finding.check */
	const char *summary;  /**< one line: what a finding of it means */
} ev_check_info;

/** Number of checks; ev_validate_check_at(i) for i below it. */
EV_API size_t ev_validate_check_count(void);

/** Check `i` in documentation order, or NULL out of range. */
EV_API const ev_check_info *ev_validate_check_at(size_t i);

#ifdef __cplusplus
}
#endif

#endif
