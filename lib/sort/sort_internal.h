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

#include "wire.h"

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
	/* Read ahead: a second buffer of `buffer` bytes, filled in the
	 * background (POSIX AIO) with the next bytes while the first is
	 * used; each must hold two largest records. */
	int prefetch;
} evi_cursor_spec;

int evi_cursor_new(evi_cursor **out, const evi_cursor_spec *spec,
		   ev_diag *diag);
void evi_cursor_free(evi_cursor *c);

/* Receives the merged events; a negative return stops the merge. */
typedef int (*evi_emit_fn)(void *ctx, const ev_event *ev);

/* A run of `n` consecutive events of capability `cap` in their wire form
 * (`len` bytes at `p`), stamped from `first` to `last`, each of a
 * fixed-size type below EVI_SMALL_IDS other than BLOCK_MARKER. `closes`:
 * the next event merged is another capability's, so a block that holds
 * this run ends with it. */
typedef struct evi_run {
	const uint8_t *p;
	size_t len;
	uint64_t n, first, last;
	uint16_t cap;
	int closes;
} evi_run;

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


/*
 * ev_writer_write for an event whose payload is preceded in memory by its
 * header as on the wire (type, time, [length]): a re-blocking writer
 * copies the wire bytes in one piece instead of encoding them. Every event
 * a sorter's cursor hands out is laid out so. Defined in writer.c.
 */
int evi_writer_copy(ev_writer *w, const ev_event *ev);

/* An evi_emit_run_fn for a re-blocking writer: appends the run to its
 * block as ev_writer_write would the events one by one (a run that
 * closes a block of its own goes with its marker straight to the sink);
 * 0 when that would need more than copying the bytes (the run does not
 * fit the block). */
int evi_writer_copy_run(ev_writer *w, const evi_run *run);

/*
 * Reading a block's events without decoding each (reader.c): the unread
 * bytes of the block the reader is in that are in its window (0 outside
 * a block), and moving past `bytes` of them, `events` whole events, the
 * last of which starts at `last_start`.
 */
size_t evi_reader_block_bytes(const ev_reader *r, const uint8_t **p);
void evi_reader_skip(ev_reader *r, size_t bytes, uint64_t events,
		     uint64_t last_start);

#endif
