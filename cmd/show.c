/*
 * evtool show: the text `ghc-events show` prints (or NDJSON), in time
 * order through the sorter's streaming interface, in bounded memory; or,
 * with --follow, in file order as a log is being written.
 */
#include <errno.h>
#include <string.h>

#include <evtool/show.h>
#include <evtool/sort.h>

#include "commands.h"
#include "follow.h"

/* The options of evtool show, indexes in show_options. */
enum show_option {
	SHOW_OPT_FORMAT,
	SHOW_OPT_PRETTY_TIME,
	SHOW_OPT_FOLLOW,
	SHOW_OPT_TMPDIR,
	SHOW_N_OPTIONS
};
CLI_CHECK_OPTIONS(SHOW_N_OPTIONS);

const cli_option show_options[SHOW_N_OPTIONS + 1] = {
	/* In the order of ev_show_format: parse_format's index is one. */
	[SHOW_OPT_FORMAT] =
	{ "format", 0, "text|ndjson", "text (default: what ghc-events show "
	  "prints) or ndjson (one JSON object per event)" },
	[SHOW_OPT_PRETTY_TIME] =
	{ "pretty-time", 0, NULL, "times as seconds, ms and us, as "
	  "ghc-events show --pretty-time" },
	[SHOW_OPT_FOLLOW] =
	{ "follow", 'f', NULL, "print the events of a log still being "
	  "written, in file order, until its data end or an interrupt" },
	[SHOW_OPT_TMPDIR] =
	{ "tmpdir", 0, "DIR", "folder for temporary files when sorting "
	  "(default $TMPDIR or /tmp)" },
};

/* Rendered text is written out in chunks of about this size. */
#define FLUSH_AT (256u * 1024u)

typedef struct show_out {
	ev_show_format format;
	unsigned flags;
	ev_show *show;   /* the current session's renderer */
	ev_text text;    /* rendered, not yet written */
} show_out;

static int flush_text(show_out *o)
{
	if (o->text.failed)
		return EV_ENOMEM;
	if (o->text.len && fwrite(o->text.data, 1, o->text.len, stdout) !=
				   o->text.len)
		return EV_EIO;
	o->text.len = 0;
	return fflush(stdout) == 0 ? EV_OK : EV_EIO;
}

/* Ends the current session's text, if one began. */
static void end_session(show_out *o)
{
	if (o->show)
		ev_show_footer(o->show, &o->text);
	ev_show_free(o->show);
	o->show = NULL;
}

static int on_session(void *ctx, const ev_session *s)
{
	show_out *o = ctx;
	int rc;

	end_session(o);
	if ((rc = ev_show_new(&o->show, s->header, o->format, o->flags,
			      NULL)) < 0)
		return rc;
	return ev_show_header(o->show, &o->text);
}

static int on_event(void *ctx, const ev_event *ev)
{
	show_out *o = ctx;
	int rc = ev_show_event(o->show, ev, &o->text);

	if (rc == EV_OK && o->text.len >= FLUSH_AT)
		rc = flush_text(o);
	return rc;
}

/* Writes what is left, the final newline included. */
static int finish_output(show_out *o)
{
	end_session(o);
	return flush_text(o);
}

/* The text of the events given, cut log or not. */
static int on_finish(void *ctx, int status)
{
	int rc;

	if (status < 0 && status != EV_ETRUNCATED)
		return status;
	return (rc = finish_output(ctx)) < 0 ? rc : status;
}

/* The text of every event, markers included (consumer.h): in time order
 * from the sorter, in file order when following. */
static const ev_consumer show_consumer = { on_session, on_event, NULL,
					   on_finish, EV_CONSUME_MARKERS };

static void close_output(show_out *o)
{
	ev_show_free(o->show);
	ev_text_free(&o->text);
}

/* Every event of every session in time order (ghc-events' stable sort). */
static int show_sorted(const char *in, const char *tmpdir, show_out *o)
{
	ev_sort_options opts = EV_SORT_OPTIONS_INIT;
	ev_input *input;
	ev_sorter *s;
	int status, rc = EXIT_OK;

	opts.tmpdir = tmpdir;
	if (ev_sorter_new(&s, &opts, NULL) < 0)
		return cli_error(EXIT_SYSTEM, "out of memory");
	if ((rc = cli_open_log_input(in, &input)) != EXIT_OK) {
		ev_sorter_free(s);
		return rc;
	}
	status = ev_sorter_visit(s, input, &show_consumer, o);
	if (status < 0 && ev_sorter_diag(s)->origin == EV_ORIGIN_OUTPUT)
		rc = ev_sorter_diag(s)->status == EV_ENOMEM
			     ? cli_error(EXIT_SYSTEM, "out of memory")
			     : cli_stdout_failure();
	else if (status < 0)
		rc = cli_sorter_error(s, in, NULL);
	ev_input_free(input);
	ev_sorter_free(s);
	return rc;
}

/* ------------------------------------------------------------------------
 * --follow (follow.h)
 * ---------------------------------------------------------------------- */

static int follow_idle(void *ctx)
{
	return flush_text(ctx) < 0 ? EV_EIO : EV_OK;
}

/* After the consumer's finish: a log that failed ends its text too. */
static int follow_finish(void *ctx, int status)
{
	if (status == EV_EIO && ferror(stdout))
		return cli_stdout_failure();
	return finish_output(ctx) < 0 ? cli_stdout_failure() : EXIT_OK;
}

static int show_following(const char *in, show_out *o)
{
	static const follow_visitor visitor = { &show_consumer, follow_idle,
						follow_finish };

	return follow_run(in, &visitor, o);
}

/* ------------------------------------------------------------------------
 * The command
 * ---------------------------------------------------------------------- */

static int parse_format(const cli_args *args, ev_show_format *out)
{
	int word = EV_SHOW_TEXT;
	int rc = cli_choice(args, SHOW_OPT_FORMAT, &word);

	*out = (ev_show_format)word;
	return rc;
}

int cmd_show(const cli_args *args)
{
	const cli_command *cmd = args->cmd;
	show_out o = { EV_SHOW_TEXT, 0, NULL, EV_TEXT_INIT };
	const char *in = args->positional[0];
	int rc;

	if ((rc = parse_format(args, &o.format)) != EXIT_OK)
		return rc;
	if (cli_flag(args, SHOW_OPT_PRETTY_TIME)) {
		if (o.format != EV_SHOW_TEXT)
			return cli_usage_error(cmd, "--pretty-time is for the "
					       "text format");
		o.flags |= EV_SHOW_PRETTY_TIME;
	}
	if (cli_flag(args, SHOW_OPT_FOLLOW))
		rc = show_following(in, &o);
	else
		rc = show_sorted(in, cli_value(args, SHOW_OPT_TMPDIR), &o);
	close_output(&o);
	return rc;
}
