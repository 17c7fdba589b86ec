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

/* Standard output, the writer's (show.h): every chunk flushed. */
static int write_stdout(void *ctx, const char *text, size_t len)
{
	(void)ctx;
	if (fwrite(text, 1, len, stdout) != len)
		return EV_EIO;
	return fflush(stdout) == 0 ? EV_OK : EV_EIO;
}

/* Every event of every session in time order (ghc-events' stable sort). */
static int show_sorted(const char *in, const char *tmpdir, ev_show_writer *w)
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
	status = ev_sorter_visit(s, input, ev_show_writer_consumer(), w);
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
	return ev_show_writer_flush(ctx) < 0 ? EV_EIO : EV_OK;
}

/* After the consumer's finish: a log that failed ends its text too. */
static int follow_finish(void *ctx, int status)
{
	if (status == EV_EIO && ferror(stdout))
		return cli_stdout_failure();
	return ev_show_writer_finish(ctx) < 0 ? cli_stdout_failure() : EXIT_OK;
}

static int show_following(const char *in, ev_show_writer *w)
{
	follow_visitor visitor = { ev_show_writer_consumer(), follow_idle,
				   follow_finish };

	return follow_run(in, &visitor, w);
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
	ev_show_format format;
	const char *in = args->positional[0];
	unsigned flags = 0;
	ev_show_writer *w;
	int rc;

	if ((rc = parse_format(args, &format)) != EXIT_OK)
		return rc;
	if (cli_flag(args, SHOW_OPT_PRETTY_TIME)) {
		if (format != EV_SHOW_TEXT)
			return cli_usage_error(cmd, "--pretty-time is for the "
					       "text format");
		flags |= EV_SHOW_PRETTY_TIME;
	}
	if (ev_show_writer_new(&w, format, flags, write_stdout, NULL,
			       NULL) < 0)
		return cli_error(EXIT_SYSTEM, "out of memory");
	if (cli_flag(args, SHOW_OPT_FOLLOW))
		rc = show_following(in, w);
	else
		rc = show_sorted(in, cli_value(args, SHOW_OPT_TMPDIR), w);
	ev_show_writer_free(w);
	return rc;
}
