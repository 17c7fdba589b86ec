/*
 * Inputs that are read more than once (filter's learning passes, sort's
 * two passes, merge's plan and write, archive's digest and copy), all
 * made re-readable by one policy:
 *
 * - a regular file is read in place, from where its descriptor stands
 *   (a path, or standard input redirected from a file);
 * - anything else (a pipe, a terminal, a socket) is copied, as stored,
 *   to an unnamed temporary file (tempfile.c: `tmpdir`, else $TMPDIR,
 *   else /tmp), which then stands in for it;
 * - a reader that seeks by log offset (sort) asks for EVI_INPUT_INFLATE:
 *   gzip input, and a regular file not read from its start, are then
 *   copied too, inflated, so offsets in the copy are offsets in the log.
 */
#ifndef EVTOOL_LIB_INPUT_H
#define EVTOOL_LIB_INPUT_H

#include <stdint.h>

#include "evtool/common.h"
#include "evtool/pipeline.h"
#include "evtool/reader.h"

/* The copy holds the log inflated, addressable by log offset. */
#define EVI_INPUT_INFLATE 1u

typedef struct evi_input {
	int fd;               /* the input, or its copy; -1 when closed */
	int owns_fd;          /* closed by evi_input_close */
	uint64_t start;       /* where the log starts in fd */
	int copied;           /* fd is an unnamed temporary copy */
	int temp_failed;      /* a failure concerned the temporary file */
	uint64_t copied_bytes; /* bytes written to the copy */
} evi_input;

/*
 * Makes `fd` (closed by the input when `owned`, at once when it is
 * replaced by a copy) re-readable by the policy above. On failure
 * (EV_EIO, EV_ENOMEM, or the inflater's status) *diag says why, without
 * the input's name, and in->temp_failed says whether the temporary file
 * was at fault; an owned `fd` is closed.
 */
int evi_input_adopt(evi_input *in, int fd, int owned, const char *tmpdir,
		    unsigned flags, ev_diag *diag);

/* Puts the descriptor back at the start of the log. EV_EIO on failure. */
int evi_input_rewind(evi_input *in, ev_diag *diag);

/* Closes the descriptor when the input owns it. */
void evi_input_close(evi_input *in);

/* ---- the public handle (pipeline.h) ---- */

struct ev_input {
	char *name;        /* the path, "<stdin>", or the memory's name */
	int fd;            /* -1 for memory not yet copied */
	int owns_fd;       /* 0 for standard input */
	int is_stdin;
	uint64_t start;    /* where the log starts in fd */
	const void *data;  /* memory */
	size_t len;
};

/*
 * Opens a reader on `in` from the log's start, for a run that reads it
 * once (a pipe can be read this way only once). The status of
 * ev_reader_open_fd/_memory, or EV_EIO when the file cannot be put back
 * at its start (*diag says why).
 */
int evi_input_reader(ev_input *in, unsigned flags, ev_reader **r,
		     ev_diag *diag);

/*
 * Makes `in` re-readable by the policy above (`flags` EVI_INPUT_*) and
 * fills `view` (which owns nothing: evi_input_close is a no-op) with its
 * descriptor at the log's start; view->copied and view->copied_bytes say
 * whether this call made the copy, which `in` keeps for later runs.
 * Memory is read in place without EVI_INPUT_INFLATE (view->fd is -1:
 * use evi_input_reader) and copied to a temporary file with it. Fails as
 * evi_input_adopt does.
 */
int evi_input_prepare(ev_input *in, const char *tmpdir, unsigned flags,
		      evi_input *view, ev_diag *diag);

/* An input of the log at the start of `fd`, a file the input owns (it is
 * closed by ev_input_free, and now, on failure), named `name`: a log
 * made in a temporary file and read in place of another. EV_ENOMEM. */
int evi_input_fd(ev_input **out, int fd, const char *name);

#endif
