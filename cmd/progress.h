/*
 * The progress bar of long commands: one line on standard error, redrawn
 * a few times a second, only when standard error is a terminal and not
 * with --no-progress. It is driven by the library's progress callbacks
 * (ev_progress_fn: stored input bytes read, after each read, never per
 * event), so it costs one clock read per read of input.
 */
#ifndef EVTOOL_CMD_PROGRESS_H
#define EVTOOL_CMD_PROGRESS_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

typedef struct cli_progress {
	int on;                /* stderr is a terminal, no --no-progress */
	const char *label;     /* "merge", or a file name */
	struct timespec start;
	struct timespec next;  /* no redraw before this */
	int drawn;             /* a bar is on the line */
} cli_progress;

/* Starts a bar labelled `label` (borrowed until progress_end) unless
 * `no_progress` or standard error is not a terminal. The first draw
 * waits a second (EVTOOL_PROGRESS_DELAY, in seconds, for tests), so that
 * short runs show nothing. */
void progress_start(cli_progress *p, const char *label, int no_progress);

/* "2.6 MiB": `bytes` in the largest binary unit below them, one decimal
 * (none for bytes); the bar's and stats --follow's lines. */
const char *progress_bytes(double bytes, char *out, size_t len);

/* An ev_progress_fn: `ctx` is a cli_progress. */
void progress_update(void *ctx, uint64_t done, uint64_t total);

/* Erases the bar; it may start again (progress_start). */
void progress_end(cli_progress *p);

/* Erases the bar of the running command, if one is drawn, so that a
 * message can be printed; the next update redraws it. */
void progress_clear(void);

/* Formats one bar, at most `width` columns, into `out` (`cap` bytes):
 *   "LABEL  42% [=====>     ] 1.2 GiB/2.9 GiB 85.0 MiB/s 0:21 left"
 * or, when `total` is 0 (unknown), "LABEL 1.2 GiB 85.0 MiB/s".
 * `seconds` is the time since the start. Returns the length. */
size_t progress_format(char *out, size_t cap, const char *label,
		       uint64_t done, uint64_t total, double seconds,
		       unsigned width);

#endif
