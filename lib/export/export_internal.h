/*
 * Shared by the exporters of export.h: the exporter object, its output
 * buffer, the per-format operations, and the cost-centre table that the
 * speedscope and hp formats both name frames and bands from.
 */
#ifndef EVTOOL_LIB_EXPORT_INTERNAL_H
#define EVTOOL_LIB_EXPORT_INTERNAL_H

#include "evtool/export.h"
#include "evtool/show.h"
#include "heap_samples.h"
#include "text.h"

/* One format: its state is created by `open` and owned by the exporter. */
typedef struct evi_export_ops {
	int (*open)(ev_exporter *x, void **state);
	int (*session)(ev_exporter *x, void *state, unsigned session,
		       const ev_header *h);
	int (*event)(ev_exporter *x, void *state, const ev_event *ev);
	int (*finish)(ev_exporter *x, void *state);
	void (*free)(void *state);
} evi_export_ops;

extern const evi_export_ops evi_export_tef;
extern const evi_export_ops evi_export_speedscope;
extern const evi_export_ops evi_export_hp;

struct ev_exporter {
	ev_export_options opts;
	const evi_export_ops *ops;
	void *state;
	ev_sink *sink;
	ev_text out;       /* rendered, not yet written to the sink */
	ev_export_stats stats;
	ev_diag diag;
};

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
