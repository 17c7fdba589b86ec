/*
 * The filter pipeline (filter.h, ev_filter_run): learning passes when the
 * selectors need them, then reader -> evi_filter_apply -> re-blocking
 * writer, session by session. Each pass is a consumer (consumer.h) that
 * the input's reader drives (evi_feed, ev_reader_feed's loop inline).
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
#include "evtool/consumer.h"
#include "feed.h"
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
	ev_reader *r;      /* the pass's */
	unsigned pass, session;
	int open;          /* a session's output is being written */
	int failed;        /* a consumer's failure is recorded */
	uint64_t written_before; /* the writer's count at the session's start */
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
				       ev_input_name(run->in), 0, NULL);
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

/* ---- the passes, consumers (consumer.h) of the input's reader ---- */

/* How a pass's reader ended (its consumer's finish): at the input's end;
 * cut (not a failure: the passes take the complete events, the caller
 * hears of it at the end); or failed, the consumer's failure recorded
 * already, the reader's here. */
static int pass_ended(filter_run *run, int status)
{
	if (status == EV_END)
		return EV_OK;
	if (status == EV_ETRUNCATED) {
		run->truncated = 1;
		run->truncation = *ev_reader_diag(run->r);
		return EV_OK;
	}
	return run->failed ? status : fail_input(run, run->r);
}

/* ---- learning ---- */

static int learn_begin(void *self, const ev_session *s)
{
	filter_run *run = self;

	run->session = s->index;
	return EV_OK;
}

static int learn_event(void *self, const ev_event *ev)
{
	filter_run *run = self;
	int lr = evi_filter_learn(run->f, run->pass, run->session, ev);

	if (lr < 0) { /* EV_EFORMAT: a fact the log states is wrong */
		run->failed = 1;
		return fail(run, lr == EV_EFORMAT ? EV_ORIGIN_INPUT
						  : EV_ORIGIN_OPTIONS,
			    ev_filter_diag(run->f));
	}
	return EV_OK;
}

static int learn_finish(void *self, int status)
{
	return pass_ended(self, status);
}

/* Block markers too: the learning sees every event. */
static const ev_consumer learner = { learn_begin, learn_event, NULL,
				     learn_finish, EV_CONSUME_MARKERS };

static int learn_pass(filter_run *run, unsigned pass)
{
	int rc = EV_OK;

	run->pass = pass;
	if (pass == 0)
		rc = make_rereadable(run);
	if (rc == EV_OK)
		rc = open_input(run, &run->r);
	if (rc == EV_OK)
		rc = evi_feed(run->r, &learner, run);
	ev_reader_free(run->r);
	run->r = NULL;
	if (rc == EV_OK && (rc = evi_filter_end_learning(run->f, pass)) < 0)
		rc = fail(run, EV_ORIGIN_OPTIONS, ev_filter_diag(run->f));
	return rc;
}

/* ---- filtering ---- */

/* Each session is written through the run's one writer, which keeps its
 * block buffer (up to 2 MiB) from session to session: a log of many tiny
 * sessions (a restarted eventlog, doc/format.md section 4) costs one. */
static int filter_begin(void *self, const ev_session *s)
{
	filter_run *run = self;
	ev_writer_options wo = EV_WRITER_OPTIONS_INIT;
	const ev_header *h = s->header;
	int rc;

	run->session = s->index;
	run->stats->sessions++;
	wo.mode = EV_WRITE_REBLOCK;
	wo.max_block_size = run->f->opts.max_block_size;
	if (run->writer)
		rc = ev_writer_next_session(run->writer, h);
	else
		rc = ev_writer_open(&run->writer, run->out, h, &wo, NULL);
	if (rc < 0) {
		run->failed = 1;
		return fail_status(run, EV_ORIGIN_OUTPUT, rc, "cannot write");
	}
	run->open = 1;
	run->written_before = ev_writer_events(run->writer);
	return EV_OK;
}

/* Decides one event and writes it when kept. Inlined into evi_feed's
 * loop, where the constant consumer below makes the call direct: the
 * pass over every event pays no call for it (211.4 M instructions for
 * filter --class gc on a 30 MB prefix, as the loop of its own it
 * replaced; 240.1 M as a called function). */
static inline __attribute__((always_inline)) int
decide(filter_run *run, const ev_event *ev)
{
	ev_event kept;
	int decision, rc;

	decision = evi_filter_apply(run->f, run->session, ev, &kept);
	if (decision < 0) {
		run->failed = 1;
		return fail(run, EV_ORIGIN_OPTIONS, ev_filter_diag(run->f));
	}
	if (decision && (rc = ev_writer_write(run->writer, &kept)) < 0) {
		run->failed = 1;
		return fail_writer(run, run->writer, rc);
	}
	return EV_OK;
}

static inline __attribute__((always_inline)) int
filter_event(void *self, const ev_event *ev)
{
	filter_run *run = self;

	run->stats->events_read++;
	return decide(run, ev);
}

/* The session's output ends (`finish`: at its end or where the input
 * was cut); what was written counts either way. */
static int close_session(filter_run *run, int finish)
{
	int rc = EV_OK;

	if (finish && (rc = ev_writer_finish(run->writer)) < 0) {
		run->failed = 1;
		rc = fail_writer(run, run->writer, rc);
	}
	run->stats->events_written += ev_writer_events(run->writer) -
				      run->written_before;
	run->open = 0;
	return rc;
}

static int filter_end(void *self, const ev_session *s)
{
	(void)s;
	return close_session(self, 1);
}

static int filter_finish(void *self, int status)
{
	filter_run *run = self;
	int rc;

	if (run->open &&
	    (rc = close_session(run, status == EV_ETRUNCATED)) < 0)
		return rc;
	return pass_ended(run, status);
}

/* The kept events (block markers are rebuilt by the writer). */
static const ev_consumer filterer = { filter_begin, filter_event,
				      filter_end, filter_finish, 0 };

/* ---- the first session read in parallel (blocks.h) ---- */

/* The first session's header and the events the workers did not drop,
 * handed to the consumer in file order as evi_feed would hand them
 * (the scan counts the events read); then run->r is the reader that
 * reads on from where the workers stopped (the data end, or a block
 * they would not take), as the sequential reader would be there. */
static int filter_blocks(filter_run *run, const evi_blocks *blocks,
			 ev_session *s)
{
	const uint8_t *rules = evi_filter_rules(run->f);
	evi_filter_scan *scan = NULL;
	ev_reader *rest = NULL;
	ev_event ev;
	int rc, next;

	if (!rules) {
		run->failed = 1;
		return fail(run, EV_ORIGIN_OPTIONS, ev_filter_diag(run->f));
	}
	if ((rc = ev_reader_read_header(run->r)) < 0)
		return rc;
	s->header = ev_reader_header(run->r);
	if ((rc = filter_begin(run, s)) < 0)
		return rc;
	next = evi_filter_scan_open(&scan, blocks, rules, run->f->threads);
	while (next == EV_OK &&
	       (next = evi_filter_scan_next(scan, &ev, &rest,
					    &run->stats->events_read)) == 1 &&
	       (rc = decide(run, &ev)) == EV_OK)
		next = EV_OK;
	evi_filter_scan_free(scan);
	if (rc == EV_OK && next < 0) {
		run->failed = 1;
		rc = fail_status(run, EV_ORIGIN_INPUT, next, "cannot read");
	}
	if (rc < 0) {
		ev_reader_free(rest);
		return rc;
	}
	ev_reader_free(run->r);
	run->r = rest;
	return EV_OK;
}

/* The filtering pass: the first session read in parallel when the
 * blocks were found (evi_blocks_open), the rest of it and the sessions
 * after it by the reader, all through the one consumer. */
static int feed_blocks(filter_run *run, const evi_blocks *blocks)
{
	ev_session s = { 0, NULL, 0, 0 };
	int rc = filter_blocks(run, blocks, &s);

	if (rc == EV_OK)
		rc = evi_feed_rest(run->r, &filterer, run, &s);
	if (rc == EV_OK)
		rc = evi_feed_sessions_at(run->r, &filterer, run, s.offset);
	return filter_finish(run, rc);
}

static int filter_sessions(filter_run *run, unsigned passes)
{
	evi_blocks *blocks = NULL;
	int rc = open_input(run, &run->r);

	if (rc == EV_OK && run->f->threads > 1 && passes == 0 &&
	    evi_blocks_open(&blocks, run->r) != EV_OK)
		blocks = NULL; /* read sequentially */
	if (rc == EV_OK)
		rc = blocks ? feed_blocks(run, blocks)
			    : evi_feed(run->r, &filterer, run);
	ev_reader_free(run->r); /* it may read the blocks' map */
	run->r = NULL;
	evi_blocks_free(blocks);
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
				"" }, { NULL, NULL, 0, 0 }, NULL, 0, 0, 0, 0, 0 };
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

const ev_filter_stats *ev_filter_result(const ev_filter *f)
{
	return &f->stats;
}
