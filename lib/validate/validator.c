/*
 * The validator (ev_validator, validate.h): its options, callbacks and
 * result, and the choice of path: the blocks checked in parallel where
 * the log allows it and nothing is found (validate_blocks.c), else one
 * pass (validate.c).
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
