/*
 * The validator (ev_validator, validate.h): its options, callbacks and
 * result, and the choice of path: the blocks checked in parallel where
 * the log allows it and nothing is found (validate_blocks.c), else one
 * pass (validate.c); and the validator as an event consumer
 * (ev_validator_consumer), one validation per run of a source.
 *
 * Layering: the top of the validator: this file -> validate_blocks.c ->
 * validate.c.
 */
#include "evtool/validate.h"

#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "validate_internal.h"

static void verdict(ev_validate_result *out, int rc, int was_truncated)
{
	uint64_t truncation = was_truncated ? 1 : 0;

	if (rc < 0 || out->errors > truncation)
		out->verdict = EV_VERDICT_INVALID;
	else if (was_truncated)
		out->verdict = EV_VERDICT_TRUNCATED;
	else
		out->verdict = EV_VERDICT_COMPLETE;
}

/* Validates the log `r` reads into `out`: in parallel on `threads`
 * workers where the log allows it (validate_blocks.c), else in one pass. */
static int validate_log(ev_reader *r, const ev_validate_options *opts,
			ev_finding_fn fn, void *ctx, ev_validate_result *out,
			unsigned threads, ev_progress_fn progress,
			void *progress_ctx)
{
	evv v;
	int rc = evv_setup(&v, r, opts, fn, ctx, out);

	if (rc == EV_OK)
		rc = threads > 1 ? evv_run_blocks(&v, threads, progress,
						  progress_ctx)
				 : EV_END;
	if (rc == EV_END)
		rc = evv_run_log(&v); /* the sequential path */
	verdict(out, rc, v.session_ended == 2 && out->errors > 0);
	evv_teardown(&v);
	return rc;
}

/* ---- the validator ---- */

struct ev_validator {
	ev_validate_options opts;
	ev_finding_fn fn;
	void *ctx;
	ev_progress_fn progress;
	void *progress_ctx;
	unsigned threads;
	ev_validate_result result;
	ev_diag diag;
	evv *live; /* the pass a source drives (ev_validator_consumer) */
};

int ev_validator_new(ev_validator **out, const ev_validate_options *opts,
		     ev_diag *diag)
{
	ev_validate_options defaults = EV_VALIDATE_OPTIONS_INIT;
	ev_validator *v;

	*out = NULL;
	if (opts && opts->version != EV_VALIDATE_OPTIONS_VERSION)
		return evi_options_failed(diag, "validate", opts->version,
					  EV_VALIDATE_OPTIONS_VERSION);
	if (!(v = calloc(1, sizeof *v)))
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	v->opts = opts ? *opts : defaults;
	*out = v;
	return EV_OK;
}

void ev_validator_free(ev_validator *v)
{
	if (v && v->live) {
		evv_teardown(v->live);
		free(v->live);
	}
	free(v);
}

void ev_validator_set_findings(ev_validator *v, ev_finding_fn fn, void *ctx)
{
	v->fn = fn;
	v->ctx = ctx;
}

void ev_validator_set_progress(ev_validator *v, ev_progress_fn fn, void *ctx)
{
	v->progress = fn;
	v->progress_ctx = ctx;
}

void ev_validator_set_threads(ev_validator *v, unsigned threads)
{
	v->threads = threads;
}

/* A failure to read: the reader says why, or the status does. */
static int run_failed(ev_validator *v, const ev_reader *r, int rc)
{
	if (r && ev_reader_diag(r)->status == rc)
		v->diag = *ev_reader_diag(r);
	else
		evi_fail(&v->diag, rc, 0, 0, "%s", ev_strerror(rc));
	v->diag.origin = EV_ORIGIN_INPUT;
	return rc;
}

int ev_validator_run_reader(ev_validator *v, ev_reader *r)
{
	int rc;

	memset(&v->diag, 0, sizeof v->diag);
	rc = validate_log(r, &v->opts, v->fn, v->ctx, &v->result, v->threads,
			  v->progress, v->progress_ctx);
	return rc < 0 ? run_failed(v, r, rc) : rc;
}

int ev_validator_run(ev_validator *v, ev_input *in)
{
	ev_reader *r;
	int rc = evi_input_reader(in, 0, &r, &v->diag);

	if (rc < 0) {
		memset(&v->result, 0, sizeof v->result);
		v->result.verdict = EV_VERDICT_INVALID;
		return run_failed(v, NULL, rc);
	}
	evi_reader_set_progress(r, v->progress, v->progress_ctx);
	rc = ev_validator_run_reader(v, r);
	ev_reader_free(r);
	return rc;
}

const ev_validate_result *ev_validator_result(const ev_validator *v)
{
	return &v->result;
}

const ev_diag *ev_validator_diag(const ev_validator *v)
{
	return &v->diag;
}

/* ---- the validator as an event consumer (consumer.h) ---- */

/* The pass of a source, when it starts (its first session, or a finish
 * before any). */
static int start_pass(ev_validator *v)
{
	if (v->live)
		return EV_OK;
	memset(&v->diag, 0, sizeof v->diag);
	if (!(v->live = malloc(sizeof *v->live)))
		return EV_ENOMEM;
	return evv_init(v->live, &v->opts, v->fn, v->ctx, &v->result);
}

static int consume_begin(void *self, const ev_session *s)
{
	ev_validator *v = self;
	int rc = start_pass(v);

	return rc < 0 ? rc : evv_consumer()->begin(v->live, s);
}

static int consume_event(void *self, const ev_event *ev)
{
	return evv_consumer()->event(((ev_validator *)self)->live, ev);
}

static int consume_end(void *self, const ev_session *s)
{
	return evv_consumer()->end(((ev_validator *)self)->live, s);
}

/* The verdict of the events given, as ev_validator_run reaches it; a
 * source that stops before its first session is judged as a log whose
 * header cannot be read. */
static int consume_finish(void *self, int status)
{
	ev_validator *v = self;
	int rc = start_pass(v);

	if (rc == EV_OK)
		rc = evv_stopped(v->live, status);
	verdict(&v->result, rc, v->live && v->live->session_ended == 2 &&
				v->result.errors > 0);
	if (v->live) {
		evv_teardown(v->live);
		free(v->live);
		v->live = NULL;
	}
	return rc < 0 ? run_failed(v, NULL, rc) : rc;
}

const ev_consumer *ev_validator_consumer(void)
{
	static const ev_consumer consumer = { consume_begin, consume_event,
					      consume_end, consume_finish,
					      EV_CONSUME_MARKERS };

	return &consumer;
}
