/*
 * evtool: events as text, the way `ghc-events show` prints them, or as
 * NDJSON (one JSON object per event) for jq and scripts.
 *
 * The text is that of the ghc-events library's ppEventLog (doc/format.md section 7
 * beside the project): the event type list, then one line per event,
 * "TIME: [cap N: ]TEXT". The caller supplies the order (ghc-events sorts
 * by time, stably; see ev_sorter_visit).
 *
 *     ev_show *s;
 *     ev_text out = EV_TEXT_INIT;
 *     ev_show_new(&s, header, EV_SHOW_TEXT, 0, NULL);
 *     ev_show_header(s, &out);
 *     for each event: ev_show_event(s, &ev, &out); write and clear out
 *     ev_show_footer(s, &out);
 *     ev_show_free(s); ev_text_free(&out);
 *
 * The same for every session of a log, as an event consumer (consumer.h)
 * that any source drives, the text written out through a function:
 *
 *     ev_show_writer *w;
 *     ev_show_writer_new(&w, EV_SHOW_TEXT, 0, write_out, ctx, NULL);
 *     ev_sorter_visit(sorter, in, ev_show_writer_consumer(), w);
 *     ev_show_writer_free(w);
 */
#ifndef EVTOOL_SHOW_H
#define EVTOOL_SHOW_H

#include "consumer.h"
#include "header.h"
#include "reader.h"
#include "text.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What to render. */
typedef enum ev_show_format {
	EV_SHOW_TEXT = 0, /**< ghc-events show's text */
	EV_SHOW_NDJSON    /**< {"time":..,"cap":..,"type":..,"id":..,"fields":{..}} */
} ev_show_format;

/** Flags for ev_show_new. */
enum ev_show_flag {
	/** Times as "  1s 234ms  56.789us" (ghc-events show --pretty-time);
	 *  text only. */
	EV_SHOW_PRETTY_TIME = 1u << 0
};

/** A renderer of one session's events as text or NDJSON (opaque). */
typedef struct ev_show ev_show;

/** A renderer for the events of one session, whose header `h` must
 *  outlive it. EV_ENOMEM or EV_EINVAL (bad format). */
EV_API int ev_show_new(ev_show **out, const ev_header *h, ev_show_format format,
		       unsigned flags, ev_diag *diag);

/** Frees a renderer; NULL is fine. */
EV_API void ev_show_free(ev_show *s);

/** Appends what comes before the events: for text, "Event Types:", one
 *  line per declared type, a blank line and "Events:"; nothing for NDJSON.
 *  EV_OK or EV_ENOMEM. */
EV_API int ev_show_header(const ev_show *s, ev_text *out);

/** Appends one event (block markers included) and its newline. EV_OK or
 *  EV_ENOMEM. */
EV_API int ev_show_event(const ev_show *s, const ev_event *ev, ev_text *out);

/** Appends what comes after the events: for text, the newline with which
 *  ghc-events' putStrLn ends the output; nothing for NDJSON. */
EV_API int ev_show_footer(const ev_show *s, ev_text *out);

/** Writes `len` bytes of text at `text` out: EV_OK, or a negative status,
 *  which stops the source. */
typedef int (*ev_show_write_fn)(void *ctx, const char *text, size_t len);

/** The text of every session of a log (each one's header, events and
 *  footer, as ev_show renders them) as an event consumer (opaque). */
typedef struct ev_show_writer ev_show_writer;

/** A writer of `format` (with ev_show_new's `flags`) that hands its text
 *  to `write` on `ctx` in chunks of about 256 KiB. EV_ENOMEM, or
 *  EV_EINVAL (a bad format, no `write`). */
EV_API int ev_show_writer_new(ev_show_writer **out, ev_show_format format,
			      unsigned flags, ev_show_write_fn write,
			      void *ctx, ev_diag *diag);

/** Frees a writer; NULL is fine. */
EV_API void ev_show_writer_free(ev_show_writer *w);

/** Writes out the text rendered so far (for a log followed as it is
 *  written, before each wait). EV_OK, EV_ENOMEM, or what `write`
 *  returned. */
EV_API int ev_show_writer_flush(ev_show_writer *w);

/** Ends the text (the last session's footer) and writes it out, as the
 *  consumer's finish does for a log read to its end or cut; after a
 *  failure the caller decides. Returns as ev_show_writer_flush. */
EV_API int ev_show_writer_finish(ev_show_writer *w);

/** The writer as an event consumer (consumer.h), block markers included,
 *  in the order its source gives (ghc-events' is the sorter's). A
 *  failure of `write` stops the source with its status. */
EV_API const ev_consumer *ev_show_writer_consumer(void);

#ifdef __cplusplus
}
#endif

#endif
