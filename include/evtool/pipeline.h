/*
 * evtool: the input every whole-log operation reads.
 *
 * Filter, sort, merge, repair and validate have one shape (doc/library.md):
 * an object made from options, ev_X_run(x, input, sink) (merge adds its
 * inputs first; validate has no sink), results through accessors and a
 * failure through ev_X_diag(x), whose origin (common.h) says which part of
 * the pipeline it concerns.
 *
 * The input is an ev_input: a file, standard input or bytes in memory.
 * An operation that reads it more than once makes it re-readable by one
 * policy: a regular file (or memory) is read again in place; a pipe is
 * copied, as stored, to an unnamed temporary file, which the input then
 * keeps, so that a later run reads the copy. A pipe that a run read only
 * once, without copying it, is used up.
 *
 *     ev_input *in;
 *     ev_diag why;
 *     if (ev_input_open(&in, "prog.eventlog", &why) < 0) ... why.message
 *     ev_sorter_run(s, in, sink);
 *     ev_input_free(in);
 */
#ifndef EVTOOL_PIPELINE_H
#define EVTOOL_PIPELINE_H

#include "common.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A log an operation reads: a file, standard input or memory (opaque). */
typedef struct ev_input ev_input;

/**
 * Opens the log at `path` ("-": standard input, which stays open after
 * the free). The log starts where the descriptor stands. EV_EIO when the
 * file cannot be opened (`diag`, which may be NULL: "cannot open: " and
 * the system's reason, origin EV_ORIGIN_INPUT); EV_ENOMEM.
 */
EV_API int ev_input_open(ev_input **out, const char *path, ev_diag *diag);

/** An input of the `len` bytes at `data`, which must outlive it, named
 *  `name` (NULL: "<memory>"). EV_ENOMEM. */
EV_API int ev_input_memory(ev_input **out, const void *data, size_t len,
			   const char *name, ev_diag *diag);

/** Its name: the path, "<stdin>" for "-", or the memory's name. */
EV_API const char *ev_input_name(const ev_input *in);

/** Frees an input, closing its file and removing its copy; NULL is
 *  fine. */
EV_API void ev_input_free(ev_input *in);


/**
 * Makes the log on `fd` readable more than once, by the policy the
 * operations use: a regular file is read in place from where `fd` stands,
 * and *out is `fd`; anything else (a pipe, a terminal) is copied, as
 * stored, from where it stands to its end into an unnamed temporary file
 * in `tmpdir` (NULL: $TMPDIR, else /tmp), and *out is that file, at its
 * start, which the caller closes. `fd` stays open either way. EV_EIO (a
 * directory, a read or a write that failed) or EV_ENOMEM, with *diag
 * saying why.
 */
EV_API int ev_input_reusable(int fd, const char *tmpdir, int *out,
			     ev_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
