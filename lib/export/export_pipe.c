/*
 * The exporter's pipe (export_internal.h): the formats run on a second
 * thread, so that the sorter handing events over (the caller's thread)
 * and the formatting overlap.
 *
 * The caller copies each session start and event (its fields and payload)
 * into a batch of about BATCH bytes; a full batch is handed to the worker
 * thread (a ring of RING batches with one worker, lib/common/pool.h),
 * which feeds its records in order to the format and writes the output
 * to the sink (the same calls, in the same order, as formatting on the
 * caller's thread: the output is the same byte for byte). The caller
 * fills one batch while the worker formats the others, and waits when
 * none is free, so memory stays bounded.
 *
 * The worker starts with the first full batch: a log that fits in one
 * batch is formatted on the caller's thread by evi_pipe_drain (as is
 * everything when no thread can be started). A failure of the worker (the
 * sink's write, a limit of the format) fails the ring, which keeps its
 * status and errno; a flag tells the caller's per-event path, and the
 * caller returns it at its next call, with the worker's errno, which the
 * command's message uses.
 *
 * Layering: export.c -> this file -> the formats (through x->ops),
 * export_out.c (evi_export_flush) and lib/common/pool.c. Nothing below
 * calls into it.
 */
#include <stdlib.h>

#include "export_internal.h"
#include "internal.h"
#include "pool.h"

/* Batches and their size: the worker formats one or two while the caller
 * fills another. */
#define RING 4u
#define BATCH (128u * 1024u)

typedef struct pipe_batch {
	uint8_t *data;
	size_t len, cap;
} pipe_batch;

struct evi_export_pipe {
	pipe_batch batch[RING];
	evi_ring *ring;    /* of the batches, one worker (lib/common/pool.h) */
	unsigned filling;  /* the batch x->put fills */
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

/* The worker's job: formats a batch. A failure fails the ring (its status
 * and errno kept by it) and is flagged for the caller's next call. */
static int format_slot(void *ctx, unsigned slot, unsigned worker)
{
	ev_exporter *x = ctx;
	int rc = format_batch(x, &x->pipe->batch[slot]);

	(void)worker;
	if (rc < 0)
		atomic_store_explicit(&x->pipe_failed, 1,
				      memory_order_relaxed);
	return rc;
}

/* A failure on the caller's thread (formatting the last batch): kept by
 * the ring as the worker's would be. */
static int fail(ev_exporter *x, int rc)
{
	evi_pool_fail(evi_ring_pool(x->pipe->ring), rc);
	atomic_store_explicit(&x->pipe_failed, 1, memory_order_relaxed);
	return rc;
}

/* Waits until every batch handed over is formatted. */
static void catch_up(evi_export_pipe *p)
{
	unsigned slot;

	while (evi_ring_pending(p->ring))
		evi_ring_collect(p->ring, &slot);
}

/* The failure as the caller reports it: its status, the diag left in
 * x->diag, errno as it was. */
static int failure(evi_export_pipe *p)
{
	catch_up(p);
	return evi_pool_failure(evi_ring_pool(p->ring));
}

/* The batch to fill next becomes x->put's room. */
static void fill_next(ev_exporter *x)
{
	pipe_batch *b = &x->pipe->batch[x->pipe->filling];

	b->len = 0;
	x->put = b->data;
	x->put_end = b->data + b->cap;
}

/* Hands the batch being filled to the worker (started with the first)
 * and takes the oldest back when all are handed over. */
static int hand_over(ev_exporter *x)
{
	evi_export_pipe *p = x->pipe;
	pipe_batch *b = &p->batch[p->filling];
	unsigned slot;
	int rc = EV_OK;

	b->len = (size_t)(x->put - b->data);
	evi_ring_submit(p->ring);
	if (evi_ring_pending(p->ring) == RING)
		rc = evi_ring_collect(p->ring, &slot);
	if (atomic_load_explicit(&x->pipe_failed, memory_order_relaxed))
		rc = failure(p);
	p->filling = evi_ring_slot(p->ring);
	fill_next(x);
	return rc;
}

/* Room for a record of `size` payload bytes, handing the batch over first
 * when it is full. A batch grows only for an event larger than a batch
 * (which no log has: sizes are 16-bit). */
static int make_room(ev_exporter *x, uint32_t size)
{
	pipe_batch *b = &x->pipe->batch[x->pipe->filling];
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
		b = &x->pipe->batch[x->pipe->filling];
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
	pipe_batch *b = &p->batch[p->filling];
	int rc;

	catch_up(p);
	if (atomic_load_explicit(&x->pipe_failed, memory_order_relaxed))
		return;
	/* The worker waits for the next batch: the formats are ours until
	 * then (the ring's lock ordered its last writes before our reads). */
	b->len = (size_t)(x->put - b->data);
	if ((rc = format_batch(x, b)) < 0)
		fail(x, rc);
	fill_next(x);
}

int evi_pipe_drain(ev_exporter *x)
{
	evi_export_pipe *p = x->pipe;
	pipe_batch *b = &p->batch[p->filling];
	int rc;

	catch_up(p);
	if (atomic_load_explicit(&x->pipe_failed, memory_order_relaxed))
		return failure(p);
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
	x->pipe = p;
	if (evi_ring_new(&p->ring, RING, 1, format_slot, x) < 0) {
		evi_pipe_free(x);
		return EV_ENOMEM;
	}
	for (unsigned i = 0; i < RING; i++) {
		if (!(p->batch[i].data = malloc(BATCH))) {
			evi_pipe_free(x);
			return EV_ENOMEM;
		}
		p->batch[i].cap = BATCH;
	}
	fill_next(x);
	return EV_OK;
}

void evi_pipe_free(ev_exporter *x)
{
	evi_export_pipe *p = x->pipe;

	if (!p)
		return;
	evi_ring_free(p->ring);
	for (unsigned i = 0; i < RING; i++)
		free(p->batch[i].data);
	free(p);
	x->pipe = NULL;
}
