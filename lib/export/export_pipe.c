/*
 * The exporter's pipe (export_internal.h): the formats run on a second
 * thread, so that the sorter handing events over (the caller's thread)
 * and the formatting overlap.
 *
 * The caller copies each session start and event (its fields and payload)
 * into a batch of about BATCH bytes; a full batch is handed to the worker
 * thread, which feeds its records in order to the format and writes the
 * output to the sink (the same calls, in the same order, as formatting
 * on the caller's thread: the output is the same byte for byte). RING
 * batches at most exist: the caller fills one while the worker formats
 * the others, and waits when none is free, so memory stays bounded.
 *
 * The worker starts with the first full batch: a log that fits in one
 * batch is formatted on the caller's thread by evi_pipe_drain (as is
 * everything when no thread can be started). A failure of the worker (the
 * sink's write, a limit of the format) stops it; the caller sees it at its
 * next call, with the worker's errno, which the command's message uses.
 *
 * Layering: export.c -> this file -> the formats (through x->ops) and
 * export_out.c (evi_export_flush). Nothing below calls into it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "export_internal.h"
#include "internal.h"

/* Batches and their size: the worker formats one or two while the caller
 * fills another. */
#define RING 4u
#define BATCH (128u * 1024u)

typedef struct pipe_batch {
	uint8_t *data;
	size_t len, cap;
} pipe_batch;

struct evi_export_pipe {
	pipe_batch ring[RING];
	unsigned handed;   /* batches handed to the worker; the caller fills
			      ring[handed % RING] through x->put */
	unsigned done;     /* batches the worker formatted */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int running;       /* the worker was started and not yet joined */
	int threadless;    /* no thread could be started: format inline */
	int closing;       /* the worker ends once every batch is done */
	int rc;            /* the first failure, its diag in x->diag */
	int err;           /* errno at the failure */
};

/* ---- the records, formatted by whichever thread owns the batch ---- */

static int format_event(ev_exporter *x, const ev_event *ev)
{
	int rc;

	x->stats.events_in++;
	if ((rc = x->ops->event(x, x->state, ev)) < 0)
		return rc;
	if (x->out.len < EVI_EXPORT_FLUSH_AT && !x->out.failed)
		return EV_OK;
	return evi_export_flush(x, 0);
}

static int format_batch(ev_exporter *x, const pipe_batch *b)
{
	const uint8_t *at = b->data, *end = b->data + b->len;
	ev_event ev;
	int rc = EV_OK;

	memset(&ev, 0, sizeof ev);
	while (at < end && rc >= 0) {
		uint64_t w;

		memcpy(&ev.time, at, 8);
		memcpy(&w, at + 8, 8);
		ev.size = (uint32_t)w;
		if (ev.size == EVI_PIPE_SESSION) {
			rc = x->ops->session(x, x->state, (uint32_t)ev.time,
					     (unsigned)(ev.time >> 32));
			at += EVI_PIPE_REC;
			continue;
		}
		ev.type = (uint16_t)(w >> 32);
		ev.cap = (uint16_t)(w >> 48);
		memcpy(&ev.offset, at + 16, 8);
		ev.payload = at + EVI_PIPE_REC;
		at += evi_pipe_rec_bytes(ev.size);
		rc = format_event(x, &ev);
	}
	return rc;
}

/* ---- the worker ---- */

/* Records the first failure (the lock held, or no worker running): the
 * caller's next call reports it. */
static int fail(ev_exporter *x, int rc)
{
	evi_export_pipe *p = x->pipe;

	p->rc = rc;
	p->err = errno;
	atomic_store_explicit(&x->pipe_failed, 1, memory_order_relaxed);
	return rc;
}

static void *run(void *arg)
{
	ev_exporter *x = arg;
	evi_export_pipe *p = x->pipe;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		pipe_batch *b;
		int rc;

		while (p->done == p->handed && !p->closing)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->done == p->handed)
			break;
		b = &p->ring[p->done % RING];
		pthread_mutex_unlock(&p->lock);
		rc = format_batch(x, b);
		pthread_mutex_lock(&p->lock);
		if (rc < 0) {
			fail(x, rc);
			pthread_cond_broadcast(&p->cond);
			break;
		}
		p->done++;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* The failure as the caller reports it: its status, the diag left in
 * x->diag, errno as it was. Called with the lock held or no worker. */
static int failure_locked(evi_export_pipe *p)
{
	errno = p->err;
	return p->rc;
}

static int failure(evi_export_pipe *p)
{
	int rc;

	pthread_mutex_lock(&p->lock);
	rc = failure_locked(p);
	pthread_mutex_unlock(&p->lock);
	return rc;
}

/* The batch to fill next becomes x->put's room. */
static void fill_next(ev_exporter *x)
{
	pipe_batch *b = &x->pipe->ring[x->pipe->handed % RING];

	b->len = 0;
	x->put = b->data;
	x->put_end = b->data + b->cap;
}

static void start(ev_exporter *x)
{
	evi_export_pipe *p = x->pipe;

	if (pthread_create(&p->thread, NULL, run, x) == 0)
		p->running = 1;
	else
		p->threadless = 1;
}

/* Hands the batch being filled to the worker and waits for a free one. */
static int hand_over(ev_exporter *x)
{
	evi_export_pipe *p = x->pipe;
	pipe_batch *b = &p->ring[p->handed % RING];
	int rc = EV_OK;

	b->len = (size_t)(x->put - b->data);
	if (!p->running && !p->threadless)
		start(x);
	if (p->threadless) {
		if ((rc = format_batch(x, b)) < 0)
			fail(x, rc);
		fill_next(x);
		return rc;
	}
	pthread_mutex_lock(&p->lock);
	p->handed++;
	pthread_cond_broadcast(&p->cond);
	while (p->handed - p->done >= RING && !p->rc)
		pthread_cond_wait(&p->cond, &p->lock);
	if (p->rc)
		rc = failure_locked(p);
	pthread_mutex_unlock(&p->lock);
	fill_next(x);
	return rc;
}

/* Room for a record of `size` payload bytes, handing the batch over first
 * when it is full. A batch grows only for an event larger than a batch
 * (which no log has: sizes are 16-bit). */
static int make_room(ev_exporter *x, uint32_t size)
{
	pipe_batch *b = &x->pipe->ring[x->pipe->handed % RING];
	size_t need = evi_pipe_rec_bytes(size), used;
	uint8_t *data;
	int rc;

	if (atomic_load_explicit(&x->pipe_failed, memory_order_relaxed))
		return failure(x->pipe);
	if ((size_t)(x->put_end - x->put) >= need)
		return EV_OK;
	if (x->put != b->data) {
		if ((rc = hand_over(x)) < 0)
			return rc;
		b = &x->pipe->ring[x->pipe->handed % RING];
		if ((size_t)(x->put_end - x->put) >= need)
			return EV_OK;
	}
	used = (size_t)(x->put - b->data);
	if (!(data = realloc(b->data, used + need)))
		return evi_fail(&x->diag, EV_ENOMEM, 0, 0, "out of memory");
	b->data = data;
	b->cap = used + need;
	x->put = data + used;
	x->put_end = data + b->cap;
	return EV_OK;
}

int evi_pipe_event_slow(ev_exporter *x, const ev_event *ev)
{
	int rc;

	if ((rc = make_room(x, ev->size)) < 0)
		return rc;
	evi_pipe_put(x->put, ev);
	evi_copy_short(x->put + EVI_PIPE_REC, ev->payload, ev->size);
	x->put += evi_pipe_rec_bytes(ev->size);
	return EV_OK;
}

int evi_pipe_session(ev_exporter *x, unsigned session, unsigned quirks)
{
	int rc;
	ev_event start = { .time = (uint64_t)quirks << 32 | (uint32_t)session,
			   .size = EVI_PIPE_SESSION };

	if ((rc = make_room(x, 0)) < 0)
		return rc;
	evi_pipe_put(x->put, &start);
	x->put += EVI_PIPE_REC;
	return EV_OK;
}

void evi_pipe_sync(ev_exporter *x)
{
	evi_export_pipe *p = x->pipe;
	pipe_batch *b = &p->ring[p->handed % RING];
	int rc;

	if (p->running) {
		pthread_mutex_lock(&p->lock);
		while (p->done != p->handed && !p->rc)
			pthread_cond_wait(&p->cond, &p->lock);
		pthread_mutex_unlock(&p->lock);
	}
	if (p->rc)
		return;
	/* The worker waits for the next batch: the formats are ours until
	 * then (the lock ordered its last writes before our reads). */
	b->len = (size_t)(x->put - b->data);
	if ((rc = format_batch(x, b)) < 0)
		fail(x, rc);
	fill_next(x);
}

/* Lets the worker format every batch handed over, then ends it. */
static void join(evi_export_pipe *p)
{
	if (!p->running)
		return;
	pthread_mutex_lock(&p->lock);
	p->closing = 1;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	p->running = 0;
}

int evi_pipe_drain(ev_exporter *x)
{
	evi_export_pipe *p = x->pipe;
	pipe_batch *b = &p->ring[p->handed % RING];
	int rc;

	join(p);
	if (p->rc)
		return failure_locked(p);
	b->len = (size_t)(x->put - b->data);
	rc = format_batch(x, b);
	fill_next(x);
	if (rc < 0)
		fail(x, rc);
	return rc;
}

int evi_pipe_new(ev_exporter *x)
{
	evi_export_pipe *p = calloc(1, sizeof *p);

	x->pipe = NULL;
	if (!p)
		return EV_ENOMEM;
	atomic_init(&x->pipe_failed, 0);
	if (pthread_mutex_init(&p->lock, NULL) != 0) {
		free(p);
		return EV_ENOMEM;
	}
	if (pthread_cond_init(&p->cond, NULL) != 0) {
		pthread_mutex_destroy(&p->lock);
		free(p);
		return EV_ENOMEM;
	}
	x->pipe = p;
	for (unsigned i = 0; i < RING; i++) {
		if (!(p->ring[i].data = malloc(BATCH))) {
			evi_pipe_free(x);
			return EV_ENOMEM;
		}
		p->ring[i].cap = BATCH;
	}
	fill_next(x);
	return EV_OK;
}

void evi_pipe_free(ev_exporter *x)
{
	evi_export_pipe *p = x->pipe;

	if (!p)
		return;
	join(p);
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->lock);
	for (unsigned i = 0; i < RING; i++)
		free(p->ring[i].data);
	free(p);
	x->pipe = NULL;
}
