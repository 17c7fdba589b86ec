/*
 * Following a log while it is written (show --follow, stats --follow):
 * a regular file that grows, standard input or a FIFO (`+RTS -l
 * -ol/path/to/fifo`), or a Unix socket that a program instrumented with
 * eventlog-socket streams to ("unix:/path/to.sock"). Events come in file
 * order, as they are written, until the data end, the writer going away
 * or an interrupt (SIGINT, SIGTERM).
 */
#ifndef EVTOOL_CMD_FOLLOW_H
#define EVTOOL_CMD_FOLLOW_H

#include <evtool/evtool.h>

/* What a follower does with what arrives: the events go to `consumer`
 * (begin with the header, then each event in file order, block markers
 * when it asks for them), on `ctx`. Each callback returns EV_OK or an
 * error status, which stops following. */
typedef struct follow_visitor {
	const ev_consumer *consumer;
	/* Called before each wait for more input: flush what is shown. */
	int (*idle)(void *ctx);
	/* Called once at the end with the final status (EV_END, EV_ETRUNCATED
	 * or an error) before it is reported: the last output. Returns an
	 * exit code, EXIT_OK or one it reported already. */
	int (*finish)(void *ctx, int status);
} follow_visitor;

/* The prefix of a Unix socket source. */
#define FOLLOW_UNIX_PREFIX "unix:"

/* Follows `in` ("-" for standard input, a path, or "unix:PATH") and
 * returns the exit code: EXIT_OK at the data end or on an interrupt,
 * EXIT_DROPPED when the writer went away before the data end, or the
 * error's. */
int follow_run(const char *in, const follow_visitor *v, void *ctx);

#endif
