/*
 * Argument parsing, messages, exit codes and safe output files.
 */
#define _GNU_SOURCE /* sched_getaffinity: the cores nproc counts */
#include "cli.h"
#include "progress.h"

#include <ctype.h>
#include <sched.h>
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

const char *cli_option_name(const cli_args *args, int option)
{
	return args->cmd->options[option].name;
}

const char *cli_value(const cli_args *args, int option)
{
	return args->value[option];
}

const char *cli_value_at(const cli_args *args, int option, int n)
{
	for (int i = 0; i < args->n_given; i++)
		if (args->given[i].option == option && n-- == 0)
			return args->given[i].value;
	return NULL;
}

int cli_flag(const cli_args *args, int option)
{
	return args->count[option] > 0;
}

static void suggest_word(const char *typed, const char *words);

int cli_optional_value(const cli_option *opt)
{
	return opt->value_name && opt->value_name[0] == '[';
}

int cli_choice(const cli_args *args, int option, int *out)
{
	const cli_command *cmd = args->cmd;
	const char *text = args->value[option], *w, *words;
	char listed[256];
	size_t len, used = 0;
	int n = 0;

	if (!text)
		return EXIT_OK;
	len = strlen(text);
	words = cmd->options[option].value_name +
		(cli_optional_value(&cmd->options[option]) ? 2 : 0);
	for (w = words; *w && *w != ']'; n++) {
		size_t wlen = strcspn(w, "|]");
		if (wlen == len && strncmp(w, text, len) == 0) {
			*out = n;
			return EXIT_OK;
		}
		w += wlen + (w[wlen] == '|');
	}
	/* "a or b", "a, b or c": the words as the help texts write them. */
	listed[0] = '\0';
	for (w = words; *w && *w != ']' && used < sizeof listed;) {
		size_t wlen = strcspn(w, "|]");
		const char *sep = w[wlen] != '|' ? "" : strchr(w + wlen + 1, '|')
				  ? ", " : " or ";
		used += (size_t)snprintf(listed + used, sizeof listed - used,
					 "%.*s%s", (int)wlen, w, sep);
		w += wlen + (w[wlen] == '|');
	}
	cli_error(EXIT_USAGE, "--%s: '%s' is not %s",
		  cli_option_name(args, option), text, listed);
	suggest_word(text, words);
	fprintf(stderr, "Run 'evtool %s --help' for usage.\n", cmd->name);
	return EXIT_USAGE;
}

/* The command cli_parse last read the arguments of: the one running,
 * whose name starts every message. */
static const cli_command *running;

void cli_message_start(void)
{
	progress_clear(); /* the message gets its own line */
	if (running)
		fprintf(stderr, "evtool %s: ", running->name);
	else
		fputs("evtool: ", stderr);
}

/* "evtool CMD: [FILE: ][offset N: ]SEVERITY" and the message, on its own
 * line: no file when `file` is NULL, no offset when `offset` is
 * negative. */
static void vreport(const char *file, int64_t offset, const char *severity,
		    const char *fmt, va_list ap)
{
	cli_message_start();
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

/* ---- suggestions ---- */

/* The optimal string alignment distance between a[0..alen) and b: edits,
 * adjacent swaps counted as one ("shwo" is 1 from "show"), as git's
 * suggestions count them. Words longer than 63 bytes are far from all. */
static size_t edit_distance(const char *a, size_t alen, const char *b)
{
	enum { MAX = 64 };
	size_t blen = strlen(b), row[3][MAX];

	if (alen >= MAX || blen >= MAX)
		return SIZE_MAX;
	for (size_t j = 0; j <= blen; j++)
		row[0][j] = j;
	for (size_t i = 1; i <= alen; i++) {
		size_t *cur = row[i % 3], *up = row[(i - 1) % 3],
		       *up2 = row[(i + 1) % 3];
		cur[0] = i;
		for (size_t j = 1; j <= blen; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t d = up[j - 1] + cost;
			if (up[j] + 1 < d)
				d = up[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && up2[j - 2] + 1 < d)
				d = up2[j - 2] + 1;
			cur[j] = d;
		}
	}
	return row[alen % 3][blen];
}

/* The closest of the candidates to what was typed, kept while they are
 * offered one by one: a word within a third of its length in edits (at
 * least 1, at most 3), or one the typed text begins (3 bytes or more). */
typedef struct suggestion {
	const char *typed;
	size_t len;
	const char *best;
	size_t distance;
} suggestion;

static void consider(suggestion *s, const char *candidate)
{
	size_t limit = s->len / 3 < 1 ? 1 : s->len / 3 > 3 ? 3 : s->len / 3;
	size_t d = edit_distance(s->typed, s->len, candidate);

	if (s->len >= 3 && strncmp(candidate, s->typed, s->len) == 0 &&
	    d > limit)
		d = limit; /* a prefix: "--pretty" for "--pretty-time" */
	if (d <= limit && d < s->distance) {
		s->best = candidate;
		s->distance = d;
	}
}

/* "hint: did you mean 'PREFIX' + best?" when there is a close one. */
static void suggest(const suggestion *s, const char *prefix)
{
	if (s->best)
		fprintf(stderr, "hint: did you mean '%s%s'?\n", prefix,
			s->best);
}

/* The hint for a mistyped value of a choice: `words` as "a|b|c". */
static void suggest_word(const char *typed, const char *words)
{
	char copy[256];
	suggestion s = { typed, strlen(typed), NULL, SIZE_MAX };

	snprintf(copy, sizeof copy, "%s", words);
	for (char *w = strtok(copy, "|]"); w; w = strtok(NULL, "|]"))
		consider(&s, w);
	suggest(&s, "");
}

int cli_unknown_command(const char *name)
{
	suggestion s = { name, strlen(name), NULL, SIZE_MAX };

	if (name[0] == '-') { /* evtool's own options, before any command */
		consider(&s, "--help");
		consider(&s, "--version");
		cli_error(EXIT_USAGE, "unknown option '%s'", name);
		suggest(&s, "");
		fputs("Run 'evtool --help' for usage.\n", stderr);
		return EXIT_USAGE;
	}
	for (const cli_command *c = cli_commands; c->name; c++)
		consider(&s, c->name);
	consider(&s, "help");
	cli_error(EXIT_USAGE, "unknown command '%s'", name);
	suggest(&s, "");
	fputs("Run 'evtool --help' for usage.\n", stderr);
	return EXIT_USAGE;
}

static int unknown_option(const cli_command *cmd, const char *name,
			  size_t len)
{
	suggestion s = { name, len, NULL, SIZE_MAX };

	for (const cli_option *o = cmd->options; o->name; o++)
		consider(&s, o->name);
	consider(&s, "help");
	cli_error(EXIT_USAGE, "unknown option '--%.*s'", (int)len, name);
	suggest(&s, "--");
	fprintf(stderr, "Run 'evtool %s --help' for usage.\n", cmd->name);
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

/* Nonzero when the option's value is a comma-separated list: its
 * value_name ends in ",..." (cli.h). */
static int is_list(const cli_option *opt)
{
	size_t len = opt->value_name ? strlen(opt->value_name) : 0;

	return len > 4 && strcmp(opt->value_name + len - 4, ",...") == 0;
}

/* A list option given again adds to its list ("--class gc --class user"
 * is "--class gc,user", as ripgrep and curl take repeated options);
 * any other option keeps its last value. */
static int store_value(const cli_option *opt, int index, const char *value,
		       cli_args *out)
{
	const char *before = out->value[index];
	char *joined;
	size_t len;

	out->given[out->n_given].option = index;
	out->given[out->n_given++].value = value;
	if (!before || !is_list(opt)) {
		out->value[index] = value;
		return EXIT_OK;
	}
	len = strlen(before) + 1 + strlen(value) + 1;
	if (!(joined = malloc(len)))
		return cli_error(EXIT_SYSTEM, "out of memory");
	snprintf(joined, len, "%s,%s", before, value);
	free(out->joined[index]);
	out->joined[index] = joined;
	out->value[index] = joined;
	return EXIT_OK;
}

/* Stores one option occurrence; `inline_value` is the text after "=" or
 * after a short option letter, NULL when the value is the next word. */
static int take_option(const cli_command *cmd, const cli_option *opt,
		       int index, const char *inline_value, int argc,
		       char **argv, int *i, cli_args *out)
{
	out->count[index]++;
	if (cli_optional_value(opt) && !inline_value)
		return EXIT_OK;
	if (!opt->value_name) {
		if (inline_value)
			return cli_usage_error(cmd, "option --%s takes no value",
					       opt->name);
		return EXIT_OK;
	}
	if (!inline_value && *i + 1 >= argc)
		return cli_usage_error(cmd, "option --%s needs a value (%s)",
				       opt->name, opt->value_name);
	return store_value(opt, index, inline_value ? inline_value : argv[++*i],
			   out);
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
		return unknown_option(cmd, name, len);
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
		/* "-9", "-1c": digits are the value of the option whose short
		 * name is '#' (gzip's and zstd's levels). */
		if (!opt && *p >= '0' && *p <= '9' &&
		    (opt = find_short(cmd, '#', &index))) {
			size_t n = strspn(p, "0123456789");
			char *digits = strndup(p, n);
			if (!digits)
				return cli_error(EXIT_SYSTEM, "out of memory");
			free(out->joined[index]);
			out->joined[index] = digits;
			out->value[index] = digits;
			out->count[index]++;
			p += n - 1;
			continue;
		}
		if (!opt)
			return cli_usage_error(cmd, "unknown option '-%c'", *p);
		if (opt->value_name && !cli_optional_value(opt))
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

/* stat(2) of an operand: standard input's for "-". */
static int stat_operand(const char *path, struct stat *st)
{
	return strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, st)
				      : stat(path, st);
}

/* Every operand of a command that reads logs is an input log; none reads
 * a directory, so one is refused before the command starts (and prints
 * anything). */
static int refuse_directories(const cli_args *out)
{
	struct stat st;

	for (int i = 0; i < out->n_positional; i++)
		if (stat_operand(out->positional[i], &st) == 0 &&
		    S_ISDIR(st.st_mode))
			return cli_error(EXIT_USAGE, "%s: is a directory, not "
					 "a log",
					 cli_input_name(out->positional[i]));
	return EXIT_OK;
}

static int check_operands(const cli_command *cmd, cli_args *out)
{
	int rc, output;

	default_to_stdin(out);
	if (out->n_positional < cmd->min_operands)
		return cli_usage_error(cmd, "missing operand, and standard input "
				       "is a terminal (%s)",
				       cmd->synopsis);
	if (cmd->max_operands >= 0 && out->n_positional > cmd->max_operands)
		return cli_usage_error(cmd, "too many operands (%s)",
				       cmd->synopsis);
	if (cmd->live_sources)
		return EXIT_OK;
	if ((rc = refuse_directories(out)) != EXIT_OK)
		return rc;
	/* A command without --output writes its results to standard
	 * output; the others check it when they open it. */
	if (!find_long(cmd, "output", 6, &output))
		return cli_refuse_stdout_input(out->positional,
					       out->n_positional);
	return EXIT_OK;
}


int cli_parse(const cli_command *cmd, int argc, char **argv, cli_args *out,
	      int *help)
{
	int only_operands = 0, rc = EXIT_OK;

	running = cmd;
	memset(out, 0, sizeof *out);
	out->cmd = cmd;
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
	for (int i = 0; i < CLI_MAX_OPTIONS; i++) {
		free(args->joined[i]);
		args->joined[i] = NULL;
	}
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
			 o->value_name && !cli_optional_value(o) ? " " : "",
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
	const char *name = ev_reader_name(r);
	cli_failure_files files = { &name, 1, NULL,
				    CLI_FAILURE_OFFSET_ALWAYS |
				    CLI_FAILURE_TRUNCATED_INVALID, NULL, NULL };
	ev_diag d = *ev_reader_diag(r);

	d.origin = EV_ORIGIN_INPUT; /* a reader has nothing else */
	return cli_failure(&d, &files);
}

int cli_header_pending(const ev_reader *r, int rc)
{
	return rc == EV_ETRUNCATED ||
	       (rc == EV_EFORMAT &&
		ev_reader_diag(r)->reason == EV_REASON_EMPTY_INPUT);
}

const char *cli_input_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

const char *cli_output_name(const char *path)
{
	return !path || strcmp(path, "-") == 0 ? "<stdout>" : path;
}

/* Reports why the input `path` could not be opened (status `rc`, the
 * constructor's `diag` saying why); EXIT_OK when it was. */
static int open_failure(const char *path, int rc, const ev_diag *diag)
{
	if (rc < 0)
		return cli_error(cli_exit_for_status(rc), "%s: %s",
				 cli_input_name(path), diag->message);
	return EXIT_OK;
}

/* The one rule for an input that holds not one byte (a file, or a pipe
 * that closed first; the reader's EV_REASON_EMPTY_INPUT): no eventlog,
 * invalid input, whatever the command. */
static int empty_failure(const char *in)
{
	return cli_error(EXIT_INVALID, "%s: the file is empty: it holds no "
			 "eventlog", in);
}

int cli_refuse_empty(const char *path)
{
	struct stat st;

	if (stat_operand(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size == 0)
		return empty_failure(cli_input_name(path));
	return EXIT_OK;
}

int cli_open_input(const char *path, unsigned flags, ev_reader **out)
{
	int rc = cli_refuse_empty(path);
	ev_diag diag;

	*out = NULL;
	if (rc != EXIT_OK)
		return rc;
	rc = ev_reader_open_path(out, path, flags, &diag);
	return open_failure(path, rc, &diag);
}

int cli_open_log_input(const char *path, ev_input **out)
{
	int rc = cli_refuse_empty(path);
	ev_diag diag;

	*out = NULL;
	if (rc != EXIT_OK)
		return rc;
	return open_failure(path, ev_input_open(out, path, &diag), &diag);
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
volatile sig_atomic_t cli_interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	cli_interrupted = 1;
}

void cli_catch_interrupts(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

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

static int same_inode(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

static int same_file(const char *a, const struct stat *b)
{
	struct stat st;

	return strcmp(a, "-") != 0 && stat(a, &st) == 0 && same_inode(&st, b);
}

static int refuse_input_output(const char *path, cli_overwrite overwrite)
{
	cli_error(EXIT_USAGE, "%s: refusing to overwrite an input file", path);
	if (overwrite == CLI_REFUSE_HINT_IN_PLACE)
		fputs("hint: to replace the input with the result, use "
		      "--in-place instead of -o\n", stderr);
	return EXIT_USAGE;
}

int cli_open_output(const char *path, const char *const *inputs,
		    int n_inputs, cli_overwrite overwrite, ev_sink **out)
{
	struct stat target;
	ev_diag diag;
	int rc;

	*out = NULL;
	if (!path || strcmp(path, "-") == 0) {
		if ((rc = cli_refuse_terminal()) != EXIT_OK ||
		    (rc = cli_refuse_stdout_input(inputs, n_inputs)) != EXIT_OK)
			return rc;
		rc = ev_sink_open_fd(out, STDOUT_FILENO, "<stdout>", NULL);
		return rc < 0 ? cli_error(EXIT_SYSTEM, "out of memory") : EXIT_OK;
	}
	if (overwrite != CLI_REPLACE_INPUT && stat(path, &target) == 0)
		for (int i = 0; i < n_inputs; i++)
			if (same_file(inputs[i], &target))
				return refuse_input_output(path, overwrite);
	rc = ev_sink_open_path(out, path, &diag);
	if (rc < 0)
		return cli_error(EXIT_SYSTEM, "%s: %s", path, diag.message);
	track_temp(ev_sink_temp_path(*out));
	return EXIT_OK;
}

int cli_refuse_stdout_input(const char *const *inputs, int n_inputs)
{
	struct stat out, in;

	if (fstat(STDOUT_FILENO, &out) != 0 || !S_ISREG(out.st_mode))
		return EXIT_OK;
	for (int i = 0; i < n_inputs; i++)
		if (stat_operand(inputs[i], &in) == 0 && same_inode(&in, &out))
			return cli_error(EXIT_USAGE, "<stdout>: is the input "
					 "%s: refusing to write to an input "
					 "file", cli_input_name(inputs[i]));
	return EXIT_OK;
}

int cli_stdout_failure(void)
{
	static int reported;

	if (errno == EPIPE) /* only when SIGPIPE is blocked */
		cli_broken_pipe();
	if (!reported)
		cli_error(EXIT_SYSTEM, "cannot write standard output: %s",
			  strerror(errno));
	reported = 1;
	return EXIT_SYSTEM;
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

int cli_open_log_output(const char *path, int gzip,
			const char *const *inputs, int n_inputs,
			cli_overwrite overwrite, ev_sink **out)
{
	ev_sink *target;
	ev_diag diag;
	int rc = cli_open_output(path, inputs, n_inputs, overwrite, &target);

	*out = target;
	if (rc != EXIT_OK || !(gzip || ends_in_gz(path)))
		return rc;
	untrack_temp(ev_sink_temp_path(target));
	/* The archive sink owns the target now, even when it fails. */
	if (ev_sink_open_archive(out, target, NULL, NULL, &diag) < 0)
		return cli_error(EXIT_SYSTEM, "%s: cannot start compressing: %s",
				 cli_output_name(path), diag.message);
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

/* ---- numbers, sizes and durations ---- */

/* DIGITS[.DIGITS] at *p: the whole part, and the fraction as num/den
 * (up to 9 digits kept). 0 when there is no number or it overflows. */
static int read_decimal(const char **p, uint64_t *whole, uint64_t *num,
			uint64_t *den)
{
	const char *start = *p;

	*whole = 0;
	*num = 0;
	*den = 1;
	for (; **p >= '0' && **p <= '9'; ++*p) {
		uint64_t d = (uint64_t)(**p - '0');
		if (*whole > (UINT64_MAX - d) / 10)
			return 0;
		*whole = *whole * 10 + d;
	}
	if (*p == start)
		return 0;
	if (**p != '.')
		return 1;
	if (!((*p)[1] >= '0' && (*p)[1] <= '9'))
		return 0;
	for (++*p; **p >= '0' && **p <= '9'; ++*p)
		if (*den < 1000000000u) {
			*num = *num * 10 + (uint64_t)(**p - '0');
			*den *= 10;
		}
	return 1;
}

/* "150M", "1.5GiB", "64k", "4096" (bytes): suffixes K, M, G, T in either
 * case, powers of 1024 (as sort --memory always took them), with an
 * optional B or iB after; a bare number is bytes and takes no fraction. */
static int parse_size(const char *text, uint64_t *out)
{
	static const char prefixes[] = "KMGT";
	const char *p = text, *at;
	uint64_t whole, num, den, frac, unit = 1;

	if (!read_decimal(&p, &whole, &num, &den))
		return 0;
	if (*p && (at = strchr(prefixes, toupper((unsigned char)*p)))) {
		unit = 1ull << (10 * (at - prefixes + 1));
		p++;
		if (strcmp(p, "iB") == 0)
			p += 2;
	}
	if (strcmp(p, "B") == 0 || strcmp(p, "b") == 0)
		p++;
	if (*p || (den > 1 && unit == 1) || whole > UINT64_MAX / unit)
		return 0;
	/* num < den <= 1e9 and unit <= 2^40: the product fits. */
	frac = num * unit / den;
	if (whole * unit > UINT64_MAX - frac)
		return 0;
	*out = whole * unit + frac;
	return 1;
}

/* Bytes as the size options take them: "64K" rather than "65536" when
 * it is a whole number of KiB, MiB or GiB. */
static void format_size(uint64_t v, char *buf, size_t size)
{
	static const char suffix[] = "KMGT";
	int i = -1;

	while (v && v % 1024 == 0 && i < 3) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, size, "%llu", (unsigned long long)v);
	else
		snprintf(buf, size, "%llu%c", (unsigned long long)v, suffix[i]);
}

/* " from LO to HI", " of at least LO" or nothing: the bounds a message
 * names, leaving out those no one would reach. */
static void bounds(char *buf, size_t size, uint64_t min, uint64_t max,
		   const char *lo, const char *hi)
{
	if (max < UINT64_MAX / 2)
		snprintf(buf, size, " from %s to %s", lo, hi);
	else if (min > 0)
		snprintf(buf, size, " of at least %s", lo);
	else
		buf[0] = '\0';
}

int cli_size(const cli_args *args, int option, uint64_t min, uint64_t max,
	     uint64_t *out)
{
	const char *text = cli_value(args, option);
	char lo[32], hi[32], range[80];
	uint64_t v;

	if (!text)
		return EXIT_OK;
	if (parse_size(text, &v) && v >= min && v <= max) {
		*out = v;
		return EXIT_OK;
	}
	format_size(min, lo, sizeof lo);
	format_size(max, hi, sizeof hi);
	bounds(range, sizeof range, min, max, lo, hi);
	return cli_usage_error(args->cmd, "--%s: '%s' is not a size%s (bytes, "
			       "or with K, M, G or T, powers of 1024: 150M, "
			       "1.5G)", cli_option_name(args, option), text,
			       range);
}

int cli_count(const cli_args *args, int option, uint64_t min, uint64_t max,
	      uint64_t *out)
{
	const char *text = cli_value(args, option), *p = text;
	char lo[32], hi[32], range[80];
	uint64_t v, num, den;

	if (!text)
		return EXIT_OK;
	if (read_decimal(&p, &v, &num, &den) && !*p && den == 1 && v >= min &&
	    v <= max) {
		*out = v;
		return EXIT_OK;
	}
	snprintf(lo, sizeof lo, "%llu", (unsigned long long)min);
	snprintf(hi, sizeof hi, "%llu", (unsigned long long)max);
	bounds(range, sizeof range, min, max, lo, hi);
	return cli_usage_error(args->cmd, "--%s: '%s' is not a whole number%s",
			       cli_option_name(args, option), text, range);
}

/* The cores this process may run on, as nproc says. */
static unsigned available_cores(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

int cli_threads(const cli_args *args, int option, unsigned *out)
{
	uint64_t n = 0;
	int rc = cli_count(args, option, 0, CLI_MAX_THREADS, &n);

	if (rc != EXIT_OK)
		return rc;
	*out = n ? (unsigned)n : available_cores();
	if (*out > CLI_MAX_THREADS)
		*out = CLI_MAX_THREADS;
	return EXIT_OK;
}

int cli_duration(const cli_args *args, int option, uint64_t *out)
{
	const char *text = cli_value(args, option);
	int64_t ns;

	if (!text)
		return EXIT_OK;
	if (text[0] != '-' && ev_duration_parse(text, &ns) == EV_OK) {
		*out = (uint64_t)ns;
		return EXIT_OK;
	}
	return cli_usage_error(args->cmd, "--%s: '%s' is not a duration (%s)",
			       cli_option_name(args, option), text,
			       CLI_DURATION_FORMS);
}

int cli_time(const cli_args *args, int option, ev_time_base *base,
	     uint64_t *ns)
{
	const char *text = cli_value(args, option);

	if (!text || ev_time_parse(text, base, ns) == EV_OK)
		return EXIT_OK;
	return cli_usage_error(args->cmd, "--%s: '%s' is not a time (%s)",
			       cli_option_name(args, option), text,
			       CLI_TIME_FORMS);
}

int cli_block_size(const cli_args *args, int option, uint32_t *out)
{
	uint64_t v = *out;
	int rc = cli_size(args, option, 64, EV_MAX_BLOCK_SIZE, &v);

	*out = (uint32_t)v;
	return rc;
}

/* The name of the input a failure concerns. */
static const char *failure_input(const ev_diag *d,
				 const cli_failure_files *files)
{
	if (files->n_inputs <= 0)
		return "";
	return cli_input_name(files->inputs[(int)d->input < files->n_inputs
						    ? d->input : 0]);
}

static int shows_offset(const ev_diag *d, unsigned flags)
{
	/* Opening or reading failed before any byte: no offset; but a log
	 * that is no eventlog fails at offset 0, which is news. */
	return d->offset || d->status == EV_EFORMAT ||
	       (flags & CLI_FAILURE_OFFSET_ALWAYS);
}

static void input_hint(const ev_diag *d, const char *in, unsigned flags)
{
	if (flags & CLI_FAILURE_REPAIRING) {
		/* Damage at offset 0 is a header that is not an eventlog's:
		 * there is no block to resync to. */
		if (d->status == EV_EFORMAT && d->offset > 0)
			fputs("hint: 'evtool truncate --resync' skips damaged "
			      "regions to the next block and keeps the rest\n",
			      stderr);
	} else if (d->status != EV_ETRUNCATED) {
		return;
	} else if (flags & CLI_FAILURE_STORED) {
		fprintf(stderr, "hint: 'zcat %s > part.eventlog' restores the "
			"log up to the cut; 'evtool truncate' then repairs "
			"it\n", in);
	} else {
		cli_truncation_hint();
	}
}

static int input_failure(const ev_diag *d, int code,
			 const cli_failure_files *files)
{
	const char *in = failure_input(d, files);

	if (files->flags & CLI_FAILURE_NAMED)
		return cli_error(code, "%s", d->message);
	if (files->action && !shows_offset(d, files->flags))
		return cli_error(code, "%s: %s: %s", in, files->action,
				 d->message);
	if (files->action)
		return cli_error(code, "%s: %s: offset %llu: %s", in,
				 files->action, (unsigned long long)d->offset,
				 d->message);
	if (!shows_offset(d, files->flags))
		return cli_error(code, "%s: %s", in, d->message);
	cli_error(code, "%s: %s %llu: %s", in,
		  files->flags & CLI_FAILURE_STORED ? "stored offset" : "offset",
		  (unsigned long long)d->offset, d->message);
	input_hint(d, in, files->flags);
	return code;
}

static int options_failure(const ev_diag *d, int code,
			   const cli_failure_files *files)
{
	const char *in = failure_input(d, files);

	if (files->flags & CLI_FAILURE_NAMED)
		return cli_error(code, "%s", d->message);
	if (files->option && d->offset)
		return cli_error(code, "%s: %s: offset %llu: %s", in,
				 files->option, (unsigned long long)d->offset,
				 d->message);
	if (files->option)
		return cli_error(code, "%s: %s %s", in, files->option,
				 d->message);
	return cli_error(code, "%s: %s", in, d->message);
}

int cli_failure(const ev_diag *d, const cli_failure_files *files)
{
	int code = cli_exit_for_status(d->status);
	int named = (files->flags & CLI_FAILURE_NAMED) != 0;

	if (code == EXIT_OK) /* a failure never exits 0 */
		code = EXIT_INVALID;
	if (d->status == EV_ETRUNCATED &&
	    (files->flags & CLI_FAILURE_TRUNCATED_INVALID))
		code = EXIT_INVALID;
	if (d->reason == EV_REASON_EMPTY_INPUT)
		return empty_failure(failure_input(d, files));
	switch (d->origin) {
	case EV_ORIGIN_INPUT:
		return input_failure(d, code, files);
	case EV_ORIGIN_OPTIONS:
		return options_failure(d, code, files);
	case EV_ORIGIN_OUTPUT:
		if (named)
			return cli_error(EXIT_SYSTEM, "%s", d->message);
		return cli_error(EXIT_SYSTEM, "%s: %s",
				 cli_output_name(files->out), d->message);
	case EV_ORIGIN_TEMP: /* the message names the folder */
		return cli_error(EXIT_SYSTEM, "%s", d->message);
	default:
		return cli_error(code, "%s", d->message);
	}
}

int cli_origin_error(const ev_diag *d, const char *in, const char *out)
{
	cli_failure_files files = { &in, 1, out, 0, NULL, NULL };

	return cli_failure(d, &files);
}

int cli_read_failure(const ev_diag *d, const char *name)
{
	cli_failure_files files = { &name, 1, NULL,
				    CLI_FAILURE_OFFSET_ALWAYS, NULL, NULL };
	ev_diag read = *d;

	read.origin = EV_ORIGIN_INPUT;
	return cli_failure(&read, &files);
}

int cli_status_failure(int status, const char *in)
{
	ev_diag d = { .status = status, .origin = EV_ORIGIN_INPUT };

	snprintf(d.message, sizeof d.message, "%s", ev_strerror(status));
	return cli_origin_error(&d, in, NULL);
}

int cli_write_failure(const ev_diag *d, const char *out)
{
	cli_failure_files files = { NULL, 0, out, 0, NULL, NULL };
	ev_diag write = *d;

	write.origin = EV_ORIGIN_OUTPUT;
	return cli_failure(&write, &files);
}

int cli_finish_failure(const ev_diag *d, const char *name)
{
	ev_diag finish = *d;

	finish.origin = EV_ORIGIN_INPUT;
	finish.offset = 0; /* the whole log was read */
	return cli_origin_error(&finish, name, NULL);
}

int cli_sorter_error(const ev_sorter *s, const char *in, const char *out)
{
	return cli_origin_error(ev_sorter_diag(s), in, out);
}
