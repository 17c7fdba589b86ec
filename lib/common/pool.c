/*
 * The threading layer (pool.h): a queue of jobs under one lock, worker
 * threads that run them in queue order, and the ring of batches on top.
 * A job's state, status and errno change only under the lock (or on the
 * caller's thread in a pool without threads), so whoever waits for a job
 * sees everything its work wrote.
 */
#include "pool.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "evtool/common.h"

struct evi_pool {
	pthread_mutex_t lock;
	pthread_cond_t queued; /* a job was queued, or the pool stops */
	pthread_cond_t done;   /* a job is done */
	evi_job *head, *tail;  /* queued jobs, oldest first */
	pthread_t *threads;
	unsigned n_threads;    /* started */
	unsigned wanted;       /* to start with the first job */
	unsigned next_worker;  /* the index the next thread takes */
	int stop;
	int status;            /* the first failure, or EV_OK */
	int err;               /* errno at it */
};

/* ---- the pool ---- */

/* Records the first failure; the lock held (or no threads). */
static void note_failure(evi_pool *p, int status, int err)
{
	if (p->status < 0)
		return;
	p->status = status;
	p->err = err;
}

/* Every queued job is done with the pool's failure, unrun; the lock held. */
static void finish_queued(evi_pool *p)
{
	for (evi_job *j = p->head; j; j = j->next) {
		j->status = p->status;
		j->err = p->err;
		j->state = EVI_JOB_DONE;
	}
	p->head = p->tail = NULL;
}

static void *worker_main(void *arg)
{
	evi_pool *p = arg;
	unsigned worker;

	pthread_mutex_lock(&p->lock);
	worker = p->next_worker++;
	for (;;) {
		evi_job *j;
		int status, err;

		while (!p->stop && !p->head)
			pthread_cond_wait(&p->queued, &p->lock);
		if (p->stop)
			break;
		j = p->head;
		if (!(p->head = j->next))
			p->tail = NULL;
		j->state = EVI_JOB_RUNNING;
		pthread_mutex_unlock(&p->lock);
		status = j->work(j->ctx, j->slot, worker);
		err = errno;
		pthread_mutex_lock(&p->lock);
		j->status = status;
		j->err = err;
		j->state = EVI_JOB_DONE;
		if (status < 0 && p->status == EV_OK) {
			note_failure(p, status, err);
			finish_queued(p);
		}
		pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int evi_pool_new(evi_pool **out, unsigned threads)
{
	evi_pool *p = calloc(1, sizeof *p);

	*out = NULL;
	if (!p)
		return EV_ENOMEM;
	if (pthread_mutex_init(&p->lock, NULL) != 0) {
		free(p);
		return EV_ENOMEM;
	}
	if (pthread_cond_init(&p->queued, NULL) != 0) {
		pthread_mutex_destroy(&p->lock);
		free(p);
		return EV_ENOMEM;
	}
	if (pthread_cond_init(&p->done, NULL) != 0) {
		pthread_cond_destroy(&p->queued);
		pthread_mutex_destroy(&p->lock);
		free(p);
		return EV_ENOMEM;
	}
	if (threads && !(p->threads = calloc(threads, sizeof *p->threads))) {
		evi_pool_free(p);
		return EV_ENOMEM;
	}
	p->wanted = threads;
	*out = p;
	return EV_OK;
}

/* Starts the workers, at the first job: a pool never used costs no
 * thread. Before any thread, so without the lock. */
static void start(evi_pool *p)
{
	while (p->n_threads < p->wanted &&
	       pthread_create(&p->threads[p->n_threads], NULL, worker_main,
			      p) == 0)
		p->n_threads++;
	p->wanted = 0;
}

unsigned evi_pool_threads(const evi_pool *p)
{
	return p->n_threads;
}

/* Runs a job on the caller's thread (a pool without threads). */
static void run_here(evi_pool *p, evi_job *job)
{
	job->status = p->status;
	job->err = p->err;
	if (p->status == EV_OK) {
		job->status = job->work(job->ctx, job->slot, 0);
		job->err = errno;
		if (job->status < 0)
			note_failure(p, job->status, job->err);
	}
	job->state = EVI_JOB_DONE;
}

void evi_pool_submit(evi_pool *p, evi_job *job)
{
	if (p->wanted)
		start(p);
	if (p->n_threads == 0) {
		run_here(p, job);
		return;
	}
	pthread_mutex_lock(&p->lock);
	job->next = NULL;
	if (p->status < 0) {
		job->status = p->status;
		job->err = p->err;
		job->state = EVI_JOB_DONE;
	} else {
		job->state = EVI_JOB_QUEUED;
		if (p->tail)
			p->tail->next = job;
		else
			p->head = job;
		p->tail = job;
		pthread_cond_signal(&p->queued);
	}
	pthread_mutex_unlock(&p->lock);
}

int evi_pool_wait(evi_pool *p, evi_job *job)
{
	int status;

	if (p->n_threads) {
		pthread_mutex_lock(&p->lock);
		while (job->state != EVI_JOB_DONE)
			pthread_cond_wait(&p->done, &p->lock);
		pthread_mutex_unlock(&p->lock);
	}
	status = job->status;
	job->state = EVI_JOB_IDLE;
	if (status < 0)
		errno = job->err;
	return status;
}

void evi_pool_fail(evi_pool *p, int status)
{
	int err = errno;

	pthread_mutex_lock(&p->lock);
	if (p->status == EV_OK) {
		note_failure(p, status, err);
		finish_queued(p);
	}
	pthread_cond_broadcast(&p->done);
	pthread_mutex_unlock(&p->lock);
}

int evi_pool_failure(evi_pool *p)
{
	int status;

	pthread_mutex_lock(&p->lock);
	status = p->status;
	if (status < 0)
		errno = p->err;
	pthread_mutex_unlock(&p->lock);
	return status;
}

void evi_pool_free(evi_pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = 1;
	p->head = p->tail = NULL; /* queued jobs do not run */
	pthread_cond_broadcast(&p->queued);
	pthread_mutex_unlock(&p->lock);
	for (unsigned i = 0; i < p->n_threads; i++)
		pthread_join(p->threads[i], NULL);
	pthread_cond_destroy(&p->done);
	pthread_cond_destroy(&p->queued);
	pthread_mutex_destroy(&p->lock);
	free(p->threads);
	free(p);
}

/* ---- the ring of batches ---- */

struct evi_ring {
	evi_pool *pool;
	evi_job *jobs;       /* one per slot */
	unsigned slots;
	uint64_t submitted;  /* batches handed over */
	uint64_t collected;  /* batches taken back */
};

int evi_ring_new(evi_ring **out, unsigned slots, unsigned threads,
		 evi_work_fn work, void *ctx)
{
	evi_ring *r = calloc(1, sizeof *r);

	*out = NULL;
	if (!r || !(r->jobs = calloc(slots, sizeof *r->jobs)) ||
	    evi_pool_new(&r->pool, threads) < 0) {
		evi_ring_free(r);
		return EV_ENOMEM;
	}
	r->slots = slots;
	for (unsigned i = 0; i < slots; i++) {
		r->jobs[i].work = work;
		r->jobs[i].ctx = ctx;
		r->jobs[i].slot = i;
	}
	*out = r;
	return EV_OK;
}

unsigned evi_ring_threads(const evi_ring *r)
{
	return evi_pool_threads(r->pool);
}

unsigned evi_ring_slot(const evi_ring *r)
{
	return (unsigned)(r->submitted % r->slots);
}

unsigned evi_ring_pending(const evi_ring *r)
{
	return (unsigned)(r->submitted - r->collected);
}

void evi_ring_submit(evi_ring *r)
{
	evi_pool_submit(r->pool, &r->jobs[r->submitted++ % r->slots]);
}

int evi_ring_collect(evi_ring *r, unsigned *slot)
{
	*slot = (unsigned)(r->collected++ % r->slots);
	return evi_pool_wait(r->pool, &r->jobs[*slot]);
}

evi_pool *evi_ring_pool(evi_ring *r)
{
	return r->pool;
}

void evi_ring_free(evi_ring *r)
{
	if (!r)
		return;
	evi_pool_free(r->pool);
	free(r->jobs);
	free(r);
}
