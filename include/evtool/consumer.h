/*
 * evtool: the event consumer protocol.
 *
 * One way to hand a log's events to whatever computes something from
 * them: a consumer is a table of callbacks (session begins, event,
 * session ends, finish) and the object they are called on. Every
 * computation of the library over a log's events implements it
 * (ev_stats_consumer, ev_report_consumer, ev_info_consumer,
 * ev_validator_consumer, ev_exporter_consumer, ev_show_writer_consumer),
 * and every source drives it: a reader in file order (ev_reader_feed),
 * the sorter in time order (ev_sorter_visit), the merged inputs in time
 * order (ev_merge_visit), a live log as it is written (ev_follow_feed).
 *
 *     ev_stats *st;
 *     ev_stats_new(&st, NULL);
 *     rc = ev_reader_feed(reader, ev_stats_consumer(), st);
 *     (the figures are final: the consumer's finish completed them)
 *
 * A source calls begin once per session before its events, event once
 * per event in the source's order, then end (when not NULL) after the
 * session's last event, and finish (when not NULL) once, last, whatever
 * stopped it. The first negative status a callback returns stops the
 * source, which hands it to finish and returns what finish returns.
 */
#ifndef EVTOOL_CONSUMER_H
#define EVTOOL_CONSUMER_H

#include "common.h"
#include "header.h"
#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Flags of an ev_consumer. */
enum ev_consumer_flag {
	/** Hand over the BLOCK_MARKER events too: in file order where they
	 *  stand, in time order each by its own timestamp (the block's start)
	 *  at its file position among ties (the list `ghc-events show`
	 *  prints). Without it a source leaves them out. */
	EV_CONSUME_MARKERS = 1u << 0
};

/** A session as a source hands it over, to begin and then to end;
 *  valid during the call only. */
typedef struct ev_session {
	unsigned index;          /**< counts from 0 */
	/** Its header, valid until the session's last event has been
	 *  handed over. */
	const ev_header *header;
	/** The byte offset of its header in the stream the source reads:
	 *  the log as decompressed for a file, a pipe or a followed log,
	 *  the input's for the sorter, the merged log for ev_merge_visit. */
	uint64_t offset;
	/** For end: the offset just past its data end (0 for begin). */
	uint64_t end;
} ev_session;

/** What a source calls with a log's events, on the consumer's object. */
typedef struct ev_consumer {
	/** A session starts. Negative stops the source. */
	int (*begin)(void *self, const ev_session *s);
	/** The next event. `ev` and its payload are valid during the call
	 *  only. Negative stops the source. */
	int (*event)(void *self, const ev_event *ev);
	/** The session reached its data end and its last event has been
	 *  handed over (NULL: nothing to do); not called for a session the
	 *  source stopped in. Negative stops the source. */
	int (*end)(void *self, const ev_session *s);
	/** The source has stopped, for good: called once, last, with the
	 *  status it stopped with (0 or more: every session was handed over;
	 *  EV_ETRUNCATED: the log was cut, every complete event was handed
	 *  over; else the first failure, the source's or a callback's).
	 *  Returns what the source returns: `status` to pass it on, or a
	 *  failure of its own (NULL: the source returns `status`). */
	int (*finish)(void *self, int status);
	unsigned flags; /**< EV_CONSUME_* */
} ev_consumer;

/**
 * Whether a finish called with `status` completes what its consumer
 * computed: every session was handed over (0 or more) or every complete
 * event of a cut log (EV_ETRUNCATED): the figures of the events given.
 * Not after a failure, the source's or a callback's.
 */
static inline int ev_consumer_complete(int status)
{
	return status >= 0 || status == EV_ETRUNCATED;
}

/**
 * Drives `c` on `self` with every event of every session of `r`, in file
 * order, from where `r` stands (its header read here if it has not been).
 * EV_END at the end of the stream; else the reader's status (EV_ETRUNCATED
 * when the log ends early: every complete event was handed over; an
 * error, see ev_reader_diag) or the first negative status a callback
 * returned; in every case as `c`'s finish passes it on.
 */
EV_API int ev_reader_feed(ev_reader *r, const ev_consumer *c, void *self);

#ifdef __cplusplus
}
#endif

#endif
