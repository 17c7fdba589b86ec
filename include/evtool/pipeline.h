/*
 * evtool: what the whole-log operations (filter, sort) have in common.
 *
 * They run one pipeline, reader -> transform -> writer, over a log given
 * by path (or "-" for standard input), and may read it more than once or
 * spill it to unnamed temporary files. When one fails, its diagnostic
 * says which part of the pipeline the failure concerns (ev_diag.origin,
 * common.h, as every operation's does).
 */
#ifndef EVTOOL_PIPELINE_H
#define EVTOOL_PIPELINE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif


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
