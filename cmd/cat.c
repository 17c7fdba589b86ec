/*
 * evtool cat: copy logs, decompressing gzip; --reblock regroups blocks.
 */
#include <stdlib.h>
#include <string.h>

#include "commands.h"

/* The options of evtool cat, indexes in cat_options. */
enum cat_option {
	CAT_OPT_OUTPUT,
	CAT_OPT_GZIP,
	CAT_OPT_REBLOCK,
	CAT_OPT_BLOCK_SIZE,
	CAT_OPT_IN_PLACE,
	CAT_OPT_THREADS,
	CAT_N_OPTIONS
};
CLI_CHECK_OPTIONS(CAT_N_OPTIONS);

const cli_option cat_options[CAT_N_OPTIONS + 1] = {
	[CAT_OPT_OUTPUT] =
	{ "output", 'o', "OUT", "write to OUT, not standard output (*.gz: "
	  "compressed)" },
	[CAT_OPT_GZIP] =
	{ "gzip", 0, NULL, "compress as 'evtool archive' does (gzip with the "
	  "log's digest)" },
	[CAT_OPT_REBLOCK] =
	{ "reblock", 0, NULL, "group events into fresh blocks by capability" },
	[CAT_OPT_BLOCK_SIZE] =
	{ "block-size", 0, "SIZE",
	  "largest block --reblock writes (default 2M)" },
	[CAT_OPT_IN_PLACE] =
	{ "in-place", 0, NULL,
	  "replace the one input with the result (safely, by rename)" },
	[CAT_OPT_THREADS] =
	{ "threads", 'T', "N", "read with N threads (default, or 0: the "
	  "cores available; 1: sequentially)" },
};

typedef struct cat_job {
	ev_sink *sink;
	ev_writer_options options;
	unsigned threads;    /* -T */
	int input_truncated; /* the current input ended early */
	int dropped;         /* some input did */
} cat_job;

static int writer_error(const ev_writer *w, const char *out)
{
	return cli_write_failure(ev_writer_diag(w), out);
}

/* Copies the events of one session to `w`, the reader positioned
 * before its next event, and finishes the session. */
static int copy_events(cat_job *job, ev_reader *r, ev_writer *w,
		       const char *out)
{
	ev_event ev;
	int rc;

	while ((rc = ev_reader_next(r, &ev)) == EV_OK)
		if (ev_writer_write(w, &ev) < 0)
			return writer_error(w, out);
	if (rc == EV_ETRUNCATED && job->options.mode == EV_WRITE_REBLOCK) {
		const ev_diag *d = ev_reader_diag(r);
		cli_warn_at(ev_reader_name(r), (int64_t)d->offset,
			    "%s; kept the %llu complete events", d->message,
			    (unsigned long long)ev_writer_events(w));
		job->input_truncated = 1;
		job->dropped = 1;
		rc = EV_END;
	}
	if (rc == EV_END)
		return ev_writer_finish(w) < 0 ? writer_error(w, out) : EXIT_OK;
	return cli_reader_error(r);
}

/* Copies one session: the reader is positioned before its first event. */
static int copy_session(cat_job *job, ev_reader *r, const char *out)
{
	ev_writer *w;
	int rc = ev_writer_open(&w, job->sink, ev_reader_header(r),
				&job->options, NULL);

	if (rc < 0) {
		ev_diag d = { .status = rc, .origin = EV_ORIGIN_OUTPUT };
		snprintf(d.message, sizeof d.message, "%s", ev_strerror(rc));
		return cli_write_failure(&d, out);
	}
	rc = copy_events(job, r, w, out);
	ev_writer_free(w);
	return rc;
}

/* A plain copy's first session with the blocks read in parallel
 * (ev_writer_copy_blocks), the rest read on from *r: EXIT_OK or a
 * failure; *done 0 when the log is not one read in parallel. */
static int copy_in_parallel(cat_job *job, ev_reader **r, const char *out,
			    int *done)
{
	ev_writer *w;
	int rc;

	*done = 0;
	if (job->options.mode != EV_WRITE_PRESERVE)
		return EXIT_OK;
	rc = ev_writer_copy_blocks(&w, job->sink, r, job->threads);
	if (rc == EV_END)
		return EXIT_OK;
	*done = 1;
	if (rc < 0) {
		ev_diag d = { .status = rc, .origin = EV_ORIGIN_OUTPUT };
		snprintf(d.message, sizeof d.message, "%s", ev_strerror(rc));
		rc = w ? writer_error(w, out) : cli_write_failure(&d, out);
	} else {
		rc = copy_events(job, *r, w, out);
	}
	ev_writer_free(w);
	return rc;
}

static int copy_input(cat_job *job, const char *path, const char *out)
{
	ev_reader *r;
	int rc = cli_open_input(path, 0, &r), first_done;

	job->input_truncated = 0;
	if (rc != EXIT_OK)
		return rc;
	if ((rc = copy_in_parallel(job, &r, out, &first_done)) != EXIT_OK) {
		ev_reader_free(r);
		return rc;
	}
	if (!first_done && ev_reader_read_header(r) < 0) {
		rc = cli_reader_error(r);
		ev_reader_free(r);
		return rc;
	}
	for (;;) {
		int more;
		if (first_done)
			first_done = 0;
		else if ((rc = copy_session(job, r, out)) != EXIT_OK)
			break;
		if (job->input_truncated)
			break;
		more = ev_reader_next_session(r);
		if (more == EV_END)
			break;
		if (more < 0) {
			rc = cli_reader_error(r);
			break;
		}
	}
	ev_reader_free(r);
	return rc;
}

/* --in-place writes to the one input, through the same temporary file
 * and rename as any output, so the input is intact until the end. */
static int choose_output(const cli_command *cmd, const cli_args *args,
			 const char **out, int *in_place)
{
	*out = cli_value(args, CAT_OPT_OUTPUT);
	*in_place = cli_flag(args, CAT_OPT_IN_PLACE);
	if (!*in_place)
		return EXIT_OK;
	if (*out || args->n_positional != 1 ||
	    strcmp(args->positional[0], "-") == 0)
		return cli_usage_error(cmd, "--in-place takes one input file "
				       "and no -o");
	*out = args->positional[0];
	return EXIT_OK;
}

int cmd_cat(const cli_args *args)
{
	const cli_command *cmd = args->cmd;
	const char *out;
	cat_job job = { NULL, EV_WRITER_OPTIONS_INIT, 1, 0, 0 };
	int in_place, rc = choose_output(cmd, args, &out, &in_place);

	if (cli_flag(args, CAT_OPT_REBLOCK))
		job.options.mode = EV_WRITE_REBLOCK;
	if (rc == EXIT_OK)
		rc = cli_block_size(args, CAT_OPT_BLOCK_SIZE,
				    &job.options.max_block_size);
	if (rc == EXIT_OK)
		rc = cli_threads(args, CAT_OPT_THREADS, &job.threads);
	if (rc == EXIT_OK)
		rc = cli_open_log_output(out, cli_flag(args, CAT_OPT_GZIP),
					 args->positional, args->n_positional,
					 in_place ? CLI_REPLACE_INPUT
						  : CLI_REFUSE_HINT_IN_PLACE,
					 &job.sink);
	for (int i = 0; rc == EXIT_OK && i < args->n_positional; i++)
		rc = copy_input(&job, args->positional[i], out);
	if (rc == EXIT_OK)
		rc = cli_commit_output(job.sink, out);
	cli_close_output(job.sink);
	if (rc == EXIT_OK && job.dropped)
		rc = EXIT_DROPPED;
	return rc;
}
