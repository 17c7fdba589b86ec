/*
 * evtool: putting a log into one global time order.
 *
 * GHC writes one buffer per capability and flushes each when it fills, so
 * a log holds blocks of different capabilities in no time order (a block
 * can be written long after the others), while each capability's own
 * stream is almost sorted: only GC_END steps back, by a few microseconds
 * (doc/format.md section 3). The sorter uses that: a first pass indexes where
 * each capability's blocks are and measures how far its stream is from
 * sorted; then a k-way merge reads every capability's blocks in place
 * (one cursor per capability, positioned by pread) through a reorder
 * window just wide enough for that stream. Input that is not like that
 * (a stream out of order by more than the window allows, too many
 * capabilities for the memory limit) is sorted by an external merge
 * sort that spills sorted runs to a temporary file. Standard input,
 * pipes, gzip and memory are first copied to a temporary file, which is
 * then read in place.
 *
 * The order is stable: events with equal timestamps keep their file
 * order, as `ghc-events show` prints them. Output events are re-blocked
 * by capability. Temporary files have no name (O_TMPFILE, or created and
 * unlinked at once), so nothing is left behind on success, failure,
 * signals or SIGKILL.
 */
#ifndef EVTOOL_SORT_H
#define EVTOOL_SORT_H

#include "common.h"
#include "consumer.h"
#include "pipeline.h"
#include "reader.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How a session is sorted. */
typedef enum ev_sort_method {
	/** Merge when the input allows, otherwise external (the default). */
	EV_SORT_AUTO = 0,
	/** Merge the capabilities' streams in place with reorder windows. */
	EV_SORT_MERGE,
	/** External merge sort: sorted runs spilled to a temporary file. */
	EV_SORT_EXTERNAL
} ev_sort_method;

/** The memory limit when none is given. */
#define EV_SORT_DEFAULT_MEMORY (32u * 1024u * 1024u)
/** The smallest memory limit accepted. */
#define EV_SORT_MIN_MEMORY (64u * 1024u)

/** Sorter options; initialise with EV_SORT_OPTIONS_INIT. */
typedef struct ev_sort_options {
	unsigned version;        /**< EV_SORT_OPTIONS_VERSION */
	/** Bytes for the sorter's index, windows, runs and merge buffers
	 *  (0: EV_SORT_DEFAULT_MEMORY). The reader's window (1 MiB) and
	 *  the writer's block (max_block_size) come on top. */
	size_t memory;
	const char *tmpdir;      /**< NULL: $TMPDIR, else /tmp */
	uint32_t max_block_size; /**< output blocks; 0: EV_MAX_BLOCK_SIZE */
	ev_sort_method method;   /**< force a method (tests); AUTO */
} ev_sort_options;

/** The layout of ev_sort_options this header describes. */
#define EV_SORT_OPTIONS_VERSION 1
/** The default sorter options. */
#define EV_SORT_OPTIONS_INIT \
	{ EV_SORT_OPTIONS_VERSION, 0, NULL, 0, EV_SORT_AUTO }

/** What the sorter did. */
typedef struct ev_sort_stats {
	unsigned sessions;
	uint64_t events;          /**< events written (block markers not counted) */
	unsigned merged_sessions; /**< sessions sorted by EV_SORT_MERGE */
	unsigned external_sessions; /**< sessions sorted by EV_SORT_EXTERNAL */
	unsigned streams;         /**< most capability streams in a merged
				       session (the global buffer is one) */
	uint32_t widest_window;   /**< the widest reorder window a merged
				       stream needed, in events (0: none) */
	uint64_t runs;            /**< sorted runs written, all merge passes */
	unsigned merge_passes;    /**< external merge passes, final one included */
	uint64_t spilled_bytes;   /**< bytes written to temporary files */
	int copied_input;         /**< the input was copied to a temporary
				       file first (stdin, pipe, gzip) */
	int truncated;            /**< the input ended early; its complete
				       events were sorted */
	/** Why a session could not be merged in place (the last such
	 *  session's reason); empty when none fell back. */
	char fallback[160];
} ev_sort_stats;

/** A sorter of logs into one time order (opaque). */
typedef struct ev_sorter ev_sorter;

/** Creates a sorter; `opts` may be NULL. EV_EINVAL for bad options. */
EV_API int ev_sorter_new(ev_sorter **out, const ev_sort_options *opts);

/** Frees a sorter; NULL is fine. */
EV_API void ev_sorter_free(ev_sorter *s);

/**
 * Sorts the log `in` into `out`, session by session, each with its own
 * header; a pipe, gzip or memory input is first copied to a temporary
 * file, which `in` keeps (pipeline.h). EV_OK; EV_ETRUNCATED when the
 * input ended early (the output is complete and holds its complete
 * events); or an error, see ev_sorter_diag() (its origin says what it
 * concerns). ev_sorter_stats() says what the run did.
 */
EV_API int ev_sorter_run(ev_sorter *s, ev_input *in, ev_sink *out);

/** Reports the progress of each later ev_sorter_run() to `fn` (NULL:
 *  none): the stored bytes of the input read by the first pass, out of
 *  the input's size; writing the sorted output comes after 100%. */
EV_API void ev_sorter_set_progress(ev_sorter *s, ev_progress_fn fn, void *ctx);

/**
 * Like ev_sorter_run, but drives the consumer `v` (consumer.h) on `ctx`
 * with the events in time order instead of writing a log: the streaming
 * form of the sort, in the same bounded memory. ev->offset is not
 * meaningful (the event may come from a temporary file); block markers
 * come with EV_CONSUME_MARKERS, each ordered by its own timestamp at its
 * file position among ties. EV_OK; EV_ETRUNCATED when the input ended early (every complete
 * event was handed over); a negative status a callback returned, with
 * ev_sorter_diag()->origin EV_ORIGIN_OUTPUT; or an error as for
 * ev_sorter_run. stats->events counts the events handed over, block
 * markers not included.
 */
EV_API int ev_sorter_visit(ev_sorter *s, ev_input *in,
			   const ev_consumer *v, void *ctx);

/** What the last run did. */
EV_API const ev_sort_stats *ev_sorter_stats(const ev_sorter *s);

/** Details of the last failure or truncation. */
EV_API const ev_diag *ev_sorter_diag(const ev_sorter *s);

/** Where a log first goes back in time. */
typedef struct ev_sort_inversion {
	unsigned session;     /**< 0-based */
	uint64_t offset;      /**< the event that is earlier than the one before */
	uint64_t index;       /**< its index in the session (markers counted) */
	uint16_t type;
	uint64_t time;
	uint64_t prev_offset; /**< the event before it (markers skipped) */
	uint64_t prev_index;
	uint16_t prev_type;
	uint64_t prev_time;
} ev_sort_inversion;

/**
 * Reads `r` to its end and checks that within every session each event's
 * timestamp is at least the one before (block markers are not events and
 * are skipped). 0: in order; 1: not, with the first inversion in `inv`
 * (reading stops there); negative: the reader's failure or truncation
 * (see ev_reader_diag()), found before any inversion.
 */
EV_API int ev_sort_check(ev_reader *r, ev_sort_inversion *inv);

#ifdef __cplusplus
}
#endif

#endif
