/*
 * The filter pipeline (filter.h, ev_filter_run): learning passes when the
 * selectors need them, then reader -> evi_filter_apply -> re-blocking
 * writer, session by session.
 *
 * A learning pass reads the whole input, so the input is read again for
 * the next pass: made re-readable first by input.h (a regular file is
 * read in place, gzip inflated again; a pipe is copied, as stored, to an
 * unnamed temporary file).
 *
 * Layering: the top of the filter (this file -> filter.c ->
 * filter_decide.c); nothing in them calls into it.
 */
#include "evtool/filter.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "evtool/catalog.h"
#include "filter_internal.h"
#include "input.h"
#include "internal.h"

typedef struct filter_run {
	ev_filter *f;
	ev_input *in;
	ev_sink *out;
	ev_filter_stats *stats;
	evi_input input; /* re-readable when learning; fd -1 otherwise */
	ev_writer *writer; /* one for every session: one block buffer */
	int truncated;
	ev_diag truncation;
	evi_progress progress; /* over every pass */
	evi_blocks *blocks; /* read in parallel (blocks.h); NULL: not */
	int blocks_read;    /* the workers have had their turn */
} filter_run;

static int fail(filter_run *run, ev_origin origin, const ev_diag *d)
{
	ev_diag *diag = evi_filter_diag(run->f);

	*diag = *d;
	diag->origin = origin;
	return d->status < 0 ? d->status : EV_EIO;
}

static int fail_input(filter_run *run, const ev_reader *r)
{
	return fail(run, EV_ORIGIN_INPUT, ev_reader_diag(r));
}

static int fail_writer(filter_run *run, const ev_writer *w, int status)
{
	ev_diag d = *ev_writer_diag(w);

	d.status = status;
	if (!d.message[0])
		snprintf(d.message, sizeof d.message, "%s",
			 ev_strerror(status));
	return fail(run, EV_ORIGIN_OUTPUT, &d);
}

static int fail_status(filter_run *run, ev_origin origin, int status,
		       const char *what)
{
	ev_diag d;

	evi_fail(&d, status, 0, 0, "%s: %s", what,
		 status == EV_EIO ? strerror(errno) : ev_strerror(status));
	return fail(run, origin, &d);
}

/* Opens the input for a pass: as it is when it is read once (or is
 * memory), else from its start again (input.h). */
static int open_input(filter_run *run, ev_reader **r)
{
	ev_diag d;
	int rc;

	if (run->input.fd < 0)
		rc = evi_input_reader(run->in, 0, r, &d);
	else if ((rc = evi_input_rewind(&run->input, &d)) < 0)
		return fail(run, run->input.copied ? EV_ORIGIN_TEMP
						   : EV_ORIGIN_INPUT, &d);
	else
		rc = ev_reader_open_fd(r, run->input.fd,
				       ev_input_name(run->in), 0);
	if (rc < 0)
		return fail_status(run, EV_ORIGIN_INPUT, rc, "cannot open");
	run->stats->passes++;
	evi_reader_progress(*r, &run->progress);
	return EV_OK;
}

/* Before the learning passes: makes the input re-readable (input.h). */
static int make_rereadable(filter_run *run)
{
	ev_diag d;
	int rc = evi_input_prepare(run->in, run->f->opts.tmpdir, 0,
				   &run->input, &d);

	run->stats->spilled = run->input.copied;
	if (rc < 0)
		return fail(run, run->input.temp_failed ? EV_ORIGIN_TEMP
							: EV_ORIGIN_INPUT, &d);
	return EV_OK;
}

void ev_filter_set_threads(ev_filter *f, unsigned threads)
{
	f->threads = threads;
}

void ev_filter_set_progress(ev_filter *f, ev_progress_fn fn, void *ctx)
{
	f->progress = fn;
	f->progress_ctx = ctx;
}

/* Every pass reads the whole input (or its copy, as long). */
static uint64_t progress_total(const ev_input *in, unsigned passes)
{
	struct stat st;

	if (in->fd < 0)
		return (uint64_t)in->len * passes;
	if (in->is_stdin || fstat(in->fd, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	return (uint64_t)st.st_size * passes;
}

/* The reader stopped at the end of a session (EV_END) or early: moves to
 * the next session. 1: there is one; 0: the input is done; <0: failed. */
static int next_session(filter_run *run, ev_reader *r, int rc)
{
	if (rc == EV_END) {
		rc = ev_reader_next_session(r);
		if (rc == EV_OK)
			return 1;
		if (rc == EV_END)
			return 0;
	}
	if (rc == EV_ETRUNCATED) {
		run->truncated = 1;
		run->truncation = *ev_reader_diag(r);
		return 0;
	}
	return fail_input(run, r);
}

/* ---- learning ---- */

static int learn_events(filter_run *run, ev_reader *r, unsigned pass)
{
	ev_event ev;
	int rc;

	while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
		int lr = evi_filter_learn(run->f, pass, ev_reader_session(r),
					 &ev);
		if (lr < 0) /* EV_EFORMAT: a fact the log states is wrong */
			return fail(run, lr == EV_EFORMAT ? EV_ORIGIN_INPUT
							  : EV_ORIGIN_OPTIONS,
				    ev_filter_diag(run->f));
	}
	return rc == EV_END || rc == EV_ETRUNCATED ? rc : fail_input(run, r);
}

static int learn_sessions(filter_run *run, ev_reader *r, unsigned pass)
{
	int rc, more = 1;

	while (more > 0) {
		if ((rc = ev_reader_read_header(r)) < 0)
			return next_session(run, r, rc) < 0 ? rc : EV_OK;
		rc = learn_events(run, r, pass);
		if (rc != EV_END && rc != EV_ETRUNCATED)
			return rc;
		more = next_session(run, r, rc);
	}
	return more;
}

static int learn_pass(filter_run *run, unsigned pass)
{
	ev_reader *r = NULL;
	int rc = EV_OK;

	if (pass == 0)
		rc = make_rereadable(run);
	if (rc == EV_OK)
		rc = open_input(run, &r);
	if (rc == EV_OK)
		rc = learn_sessions(run, r, pass);
	ev_reader_free(r);
	if (rc == EV_OK && (rc = evi_filter_end_learning(run->f, pass)) < 0)
		rc = fail(run, EV_ORIGIN_OPTIONS, ev_filter_diag(run->f));
	return rc;
}

/* ---- filtering ---- */

/* Returns EV_END or EV_ETRUNCATED when the session's events are done,
 * or a failure (reported). */
/* Decides one event and writes it when kept. Inlined: the sequential
 * loop runs it for every event. */
static inline __attribute__((always_inline)) int decide(filter_run *run, unsigned session, const ev_event *ev,
		  ev_writer *w)
{
	ev_event kept;
	int decision = evi_filter_apply(run->f, session, ev, &kept), rc;

	if (decision < 0)
		return fail(run, EV_ORIGIN_OPTIONS, ev_filter_diag(run->f));
	if (decision && (rc = ev_writer_write(w, &kept)) < 0)
		return fail_writer(run, w, rc);
	return EV_OK;
}

static int filter_events(filter_run *run, ev_reader *r, ev_writer *w)
{
	unsigned session = ev_reader_session(r);
	ev_event ev;
	int rc;

	while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
		if (ev.type == EV_BLOCK_MARKER)
			continue;
		run->stats->events_read++;
		if ((rc = decide(run, session, &ev, w)) < 0)
			return rc;
	}
	return rc == EV_END || rc == EV_ETRUNCATED ? rc : fail_input(run, r);
}

/* The first session read in parallel: the events the workers did not
 * drop decided in file order, then the rest of the log read on
 * sequentially from where they stopped (the data end, or a block they
 * would not take), *r the reader that does. */
static int filter_blocks(filter_run *run, ev_reader **r, ev_writer *w)
{
	const uint8_t *rules = evi_filter_rules(run->f);
	evi_filter_scan *scan = NULL;
	ev_reader *rest = NULL;
	ev_event ev;
	int rc = EV_OK, next;

	run->blocks_read = 1;
	if (!rules)
		return fail(run, EV_ORIGIN_OPTIONS, ev_filter_diag(run->f));
	next = evi_filter_scan_open(&scan, run->blocks, rules,
				    run->f->threads);
	while (next == EV_OK &&
	       (next = evi_filter_scan_next(scan, &ev, &rest,
					    &run->stats->events_read)) == 1 &&
	       (rc = decide(run, 0, &ev, w)) == EV_OK)
		next = EV_OK;
	evi_filter_scan_free(scan);
	if (rc == EV_OK && next < 0)
		rc = fail_status(run, EV_ORIGIN_INPUT, next, "cannot read");
	if (rc < 0) {
		ev_reader_free(rest);
		return rc;
	}
	ev_reader_free(*r);
	*r = rest;
	return filter_events(run, rest, w);
}

/* Each session is written through the run's one writer, which keeps its
 * block buffer (up to 2 MiB) from session to session: a log of many tiny
 * sessions (a restarted eventlog, doc/format.md section 4) costs one. */
static int filter_session(filter_run *run, ev_reader **rp)
{
	ev_reader *r = *rp;
	ev_writer_options wo = EV_WRITER_OPTIONS_INIT;
	ev_writer *w = run->writer;
	uint64_t before = w ? ev_writer_events(w) : 0;
	int rc, end;

	wo.mode = EV_WRITE_REBLOCK;
	wo.max_block_size = run->f->opts.max_block_size;
	if (w)
		rc = ev_writer_next_session(w, ev_reader_header(r));
	else
		rc = ev_writer_open(&run->writer, run->out,
				    ev_reader_header(r), &wo);
	if (rc < 0)
		return fail_status(run, EV_ORIGIN_OUTPUT, rc, "cannot write");
	w = run->writer;
	if (run->blocks && !run->blocks_read)
		rc = end = filter_blocks(run, rp, w);
	else
		rc = end = filter_events(run, r, w);
	if (end == EV_END || end == EV_ETRUNCATED)
		rc = (rc = ev_writer_finish(w)) < 0 ? fail_writer(run, w, rc)
						    : end;
	run->stats->events_written += ev_writer_events(w) - before;
	return rc;
}

static int filter_sessions(filter_run *run, unsigned passes)
{
	ev_reader *r = NULL;
	int rc = open_input(run, &r), more = 1;

	if (rc == EV_OK && run->f->threads > 1 && passes == 0 &&
	    evi_blocks_open(&run->blocks, r) != EV_OK)
		run->blocks = NULL; /* read sequentially */

	while (rc == EV_OK && more > 0) {
		if ((rc = ev_reader_read_header(r)) < 0) {
			more = next_session(run, r, rc);
			rc = more < 0 ? more : EV_OK;
			break;
		}
		run->stats->sessions++;
		rc = filter_session(run, &r);
		if (rc == EV_END || rc == EV_ETRUNCATED) {
			more = next_session(run, r, rc);
			rc = more < 0 ? more : EV_OK;
		}
	}
	ev_reader_free(r);
	evi_blocks_free(run->blocks);
	ev_writer_free(run->writer);
	run->writer = NULL;
	return rc;
}

static void report_markers(filter_run *run)
{
	evi_filter_missing_markers(run->f, &run->stats->start_marker_missing,
				   &run->stats->end_marker_missing);
}

int ev_filter_run(ev_filter *f, ev_input *in, ev_sink *out)
{
	filter_run run = { f, in, out, &f->stats, { -1, 0, 0, 0, 0, 0 }, NULL,
			   0, { 0, EV_ORIGIN_NONE, EV_REASON_NONE, 0, 0, 0,
				"" }, { NULL, NULL, 0, 0 }, NULL, 0 };
	unsigned passes = evi_filter_learning_passes(f);
	int rc = EV_OK;

	memset(run.stats, 0, sizeof *run.stats);
	run.progress.fn = f->progress;
	run.progress.ctx = f->progress_ctx;
	run.progress.total = progress_total(in, passes + 1);
	for (unsigned pass = 0; rc == EV_OK && pass < passes; pass++)
		rc = learn_pass(&run, pass);
	if (rc == EV_OK) {
		report_markers(&run);
		rc = filter_sessions(&run, passes);
	}
	evi_input_close(&run.input);
	if (rc == EV_OK && run.truncated) {
		run.stats->truncated = 1;
		/* Cut inside its first header (or empty): there is no log to
		 * filter, and an empty output would not be one. */
		if (run.stats->sessions == 0)
			run.truncation.status = EV_EFORMAT;
		fail(&run, EV_ORIGIN_INPUT, &run.truncation);
		return run.truncation.status;
	}
	return rc;
}

const ev_filter_stats *ev_filter_stats_of(const ev_filter *f)
{
	return &f->stats;
}
