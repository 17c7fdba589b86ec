/*
 * Re-readable inputs (see input.h).
 */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evtool/pipeline.h"
#include "gzip.h"
#include "internal.h"
#include "source.h"
#include "tempfile.h"

#define COPY_BUFFER (1u << 20)

/* Whether the bytes at `at` start with the gzip magic. */
static int gzip_at(int fd, uint64_t at)
{
	uint8_t magic[2];
	size_t got;
	ev_diag ignored;

	return evi_pread_full(fd, magic, 2, at, &got, &ignored) == EV_OK &&
	       got == 2 && evi_is_gzip(magic, 2);
}

/* A regular file can be read again in place, unless the reader needs
 * log offsets and the file holds gzip or does not start the log. */
static int in_place(int fd, unsigned flags, uint64_t *start, ev_diag *diag)
{
	struct stat st;
	off_t at;

	if (fstat(fd, &st) != 0)
		return evi_fail(diag, EV_EIO, 0, 0, "%s", strerror(errno));
	if (S_ISDIR(st.st_mode))
		return evi_fail(diag, EV_EIO, 0, 0, "is a directory");
	if (!S_ISREG(st.st_mode))
		return 0;
	at = lseek(fd, 0, SEEK_CUR);
	*start = at > 0 ? (uint64_t)at : 0;
	if (flags & EVI_INPUT_INFLATE)
		return *start == 0 && !gzip_at(fd, 0);
	return 1;
}

/* Copies the rest of `from` (inflated with EVI_INPUT_INFLATE) into
 * in->fd, a new temporary file. */
static int copy_rest(evi_input *in, int from, unsigned flags, ev_diag *diag)
{
	uint8_t *buf = malloc(COPY_BUFFER);
	evi_source *src = NULL;
	int raw = !(flags & EVI_INPUT_INFLATE), rc;

	if (!buf)
		return evi_fail(diag, EV_ENOMEM, 0, 0, "out of memory");
	rc = evi_source_open(&src, from, 0, NULL, 0, 0, raw, diag);
	for (size_t got = 1; rc == EV_OK && got > 0;
	     in->copied_bytes += got) {
		if ((rc = evi_source_read(src, buf, COPY_BUFFER, &got)) < 0)
			break;
		rc = evi_pwrite_all(in->fd, buf, got, in->copied_bytes, diag);
		in->temp_failed = rc < 0;
	}
	evi_source_free(src);
	free(buf);
	return rc;
}

int evi_input_adopt(evi_input *in, int fd, int owned, const char *tmpdir,
		    unsigned flags, ev_diag *diag)
{
	int rc;

	memset(in, 0, sizeof *in);
	in->fd = fd;
	in->owns_fd = owned;
	if ((rc = in_place(fd, flags, &in->start, diag)) != 0) {
		if (rc < 0)
			evi_input_close(in);
		return rc < 0 ? rc : EV_OK;
	}
	in->fd = -1;
	if ((rc = evi_temp_open(tmpdir, &in->fd, diag)) < 0)
		in->temp_failed = 1;
	else
		rc = copy_rest(in, fd, flags, diag);
	if (owned)
		close(fd);
	in->owns_fd = in->fd >= 0;
	in->copied = 1;
	if (rc == EV_OK)
		rc = evi_input_rewind(in, diag);
	if (rc < 0)
		evi_input_close(in);
	return rc;
}

int evi_input_rewind(evi_input *in, ev_diag *diag)
{
	if (lseek(in->fd, (off_t)in->start, SEEK_SET) < 0)
		return evi_fail(diag, EV_EIO, 0, 0, "cannot rewind: %s",
				strerror(errno));
	return EV_OK;
}

void evi_input_close(evi_input *in)
{
	if (in->owns_fd && in->fd >= 0)
		close(in->fd);
	in->fd = -1;
	in->owns_fd = 0;
}

int ev_input_reusable(int fd, const char *tmpdir, int *out, ev_diag *diag)
{
	evi_input in;
	int rc = evi_input_adopt(&in, fd, 0, tmpdir, 0, diag);

	*out = rc == EV_OK ? in.fd : -1;
	return rc;
}

/* ---- the public handle ---- */

static int new_input(ev_input **out, const char *name)
{
	ev_input *in = calloc(1, sizeof *in);

	*out = NULL;
	if (!in || !(in->name = strdup(name))) {
		free(in);
		return EV_ENOMEM;
	}
	in->fd = -1;
	*out = in;
	return EV_OK;
}

int ev_input_open(ev_input **out, const char *path, ev_diag *diag)
{
	int is_stdin = strcmp(path, "-") == 0;
	int fd = STDIN_FILENO, rc;
	off_t at;

	if (!is_stdin && (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		*out = NULL;
		return evi_fail_at(diag, EV_ORIGIN_INPUT, EV_EIO, 0, 0,
				   "cannot open: %s", strerror(errno));
	}
	if ((rc = new_input(out, is_stdin ? "<stdin>" : path)) < 0) {
		if (!is_stdin)
			close(fd);
		return evi_new_failed(diag, NULL, rc);
	}
	(*out)->fd = fd;
	(*out)->owns_fd = !is_stdin;
	(*out)->is_stdin = is_stdin;
	at = lseek(fd, 0, SEEK_CUR);
	(*out)->start = at > 0 ? (uint64_t)at : 0;
	return EV_OK;
}

int ev_input_memory(ev_input **out, const void *data, size_t len,
		    const char *name, ev_diag *diag)
{
	int rc = new_input(out, name ? name : "<memory>");

	if (rc < 0)
		return evi_new_failed(diag, NULL, rc);
	(*out)->data = data;
	(*out)->len = len;
	return EV_OK;
}

int evi_input_fd(ev_input **out, int fd, const char *name)
{
	int rc = new_input(out, name);

	if (rc < 0) {
		close(fd);
		return rc;
	}
	(*out)->fd = fd;
	(*out)->owns_fd = 1;
	return EV_OK;
}

const char *ev_input_name(const ev_input *in)
{
	return in->name;
}

void ev_input_free(ev_input *in)
{
	if (!in)
		return;
	if (in->owns_fd && in->fd >= 0)
		close(in->fd);
	free(in->name);
	free(in);
}

/* Puts a file back at the log's start; a pipe stays where it is. */
static int to_start(ev_input *in, ev_diag *diag)
{
	struct stat st;

	if (fstat(in->fd, &st) != 0 || !S_ISREG(st.st_mode))
		return EV_OK;
	if (lseek(in->fd, (off_t)in->start, SEEK_SET) < 0)
		return evi_fail(diag, EV_EIO, 0, 0, "cannot rewind: %s",
				strerror(errno));
	return EV_OK;
}

int evi_input_reader(ev_input *in, unsigned flags, ev_reader **r,
		     ev_diag *diag)
{
	int rc;

	if (in->fd < 0)
		return ev_reader_open_memory(r, in->data, in->len, in->name,
					     flags, NULL);
	if ((rc = to_start(in, diag)) < 0) {
		*r = NULL;
		return rc;
	}
	return ev_reader_open_fd(r, in->fd, in->name, flags, NULL);
}

/* Memory that must be a file (EVI_INPUT_INFLATE: read by offset) is
 * copied to a temporary file, which the input keeps. */
static int memory_to_file(ev_input *in, const char *tmpdir, evi_input *view,
			  ev_diag *diag)
{
	int fd, rc = evi_temp_open(tmpdir, &fd, diag);

	if (rc < 0) {
		view->temp_failed = 1;
		return rc;
	}
	rc = evi_pwrite_all(fd, in->data, in->len, 0, diag);
	if (rc < 0) {
		view->temp_failed = 1;
		close(fd);
		return rc;
	}
	in->fd = fd;
	in->owns_fd = 1;
	in->start = 0;
	view->copied = 1;
	view->copied_bytes = in->len;
	return EV_OK;
}

int evi_input_prepare(ev_input *in, const char *tmpdir, unsigned flags,
		      evi_input *view, ev_diag *diag)
{
	evi_input adopted;
	int rc;

	memset(view, 0, sizeof *view);
	view->fd = -1;
	if (in->fd < 0 && !(flags & EVI_INPUT_INFLATE))
		return EV_OK; /* memory: read again in place */
	if (in->fd < 0 && (rc = memory_to_file(in, tmpdir, view, diag)) < 0)
		return rc;
	if ((rc = to_start(in, diag)) < 0)
		return rc;
	rc = evi_input_adopt(&adopted, in->fd, 0, tmpdir, flags, diag);
	view->temp_failed |= adopted.temp_failed;
	if (rc < 0)
		return rc;
	if (adopted.copied) { /* the copy stands in for the input from now */
		if (in->owns_fd)
			close(in->fd);
		in->fd = adopted.fd;
		in->owns_fd = 1;
		in->start = 0;
		view->copied = 1;
		view->copied_bytes += adopted.copied_bytes;
	} else {
		in->start = adopted.start;
	}
	view->fd = in->fd;
	view->start = in->start;
	return EV_OK;
}
