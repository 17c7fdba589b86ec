/*
 * Shared by the sorter's source files: sort.c (the driver, the indexing
 * pass, the choice of method, --check) and sort_merge.c (cursors over
 * byte ranges of a file, reorder windows, the k-way merge, and sorted
 * runs for the external sort).
 */
#ifndef EVTOOL_LIB_SORT_INTERNAL_H
#define EVTOOL_LIB_SORT_INTERNAL_H

#include "evtool/header.h"
#include "evtool/reader.h"
#include "evtool/sort.h"
#include "evtool/writer.h"

#include "pool.h"
#include "wire.h"
#include "writer_block.h" /* evi_run */

/* A byte range of a file: a run of consecutive events of one
 * capability in the input (a block's events), or one sorted run. */
typedef struct evi_range {
	uint64_t offset;
	uint64_t bytes;
} evi_range;

/* Stretches of a stream, by the ordinal of its events (first and last,
 * inclusive), where its order must be restored: each holds a run of
 * events stamped earlier than some event before them, from the first
 * such later-stamped event on. Outside them the stream is in order. */
typedef struct evi_span {
	uint64_t first, last;
} evi_span;

/*
 * A cursor reads events from byte ranges of a file with pread, through a
 * buffer, and presents them one at a time as its head. Untagged cursors
 * read raw events of one capability (`cap`) and order ties by file
 * offset; tagged ones read records "u16 cap, event" of a sorted run and
 * order ties by `run_order`. With `window` > 0 the cursor sorts its
 * stream on the fly, which is exact when no event is preceded by more
 * than `window` later-stamped events of the stream; with `spans` it does
 * so only there, and hands the rest out as it reads it.
 */
typedef struct evi_cursor evi_cursor;

typedef struct evi_cursor_spec {
	int fd;
	const evi_range *ranges; /* borrowed; must outlive the cursor */
	size_t n_ranges;
	int tagged;
	uint16_t cap;
	uint64_t run_order;
	size_t buffer;           /* bytes; at least one largest record */
	uint32_t window;
	/* Where the window is needed (borrowed); none: everywhere. */
	const evi_span *spans;
	size_t n_spans;
	const evi_wire_table *wire;
	/* Read ahead through this pool's workers (NULL: read in turn): a
	 * second buffer of `buffer` bytes, filled in the background with
	 * the next bytes while the first is used; each must hold two
	 * largest records. */
	evi_pool *ahead;
} evi_cursor_spec;

int evi_cursor_new(evi_cursor **out, const evi_cursor_spec *spec,
		   ev_diag *diag);
void evi_cursor_free(evi_cursor *c);

/* Receives the merged events; a negative return stops the merge. */
typedef int (*evi_emit_fn)(void *ctx, const ev_event *ev);

/* Receives, when given, runs: 1 when it took the run, 0 when its events
 * are to come one by one through the emit function instead, negative to
 * stop the merge. */
typedef int (*evi_emit_run_fn)(void *ctx, const evi_run *run);

/* Merges the cursors' streams by (time, tie order) into `emit`, and runs
 * of one cursor's events into `run` if not NULL. */
int evi_merge(evi_cursor **cursors, size_t n, evi_emit_fn emit,
	      evi_emit_run_fn run, void *ctx);

/*
 * The external sort: events added in file order are collected in memory
 * up to the limit, sorted and written as runs to an unnamed temporary
 * file; evi_runs_finish merges the runs (in several passes when there are
 * more than the memory allows at once) into `emit`.
 */
typedef struct evi_runs evi_runs;

int evi_runs_new(evi_runs **out, size_t memory, const char *tmpdir,
		 const evi_wire_table *wire, ev_diag *diag);
int evi_runs_add(evi_runs *r, const ev_event *ev);
int evi_runs_finish(evi_runs *r, evi_emit_fn emit, void *ctx);
/* Runs written, merge passes, bytes spilled so far. */
void evi_runs_counts(const evi_runs *r, uint64_t *runs, unsigned *passes,
		     uint64_t *bytes);
void evi_runs_free(evi_runs *r);


#endif
