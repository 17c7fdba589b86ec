/*
 * The text of a log's events as an event consumer (show.h,
 * ev_show_writer_consumer): each session's renderer (show.c) from its
 * begin to its end, the text written out through the caller's function in
 * chunks, whatever source drives it (the sorter for `evtool show`, the
 * follower for `show --follow`).
 *
 * Layering: the top of show: it calls show.c's renderer; nothing in lib/
 * calls it.
 */
#include "evtool/show.h"

#include <stdlib.h>

#include "internal.h"

/* Rendered text is written out in chunks of about this size. */
#define FLUSH_AT (256u * 1024u)

struct ev_show_writer {
	ev_show_format format;
	unsigned flags;
	ev_show_write_fn write;
	void *ctx;
	ev_show *show; /* the current session's renderer */
	ev_text text;  /* rendered, not yet written */
};

int ev_show_writer_new(ev_show_writer **out, ev_show_format format,
		       unsigned flags, ev_show_write_fn write, void *ctx,
		       ev_diag *diag)
{
	ev_show_writer *w;

	*out = NULL;
	if (!write || (format != EV_SHOW_TEXT && format != EV_SHOW_NDJSON))
		return evi_new_failed(diag, NULL, EV_EINVAL);
	if (!(w = calloc(1, sizeof *w)))
		return evi_new_failed(diag, NULL, EV_ENOMEM);
	w->format = format;
	w->flags = flags;
	w->write = write;
	w->ctx = ctx;
	*out = w;
	return EV_OK;
}

void ev_show_writer_free(ev_show_writer *w)
{
	if (!w)
		return;
	ev_show_free(w->show);
	ev_text_free(&w->text);
	free(w);
}

int ev_show_writer_flush(ev_show_writer *w)
{
	int rc;

	if (w->text.failed)
		return EV_ENOMEM;
	if (w->text.len && (rc = w->write(w->ctx, w->text.data,
					  w->text.len)) < 0)
		return rc;
	w->text.len = 0;
	return EV_OK;
}

/* The current session's text ends, if one began. */
static void end_session(ev_show_writer *w)
{
	if (w->show)
		ev_show_footer(w->show, &w->text);
	ev_show_free(w->show);
	w->show = NULL;
}

int ev_show_writer_finish(ev_show_writer *w)
{
	end_session(w);
	return ev_show_writer_flush(w);
}

static int on_begin(void *self, const ev_session *s)
{
	ev_show_writer *w = self;
	int rc;

	end_session(w);
	if ((rc = ev_show_new(&w->show, s->header, w->format, w->flags,
			      NULL)) < 0)
		return rc;
	return ev_show_header(w->show, &w->text);
}

static int on_event(void *self, const ev_event *ev)
{
	ev_show_writer *w = self;
	int rc = ev_show_event(w->show, ev, &w->text);

	if (rc == EV_OK && w->text.len >= FLUSH_AT)
		rc = ev_show_writer_flush(w);
	return rc;
}

/* The text of the events given, cut log or not. */
static int on_finish(void *self, int status)
{
	int rc;

	if (!ev_consumer_complete(status))
		return status;
	return (rc = ev_show_writer_finish(self)) < 0 ? rc : status;
}

const ev_consumer *ev_show_writer_consumer(void)
{
	static const ev_consumer consumer = { on_begin, on_event, NULL,
					      on_finish, EV_CONSUME_MARKERS };

	return &consumer;
}
