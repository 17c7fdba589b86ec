/*
 * Shared by the exporters of export.h: the exporter object, its output
 * buffer, the per-format operations, and the cost-centre table that the
 * speedscope and hp formats both name frames and bands from.
 */
#ifndef EVTOOL_LIB_EXPORT_INTERNAL_H
#define EVTOOL_LIB_EXPORT_INTERNAL_H

#include <stdatomic.h>
#include <string.h>

#include "evtool/export.h"
#include "heap_samples.h"
#include "text.h"

/* One format: its state is created by `open` and owned by the exporter.
 * session, event and finish run on the pipe's thread or the caller's
 * (export_pipe.c), one at a time, in the order of the caller's calls; a
 * session's header is not handed on (the formats run behind the caller,
 * when it may be gone): only its quirks (evi_header_quirks) are. */
typedef struct evi_export_ops {
	int (*open)(ev_exporter *x, void **state);
	int (*session)(ev_exporter *x, void *state, unsigned session,
		       unsigned quirks);
	int (*event)(ev_exporter *x, void *state, const ev_event *ev);
	int (*finish)(ev_exporter *x, void *state);
	void (*free)(void *state);
	/* Whether the format acts on events of `type`; of the others it
	 * reads at most the times of the first, the first that is not
	 * metadata and the last (hp's), so that only those and the types
	 * it acts on need to reach it (export_blocks.c). NULL: it reads
	 * every event (perfetto: its last time, its threads' runs). */
	int (*reads)(uint16_t type);
} evi_export_ops;

extern const evi_export_ops evi_export_tef;
extern const evi_export_ops evi_export_speedscope;
extern const evi_export_ops evi_export_hp;

typedef struct evi_export_pipe evi_export_pipe;

struct ev_exporter {
	ev_export_options opts;
	unsigned threads;  /* ev_exporter_set_threads */
	const evi_export_ops *ops;
	void *state;
	evi_export_pipe *pipe; /* the formats' thread (export_pipe.c) */
	ev_sink *sink;
	ev_text out;       /* rendered, not yet written to the sink */
	ev_export_stats stats;
	ev_diag diag;
	/* The caller's side of the pipe, written at every event: a cache
	 * line apart from what the pipe's thread writes at every event (out,
	 * stats), or the two cores would pass the line to and fro. */
	char pad_before[64];
	uint8_t *put, *put_end;  /* the free room of the pipe's batch */
	atomic_int pipe_failed;  /* the pipe's worker failed */
	char pad_after[64];
};

/* ---- the pipe (export_pipe.c): the formats on a second thread ----
 * The caller's session starts and events are copied into batches that a
 * worker thread formats and writes, in order. A failure of the formats or
 * of the sink is returned by the caller's next call (errno as the worker
 * left it; the diag in x->diag). */

int evi_pipe_new(ev_exporter *x);
/* Ends the worker (after it formatted what it was handed) and frees. */
void evi_pipe_free(ev_exporter *x);
/* Hands a session start, and its header's quirks, over to the formats. */
int evi_pipe_session(ev_exporter *x, unsigned session, unsigned quirks);
/* evi_pipe_event when the batch is full or the worker failed. */
int evi_pipe_event_slow(ev_exporter *x, const ev_event *ev);

/* A record of a batch: the event's time, then its size, type and cap in
 * one word (a session start: size EVI_PIPE_SESSION, the session number
 * and above it the header's quirks in place of the time), its offset in
 * the input (which a failure names; its index is not kept), then the
 * payload padded to 8 bytes. */
#define EVI_PIPE_REC 24u
#define EVI_PIPE_SESSION UINT32_MAX /* no event is as large (uint16 sizes) */

static inline size_t evi_pipe_rec_bytes(uint32_t size)
{
	return EVI_PIPE_REC + (((size_t)size + 7u) & ~(size_t)7u);
}

static inline void evi_pipe_put(uint8_t *p, const ev_event *ev)
{
	uint64_t w = ev->size | (uint64_t)ev->type << 32 |
		     (uint64_t)ev->cap << 48;

	memcpy(p, &ev->time, 8);
	memcpy(p + 8, &w, 8);
	memcpy(p + 16, &ev->offset, 8);
}

/* Hands an event (copied) over to the formats: the sorter's per-event
 * path, inline. */
static inline int evi_pipe_event(ev_exporter *x, const ev_event *ev)
{
	size_t need = evi_pipe_rec_bytes(ev->size);

	if ((size_t)(x->put_end - x->put) < need ||
	    atomic_load_explicit(&x->pipe_failed, memory_order_relaxed))
		return evi_pipe_event_slow(x, ev);
	evi_pipe_put(x->put, ev);
	evi_copy_short(x->put + EVI_PIPE_REC, ev->payload, ev->size);
	x->put += need;
	return EV_OK;
}
/* Waits until everything handed over is formatted (the worker, idle,
 * keeps running); a failure is kept for the next call. */
void evi_pipe_sync(ev_exporter *x);
/* Formats everything handed over and ends the worker: afterwards the
 * formats are the caller's. EV_OK or the first failure. */
int evi_pipe_drain(ev_exporter *x);

/* ---- reading in parallel (export_blocks.c) ----
 * A log of blocks, for a format with `reads`, picked by workers into a
 * temporary log of the events the format reads, which the sorter then
 * hands over: EV_OK and *picked (owned by the caller); EV_END: the
 * sequential path converts this log (nothing was handed over). */
int evi_export_pick(ev_exporter *x, ev_input *in, ev_input **picked,
		    uint64_t *left_out);

/* ---- the output (export_out.c) ---- */

/* Rendered text goes to the sink in chunks of about this size. */
#define EVI_EXPORT_FLUSH_AT (256u * 1024u)

/* Writes the buffered text to the sink when it has grown past its chunk
 * size (`force`: whatever there is). EV_OK or the failure, in x->diag. */
int evi_export_flush(ev_exporter *x, int force);

/* An event time (ns) as JSON microseconds with three decimals. */
void evi_put_us(ev_text *t, uint64_t ns);

/* ---- writing into room reserved up front: one size check per record ----
 * The longest text of a time: microseconds (EVI_U64_MAX digits,
 * text.h) with their point and three decimals. */
#define EVI_US_MAX (EVI_U64_MAX + 4u)

/* Where `n` more bytes of t may be written, or NULL (t->failed set). */
static inline char *evi_out_room(ev_text *t, size_t n)
{
	if (t->cap - t->len < n && !evi_text_room(t, n))
		return NULL;
	return t->data + t->len;
}

/* Takes the text written up to `end` into t. */
static inline void evi_out_end(ev_text *t, char *end)
{
	t->len = (size_t)(end - t->data);
}

/* Copies a string literal to p without measuring it; the end. */
#define evi_fmt_lit(p, s) \
	((char *)memcpy((p), "" s, sizeof(s) - 1) + sizeof(s) - 1)
/* ns as microseconds with three decimals (at most EVI_US_MAX bytes). */
char *evi_fmt_us(char *p, uint64_t ns);

/* Fails with EV_ENOMEM when the output buffer could not grow. */
int evi_export_check(ev_exporter *x);

/* ---- cost centres and heap-profile samples: lib/inspect/heap_samples.h
 * ---- */

#endif
