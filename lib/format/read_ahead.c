/*
 * Reading ahead in a thread (read_ahead.h): RING blocks of BLOCK bytes;
 * the thread fills a block as far as its fill function goes, the caller
 * empties them in order. The last block holds the status that stopped
 * the thread.
 */
#include "read_ahead.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "evtool/common.h"

#define RING 4u
#define BLOCK (1u << 20)

typedef struct ahead_block {
	uint8_t *data;
	size_t len;
	size_t pos;
	int rc;       /* of the thread's last block: what stopped it */
	int last;
	uint64_t mark;
} ahead_block;

struct evi_ahead {
	evi_fill_fn fill;
	uint64_t (*mark)(void *ctx);
	void *ctx;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	ahead_block ring[RING];
	unsigned produced; /* blocks the thread filled */
	unsigned consumed; /* blocks the caller emptied */
	int stop;
	uint64_t taken_mark;
};

static void fill_block(evi_ahead *a, ahead_block *b)
{
	size_t got = 1;
	int rc = EV_OK;

	b->len = 0;
	b->pos = 0;
	while (b->len < BLOCK && got > 0 && rc == EV_OK) {
		got = 0;
		rc = a->fill(a->ctx, b->data + b->len, BLOCK - b->len, &got);
		b->len += got;
	}
	b->rc = rc;
	b->last = rc != EV_OK || got == 0;
	b->mark = a->mark ? a->mark(a->ctx) : 0;
}

static void *run(void *arg)
{
	evi_ahead *a = arg;

	pthread_mutex_lock(&a->lock);
	for (;;) {
		ahead_block *b;
		while (!a->stop && a->produced - a->consumed == RING)
			pthread_cond_wait(&a->cond, &a->lock);
		if (a->stop)
			break;
		b = &a->ring[a->produced % RING];
		pthread_mutex_unlock(&a->lock);
		fill_block(a, b);
		pthread_mutex_lock(&a->lock);
		a->produced++;
		pthread_cond_broadcast(&a->cond);
		if (b->last)
			break;
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

static void free_ring(evi_ahead *a)
{
	for (unsigned i = 0; i < RING; i++)
		free(a->ring[i].data);
	free(a);
}

evi_ahead *evi_ahead_start(evi_fill_fn fill, uint64_t (*mark)(void *ctx),
			   void *ctx)
{
	evi_ahead *a = calloc(1, sizeof *a);

	if (!a)
		return NULL;
	a->fill = fill;
	a->mark = mark;
	a->ctx = ctx;
	for (unsigned i = 0; i < RING; i++)
		if (!(a->ring[i].data = malloc(BLOCK))) {
			free_ring(a);
			return NULL;
		}
	if (pthread_mutex_init(&a->lock, NULL) != 0) {
		free_ring(a);
		return NULL;
	}
	if (pthread_cond_init(&a->cond, NULL) != 0) {
		pthread_mutex_destroy(&a->lock);
		free_ring(a);
		return NULL;
	}
	if (pthread_create(&a->thread, NULL, run, a) != 0) {
		pthread_cond_destroy(&a->cond);
		pthread_mutex_destroy(&a->lock);
		free_ring(a);
		return NULL;
	}
	return a;
}

int evi_ahead_read(evi_ahead *a, uint8_t *dst, size_t cap, size_t *got)
{
	ahead_block *b;
	size_t n;

	pthread_mutex_lock(&a->lock);
	while (a->produced == a->consumed)
		pthread_cond_wait(&a->cond, &a->lock);
	pthread_mutex_unlock(&a->lock);
	b = &a->ring[a->consumed % RING];
	*got = 0;
	if (b->pos == b->len)
		return b->rc; /* the thread's last block, emptied */
	n = b->len - b->pos;
	*got = n < cap ? n : cap;
	memcpy(dst, b->data + b->pos, *got);
	b->pos += *got;
	if (b->pos == b->len && !b->last) {
		a->taken_mark = b->mark;
		pthread_mutex_lock(&a->lock);
		a->consumed++;
		pthread_cond_broadcast(&a->cond);
		pthread_mutex_unlock(&a->lock);
	}
	return EV_OK;
}

uint64_t evi_ahead_mark(const evi_ahead *a)
{
	return a->taken_mark;
}

void evi_ahead_stop(evi_ahead *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->stop = 1;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	pthread_cond_destroy(&a->cond);
	pthread_mutex_destroy(&a->lock);
	free_ring(a);
}
