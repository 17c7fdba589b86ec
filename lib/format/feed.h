/*
 * The loop of ev_reader_feed (consumer.h: a reader drives a consumer in
 * file order), inline for the library's own consumers: where the
 * consumer is a constant the compiler sees, its callbacks are called
 * directly and inlined into the loop, so that a pass over every event
 * (the filter's) pays no call per event for going through the protocol.
 * ev_reader_feed is this loop for everyone else. Not installed.
 */
#ifndef EVTOOL_LIB_FEED_H
#define EVTOOL_LIB_FEED_H

#include "evtool/consumer.h"
#include "evtool/reader.h"

/* The rest of the session `r` is in, its begin called with `s`: its
 * events, its end, then the reader moved on to the next session. EV_OK
 * when there is one, else EV_END at the end of the stream, the reader's
 * status or the callback's. */
static inline __attribute__((always_inline)) int
evi_feed_rest(ev_reader *r, const ev_consumer *c, void *self, ev_session *s)
{
	int markers = (c->flags & EV_CONSUME_MARKERS) != 0;
	ev_event ev;
	int rc;

	while ((rc = ev_reader_next(r, &ev)) == EV_OK)
		if ((markers || ev.type != EV_BLOCK_MARKER) &&
		    (rc = c->event(self, &ev)) < 0)
			return rc;
	if (rc != EV_END)
		return rc;
	s->end = ev_reader_offset(r);
	if (c->end && (rc = c->end(self, s)) < 0)
		return rc;
	s->offset = ev_reader_offset(r);
	return ev_reader_next_session(r);
}

/* Every session of `r` to `c`, up to what stops it: EV_END at the end of
 * the stream, else the reader's status or the callback's. `r` stands at
 * a session's start (its header read or not), at offset `offset`. */
static inline int evi_feed_sessions_at(ev_reader *r, const ev_consumer *c,
				       void *self, uint64_t offset)
{
	ev_session s = { 0, NULL, offset, 0 };
	int rc;

	for (;;) {
		if ((rc = ev_reader_read_header(r)) < 0)
			return rc;
		s.index = ev_reader_session(r);
		s.header = ev_reader_header(r);
		s.end = 0;
		if ((rc = c->begin(self, &s)) < 0 ||
		    (rc = evi_feed_rest(r, c, self, &s)) != EV_OK)
			return rc;
	}
}

/* The same from the reader's start. */
static inline int evi_feed_sessions(ev_reader *r, const ev_consumer *c,
				    void *self)
{
	return evi_feed_sessions_at(r, c, self, 0);
}

/* ev_reader_feed: the sessions, then the consumer's finish. */
static inline int evi_feed(ev_reader *r, const ev_consumer *c, void *self)
{
	int rc = evi_feed_sessions(r, c, self);

	return c->finish ? c->finish(self, rc) : rc;
}

#endif
