/*
 * Following a log while it is written (follow.h): the library's follower
 * (evtool/follow.h) stopped by SIGINT and SIGTERM, and how following
 * ended reported as an exit code.
 */
#include "cli.h"
#include "follow.h"

/* The exit code for how following ended, reported. */
static int report(int status, const ev_follower *f, const char *name)
{
	const ev_reader *r = ev_follower_reader(f);
	const ev_diag *d = ev_follower_diag(f);

	if (status == EV_END || status == EV_OK)
		return EXIT_OK;
	if (status == EV_ETRUNCATED && cli_interrupted)
		return EXIT_OK; /* the user stopped following */
	if (!r && d->status < 0) /* the source did not open */
		return cli_error(d->status == EV_EINVAL ? EXIT_USAGE
							 : EXIT_SYSTEM,
				 "%s: %s", name, d->message);
	if (status == EV_ETRUNCATED)
		return cli_read_failure(ev_reader_diag(r), name);
	if (r && ev_reader_diag(r)->status < 0)
		return cli_reader_error(r);
	return cli_status_failure(status, name);
}

int follow_run(const char *in, const follow_visitor *v, void *ctx)
{
	ev_follow_options opts = EV_FOLLOW_OPTIONS_INIT;
	const char *name = cli_input_name(in);
	ev_follower *f;
	int status, rc;

	opts.stop = &cli_interrupted;
	opts.idle = v->idle;
	cli_catch_interrupts();
	if (ev_follower_new(&f, &opts, NULL) < 0)
		return cli_error(EXIT_SYSTEM, "out of memory");
	status = ev_follow_feed(f, in, v->consumer, ctx);
	/* A source that did not open (or was not waited for to the end) has
	 * shown nothing: there is nothing to end. */
	rc = ev_follower_reader(f) ? v->finish(ctx, status) : EXIT_OK;
	if (rc == EXIT_OK)
		rc = report(status, f, name);
	ev_follower_free(f);
	return rc;
}
