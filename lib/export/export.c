/*
 * The exporter of export.h: options, the output buffer flushed to the
 * sink in chunks, and the dispatch to the format (export_tef.c,
 * export_speedscope.c, export_hp.c).
 */
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"
#include "internal.h"

/* Rendered text goes to the sink in chunks of about this size. */
#define FLUSH_AT (256u * 1024u)

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

int evi_export_check(ev_exporter *x)
{
	if (x->out.failed)
		return evi_fail(&x->diag, EV_ENOMEM, 0, 0, "out of memory");
	return EV_OK;
}

int evi_export_flush(ev_exporter *x, int force)
{
	int rc;

	if ((rc = evi_export_check(x)) < 0)
		return rc;
	if (!x->out.len || (!force && x->out.len < FLUSH_AT))
		return EV_OK;
	if ((rc = ev_sink_write(x->sink, x->out.data, x->out.len)) < 0) {
		x->diag = *ev_sink_diag(x->sink);
		x->diag.status = rc;
		return rc;
	}
	x->out.len = 0;
	return EV_OK;
}

char *evi_fmt_us(char *p, uint64_t ns)
{
	uint64_t us = ns / 1000;
	unsigned frac = (unsigned)(ns - us * 1000);

	p = evi_fmt_u64(p, us);
	p[0] = '.';
	p[1] = (char)('0' + frac / 100);
	evi_fmt_2digits(p + 2, frac % 100);
	return p + 4;
}

void evi_put_us(ev_text *t, uint64_t ns)
{
	char *p = evi_out_room(t, EVI_US_MAX);

	if (p)
		evi_out_end(t, evi_fmt_us(p, ns));
}

int ev_exporter_session(ev_exporter *x, unsigned session, const ev_header *h)
{
	return x->ops->session(x, x->state, session, h);
}

int ev_exporter_event(ev_exporter *x, const ev_event *ev)
{
	int rc;

	x->stats.events_in++;
	if ((rc = x->ops->event(x, x->state, ev)) < 0)
		return rc;
	if (x->out.len < FLUSH_AT && !x->out.failed)
		return EV_OK;
	return evi_export_flush(x, 0);
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
	return ev_exporter_event(ctx, ev);
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
