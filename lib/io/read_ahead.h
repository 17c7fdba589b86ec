/*
 * Reading ahead in a thread: a fill function (a gzip source's inflating,
 * an archive reader's inflating and checking) runs on a worker of the
 * threading layer (lib/common/pool.h) into a ring of blocks, while the
 * caller's thread takes the blocks
 * before. Inflating costs about as much as what the caller does with the
 * bytes (parsing, validating, writing), so the two overlap on two cores.
 */
#ifndef EVTOOL_LIB_READ_AHEAD_H
#define EVTOOL_LIB_READ_AHEAD_H

#include <stddef.h>
#include <stdint.h>

/* Reads up to `cap` bytes into `dst`: EV_OK with *got > 0, or the end
 * (EV_OK or EV_END with *got == 0) or an error, after which the thread
 * stops. */
typedef int (*evi_fill_fn)(void *ctx, uint8_t *dst, size_t cap,
			   size_t *got);

typedef struct evi_ahead evi_ahead;

/* Starts calling `fill(ctx)` in a thread; from then on until
 * evi_ahead_stop, the thread owns everything fill touches. `mark`, when
 * not NULL, is called by the thread after each block (a progress count,
 * such as the stored bytes consumed). NULL when there is no memory for
 * the ring: the caller then reads by itself. */
evi_ahead *evi_ahead_start(evi_fill_fn fill, uint64_t (*mark)(void *ctx),
			   void *ctx);

/* Takes bytes the thread read, waiting for them: EV_OK and *got > 0; or,
 * once the thread's last block is taken, *got == 0 and the status that
 * stopped it (EV_OK at the end of the input for now, EV_END, or an
 * error). */
int evi_ahead_read(evi_ahead *a, uint8_t *dst, size_t cap, size_t *got);

/* The mark of the last block taken whole (0 before any). */
uint64_t evi_ahead_mark(const evi_ahead *a);

/* Stops and joins the thread and frees the ring; NULL is fine. */
void evi_ahead_stop(evi_ahead *a);

#endif
