/*
 * The exporter of export.h: options, the output buffer flushed to the
 * sink in chunks, and the dispatch to the format (export_tef.c,
 * export_speedscope.c, export_hp.c), which runs on the pipe's thread
 * (export_pipe.c) while the caller hands events over.
 *
 * Layering, calls going one way only: this file -> export_blocks.c (the
 * pick of ev_exporter_visit, reading in parallel) and export_pipe.c -> the
 * formats (export_tef.c, export_speedscope.c, export_hp.c) ->
 * export_out.c and lib/inspect (cost_centres.c, heap_samples.c). This
 * file calls down into the pipe, the formats (open, finish, free) and
 * export_out.c (the output buffer and time texts, which the formats use
 * too); nothing below calls up into it.
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
		    ev_sink *sink, ev_diag *diag)
{
	static const ev_export_options defaults = EV_EXPORT_OPTIONS_INIT;
	ev_exporter *x;
	int rc;

	*out = NULL;
	if (!opts)
		opts = &defaults;
	if (opts->version != EV_EXPORT_OPTIONS_VERSION || !ops_for(opts->format)
	    || !sink)
		return evi_fail_at(diag, EV_ORIGIN_OPTIONS, EV_EINVAL, 0, 0,
				   "export options of version %u (this "
				   "library reads version %u), an unknown "
				   "format or no sink", opts->version,
				   EV_EXPORT_OPTIONS_VERSION);
	if (!(x = calloc(1, sizeof *x)))
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	x->opts = *opts;
	x->ops = ops_for(opts->format);
	x->sink = sink;
	if ((rc = evi_pipe_new(x)) < 0) {
		free(x);
		return evi_new_failed(diag, NULL, rc);
	}
	if ((rc = x->ops->open(x, &x->state)) < 0) {
		evi_pipe_free(x);
		free(x);
		return evi_new_failed(diag, NULL, rc);
	}
	*out = x;
	return EV_OK;
}

void ev_exporter_free(ev_exporter *x)
{
	if (!x)
		return;
	/* What was handed over is formatted (and written as far as its
	 * chunks go), as if it had been formatted at once. */
	if (x->pipe)
		evi_pipe_drain(x);
	evi_pipe_free(x);
	if (x->state)
		x->ops->free(x->state);
	ev_text_free(&x->out);
	free(x);
}

int ev_exporter_session(ev_exporter *x, unsigned session, const ev_header *h)
{
	/* The formats run behind the caller, when h may be gone: what they
	 * need of it goes with the session start. */
	return evi_pipe_session(x, session, h ? evi_header_quirks(h) : 0);
}

int ev_exporter_event(ev_exporter *x, const ev_event *ev)
{
	return evi_pipe_event(x, ev);
}

int ev_exporter_finish(ev_exporter *x)
{
	int rc;

	if ((rc = evi_pipe_drain(x)) < 0)
		return rc;
	rc = x->ops->finish(x, x->state);

	if (rc < 0 || rc == EV_EXPORT_NOTHING)
		return rc;
	return evi_export_flush(x, 1);
}

void ev_exporter_set_threads(ev_exporter *x, unsigned threads)
{
	x->threads = threads;
}

int ev_exporter_visit(ev_exporter *x, ev_sorter *s, ev_input *in)
{
	ev_input *picked;
	uint64_t left = 0;
	int rc;

	if (evi_export_pick(x, in, &picked, &left) != EV_OK)
		return ev_sorter_visit(s, in, ev_exporter_consumer(), x);
	rc = ev_sorter_visit(s, picked, ev_exporter_consumer(), x);
	ev_input_free(picked);
	/* Formatted (the finish drained the pipe): the events left out
	 * counted as handed over, as the sequential path hands them. */
	if (rc >= 0)
		x->stats.events_in += left;
	return rc;
}

static int consume_begin(void *self, const ev_session *s)
{
	return ev_exporter_session(self, s->index, s->header);
}

static int consume_event(void *self, const ev_event *ev)
{
	return evi_pipe_event(self, ev);
}

/* The output of the events given, cut log or not (EV_EXPORT_NOTHING
 * when they hold nothing the format shows): on a failure there is
 * nothing to finish. */
static int consume_finish(void *self, int status)
{
	int rc;

	if (!ev_consumer_complete(status))
		return status;
	rc = ev_exporter_finish(self);
	return rc < 0 || rc == EV_EXPORT_NOTHING ? rc : status;
}

const ev_consumer *ev_exporter_consumer(void)
{
	static const ev_consumer consumer = { consume_begin, consume_event,
					      NULL, consume_finish, 0 };

	return &consumer;
}

const ev_export_stats *ev_exporter_result(const ev_exporter *x)
{
	/* The formats count, behind the caller: catch up with it (x is
	 * never defined const; the pipe is its mutable part). */
	ev_exporter *self = (ev_exporter *)(uintptr_t)x;

	if (self->pipe)
		evi_pipe_sync(self);
	return &x->stats;
}

const ev_diag *ev_exporter_diag(const ev_exporter *x)
{
	return &x->diag;
}
