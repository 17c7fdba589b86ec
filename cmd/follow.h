/*
 * Following a log while it is written (show --follow, stats --follow),
 * through the library's follower (evtool/follow.h): a regular file that
 * grows, standard input or a FIFO, or a Unix socket ("unix:PATH"), until
 * the data end, the writer going away or an interrupt (SIGINT, SIGTERM).
 */
#ifndef EVTOOL_CMD_FOLLOW_H
#define EVTOOL_CMD_FOLLOW_H

#include <evtool/evtool.h>

/* What a follower does with what arrives: the events go to `consumer`
 * (consumer.h: begin with the header, then each event in file order,
 * block markers when it asks for them, end, finish), on `ctx`. */
typedef struct follow_visitor {
	const ev_consumer *consumer;
	/* Called before each wait for more input: flush what is shown.
	 * EV_OK, or a failure that stops following. */
	int (*idle)(void *ctx);
	/* Called once after the consumer's finish, with the status that
	 * returned, unless the source never opened: the last output. Returns
	 * an exit code, EXIT_OK or one it reported already. */
	int (*finish)(void *ctx, int status);
} follow_visitor;

/* Follows `in` ("-" for standard input, a path, or "unix:PATH") and
 * returns the exit code: EXIT_OK at the data end or on an interrupt,
 * EXIT_DROPPED when the writer went away before the data end, or the
 * error's. */
int follow_run(const char *in, const follow_visitor *v, void *ctx);

#endif
