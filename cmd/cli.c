/*
 * Argument parsing, messages, exit codes and safe output files.
 */
#include "cli.h"
#include "progress.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const cli_command *cli_find_command(const char *name)
{
	for (const cli_command *c = cli_commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

int cli_option_index(const cli_command *cmd, const char *name)
{
	for (int i = 0; cmd->options[i].name; i++)
		if (strcmp(cmd->options[i].name, name) == 0)
			return i;
	return -1;
}

const char *cli_value(const cli_command *cmd, const cli_args *args,
		      const char *name)
{
	int i = cli_option_index(cmd, name);
	return i < 0 ? NULL : args->value[i];
}

const char *cli_value_at(const cli_command *cmd, const cli_args *args,
			 const char *name, int n)
{
	int option = cli_option_index(cmd, name);

	for (int i = 0; i < args->n_given; i++)
		if (args->given[i].option == option && n-- == 0)
			return args->given[i].value;
	return NULL;
}

int cli_flag(const cli_command *cmd, const cli_args *args, const char *name)
{
	int i = cli_option_index(cmd, name);
	return i >= 0 && args->count[i] > 0;
}

int cli_choice(const cli_command *cmd, const cli_args *args,
	       const char *name, int *out)
{
	int i = cli_option_index(cmd, name), n = 0;
	const char *text, *w;
	char listed[256];
	size_t len, used = 0;

	if (i < 0 || !(text = args->value[i]))
		return EXIT_OK;
	len = strlen(text);
	for (w = cmd->options[i].value_name; *w; n++) {
		size_t wlen = strcspn(w, "|");
		if (wlen == len && strncmp(w, text, len) == 0) {
			*out = n;
			return EXIT_OK;
		}
		w += wlen + (w[wlen] == '|');
	}
	/* "a or b", "a, b or c": the words as the help texts write them. */
	listed[0] = '\0';
	for (w = cmd->options[i].value_name; *w && used < sizeof listed;) {
		size_t wlen = strcspn(w, "|");
		const char *sep = w[wlen] != '|' ? "" : strchr(w + wlen + 1, '|')
				  ? ", " : " or ";
		used += (size_t)snprintf(listed + used, sizeof listed - used,
					 "%.*s%s", (int)wlen, w, sep);
		w += wlen + (w[wlen] == '|');
	}
	return cli_usage_error(cmd, "--%s: '%s' is not %s", name, text,
			       listed);
}

/* "evtool: [FILE: ][offset N: ]SEVERITY" and the message, on its own line:
 * no file when `file` is NULL, no offset when `offset` is negative. */
static void vreport(const char *file, int64_t offset, const char *severity,
		    const char *fmt, va_list ap)
{
	progress_clear(); /* the message gets its own line */
	fputs("evtool: ", stderr);
	if (file)
		fprintf(stderr, "%s: ", file);
	if (offset >= 0)
		fprintf(stderr, "offset %lld: ", (long long)offset);
	fputs(severity, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int cli_error(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(NULL, -1, "", fmt, ap);
	va_end(ap);
	return code;
}

void cli_warn_at(const char *file, int64_t offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(file, offset, "warning: ", fmt, ap);
	va_end(ap);
}

void cli_truncation_hint(void)
{
	fputs("hint: 'evtool truncate' repairs a log whose program was "
	      "killed; 'evtool cat --reblock' keeps its complete events\n",
	      stderr);
}

int cli_usage_error(const cli_command *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(NULL, -1, "", fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, "Run 'evtool %s --help' for usage.\n",
			cmd->name);
	else
		fputs("Run 'evtool --help' for usage.\n", stderr);
	return EXIT_USAGE;
}

/* ---- parsing ---- */

static const cli_option *find_long(const cli_command *cmd, const char *name,
				   size_t len, int *index)
{
	for (int i = 0; cmd->options[i].name; i++)
		if (strlen(cmd->options[i].name) == len &&
		    strncmp(cmd->options[i].name, name, len) == 0) {
			*index = i;
			return &cmd->options[i];
		}
	return NULL;
}

static const cli_option *find_short(const cli_command *cmd, char c,
				    int *index)
{
	for (int i = 0; cmd->options[i].name; i++)
		if (cmd->options[i].short_name == c) {
			*index = i;
			return &cmd->options[i];
		}
	return NULL;
}

/* Stores one option occurrence; `inline_value` is the text after "=" or
 * after a short option letter, NULL when the value is the next word. */
static int take_option(const cli_command *cmd, const cli_option *opt,
		       int index, const char *inline_value, int argc,
		       char **argv, int *i, cli_args *out)
{
	out->count[index]++;
	if (!opt->value_name) {
		if (inline_value)
			return cli_usage_error(cmd, "option --%s takes no value",
					       opt->name);
		return EXIT_OK;
	}
	if (!inline_value && *i + 1 >= argc)
		return cli_usage_error(cmd, "option --%s needs a value (%s)",
				       opt->name, opt->value_name);
	out->value[index] = inline_value ? inline_value : argv[++*i];
	out->given[out->n_given].option = index;
	out->given[out->n_given++].value = out->value[index];
	return EXIT_OK;
}

static int parse_long(const cli_command *cmd, int argc, char **argv, int *i,
		      cli_args *out, int *help)
{
	const char *name = argv[*i] + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	int index;
	const cli_option *opt = find_long(cmd, name, len, &index);

	if (!opt && len == 4 && strncmp(name, "help", 4) == 0) {
		*help = 1;
		return EXIT_OK;
	}
	if (!opt)
		return cli_usage_error(cmd, "unknown option '--%.*s'", (int)len,
				       name);
	return take_option(cmd, opt, index, eq ? eq + 1 : NULL, argc, argv, i,
			   out);
}

static int parse_short(const cli_command *cmd, int argc, char **argv, int *i,
		       cli_args *out, int *help)
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		int index;
		const cli_option *opt = find_short(cmd, *p, &index);
		if (!opt && *p == 'h') {
			*help = 1;
			continue;
		}
		if (!opt)
			return cli_usage_error(cmd, "unknown option '-%c'", *p);
		if (opt->value_name)
			return take_option(cmd, opt, index, p[1] ? p + 1 : NULL,
					   argc, argv, i, out);
		out->count[index]++;
	}
	return EXIT_OK;
}

/* Every command reads logs: with no operand it reads standard input, as
 * grep and gzip do, unless that is a terminal (nobody types a binary
 * log), when the operand is missing. */
static void default_to_stdin(cli_args *out)
{
	if (out->n_positional == 0 && !isatty(STDIN_FILENO))
		out->positional[out->n_positional++] = "-";
}

static int check_operands(const cli_command *cmd, cli_args *out)
{
	default_to_stdin(out);
	if (out->n_positional < cmd->min_operands)
		return cli_usage_error(cmd, "%s: missing operand, and standard "
				       "input is a terminal (%s)", cmd->name,
				       cmd->synopsis);
	if (cmd->max_operands >= 0 && out->n_positional > cmd->max_operands)
		return cli_usage_error(cmd, "%s: too many operands (%s)",
				       cmd->name, cmd->synopsis);
	return EXIT_OK;
}

/* The command cli_parse last read the arguments of: the one running.
 * cli_open_output's refusal to overwrite an input points at its
 * --in-place, when it has one. */
static const cli_command *running;

int cli_parse(const cli_command *cmd, int argc, char **argv, cli_args *out,
	      int *help)
{
	int only_operands = 0, rc = EXIT_OK;

	running = cmd;
	memset(out, 0, sizeof *out);
	*help = 0;
	out->positional = calloc((size_t)argc + 1, sizeof *out->positional);
	out->given = calloc((size_t)argc + 1, sizeof *out->given);
	if (!out->positional || !out->given)
		return cli_error(EXIT_SYSTEM, "out of memory");
	for (int i = 0; i < argc && rc == EXIT_OK; i++) {
		const char *a = argv[i];
		if (only_operands || a[0] != '-' || a[1] == '\0')
			out->positional[out->n_positional++] = a;
		else if (strcmp(a, "--") == 0)
			only_operands = 1;
		else if (a[1] == '-')
			rc = parse_long(cmd, argc, argv, &i, out, help);
		else
			rc = parse_short(cmd, argc, argv, &i, out, help);
	}
	if (rc == EXIT_OK && !*help)
		rc = check_operands(cmd, out);
	return rc;
}

void cli_free_args(cli_args *args)
{
	free(args->positional);
	free(args->given);
	args->positional = NULL;
	args->given = NULL;
}

void cli_print_command_help(const cli_command *cmd, FILE *to)
{
	fprintf(to, "usage: evtool %s %s\n\n%s\n", cmd->name, cmd->synopsis,
		cmd->summary);
	if (cmd->details)
		fprintf(to, "\n%s\n", cmd->details);
	fputs("\noptions:\n", to);
	for (const cli_option *o = cmd->options; o->name; o++) {
		char left[64];
		snprintf(left, sizeof left, "%s%c%s--%s%s%s",
			 o->short_name ? "-" : "   ",
			 o->short_name ? o->short_name : ' ',
			 o->short_name ? ", " : "", o->name,
			 o->value_name ? " " : "",
			 o->value_name ? o->value_name : "");
		/* A long left column (an option with its words) gets a line
		 * of its own, so the help texts stay in one column. */
		if (strlen(left) > 26)
			fprintf(to, "  %s\n  %-26s %s\n", left, "", o->help);
		else
			fprintf(to, "  %-26s %s\n", left, o->help);
	}
	fprintf(to, "  %-26s %s\n", "-h, --help", "show this help");
	fputs("\nexit codes: 0 ok, 1 invalid input, 2 usage, 3 data dropped "
	      "or repaired, 4 I/O or system error;\n"
	      "killed by SIGPIPE (141 in the shell) when the reader of "
	      "standard output goes away\n", to);
}

/* ---- statuses ---- */

int cli_exit_for_status(int status)
{
	switch (status) {
	case EV_OK:
	case EV_END:
		return EXIT_OK;
	case EV_ETRUNCATED:
		return EXIT_DROPPED;
	case EV_EFORMAT:
	case EV_ELIMIT:
		return EXIT_INVALID;
	case EV_EINVAL:
		return EXIT_USAGE;
	default:
		return EXIT_SYSTEM;
	}
}

int cli_reader_error(const ev_reader *r)
{
	const ev_diag *d = ev_reader_diag(r);
	int code = d->status == EV_ETRUNCATED ? EXIT_INVALID
					      : cli_exit_for_status(d->status);

	cli_error(code, "%s: offset %llu: %s", ev_reader_name(r),
		  (unsigned long long)d->offset, d->message);
	if (d->status == EV_ETRUNCATED)
		cli_truncation_hint();
	return code;
}

const char *cli_input_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

const char *cli_output_name(const char *path)
{
	return !path || strcmp(path, "-") == 0 ? "<stdout>" : path;
}

int cli_open_input(const char *path, unsigned flags, ev_reader **out)
{
	int rc = ev_reader_open_path(out, path, flags);

	if (rc == EV_EIO)
		return cli_error(EXIT_SYSTEM, "%s: cannot open: %s",
				 cli_input_name(path), strerror(errno));
	if (rc < 0)
		return cli_error(cli_exit_for_status(rc), "%s: %s",
				 cli_input_name(path), ev_strerror(rc));
	return EXIT_OK;
}

/* ---- output files and signals ---- */

/* Copies of the temporary outputs' paths, for the signal handler: it may
 * only call async-signal-safe functions, so it reads these fixed buffers. */
#define MAX_TEMP_FILES 8
#define MAX_TEMP_PATH 4096
static char temp_files[MAX_TEMP_FILES][MAX_TEMP_PATH];
static volatile sig_atomic_t temp_used[MAX_TEMP_FILES];

static void track_temp(const char *path)
{
	if (!path || strlen(path) >= MAX_TEMP_PATH)
		return;
	for (int i = 0; i < MAX_TEMP_FILES; i++)
		if (!temp_used[i]) {
			strcpy(temp_files[i], path);
			temp_used[i] = 1;
			return;
		}
}

static void untrack_temp(const char *path)
{
	for (int i = 0; path && i < MAX_TEMP_FILES; i++)
		if (temp_used[i] && strcmp(temp_files[i], path) == 0)
			temp_used[i] = 0;
}

/* Removes the temporary outputs and dies of `sig`, as without a handler
 * (the shell sees 128 + sig). Async-signal-safe. */
static void on_fatal_signal(int sig)
{
	sigset_t set;

	for (int i = 0; i < MAX_TEMP_FILES; i++)
		if (temp_used[i])
			unlink(temp_files[i]);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

/* SIGPIPE is one of them: a reader that goes away (evtool show | head)
 * ends evtool as it ends cat, grep and gzip, silently, with the status of
 * that signal, which `set -o pipefail` scripts expect. */
void cli_install_signal_handlers(void)
{
	static const int fatal[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT,
				     SIGPIPE };

	for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
		signal(fatal[i], on_fatal_signal);
}

void cli_broken_pipe(void)
{
	on_fatal_signal(SIGPIPE);
}

static int same_file(const char *a, const struct stat *b)
{
	struct stat st;

	return strcmp(a, "-") != 0 && stat(a, &st) == 0 &&
	       st.st_dev == b->st_dev && st.st_ino == b->st_ino;
}

static int refuse_input_output(const char *path)
{
	cli_error(EXIT_USAGE, "%s: refusing to overwrite an input file", path);
	if (running && cli_option_index(running, "in-place") >= 0)
		fputs("hint: to replace the input with the result, use "
		      "--in-place instead of -o\n", stderr);
	return EXIT_USAGE;
}

int cli_open_output(const char *path, const char *const *inputs,
		    int n_inputs, int in_place, ev_sink **out)
{
	struct stat target;
	int rc;

	*out = NULL;
	if (!path || strcmp(path, "-") == 0) {
		if ((rc = cli_refuse_terminal()) != EXIT_OK)
			return rc;
		rc = ev_sink_open_fd(out, STDOUT_FILENO, "<stdout>");
		return rc < 0 ? cli_error(EXIT_SYSTEM, "out of memory") : EXIT_OK;
	}
	if (!in_place && stat(path, &target) == 0)
		for (int i = 0; i < n_inputs; i++)
			if (same_file(inputs[i], &target))
				return refuse_input_output(path);
	rc = ev_sink_open_path(out, path);
	if (rc < 0)
		return cli_error(EXIT_SYSTEM, "%s: cannot create: %s", path,
				 strerror(errno));
	track_temp(ev_sink_temp_path(*out));
	return EXIT_OK;
}

int cli_refuse_terminal(void)
{
	if (!isatty(STDOUT_FILENO))
		return EXIT_OK;
	return cli_error(EXIT_USAGE, "refusing to write binary data to a "
			 "terminal; use -o FILE or redirect");
}

static int ends_in_gz(const char *path)
{
	size_t n = path ? strlen(path) : 0;

	return n > 3 && strcmp(path + n - 3, ".gz") == 0;
}

int cli_open_log_output(const cli_command *cmd, const cli_args *args,
			const char *path, const char *const *inputs,
			int n_inputs, int in_place, ev_sink **out)
{
	ev_sink *target;
	int rc = cli_open_output(path, inputs, n_inputs, in_place, &target);

	*out = target;
	if (rc != EXIT_OK || !(cli_flag(cmd, args, "gzip") || ends_in_gz(path)))
		return rc;
	untrack_temp(ev_sink_temp_path(target));
	/* The archive sink owns the target now, even when it fails. */
	if (ev_sink_open_archive(out, target, NULL, NULL) < 0) {
		*out = NULL;
		return cli_error(EXIT_SYSTEM, "%s: cannot start compressing: %s",
				 cli_output_name(path), strerror(errno));
	}
	track_temp(ev_sink_temp_path(*out));
	return EXIT_OK;
}

int cli_commit_output(ev_sink *sink, const char *path)
{
	int rc;

	untrack_temp(ev_sink_temp_path(sink));
	rc = ev_sink_commit(sink);
	if (rc < 0) {
		track_temp(ev_sink_temp_path(sink));
		return cli_error(EXIT_SYSTEM, "%s: %s", cli_output_name(path),
				 ev_sink_diag(sink)->message);
	}
	return EXIT_OK;
}

void cli_close_output(ev_sink *sink)
{
	if (!sink)
		return;
	untrack_temp(ev_sink_temp_path(sink));
	ev_sink_free(sink);
}

int cli_parse_block_size(const char *text, uint32_t *out)
{
	char *end;
	unsigned long long v;

	if (!text)
		return EXIT_OK;
	v = strtoull(text, &end, 10);
	if (*end || v < 64 || v > EV_MAX_BLOCK_SIZE)
		return cli_error(EXIT_USAGE, "--block-size: '%s' is not a "
				 "number of bytes from 64 to %u", text,
				 EV_MAX_BLOCK_SIZE);
	*out = (uint32_t)v;
	return EXIT_OK;
}
