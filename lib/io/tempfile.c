/*
 * Temporary files (see tempfile.h).
 */
#define _GNU_SOURCE /* O_TMPFILE */
#include "tempfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common_internal.h"
#include "io_internal.h"

const char *evi_temp_dir(const char *dir)
{
	const char *env;

	if (dir && *dir)
		return dir;
	env = getenv("TMPDIR");
	return env && *env ? env : "/tmp";
}

/* mkstemp and unlink: the name exists for a moment only. */
static int open_named(const char *dir, int *fd, ev_diag *diag)
{
	size_t n = strlen(dir) + sizeof "/.evtool-XXXXXX";
	char *path = malloc(n);
	int saved;

	if (!path)
		return evi_fail(diag, EV_ENOMEM, 0, 0, "out of memory");
	snprintf(path, n, "%s/.evtool-XXXXXX", dir);
	*fd = mkstemp(path);
	saved = errno;
	if (*fd >= 0)
		unlink(path);
	free(path);
	if (*fd < 0)
		return evi_fail(diag, EV_EIO, 0, 0,
				"cannot create a temporary file in %s: %s", dir,
				strerror(saved));
	return EV_OK;
}

int evi_temp_open(const char *dir, int *fd, ev_diag *diag)
{
	const char *where = evi_temp_dir(dir);

#ifdef O_TMPFILE
	*fd = open(where, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (*fd >= 0)
		return EV_OK;
	/* Not every file system supports it; a missing folder is final. */
	if (errno == ENOENT || errno == ENOTDIR || errno == EACCES)
		return evi_fail(diag, EV_EIO, 0, 0,
				"cannot create a temporary file in %s: %s",
				where, strerror(errno));
#endif
	return open_named(where, fd, diag);
}

int evi_temp_open_beside(const char *target, char **path, int *fd)
{
	const char *slash = strrchr(target, '/');
	size_t dir_len = slash ? (size_t)(slash - target) + 1 : 0;
	size_t n = strlen(target) + sizeof "/..evtool-XXXXXX";
	int saved;

	*fd = -1;
	if (!(*path = malloc(n)))
		return EV_ENOMEM;
	snprintf(*path, n, "%.*s.%s.evtool-XXXXXX", (int)dir_len, target,
		 target + dir_len);
	if ((*fd = mkstemp(*path)) >= 0)
		return EV_OK;
	saved = errno;
	free(*path);
	*path = NULL;
	errno = saved;
	return EV_EIO;
}

int evi_pwrite_all(int fd, const void *data, size_t len, uint64_t offset,
		   ev_diag *diag)
{
	const uint8_t *p = data;

	while (len > 0) {
		ssize_t n = pwrite(fd, p, len, (off_t)offset);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return evi_fail(diag, EV_EIO, offset, 0,
					"cannot write a temporary file: %s",
					strerror(errno));
		p += n;
		len -= (size_t)n;
		offset += (uint64_t)n;
	}
	return EV_OK;
}

int evi_pread_full(int fd, void *data, size_t len, uint64_t offset,
		   size_t *got, ev_diag *diag)
{
	uint8_t *p = data;

	*got = 0;
	while (*got < len) {
		ssize_t n = pread(fd, p + *got, len - *got,
				  (off_t)(offset + *got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return evi_fail(diag, EV_EIO, offset + *got, 0,
					"read failed: %s", strerror(errno));
		if (n == 0)
			break;
		*got += (size_t)n;
	}
	return EV_OK;
}
