/*
 * Temporary files, the only place that creates them:
 * - anonymous ones for the commands that spill (sort, filter, merge,
 *   export, archive): files with no name, so that nothing is left behind
 *   whatever happens to the process (success, failure, a signal, even
 *   SIGKILL);
 * - a named one beside an output file, which the sink renames over its
 *   target when the output is complete.
 */
#ifndef EVTOOL_LIB_TEMPFILE_H
#define EVTOOL_LIB_TEMPFILE_H

#include "evtool/common.h"

/*
 * Opens a new, empty, unnamed read-write file in `dir` (NULL: $TMPDIR,
 * else /tmp) and stores its descriptor in *fd; the caller closes it,
 * which frees the space. Linux's O_TMPFILE never gives the file a name;
 * elsewhere the file is created with mkstemp and unlinked at once.
 * EV_EIO with a message naming the folder when it cannot be done.
 */
int evi_temp_open(const char *dir, int *fd, ev_diag *diag);

/*
 * Creates "<dir>/.<name>.evtool-XXXXXX" beside `target` (so that the
 * rename onto it is atomic), mode 0600, and stores its malloc'd path in
 * *path and its descriptor in *fd. EV_ENOMEM, or EV_EIO with errno set.
 */
int evi_temp_open_beside(const char *target, char **path, int *fd);

/* The folder evi_temp_open(dir, ...) uses. */
const char *evi_temp_dir(const char *dir);

/* Writes all `len` bytes at `offset`; EV_EIO with a message otherwise. */
int evi_pwrite_all(int fd, const void *data, size_t len, uint64_t offset,
		   ev_diag *diag);

/* Reads up to `len` bytes at `offset` into `data`, stopping early only
 * at the end of the file; *got is the count. EV_EIO on failure. */
int evi_pread_full(int fd, void *data, size_t len, uint64_t offset,
		   size_t *got, ev_diag *diag);

#endif
