/*
 * The merged inputs as a source of the consumer protocol (merge.h,
 * consumer.h): the second pass (ev_merge_run) writes the merged log on a
 * worker of the threading layer (lib/common/pool.h) into a pipe, and a
 * reader at the pipe's other end hands its events to the consumer on the
 * caller's thread, in the merged time order, as a reader of `evtool
 * merge`'s output sees them; the log is stored nowhere. Memory: the
 * merge's, the pipe's and the reader's, whatever the sizes of the logs.
 *
 * Layering: beside merge_write.c, at the top of merge; it calls the
 * public second pass and records failures through merge_plan.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "evtool/consumer.h"
#include "internal.h"
#include "merge_internal.h"
#include "pool.h"

/* The name of the merged stream in the reader's messages. */
#define MERGED_NAME "<merged>"

typedef struct merge_job {
	ev_merge *m;
	int fd; /* the pipe's write end, closed when the pass ends */
} merge_job;

/* The second pass into the pipe; closing it ends the reader's stream. */
static int write_merged(void *ctx, unsigned slot, unsigned worker)
{
	merge_job *j = ctx;
	ev_sink *sink = NULL;
	int rc = ev_sink_open_fd(&sink, j->fd, MERGED_NAME, NULL);

	(void)slot;
	(void)worker;
	if (rc < 0)
		rc = evi_merge_fail(j->m, EV_ORIGIN_NONE, rc, "out of memory");
	else if ((rc = ev_merge_run(j->m, sink)) == EV_OK &&
		 (rc = ev_sink_commit(sink)) < 0)
		rc = evi_merge_fail(j->m, EV_ORIGIN_OUTPUT, rc, "%s",
				    ev_strerror(rc));
	ev_sink_free(sink);
	close(j->fd);
	return rc;
}

static int nothing(void *ctx, unsigned slot, unsigned worker)
{
	(void)ctx;
	(void)slot;
	(void)worker;
	return EV_OK;
}

/* A pool of one thread that runs: its threads start at the first job,
 * and a pool without any would run the pass on the caller's thread,
 * into a pipe nobody reads yet. */
static int start_pool(evi_pool **out)
{
	evi_job probe = { nothing, NULL, 0, EVI_JOB_IDLE, 0, 0, NULL };

	if (evi_pool_new(out, 1) < 0)
		return EV_ENOMEM;
	evi_pool_submit(*out, &probe);
	evi_pool_wait(*out, &probe);
	if (evi_pool_threads(*out) == 0) {
		evi_pool_free(*out);
		*out = NULL;
		return EV_ENOMEM;
	}
	return EV_OK;
}

/* What is left of the stream once the consumer stopped: read to its end,
 * so that the pass ends (it is never cut by a closed pipe). */
static void drain(int fd)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
		;
}

/* The events of the stream on `fd` to `c` (its finish left for later):
 * EV_OK at the stream's end, else the failure, said in `why` (recorded
 * only once the pass is over: the pass's own failure comes first). */
static int read_merged(int fd, const ev_consumer *c, void *self,
		       char *why, size_t len)
{
	ev_consumer inner = *c;
	ev_reader *r = NULL;
	int rc;

	inner.finish = NULL;
	if ((rc = ev_reader_open_fd(&r, fd, MERGED_NAME, 0, NULL)) < 0) {
		snprintf(why, len, "out of memory");
		return rc;
	}
	rc = ev_reader_feed(r, &inner, self);
	if (rc == EV_END)
		rc = EV_OK;
	else if (rc < 0 && ev_reader_diag(r)->status == rc)
		snprintf(why, len, "the merged log reads back short: %.200s",
			 ev_reader_diag(r)->message);
	else if (rc < 0)
		snprintf(why, len, "the consumer of the merged events "
			 "stopped: %s", ev_strerror(rc));
	ev_reader_free(r);
	return rc;
}

/* The pass on a worker, the consumer here. The pass's failure comes
 * first: the reader then met a stream cut short because of it. */
static int visit(ev_merge *m, const ev_consumer *c, void *self)
{
	evi_pool *pool = NULL;
	evi_job job = { write_merged, NULL, 0, EVI_JOB_IDLE, 0, 0, NULL };
	merge_job mj = { m, -1 };
	char why[sizeof m->diag.message] = "";
	int fds[2], rc, written;

	if (!m->planned && (rc = ev_merge_plan(m)) < 0)
		return rc;
	if (m->written)
		return evi_merge_fail(m, EV_ORIGIN_OPTIONS, EV_EINVAL,
				      "the merge was already written");
	if (start_pool(&pool) < 0)
		return evi_merge_fail(m, EV_ORIGIN_NONE, EV_ENOMEM,
				      "cannot start the merge's thread");
	if (pipe(fds) != 0) {
		evi_pool_free(pool);
		return evi_merge_fail(m, EV_ORIGIN_NONE, EV_EIO, "pipe: %s",
				      strerror(errno));
	}
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	mj.fd = fds[1];
	job.ctx = &mj;
	evi_pool_submit(pool, &job);
	rc = read_merged(fds[0], c, self, why, sizeof why);
	drain(fds[0]);
	written = evi_pool_wait(pool, &job);
	close(fds[0]);
	evi_pool_free(pool);
	if (written < 0)
		return written;
	return rc < 0 ? evi_merge_fail(m, EV_ORIGIN_OUTPUT, rc, "%s", why)
		      : rc;
}

int ev_merge_visit(ev_merge *m, const ev_consumer *c, void *self)
{
	int rc;

	if (!c || !c->begin || !c->event)
		return EV_EINVAL;
	rc = visit(m, c, self);
	return c->finish ? c->finish(self, rc) : rc;
}
