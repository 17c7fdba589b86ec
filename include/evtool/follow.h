/*
 * evtool: a log followed while it is written, as a source of the event
 * consumer protocol (consumer.h).
 *
 * The source is a regular file that grows, standard input or a FIFO
 * (`+RTS -l -ol/path/to/fifo`), or a Unix socket that a program
 * instrumented with eventlog-socket streams to ("unix:/path/to.sock").
 * Events are handed over in file order, as they arrive, until the data
 * end, the writer going away or the caller's stop flag.
 *
 *     ev_follower *f;
 *     ev_follow_options o = EV_FOLLOW_OPTIONS_INIT;
 *     o.stop = &interrupted;             // set by a SIGINT handler
 *     ev_follower_new(&f, &o, NULL);
 *     rc = ev_follow_feed(f, "run.fifo", ev_stats_consumer(), st);
 *     // EV_END: the log's end; EV_ETRUNCATED: stopped or cut
 *     ev_follower_free(f);
 */
#ifndef EVTOOL_FOLLOW_H
#define EVTOOL_FOLLOW_H

#include <signal.h>

#include "common.h"
#include "consumer.h"
#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The prefix of a Unix socket source. */
#define EV_FOLLOW_UNIX_PREFIX "unix:"

/** How a log is followed. */
typedef struct ev_follow_options {
	/** How often a regular file is looked at for more data, and a
	 *  socket that is not there yet for its program, in milliseconds
	 *  (0: 100). */
	unsigned poll_ms;
	/** When not NULL: following stops, as at a cut (EV_ETRUNCATED),
	 *  once it is set (by a signal handler); waits look at it at least
	 *  every poll_ms. */
	const volatile sig_atomic_t *stop;
	/** When not NULL: called on the consumer's object before each wait
	 *  for more input (to flush what is shown). Negative stops. */
	int (*idle)(void *self);
} ev_follow_options;

/** The defaults: a poll every 100 ms, no stop flag, no idle call. */
#define EV_FOLLOW_OPTIONS_INIT { 100, NULL, NULL }

/** A follower. */
typedef struct ev_follower ev_follower;

/** A new follower with options `opts` (NULL: the defaults). EV_OK or
 *  EV_ENOMEM, described in `diag` (may be NULL). */
EV_API int ev_follower_new(ev_follower **out, const ev_follow_options *opts,
			   ev_diag *diag);

/** Frees a follower, closing the source it opened; NULL is fine. */
EV_API void ev_follower_free(ev_follower *f);

/**
 * Opens `source` ("-" for standard input, a path, or "unix:PATH") and
 * drives `c` on `self` with its first session in file order as it is
 * written: begin once its header has arrived, each event as it arrives,
 * end at the data end, then finish. A FIFO's open waits for its writer,
 * a socket's for its program to listen. EV_END at the data end;
 * EV_ETRUNCATED when following stopped first (the stop flag, or a stream
 * whose writer went away: every complete event was handed over); else a
 * failure (see ev_follower_diag) or a callback's; in every case as `c`'s
 * finish passes it on. Call it once per follower.
 */
EV_API int ev_follow_feed(ev_follower *f, const char *source,
			  const ev_consumer *c, void *self);

/** Whether the stop flag was seen set: following ended because it was
 *  asked to. */
EV_API int ev_follower_stopped(const ev_follower *f);

/** The reader of the source once it is open (its offset, its failure),
 *  else NULL. Owned by `f`. */
EV_API const ev_reader *ev_follower_reader(const ev_follower *f);

/** The last failure to open the source or read it: the reader's, or
 *  EV_EIO with the system's message ("cannot open: ...", "cannot
 *  connect: ..."), or EV_EINVAL for a socket path too long. */
EV_API const ev_diag *ev_follower_diag(const ev_follower *f);

#ifdef __cplusplus
}
#endif

#endif
