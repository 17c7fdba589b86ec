/*
 * The threading layer, one small pool under every concurrent part of the
 * library (as zstd's lib/common/pool.h): worker threads run jobs a caller
 * hands over, and a bounded ring of batches on a pool hands a caller's
 * batches over in order and gives them back in the same order. One lock,
 * one queue, one failure hand-off and one shutdown for every user: the
 * gzip and archive readers' read-ahead (lib/io/read_ahead.c),
 * export's formatting thread (lib/export/export_pipe.c), the archive
 * writer's compressors (lib/archive/archive_writer.c) and the sorter's
 * read-ahead (lib/sort/sort_merge.c).
 *
 * Failure: a job that returns a negative status fails the pool (its
 * status and errno are kept); from then on no job runs: those queued and
 * those handed over later are done at once with that status. The caller
 * fails the pool the same way (evi_pool_fail), to stop the workers from
 * its side. Either way, the caller learns it from evi_pool_wait (errno as
 * the failing thread left it) or evi_pool_failure.
 *
 * Layering: lib/common calls nothing else of the library; every layer may
 * call it.
 */
#ifndef EVTOOL_LIB_POOL_H
#define EVTOOL_LIB_POOL_H

#include <stdint.h>

/* A job's work: `ctx` and `slot` as the job gives them, `worker` the index
 * of the thread running it (0 .. threads - 1; 0 on the caller's thread
 * in a pool without threads), for per-thread state. EV_OK, or a negative
 * status that fails the pool. */
typedef int (*evi_work_fn)(void *ctx, unsigned slot, unsigned worker);

enum evi_job_state { EVI_JOB_IDLE, EVI_JOB_QUEUED, EVI_JOB_RUNNING,
		     EVI_JOB_DONE };

/* A job, owned by the caller (no allocation per job). The pool owns it
 * from evi_pool_submit until evi_pool_wait returns. */
typedef struct evi_job {
	evi_work_fn work;
	void *ctx;
	unsigned slot;
	/* The pool's, under its lock: */
	enum evi_job_state state;
	int status;
	int err;             /* errno after a failed work */
	struct evi_job *next; /* the queue */
} evi_job;

typedef struct evi_pool evi_pool;

/* A pool of up to `threads` workers, started with the first job handed
 * over (a pool never used costs no thread): *out is NULL and EV_ENOMEM
 * when there is no memory. Fewer threads (even none, when the system
 * refuses them) only cost speed: a pool without threads runs each job on
 * the caller's thread at evi_pool_submit. */
int evi_pool_new(evi_pool **out, unsigned threads);

/* The workers started (none before the first job). */
unsigned evi_pool_threads(const evi_pool *p);

/* Queues `job` (idle or done) for the next free worker; jobs start in the
 * order they are queued. */
void evi_pool_submit(evi_pool *p, evi_job *job);

/* Waits until `job` is done and gives it back: its status (the work's,
 * or the pool's failure when it did not run), with errno restored when
 * negative. */
int evi_pool_wait(evi_pool *p, evi_job *job);

/* Fails the pool from the caller's side (the first failure stays). */
void evi_pool_fail(evi_pool *p, int status);

/* The pool's first failure (errno restored), or EV_OK. */
int evi_pool_failure(evi_pool *p);

/* Stops the workers: queued jobs do not run, running ones finish; joins
 * the threads and frees the pool. NULL is fine. */
void evi_pool_free(evi_pool *p);

/*
 * A bounded ring of `slots` batches between the caller and a pool: the
 * caller fills slot evi_ring_slot(), hands it over (evi_ring_submit: the
 * work runs on it), and takes the slots back in the order it handed them
 * over (evi_ring_collect), so at most `slots` batches are ever in flight
 * and the caller decides where it waits. The batches themselves are the
 * caller's (indexed by slot); the ring keeps only their jobs and counts.
 */
typedef struct evi_ring evi_ring;

/* A ring of `slots` on a pool of its own of up to `threads` workers, each
 * job running work(ctx, slot, worker). *out is NULL and EV_ENOMEM when
 * there is no memory. */
int evi_ring_new(evi_ring **out, unsigned slots, unsigned threads,
		 evi_work_fn work, void *ctx);

/* The workers started (evi_pool_threads; 0 after the first batch: every
 * batch is worked on at evi_ring_submit). */
unsigned evi_ring_threads(const evi_ring *r);

/* The slot the caller fills next. */
unsigned evi_ring_slot(const evi_ring *r);

/* Batches handed over and not yet collected; the caller submits only
 * while fewer than `slots`. */
unsigned evi_ring_pending(const evi_ring *r);

/* Hands slot evi_ring_slot() over to the workers. */
void evi_ring_submit(evi_ring *r);

/* Waits for the oldest batch handed over: *slot is the caller's again;
 * returns its job's status (evi_pool_wait). */
int evi_ring_collect(evi_ring *r, unsigned *slot);

/* The ring's pool, for evi_pool_fail and evi_pool_failure. */
evi_pool *evi_ring_pool(evi_ring *r);

/* Stops and joins the workers (evi_pool_free), frees the ring; NULL is
 * fine. */
void evi_ring_free(evi_ring *r);

#endif
