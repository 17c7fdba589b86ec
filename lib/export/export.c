/*
 * The exporter of export.h: options, the output buffer flushed to the
 * sink in chunks, and the dispatch to the format (export_tef.c,
 * export_speedscope.c, export_hp.c).
 *
 * Layering, calls going one way only: this file -> the formats
 * (export_tef.c, export_speedscope.c, export_hp.c) -> export_out.c and
 * lib/inspect (cost_centres.c, heap_samples.c). This file calls down into
 * the formats and into export_out.c (the output buffer and time texts,
 * which the formats use too); nothing below calls up into it.
 */
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"
#include "internal.h"

static const evi_export_ops *ops_for(ev_export_format format)
{
	switch (format) {
	case EV_EXPORT_PERFETTO:
		return &evi_export_tef;
	case EV_EXPORT_SPEEDSCOPE:
		return &evi_export_speedscope;
	case EV_EXPORT_HP:
		return &evi_export_hp;
	}
	return NULL;
}

int ev_exporter_new(ev_exporter **out, const ev_export_options *opts,
		    ev_sink *sink)
{
	static const ev_export_options defaults = EV_EXPORT_OPTIONS_INIT;
	ev_exporter *x;
	int rc;

	*out = NULL;
	if (!opts)
		opts = &defaults;
	if (opts->version != EV_EXPORT_OPTIONS_VERSION || !ops_for(opts->format)
	    || !sink)
		return EV_EINVAL;
	if (!(x = calloc(1, sizeof *x)))
		return EV_ENOMEM;
	x->opts = *opts;
	x->ops = ops_for(opts->format);
	x->sink = sink;
	if ((rc = x->ops->open(x, &x->state)) < 0) {
		free(x);
		return rc;
	}
	*out = x;
	return EV_OK;
}

void ev_exporter_free(ev_exporter *x)
{
	if (!x)
		return;
	if (x->state)
		x->ops->free(x->state);
	ev_text_free(&x->out);
	free(x);
}

int ev_exporter_session(ev_exporter *x, unsigned session, const ev_header *h)
{
	return x->ops->session(x, x->state, session, h);
}

/* ev_exporter_event, inline in the visitor's callback: the sorter calls
 * it for every event. */
static inline int export_event(ev_exporter *x, const ev_event *ev)
{
	int rc;

	x->stats.events_in++;
	if ((rc = x->ops->event(x, x->state, ev)) < 0)
		return rc;
	if (x->out.len < EVI_EXPORT_FLUSH_AT && !x->out.failed)
		return EV_OK;
	return evi_export_flush(x, 0);
}

int ev_exporter_event(ev_exporter *x, const ev_event *ev)
{
	return export_event(x, ev);
}

int ev_exporter_finish(ev_exporter *x)
{
	int rc = x->ops->finish(x, x->state);

	if (rc < 0 || rc == EV_EXPORT_NOTHING)
		return rc;
	return evi_export_flush(x, 1);
}

static int visit_session(void *ctx, unsigned session, const ev_header *h)
{
	return ev_exporter_session(ctx, session, h);
}

static int visit_event(void *ctx, const ev_event *ev)
{
	return export_event(ctx, ev);
}

const ev_sort_visitor *ev_exporter_visitor(void)
{
	static const ev_sort_visitor visitor = { visit_session, visit_event, 0 };

	return &visitor;
}

const ev_export_stats *ev_exporter_stats(const ev_exporter *x)
{
	return &x->stats;
}

const ev_diag *ev_exporter_diag(const ev_exporter *x)
{
	return &x->diag;
}
