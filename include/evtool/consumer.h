/*
 * evtool: the event consumer protocol.
 *
 * One way to hand a log's events to whatever computes something from
 * them: a consumer is a table of callbacks (session begins, event,
 * session ends) and the object they are called on. Every accumulator of
 * the library implements it (ev_stats_consumer, ev_report_consumer,
 * ev_exporter_consumer), and every source drives it: a reader in file
 * order (ev_reader_feed, which a followed live log is too), the sorter in
 * time order (ev_sorter_visit).
 *
 *     ev_stats *st;
 *     ev_stats_new(&st);
 *     rc = ev_reader_feed(reader, ev_stats_consumer(), st);
 *     ev_stats_finish(st);
 *
 * A source calls begin once per session before its events, event once
 * per event in the source's order, then end (when not NULL) after the
 * session's last event. The first negative status a callback returns
 * stops the source, which returns it.
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

/** What a source calls with a log's events, on the consumer's object. */
typedef struct ev_consumer {
	/** A session starts (`session` counts from 0); its header `h` is
	 *  valid until the session's last event has been handed over.
	 *  Negative stops the source. */
	int (*begin)(void *self, unsigned session, const ev_header *h);
	/** The next event. `ev` and its payload are valid during the call
	 *  only. Negative stops the source. */
	int (*event)(void *self, const ev_event *ev);
	/** The session's last event has been handed over (NULL: nothing to
	 *  do). Negative stops the source. */
	int (*end)(void *self, unsigned session);
	unsigned flags; /**< EV_CONSUME_* */
} ev_consumer;

/**
 * Drives `c` on `self` with every event of every session of `r`, in file
 * order, from where `r` stands (its header read here if it has not been).
 * EV_END at the end of the stream; else the reader's status (EV_ETRUNCATED
 * when the log ends early: every complete event was handed over; an
 * error, see ev_reader_diag) or the first negative status a callback
 * returned.
 */
EV_API int ev_reader_feed(ev_reader *r, const ev_consumer *c, void *self);

#ifdef __cplusplus
}
#endif

#endif
