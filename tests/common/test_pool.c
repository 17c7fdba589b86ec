/* Unit tests for the threading layer (lib/common/pool.h): batches come
 * back in the order they were handed over whatever the number of workers;
 * a worker never runs more than the ring's slots ahead of the caller; a
 * failure on either side reaches the other with its status and errno and
 * stops the jobs not yet run; the pool shuts down with its ring full or a
 * job still running; a pool without threads runs the same jobs on the
 * caller's thread. .ci/test runs them under ThreadSanitizer too. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "evtool/common.h"
#include "pool.h"

#define SLOTS 4u
#define BATCHES 2000u

/* What the jobs share with the test, under its own lock. */
typedef struct bench {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	uint64_t value[SLOTS];  /* a batch's input, then its result */
	unsigned ran;           /* works run */
	unsigned order[BATCHES]; /* the inputs in the order works ran */
	int gate_open;          /* works wait while it is shut */
	unsigned at_gate;       /* works that waited at the gate */
	unsigned fail_at;       /* the input that fails (UINT32_MAX: none) */
	unsigned produced, consumed, most_ahead;
	unsigned workers_seen;  /* a bit per worker index */
} bench;

static void bench_init(bench *b)
{
	memset(b, 0, sizeof *b);
	pthread_mutex_init(&b->lock, NULL);
	pthread_cond_init(&b->changed, NULL);
	b->gate_open = 1;
	b->fail_at = UINT32_MAX;
}

static void bench_destroy(bench *b)
{
	pthread_cond_destroy(&b->changed);
	pthread_mutex_destroy(&b->lock);
}

static void set_gate(bench *b, int open)
{
	pthread_mutex_lock(&b->lock);
	b->gate_open = open;
	pthread_cond_broadcast(&b->changed);
	pthread_mutex_unlock(&b->lock);
}

/* A batch's work: waits at the gate, notes the order, squares its input
 * (a result the caller checks), fails at `fail_at` with errno ENOSPC. */
static int square(void *ctx, unsigned slot, unsigned worker)
{
	bench *b = ctx;
	uint64_t in = b->value[slot];

	pthread_mutex_lock(&b->lock);
	if (!b->gate_open) {
		b->at_gate++;
		pthread_cond_broadcast(&b->changed);
	}
	while (!b->gate_open)
		pthread_cond_wait(&b->changed, &b->lock);
	if (b->ran < BATCHES)
		b->order[b->ran] = (unsigned)in;
	b->ran++;
	b->workers_seen |= 1u << worker;
	pthread_cond_broadcast(&b->changed);
	pthread_mutex_unlock(&b->lock);
	if (in == b->fail_at) {
		errno = ENOSPC;
		return EV_EIO;
	}
	b->value[slot] = in * in;
	return EV_OK;
}

/* Hands BATCHES batches through a ring of SLOTS on `threads` workers,
 * collecting the oldest when the ring is full, and checks each result in
 * the order handed over. */
static void run_in_order(unsigned threads)
{
	bench b;
	evi_ring *r;
	uint64_t next_out = 0;
	unsigned slot;

	bench_init(&b);
	assert_int_equal(evi_ring_new(&r, SLOTS, threads, square, &b), EV_OK);
	assert_int_equal(evi_ring_threads(r), 0); /* until the first batch */
	for (unsigned i = 0; i < BATCHES; i++) {
		if (evi_ring_pending(r) == SLOTS) {
			assert_int_equal(evi_ring_collect(r, &slot), EV_OK);
			assert_int_equal(b.value[slot], next_out * next_out);
			next_out++;
		}
		b.value[evi_ring_slot(r)] = i;
		evi_ring_submit(r);
	}
	while (evi_ring_pending(r)) {
		assert_int_equal(evi_ring_collect(r, &slot), EV_OK);
		assert_int_equal(b.value[slot], next_out * next_out);
		next_out++;
	}
	assert_int_equal(evi_ring_threads(r), threads);
	assert_int_equal(next_out, BATCHES);
	assert_int_equal(b.ran, BATCHES);
	/* One worker (or none) runs the batches in the order handed over. */
	for (unsigned i = 0; threads < 2 && i < BATCHES; i++)
		assert_int_equal(b.order[i], i);
	evi_ring_free(r);
	bench_destroy(&b);
}

static void test_order_one_worker(void **state)
{
	(void)state;
	run_in_order(1);
}

static void test_order_three_workers(void **state)
{
	(void)state;
	run_in_order(3);
}

static void test_order_no_thread(void **state)
{
	(void)state;
	run_in_order(0);
}

/* The read-ahead's shape: the worker fills, the caller empties. The
 * worker is never more than SLOTS batches ahead of the caller, and with
 * a slow caller it does get that far ahead. */
static int fill(void *ctx, unsigned slot, unsigned worker)
{
	bench *b = ctx;

	(void)worker;
	pthread_mutex_lock(&b->lock);
	b->value[slot] = b->produced++;
	if (b->produced - b->consumed > b->most_ahead)
		b->most_ahead = b->produced - b->consumed;
	pthread_cond_broadcast(&b->changed);
	pthread_mutex_unlock(&b->lock);
	return EV_OK;
}

static void test_bounded(void **state)
{
	bench b;
	evi_ring *r;
	unsigned slot;

	(void)state;
	bench_init(&b);
	assert_int_equal(evi_ring_new(&r, SLOTS, 1, fill, &b), EV_OK);
	for (unsigned i = 0; i < SLOTS; i++)
		evi_ring_submit(r);
	for (unsigned i = 0; i < 200; i++) {
		if (i % 50 == 0) { /* slow: let the worker fill every slot */
			pthread_mutex_lock(&b.lock);
			while (b.produced - b.consumed < SLOTS)
				pthread_cond_wait(&b.changed, &b.lock);
			pthread_mutex_unlock(&b.lock);
		}
		assert_int_equal(evi_ring_collect(r, &slot), EV_OK);
		assert_int_equal(slot, i % SLOTS);
		assert_int_equal(b.value[slot], i);
		pthread_mutex_lock(&b.lock);
		b.consumed++;
		pthread_mutex_unlock(&b.lock);
		evi_ring_submit(r);
	}
	evi_ring_free(r);
	assert_int_equal(b.most_ahead, SLOTS);
	assert_true(b.produced <= 200 + SLOTS);
	bench_destroy(&b);
}

/* A worker's failure: the batches before it are done, the failing one
 * comes back with its status and errno, and none after it runs (those
 * queued, and one handed over later). */
static void worker_fails(unsigned threads)
{
	bench b;
	evi_ring *r;
	unsigned slot;

	bench_init(&b);
	b.fail_at = 5;
	assert_int_equal(evi_ring_new(&r, SLOTS, threads, square, &b), EV_OK);
	for (unsigned i = 0; i < 12; i++) {
		if (evi_ring_pending(r) == SLOTS) {
			int rc = evi_ring_collect(r, &slot);
			unsigned n = i - SLOTS;
			if (n < 5) {
				assert_int_equal(rc, EV_OK);
				assert_int_equal(b.value[slot], n * n);
			} else {
				assert_int_equal(rc, EV_EIO);
				assert_int_equal(errno, ENOSPC);
			}
		}
		b.value[evi_ring_slot(r)] = i;
		evi_ring_submit(r);
	}
	while (evi_ring_pending(r)) {
		errno = 0;
		assert_int_equal(evi_ring_collect(r, &slot), EV_EIO);
		assert_int_equal(errno, ENOSPC);
	}
	errno = 0;
	assert_int_equal(evi_pool_failure(evi_ring_pool(r)), EV_EIO);
	assert_int_equal(errno, ENOSPC);
	assert_int_equal(b.ran, 6);
	evi_ring_free(r);
	bench_destroy(&b);
}

static void test_worker_fails(void **state)
{
	(void)state;
	worker_fails(1);
}

static void test_worker_fails_no_thread(void **state)
{
	(void)state;
	worker_fails(0);
}

/* The caller's failure: the batch running finishes with its own status,
 * the queued ones come back with the caller's without running. */
static void test_caller_fails(void **state)
{
	bench b;
	evi_ring *r;
	unsigned slot;

	(void)state;
	bench_init(&b);
	assert_int_equal(evi_ring_new(&r, SLOTS, 1, square, &b), EV_OK);
	set_gate(&b, 0);
	for (unsigned i = 0; i < SLOTS; i++) {
		b.value[evi_ring_slot(r)] = i + 2;
		evi_ring_submit(r);
	}
	/* The first batch may be running (waiting at the gate) or queued:
	 * either way, no batch runs after the failure. */
	errno = EPIPE;
	evi_pool_fail(evi_ring_pool(r), EV_ENOMEM);
	set_gate(&b, 1);
	for (unsigned i = 0; i < SLOTS; i++) {
		int rc = evi_ring_collect(r, &slot);
		if (rc == EV_OK) { /* taken before the failure */
			assert_int_equal(i, 0);
			assert_int_equal(b.value[slot], 4);
		} else {
			assert_int_equal(rc, EV_ENOMEM);
			assert_int_equal(errno, EPIPE);
		}
	}
	assert_true(b.ran <= 1);
	/* Handed over after the failure: done at once, not run. */
	evi_ring_submit(r);
	assert_int_equal(evi_ring_collect(r, &slot), EV_ENOMEM);
	assert_true(b.ran <= 1);
	evi_ring_free(r);
	bench_destroy(&b);
}

/* Shut down with every slot filled and none collected (the read-ahead
 * stopped early): no job runs again, the threads end. */
static void test_shutdown_full(void **state)
{
	bench b;
	evi_ring *r;

	(void)state;
	bench_init(&b);
	assert_int_equal(evi_ring_new(&r, SLOTS, 2, fill, &b), EV_OK);
	for (unsigned i = 0; i < SLOTS; i++)
		evi_ring_submit(r);
	pthread_mutex_lock(&b.lock);
	while (b.produced < SLOTS)
		pthread_cond_wait(&b.changed, &b.lock);
	pthread_mutex_unlock(&b.lock);
	evi_ring_free(r);
	assert_int_equal(b.produced, SLOTS);
	bench_destroy(&b);
}

/* Opens the gate a little later, from another thread. */
static void *open_later(void *arg)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };

	nanosleep(&pause, NULL);
	set_gate(arg, 1);
	return NULL;
}

/* Shut down with a job running (waiting at the gate) and the others
 * queued: the running one finishes, the threads end. */
static void test_shutdown_running(void **state)
{
	bench b;
	evi_ring *r;
	pthread_t opener;

	(void)state;
	bench_init(&b);
	assert_int_equal(evi_ring_new(&r, SLOTS, 1, square, &b), EV_OK);
	set_gate(&b, 0);
	for (unsigned i = 0; i < SLOTS; i++)
		evi_ring_submit(r);
	pthread_mutex_lock(&b.lock);
	while (b.at_gate == 0)
		pthread_cond_wait(&b.changed, &b.lock);
	pthread_mutex_unlock(&b.lock);
	assert_int_equal(pthread_create(&opener, NULL, open_later, &b), 0);
	evi_ring_free(r);
	pthread_join(opener, NULL);
	/* The first ran; the queued ones only if the gate opened before
	 * the shutdown began (a loaded machine). */
	assert_true(b.ran >= 1 && b.ran <= SLOTS);
	assert_int_equal(b.at_gate, 1);
	bench_destroy(&b);
}

/* The sorter's shape: jobs of the pool itself, from several owners,
 * waited for in another order than handed over; each worker index is
 * below the pool's threads. */
static void test_jobs_any_order(void **state)
{
	bench b;
	evi_pool *p;
	evi_job jobs[SLOTS];

	(void)state;
	bench_init(&b);
	assert_int_equal(evi_pool_new(&p, 2), EV_OK);
	for (unsigned round = 0; round < 100; round++) {
		for (unsigned i = 0; i < SLOTS; i++) {
			jobs[i] = (evi_job){ .work = square, .ctx = &b,
					     .slot = i };
			b.value[i] = round + i;
			evi_pool_submit(p, &jobs[i]);
		}
		for (unsigned i = SLOTS; i-- > 0;) {
			assert_int_equal(evi_pool_wait(p, &jobs[i]), EV_OK);
			assert_int_equal(b.value[i],
					 (uint64_t)(round + i) * (round + i));
		}
	}
	assert_int_equal(evi_pool_threads(p), 2);
	assert_int_equal(b.ran, 100 * SLOTS);
	assert_true(b.workers_seen < 4u);
	evi_pool_free(p);
	bench_destroy(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_one_worker),
		cmocka_unit_test(test_order_three_workers),
		cmocka_unit_test(test_order_no_thread),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_worker_fails),
		cmocka_unit_test(test_worker_fails_no_thread),
		cmocka_unit_test(test_caller_fails),
		cmocka_unit_test(test_shutdown_full),
		cmocka_unit_test(test_shutdown_running),
		cmocka_unit_test(test_jobs_any_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
