/*
 * Sinks: buffered output to a file descriptor, to memory, to a file
 * that appears only when complete (temporary file, fsync, rename), or
 * through a stage into another sink (evi_sink_open_stage).
 *
 * Layering: lib/format calls no function of lib/archive. The archive sink
 * (ev_sink_open_archive, lib/archive/archive_writer.c) is a stage: its
 * bytes go through the function pointers the archive code gives, so
 * calls go one way, archive_writer.c -> this file.
 */
#include "evtool/writer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common_internal.h"
#include "io_internal.h"
#include "tempfile.h"

#define SINK_BUFFER (256u * 1024u)

struct ev_sink {
	int fd;
	int memory;
	char *path;      /* the target of a path sink */
	char *temp_path; /* its temporary file until committed; none when the
			  * target is a device or FIFO, written in place */
	uint8_t *buf;
	size_t len;
	size_t cap;
	uint64_t bytes;
	ev_sink *target;             /* a staged sink's: where it writes to */
	const evi_sink_stage *stage; /* ... through what */
	void *stage_ctx;
	ev_diag diag;
};

static int new_sink(ev_sink **out, size_t cap)
{
	ev_sink *s = calloc(1, sizeof *s);

	*out = NULL;
	if (!s || !(s->buf = malloc(cap))) {
		free(s);
		return EV_ENOMEM;
	}
	s->fd = -1;
	s->cap = cap;
	*out = s;
	return EV_OK;
}

/* The mode a new file would get: 0666 less the umask, or the mode of the
 * file being replaced. */
static mode_t target_mode(const char *path)
{
	struct stat st;
	mode_t mask;

	if (stat(path, &st) == 0)
		return st.st_mode & 07777;
	mask = umask(022);
	umask(mask);
	return 0666 & ~mask;
}

/* A target that exists and is neither a regular file nor a folder
 * (/dev/null, a FIFO, a terminal) is written in place: renaming a
 * temporary file over it would replace the device with a file. */
static int is_device(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
	       !S_ISDIR(st.st_mode);
}

static int open_in_place(ev_sink *s)
{
	s->fd = open(s->path, O_WRONLY | O_CLOEXEC);
	return s->fd < 0 ? EV_EIO : EV_OK;
}

static int open_temp(ev_sink *s)
{
	int rc = evi_temp_open_beside(s->path, &s->temp_path, &s->fd);

	if (rc < 0)
		return rc;
	return fchmod(s->fd, target_mode(s->path)) != 0 ? EV_EIO : EV_OK;
}

int ev_sink_open_path(ev_sink **out, const char *path)
{
	ev_sink *s;
	int rc = new_sink(&s, SINK_BUFFER);

	if (rc < 0)
		return rc;
	if (!(s->path = strdup(path)))
		rc = EV_ENOMEM;
	else
		rc = is_device(path) ? open_in_place(s) : open_temp(s);
	if (rc < 0) {
		int saved = errno;

		ev_sink_free(s);
		errno = saved;
		return rc;
	}
	*out = s;
	return EV_OK;
}

int ev_sink_open_fd(ev_sink **out, int fd, const char *name)
{
	int rc = new_sink(out, SINK_BUFFER);

	(void)name;
	if (rc == EV_OK)
		(*out)->fd = fd;
	return rc;
}

int ev_sink_open_memory(ev_sink **out)
{
	int rc = new_sink(out, 4096);

	if (rc == EV_OK)
		(*out)->memory = 1;
	return rc;
}

static int write_all(ev_sink *s, const uint8_t *p, size_t n)
{
	if (s->stage && s->stage->write(s->stage_ctx, p, n) < 0) {
		s->diag = *s->stage->diag(s->stage_ctx);
		return s->diag.status;
	}
	while (!s->stage && n > 0) {
		ssize_t w = write(s->fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return evi_fail(&s->diag, EV_EIO, s->bytes, 0,
					"write failed: %s", strerror(errno));
		p += w;
		n -= (size_t)w;
	}
	return EV_OK;
}

static int flush(ev_sink *s)
{
	int rc;

	if (s->memory || s->len == 0)
		return EV_OK;
	rc = write_all(s, s->buf, s->len);
	s->len = 0;
	return rc;
}

static int grow_memory(ev_sink *s, size_t want)
{
	size_t cap = s->cap;
	uint8_t *grown;

	while (cap < want)
		cap *= 2;
	grown = realloc(s->buf, cap);
	if (!grown)
		return evi_fail(&s->diag, EV_ENOMEM, s->bytes, 0,
				"out of memory");
	s->buf = grown;
	s->cap = cap;
	return EV_OK;
}

uint8_t *evi_sink_reserve(ev_sink *s, size_t len)
{
	uint8_t *at;

	if (s->len + len > s->cap) {
		int rc = s->memory ? grow_memory(s, s->len + len) : flush(s);
		if (rc == EV_OK && s->len + len > s->cap)
			evi_fail(&s->diag, EV_EINVAL, s->bytes, 0,
				 "%zu bytes do not fit the output buffer", len);
		if (rc < 0 || s->len + len > s->cap)
			return NULL;
	}
	at = s->buf + s->len;
	s->len += len;
	s->bytes += len;
	return at;
}

int ev_sink_write(ev_sink *s, const void *data, size_t len)
{
	int rc = EV_OK;

	if (s->len + len > s->cap) {
		if (s->memory)
			rc = grow_memory(s, s->len + len);
		else if ((rc = flush(s)) == EV_OK && len >= s->cap) {
			rc = write_all(s, data, len);
			s->bytes += len;
			return rc;
		}
	}
	if (rc < 0)
		return rc;
	memcpy(s->buf + s->len, data, len);
	s->len += len;
	s->bytes += len;
	return EV_OK;
}

int evi_sink_open_stage(ev_sink **out, ev_sink *target,
			const evi_sink_stage *stage, void *ctx)
{
	ev_sink *s;
	int rc = new_sink(&s, SINK_BUFFER);

	if (rc < 0) {
		stage->free(ctx);
		ev_sink_free(target);
		return rc;
	}
	s->target = target;
	s->stage = stage;
	s->stage_ctx = ctx;
	*out = s;
	return EV_OK;
}

/* A staged sink's end: the stage's, then its target's commit. */
static int commit_stage(ev_sink *s)
{
	int rc = s->stage->finish(s->stage_ctx);

	if (rc < 0) {
		s->diag = *s->stage->diag(s->stage_ctx);
		return rc;
	}
	if ((rc = ev_sink_commit(s->target)) < 0)
		s->diag = *ev_sink_diag(s->target);
	return rc;
}

int ev_sink_commit(ev_sink *s)
{
	int rc = flush(s);

	if (rc == EV_OK && s->stage)
		return commit_stage(s);

	/* Descriptor and memory sinks are done; so is a committed path sink. */
	if (rc < 0 || !s->path || s->fd < 0)
		return rc;
	if ((s->temp_path && fsync(s->fd) != 0) || close(s->fd) != 0) {
		s->fd = -1;
		return evi_fail(&s->diag, EV_EIO, s->bytes, 0,
				"cannot write %s: %s", s->path,
				strerror(errno));
	}
	s->fd = -1;
	if (!s->temp_path)
		return EV_OK; /* written in place */
	if (rename(s->temp_path, s->path) != 0)
		return evi_fail(&s->diag, EV_EIO, s->bytes, 0,
				"cannot rename %s to %s: %s", s->temp_path,
				s->path, strerror(errno));
	free(s->temp_path);
	s->temp_path = NULL;
	return EV_OK;
}

void ev_sink_free(ev_sink *s)
{
	if (!s)
		return;
	if (s->path && s->fd >= 0) /* a path sink's descriptor is its own */
		close(s->fd);
	if (s->temp_path)
		unlink(s->temp_path);
	if (s->stage)
		s->stage->free(s->stage_ctx);
	ev_sink_free(s->target);
	free(s->temp_path);
	free(s->path);
	free(s->buf);
	free(s);
}

const char *ev_sink_temp_path(const ev_sink *s)
{
	if (s->target)
		return ev_sink_temp_path(s->target);
	return s->temp_path;
}

uint64_t ev_sink_bytes(const ev_sink *s)
{
	return s->bytes;
}

const uint8_t *ev_sink_memory(const ev_sink *s, size_t *len)
{
	if (!s->memory)
		return NULL;
	*len = s->len;
	return s->buf;
}

const ev_diag *ev_sink_diag(const ev_sink *s)
{
	return &s->diag;
}
