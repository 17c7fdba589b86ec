/*
 * evtool: the `+RTS -s` summary, computed from a log's events.
 *
 * GHC's RTS posts its GC and heap statistics as events (GHC's design note
 * "RTSsummaryEvents"), so that tools can rebuild what `+RTS -s` prints:
 * GC_STATS_GHC (53) per collection, HEAP_ALLOCATED (49) per capability,
 * HEAP_LIVE (51) after each major collection, HEAP_SIZE (50), GC_START and
 * GC_END (9, 10) stamped with the very clock readings the RTS's own
 * figures use, and SPARK_COUNTERS (34) per capability. An accumulator is
 * fed events in file order (or in time order, as `evtool sort` writes
 * them: the figures are the same) and keeps a few counters per
 * capability, process and generation, whatever the log's size.
 *
 *     ev_stats *st;
 *     ev_stats_new(&st, NULL);
 *     rc = ev_reader_feed(reader, ev_stats_consumer(), st); // EV_END, ...
 *     (finished by the consumer's finish: the figures are there)
 *     for (size_t i = 0; i < ev_stats_process_count(st); i++)
 *             use(ev_stats_process_at(st, i));
 *     ev_stats_free(st);
 */
#ifndef EVTOOL_STATS_H
#define EVTOOL_STATS_H

#include "common.h"
#include "consumer.h"
#include "header.h"
#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An accumulator of the `+RTS -s` figures of a log's events (opaque). */
typedef struct ev_stats ev_stats;

/** The collections of one generation (a "Gen N" line of +RTS -s). */
typedef struct ev_stats_gen {
	uint64_t collections;
	uint64_t par_collections; /**< done by more than one GC thread */
	uint64_t elapsed_ns;      /**< sum of the pauses */
	uint64_t max_pause_ns;
	uint64_t max_slop_bytes;  /**< largest slop after its collections */
} ev_stats_gen;

/** Spark totals over a process's capabilities (SPARK_COUNTERS). */
typedef struct ev_stats_sparks {
	uint64_t created, dud, overflowed, converted, gcd, fizzled;
} ev_stats_sparks;

/** The summary of one process: a log has one, a merged log several. */
typedef struct ev_stats_process {
	uint32_t capset;          /**< its OS-process (and heap) capset */
	int have_pid;
	uint32_t pid;
	unsigned caps;            /**< capabilities attributed to it */

	int have_heap;            /**< it posted heap or GC statistics */
	uint64_t allocated_bytes; /**< sum of each cap's last HEAP_ALLOCATED */
	uint64_t copied_bytes;
	uint64_t max_live_bytes;  /**< largest HEAP_LIVE */
	uint64_t live_samples;    /**< HEAP_LIVE events: major collections */
	uint64_t max_slop_bytes;  /**< over major collections, as the RTS */
	uint64_t max_mem_bytes;   /**< largest HEAP_SIZE or MEM_RETURN current */

	unsigned n_gens;          /**< HEAP_INFO_GHC's count, else highest + 1 */
	const ev_stats_gen *gens; /**< n_gens entries, owned by the ev_stats */
	uint64_t collections;
	uint64_t gc_elapsed_ns;
	uint64_t untimed_collections; /**< no GC_START/GC_END pair found */

	uint64_t par_copied_bytes;          /**< copied by parallel GCs */
	uint64_t par_balanced_copied_bytes; /**< their balanced part */
	int have_balance;         /**< parallel GCs carried the balanced part */
	double work_balance;      /**< 0 (serial) to 1 (perfect) */

	int have_sparks;
	ev_stats_sparks sparks;
	uint64_t sparks_total;    /**< created + dud + overflowed, as the RTS */

	uint64_t start_ns;        /**< 0 (the RTS start) or its first event */
	uint64_t end_ns;          /**< its capabilities' last event that is
				       not metadata, or in a whole run
				       without GC events its CAPSET_DELETE
				       when later (0: none) */
	uint64_t elapsed_ns;      /**< end - start */
	uint64_t mut_elapsed_ns;  /**< elapsed - GC: includes INIT and EXIT */
	double productivity;      /**< mut_elapsed / elapsed, 0 to 1 */
	double alloc_rate;        /**< bytes per second of mut_elapsed */

	/** A slice of its run (the output of `evtool filter --from` or
	 *  `--between-markers`): its capabilities' first event that is not
	 *  metadata comes more than 5 ms after its start (its CAPSET_CREATE,
	 *  which filter keeps). Its figures then count from that event,
	 *  slice_start_ns: running totals (HEAP_ALLOCATED, SPARK_COUNTERS)
	 *  from their first value in the log, elapsed time from there. */
	int slice;
	uint64_t slice_start_ns;  /**< its first event that is not metadata */
} ev_stats_process;

/** A new, empty accumulator. Free it with ev_stats_free(). */
EV_API int ev_stats_new(ev_stats **out, ev_diag *diag);

/** Frees an accumulator; NULL is fine. */
EV_API void ev_stats_free(ev_stats *st);

/**
 * Adds one event: what the consumer's event callback does, for a caller
 * that hands events one by one. Feed every event of a log in file order,
 * as ev_reader_next returns them, or in time order (the sorter's, which
 * keeps each capability's ties in file order): a collection's GC_END,
 * stamped before the GC_GLOBAL_SYNC and GC_STATS_GHC written ahead of
 * it, is paired with them either way. Block markers may be given or not
 * (they count for nothing); several sessions of one stream may follow
 * each other. EV_OK, EV_EFORMAT for a statistics event
 * too short for its fields, EV_ELIMIT for more than EV_STATS_MAX_GENS
 * generations or EV_STATS_MAX_PROCESSES processes, EV_ENOMEM; see
 * ev_stats_diag().
 */
EV_API int ev_stats_add(ev_stats *st, const ev_event *ev);

/**
 * The accumulator as an event consumer (consumer.h), on an ev_stats: a
 * session's header sets the numbering of the events that follow (GHC
 * 7.8.2 numbered STOP_THREAD statuses differently, doc/format.md; a
 * caller of ev_stats_add alone gets the usual numbering); each event
 * goes to ev_stats_add, block markers included; its finish calls
 * ev_stats_finish when the source ended or was cut (the figures of the
 * events given), and nothing after a failure. A source returns
 * EV_END when the stream ended cleanly, EV_ETRUNCATED when it was cut
 * (the complete events were added), or the error of the source or of the
 * accumulator (ev_stats_diag).
 */
EV_API const ev_consumer *ev_stats_consumer(void);

/**
 * Reads with `threads` workers (ev_stats_read; 0 and 1: one, the
 * caller's thread). A plain log in a regular file, one session of
 * blocks, is then read block by block in parallel; every other log (gzip,
 * a pipe, several sessions) is read sequentially, and so is a damaged
 * one, from its start. Either way the figures are the same. Not with a
 * pause callback (ev_stats_on_pause), which reads sequentially.
 */
EV_API void ev_stats_set_threads(ev_stats *st, unsigned threads);

/**
 * Adds the events of the log `r` reads (nothing read yet) to `st` and
 * finishes it, as ev_reader_feed(r, ev_stats_consumer(), st) does, and
 * returns what it returns; in parallel as ev_stats_set_threads says.
 */
EV_API int ev_stats_read(ev_stats *st, ev_reader *r);

/**
 * Computes the per-process summaries from what was added. Call it once,
 * after the last event (the consumer's finish does, for a source);
 * EV_OK, EV_ENOMEM, or EV_EINVAL when called again.
 */
EV_API int ev_stats_finish(ev_stats *st);

/** Number of processes after ev_stats_finish, in capset order. */
EV_API size_t ev_stats_process_count(const ev_stats *st);

/** Process `i`, or NULL out of range. Owned by `st`, valid until the free. */
EV_API const ev_stats_process *ev_stats_process_at(const ev_stats *st,
						   size_t i);

/**
 * Capabilities whose figures could not be given to a process: a merged
 * log (several processes) whose capset assignments are missing. 0 in
 * logs of one process.
 */
EV_API unsigned ev_stats_unattributed_caps(const ev_stats *st);

/** Details of the last failure. */
EV_API const ev_diag *ev_stats_diag(const ev_stats *st);

/* Limits that keep an accumulator's memory bounded on hostile input:
 * about 130 bytes per capability and 1 KB per process at most. */
#define EV_STATS_MAX_GENS 16u          /**< generations per process */
#define EV_STATS_MAX_PROCESSES 65536u  /**< processes (OS-process capsets) */

#ifdef __cplusplus
}
#endif

#endif
