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
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"
#include "internal.h"

/* Batches and their size: the worker formats one or two while the caller
 * fills another; 64 KiB batches stay in the second-level cache. */
#define RING 4u
#define BATCH (64u * 1024u)

/* One record of a batch, its payload (padded to 8 bytes) after it. */
typedef struct pipe_rec {
	uint64_t time;
	uint32_t size;    /* payload bytes */
	uint16_t type;
	uint16_t cap;
	uint32_t session; /* REC_SESSION */
	uint32_t kind;
} pipe_rec;

enum { REC_EVENT, REC_SESSION };

typedef struct pipe_batch {
	uint8_t *data;
	size_t len, cap;
} pipe_batch;

struct evi_export_pipe {
	pipe_batch ring[RING];
	unsigned handed;   /* batches handed to the worker; the caller fills
			      ring[handed % RING] */
	unsigned done;     /* batches the worker formatted */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int running;       /* the worker was started and not yet joined */
	int threadless;    /* no thread could be started: format inline */
	int closing;       /* the worker ends once every batch is done */
	atomic_int failed; /* rc is set: the caller's check per event */
	int rc;            /* the worker's failure, its diag in x->diag */
	int err;           /* the worker's errno at its failure */
};

static size_t rec_bytes(uint32_t size)
{
	return sizeof(pipe_rec) + (((size_t)size + 7u) & ~(size_t)7u);
}

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
	ev_event ev;
	size_t at = 0;
	int rc = EV_OK;

	memset(&ev, 0, sizeof ev);
	while (at < b->len && rc >= 0) {
		pipe_rec r;

		memcpy(&r, b->data + at, sizeof r);
		at += sizeof r;
		if (r.kind == REC_SESSION) {
			rc = x->ops->session(x, x->state, r.session);
			continue;
		}
		ev.type = r.type;
		ev.cap = r.cap;
		ev.size = r.size;
		ev.time = r.time;
		ev.payload = b->data + at;
		at = at - sizeof r + rec_bytes(r.size);
		rc = format_event(x, &ev);
	}
	return rc;
}

/* ---- the worker ---- */

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
			p->rc = rc;
			p->err = errno;
			atomic_store_explicit(&p->failed, 1,
					      memory_order_relaxed);
			pthread_cond_broadcast(&p->cond);
			break;
		}
		p->done++;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* The worker's failure, as the caller reports it: its status, the diag
 * the worker left in x->diag, its errno. Called with the lock held. */
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

/* Keeps a failure of the formats on the caller's thread, as the
 * worker's are kept: every later call reports it. */
static int fail_inline(evi_export_pipe *p, int rc)
{
	p->rc = rc;
	p->err = errno;
	atomic_store_explicit(&p->failed, 1, memory_order_relaxed);
	return rc;
}

static void start(ev_exporter *x)
{
	evi_export_pipe *p = x->pipe;

	if (pthread_create(&p->thread, NULL, run, x) == 0)
		p->running = 1;
	else
		p->threadless = 1;
}

/* Hands the filled batch to the worker and waits for a free one. */
static int hand_over(ev_exporter *x)
{
	evi_export_pipe *p = x->pipe;
	int rc = EV_OK;

	if (!p->running && !p->threadless)
		start(x);
	if (p->threadless) {
		pipe_batch *b = &p->ring[p->handed % RING];

		if ((rc = format_batch(x, b)) < 0)
			fail_inline(p, rc);
		b->len = 0;
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
	p->ring[p->handed % RING].len = 0;
	return rc;
}

/* Room for a record of `size` payload bytes in the batch being filled,
 * handing it over first when it is full. A batch grows only for an event
 * larger than a batch. */
static uint8_t *room(ev_exporter *x, uint32_t size, int *rc)
{
	evi_export_pipe *p = x->pipe;
	size_t need = rec_bytes(size);
	pipe_batch *b = &p->ring[p->handed % RING];

	if (b->cap - b->len < need && b->len) {
		if ((*rc = hand_over(x)) < 0)
			return NULL;
		b = &p->ring[p->handed % RING];
	}
	if (b->cap - b->len < need) {
		uint8_t *data = realloc(b->data, need);

		if (!data) {
			*rc = evi_fail(&x->diag, EV_ENOMEM, 0, 0,
				       "out of memory");
			return NULL;
		}
		b->data = data;
		b->cap = need;
	}
	*rc = EV_OK;
	b->len += need;
	return b->data + b->len - need;
}

int evi_pipe_event(ev_exporter *x, const ev_event *ev)
{
	evi_export_pipe *p = x->pipe;
	pipe_rec r;
	uint8_t *at;
	int rc;

	if (atomic_load_explicit(&p->failed, memory_order_relaxed))
		return failure(p);
	if (!(at = room(x, ev->size, &rc)))
		return rc;
	r.time = ev->time;
	r.size = ev->size;
	r.type = ev->type;
	r.cap = ev->cap;
	r.session = 0;
	r.kind = REC_EVENT;
	memcpy(at, &r, sizeof r);
	if (ev->size)
		memcpy(at + sizeof r, ev->payload, ev->size);
	return EV_OK;
}

int evi_pipe_session(ev_exporter *x, unsigned session)
{
	evi_export_pipe *p = x->pipe;
	pipe_rec r;
	uint8_t *at;
	int rc;

	if (atomic_load_explicit(&p->failed, memory_order_relaxed))
		return failure(p);
	if (!(at = room(x, 0, &rc)))
		return rc;
	memset(&r, 0, sizeof r);
	r.session = session;
	r.kind = REC_SESSION;
	memcpy(at, &r, sizeof r);
	return EV_OK;
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
	rc = format_batch(x, b);
	b->len = 0;
	if (rc < 0)
		fail_inline(p, rc);
	return rc;
}

int evi_pipe_new(evi_export_pipe **out)
{
	evi_export_pipe *p = calloc(1, sizeof *p);

	*out = NULL;
	if (!p)
		return EV_ENOMEM;
	atomic_init(&p->failed, 0);
	if (pthread_mutex_init(&p->lock, NULL) != 0) {
		free(p);
		return EV_ENOMEM;
	}
	if (pthread_cond_init(&p->cond, NULL) != 0) {
		pthread_mutex_destroy(&p->lock);
		free(p);
		return EV_ENOMEM;
	}
	for (unsigned i = 0; i < RING; i++) {
		if (!(p->ring[i].data = malloc(BATCH))) {
			evi_pipe_free(p);
			return EV_ENOMEM;
		}
		p->ring[i].cap = BATCH;
	}
	*out = p;
	return EV_OK;
}

void evi_pipe_free(evi_export_pipe *p)
{
	if (!p)
		return;
	join(p);
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->lock);
	for (unsigned i = 0; i < RING; i++)
		free(p->ring[i].data);
	free(p);
}
