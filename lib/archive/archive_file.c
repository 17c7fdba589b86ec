/*
 * Archiving a log from a descriptor, in two passes: the first checks it
 * (ev_archive_check_log) and hashes it, since the digest goes in the
 * gzip header before the data; the second compresses it through an
 * archive writer (archive_writer.c). Calls archive_log.c and the
 * writer's public functions; nothing of the archive calls it.
 */
#include "archive_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* The bytes read and compressed at a time. */
#define COPY_BUFFER (1u << 20)

int ev_archive_scan_fd(int fd, const char *name, int force,
		       ev_progress_fn fn, void *ctx, ev_archive_scan *out)
{
	ev_reader *r;
	int rc, verdict;

	memset(out, 0, sizeof *out);
	rc = ev_reader_open_fd(&r, fd, name, EV_READER_DIGEST | EV_READER_RAW,
			       NULL);
	if (rc < 0)
		return evi_fail_at(&out->read, EV_ORIGIN_INPUT, rc, 0, 0, "%s",
				   ev_strerror(rc));
	evi_reader_set_progress(r, fn, ctx);
	verdict = ev_archive_check_log(r, &out->verdict);
	/* An empty input holds no log to archive, even with force. */
	if (out->verdict.reason == EV_REASON_EMPTY_INPUT)
		force = 0;
	if (verdict == EV_END ||
	    (force && (verdict == EV_ETRUNCATED || verdict == EV_EFORMAT))) {
		if ((rc = ev_reader_digest(r, &out->digest)) < 0) {
			out->read = *ev_reader_diag(r);
			out->read.origin = EV_ORIGIN_INPUT;
			verdict = rc;
		}
		out->log_bytes = ev_reader_input_bytes(r);
	}
	ev_reader_free(r);
	return verdict;
}

static int read_some(int fd, uint8_t *buf, size_t cap, size_t *got)
{
	ssize_t n;

	do
		n = read(fd, buf, cap);
	while (n < 0 && errno == EINTR);
	*got = n > 0 ? (size_t)n : 0;
	return n < 0 ? -1 : 0;
}

/* The writer's failure; its input's bytes not matching the digest of the
 * first pass means the file changed under us: a system condition with no
 * offset to name. */
static int writer_failed(const evi_archive_writer *w, ev_diag *diag)
{
	*diag = *evi_archive_writer_diag(w);
	if (diag->origin == EV_ORIGIN_INPUT) {
		diag->status = EV_EIO;
		diag->offset = 0;
	}
	return diag->status;
}

/* Reads `fd` from its start to its end into `w`. */
static int copy_fd(evi_archive_writer *w, int fd, uint8_t *buf,
		   ev_progress_fn fn, void *ctx, ev_diag *diag)
{
	struct stat st;
	uint64_t done = 0, total = fstat(fd, &st) == 0 && S_ISREG(st.st_mode)
					  ? (uint64_t)st.st_size : 0;
	size_t got;

	if (lseek(fd, 0, SEEK_SET) != 0)
		return evi_fail_at(diag, EV_ORIGIN_INPUT, EV_EIO, 0, 0,
				   "cannot rewind: %s", strerror(errno));
	for (;;) {
		if (read_some(fd, buf, COPY_BUFFER, &got) < 0)
			return evi_fail_at(diag, EV_ORIGIN_INPUT, EV_EIO, 0, 0,
					   "read failed: %s", strerror(errno));
		if (got == 0)
			return EV_OK;
		if (evi_archive_writer_write(w, buf, got) < 0)
			return writer_failed(w, diag);
		if (fn)
			fn(ctx, done += got, total);
	}
}

int ev_archive_compress_fd(int fd, ev_sink *sink, uint64_t digest,
			   const ev_archive_options *opts, ev_progress_fn fn,
			   void *ctx, ev_diag *diag)
{
	evi_archive_writer *w;
	uint8_t *buf = malloc(COPY_BUFFER);
	int rc = buf ? evi_archive_writer_open(&w, sink, digest, opts, NULL)
		     : EV_ENOMEM;

	memset(diag, 0, sizeof *diag);
	if (rc < 0) {
		free(buf);
		return evi_fail_at(diag, EV_ORIGIN_OUTPUT, rc, 0, 0, "%s",
				   ev_strerror(rc));
	}
	rc = copy_fd(w, fd, buf, fn, ctx, diag);
	if (rc == EV_OK && evi_archive_writer_finish(w) < 0)
		rc = writer_failed(w, diag);
	evi_archive_writer_free(w);
	free(buf);
	return rc;
}
