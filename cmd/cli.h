/*
 * The command-line layer shared by evtool's subcommands: the command and
 * option tables, argument parsing, messages, exit codes and output files.
 * Commands return an exit code; nothing here calls exit() but main().
 */
#ifndef EVTOOL_CMD_CLI_H
#define EVTOOL_CMD_CLI_H

#include <signal.h>
#include <stdio.h>

#include <evtool/evtool.h>

/* Exit codes (evtool(1), EXIT STATUS; evtool --help). */
enum cli_exit {
	EXIT_OK = 0,      /* success */
	EXIT_INVALID = 1, /* invalid input data */
	EXIT_USAGE = 2,   /* usage error */
	EXIT_DROPPED = 3, /* finished, but data was dropped or repaired */
	EXIT_SYSTEM = 4   /* I/O or system error */
};

/* One option of a command: drives parsing, --help and (through
 * `evtool help --dump-options`) the shell completions and the man page
 * test.
 *
 * value_name is NULL for a flag. For an option whose value is one of a
 * fixed set of words it IS the words, "|"-separated ("text|ndjson"):
 * --help shows them, completion offers them, and cli_choice() parses
 * them, so the three cannot disagree. Otherwise it names the value
 * ("FILE", "TIME"). It ends in ",..." when the value is a comma-separated
 * list ("args|env,...", "N=TIME,...", "CLASS,..."): such an option given
 * again adds to its list. In brackets, "[=W1|W2]", the value is optional
 * and given only after "=" ("--spans" or "--spans=markers"): the option
 * alone is a flag (cli_flag), its value NULL. */
typedef struct cli_option {
	const char *name;       /* long name without "--" */
	char short_name;        /* 0 when none; '#': "-N" gives value N */
	const char *value_name; /* see above */
	const char *help;
} cli_option;

/* The forms every TIME option takes (ev_time_parse), for --help and
 * messages: what show, info and validate print can be pasted back. */
#define CLI_TIME_FORMS                                                   \
	"a timestamp as show prints it: 1979690 ns, or with units ns us "  \
	"ms s m h, 1.5s; +TIME after the first event; or ISO 8601 "        \
	"2024-05-01T12:00:00Z"

/* The forms a duration option takes (ev_duration_parse). */
#define CLI_DURATION_FORMS "ns, or with units ns us ms s m h: 1000, 1.5ms"

#define CLI_MAX_OPTIONS 32
#define CLI_MAX_POSITIONAL 4096

/* One option given with a value, in command-line order. */
typedef struct cli_given {
	int option; /* index in the command's table */
	const char *value;
} cli_given;

/* Each command numbers its options with an enum whose values index its
 * table, built with designated initializers, as git's parse-options binds
 * each option to a variable:
 *
 *	enum { CAT_OPT_OUTPUT, ..., CAT_N_OPTIONS };
 *	const cli_option cat_options[CAT_N_OPTIONS + 1] = {
 *		[CAT_OPT_OUTPUT] = { "output", 'o', "OUT", "write to OUT" },
 *		...
 *	};
 *
 * (the extra entry, zero, ends the table) and the accessors below take
 * that enum: a renamed or removed option fails to compile. */
#define CLI_CHECK_OPTIONS(n) \
	_Static_assert((n) <= CLI_MAX_OPTIONS, "too many options")

/* What the parser found: per option (same index as the table) its value
 * and how often it was given, every value in command-line order (for
 * options that may be repeated), then the operands. A list option given
 * several times has its values joined by commas; any other option keeps
 * the last one given. */
typedef struct cli_args {
	const struct cli_command *cmd; /* whose options these are */
	const char *value[CLI_MAX_OPTIONS];
	int count[CLI_MAX_OPTIONS];
	char *joined[CLI_MAX_OPTIONS]; /* owned: the joined lists */
	cli_given *given;
	int n_given;
	const char **positional;
	int n_positional;
} cli_args;

typedef struct cli_command cli_command;
struct cli_command {
	const char *name;
	int (*run)(const cli_args *args);
	const char *summary;  /* one line for `evtool --help` */
	const char *synopsis; /* operands, e.g. "IN... -o OUT" */
	const char *details;  /* a paragraph and an example for CMD --help */
	const cli_option *options; /* terminated by an entry with name NULL */
	int min_operands;
	int max_operands;     /* -1: no limit */
	/* The operands are live sources (FIFOs, sockets, directories to
	 * watch, files still empty), not logs: the checks of log operands
	 * (no directory, standard input and output) do not apply. */
	int live_sources;
};

/* The command table (main.c). */
extern const cli_command cli_commands[];

const cli_command *cli_find_command(const char *name);

/* Parses argv (after the command name). Returns EXIT_OK, or EXIT_USAGE
 * with a message printed. Sets *help when --help was given. */
int cli_parse(const cli_command *cmd, int argc, char **argv, cli_args *out,
	      int *help);

void cli_free_args(cli_args *args);

/* The long name of `option` (an index in the command's table), for
 * messages: "--" + it is what the user typed. */
const char *cli_option_name(const cli_args *args, int option);

/* The value of `option`, or NULL when not given. */
const char *cli_value(const cli_args *args, int option);

/* The `n`th value (0 for the first) given to `option`, in command-line
 * order; NULL past the last. For repeatable options. */
const char *cli_value_at(const cli_args *args, int option, int n);

/* Nonzero when flag `option` was given. */
int cli_flag(const cli_args *args, int option);

/* For an option whose value_name lists words ("text|ndjson"): sets *out
 * to the index of the given word (0 for the first), or leaves it alone
 * when the option was not given. Returns EXIT_OK, or EXIT_USAGE with a
 * message naming the words. */
int cli_choice(const cli_args *args, int option, int *out);

/* Whether `opt` takes an optional value, "[=W1|W2]" (cli_option). */
int cli_optional_value(const cli_option *opt);

void cli_print_command_help(const cli_command *cmd, FILE *to);

/* `evtool help --dump-options`: the tables for tools (complete.c). */
int cli_dump_options(FILE *to);

/* Starts a message on standard error, on a line of its own: "evtool
 * CMD: " while a command runs (every message names its command: several
 * evtools in a pipeline share one standard error), "evtool: " before one
 * does. The messages below start with it; a command that prints a
 * message in parts starts it with this. */
void cli_message_start(void);

/* "evtool CMD: " + message + "\n" on stderr. Returns `code`. */
int cli_error(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prints "evtool CMD: FILE: offset N: warning: ..." (no offset when it is
 * negative): the one form of a warning about an input, with the place
 * before the severity, as validate's findings and every error have it. */
void cli_warn_at(const char *file, int64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The hint printed after a message that an input is truncated. */
void cli_truncation_hint(void);

/* A usage error about `cmd`, with a pointer to `evtool CMD --help`. */
int cli_usage_error(const cli_command *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "unknown command 'NAME'", with the closest command when one is close
 * ("did you mean 'show'?"); for a NAME starting with '-', "unknown option"
 * with the closest of --help and --version. Returns EXIT_USAGE. */
int cli_unknown_command(const char *name);

/* Exit code for a libevtool status. */
int cli_exit_for_status(int status);

/* Reports a reader failure as "evtool: FILE: offset N: message" and
 * returns the exit code for it. Truncation gets a repair hint. */
int cli_reader_error(const ev_reader *r);

/* Whether `rc`, from ev_reader_read_header(r), leaves the header still to
 * come: a cut header, or an input with no byte yet (EV_REASON_EMPTY_INPUT:
 * an error once the input is over, but a live log that has not begun to a
 * follower). */
int cli_header_pending(const ev_reader *r, int rc);

/* The one label of standard input in messages: "<stdin>" for the
 * operand "-" (as the readers name it), any other path as it is. */
const char *cli_input_name(const char *path);

/* The same for outputs: "<stdout>" for "-" or NULL (no -o). */
const char *cli_output_name(const char *path);

/* An empty input file (standard input too, when it is one) holds no
 * eventlog: every command refuses it the same way, "FILE: the file is
 * empty: it holds no eventlog", EXIT_INVALID (doc/evtool.1, EXIT STATUS),
 * as cli_failure does a reader's EV_REASON_EMPTY_INPUT (an empty pipe).
 * EXIT_OK for any other input. The openers below call it. */
int cli_refuse_empty(const char *path);

/* Opens a reader on `path` ("-" for stdin). On failure prints a message
 * and returns its exit code (nonzero). */
int cli_open_input(const char *path, unsigned flags, ev_reader **out);

/* Opens the input of an operation (filter, sort, merge, truncate,
 * validate) as cli_open_input does, with the same messages. */
int cli_open_log_input(const char *path, ev_input **out);

/* What cli_open_output does with an output that is one of its inputs. */
typedef enum cli_overwrite {
	CLI_REFUSE_INPUT = 0,  /* refuses it */
	CLI_REFUSE_HINT_IN_PLACE, /* refuses it, pointing at --in-place */
	CLI_REPLACE_INPUT      /* --in-place was given: replaces it */
} cli_overwrite;

/* Opens the output `path` as a sink; "-" or NULL (no -o given) is
 * standard output, refused when it is a terminal or one of `inputs`
 * (cli_refuse_stdout_input). Refuses an output that is one of `inputs`
 * as `overwrite` says. The temporary file is removed
 * if a signal arrives before commit. */
int cli_open_output(const char *path, const char *const *inputs,
		    int n_inputs, cli_overwrite overwrite, ev_sink **out);

/* Opens the log a command writes (cat, filter, sort, merge, truncate; and
 * export's file) as cli_open_output does, gzip-compressed as `evtool
 * archive` writes it (the log's digest in the header) when `path` ends in
 * ".gz" or `gzip` (the command's --gzip flag) is nonzero. */
int cli_open_log_output(const char *path, int gzip,
			const char *const *inputs, int n_inputs,
			cli_overwrite overwrite, ev_sink **out);

/* When standard output is a terminal, prints the refusal to write binary
 * data to it (gzip's and zstd's) and returns EXIT_USAGE; else EXIT_OK. */
int cli_refuse_terminal(void);

/* When standard output is one of the files `inputs` ("-": standard input)
 * (`evtool filter x.eventlog >> x.eventlog`), prints the refusal and
 * returns EXIT_USAGE; else EXIT_OK. Writing would change an input while
 * it is read. cli_parse calls it for the commands that always write
 * standard output (those without --output), cli_open_output for the
 * others when their output is standard output. */
int cli_refuse_stdout_input(const char *const *inputs, int n_inputs);

/* Reports that standard output could not be written (errno says why;
 * EPIPE dies of SIGPIPE, as cli_broken_pipe), once however many writes
 * fail: a command's and main()'s last flush report one failure. Returns
 * EXIT_SYSTEM. */
int cli_stdout_failure(void);

/* Commits (renames into place) or reports why it could not. */
int cli_commit_output(ev_sink *sink, const char *path);

/* Frees a sink and forgets its temporary file. */
void cli_close_output(ev_sink *sink);

/* How a command words the failures cli_failure reports (flags). */
enum cli_failure_flags {
	/* An input failure names its offset even at 0 before any byte was
	 * read (else only a log that is no eventlog does: that is news). */
	CLI_FAILURE_OFFSET_ALWAYS = 1u << 0,
	/* Offsets are in the stored gzip data: "stored offset N", and a
	 * cut archive gets zcat's hint. */
	CLI_FAILURE_STORED = 1u << 1,
	/* A truncated input is invalid (EXIT_INVALID): the command could
	 * keep nothing of it (a reader, repair's damaged input). */
	CLI_FAILURE_TRUNCATED_INVALID = 1u << 2,
	/* The messages name their files themselves (merge's); no hints. */
	CLI_FAILURE_NAMED = 1u << 3,
	/* The command is the repair: damage gets the hint of --resync, not
	 * the hint of `evtool truncate`. */
	CLI_FAILURE_REPAIRING = 1u << 4
};

/* The files an operation works on, for cli_failure. */
typedef struct cli_failure_files {
	const char *const *inputs; /* by ev_diag.input; "-": stdin */
	int n_inputs;
	const char *out;           /* NULL or "-": standard output */
	unsigned flags;            /* cli_failure_flags */
	/* The option a failure of EV_ORIGIN_OPTIONS concerns ("--at"), or
	 * NULL: its message is then "IN: OPTION MESSAGE", and with an
	 * offset "IN: OPTION: offset N: MESSAGE". */
	const char *option;
	/* What the command was doing when the input failed ("cannot
	 * check"), or NULL: "IN: ACTION: offset N: MESSAGE", without hints
	 * (they are about the command's usual work). */
	const char *action;
} cli_failure_files;

/* The one mapping of a library failure to a message and an exit code:
 * reports `d` by what it concerns (d->origin) and returns the exit code
 * (never EXIT_OK). The input (the one d->input names) with the offset
 * and a hint when it was cut short or damaged, the options (with the
 * input's name), the output or a temporary file (EXIT_SYSTEM). */
int cli_failure(const ev_diag *d, const cli_failure_files *files);

/* cli_failure for an operation on one input `in` writing `out`. */
int cli_origin_error(const ev_diag *d, const char *in, const char *out);

/* cli_failure for an operation that analyses one log as it reads it
 * (stats, report): what fails concerns the log `name`, at an offset. */
int cli_read_failure(const ev_diag *d, const char *name);

/* cli_failure for a bare status of a call about the input `in` that
 * keeps no diagnostic (opening a reader on a descriptor): "IN: what the
 * status means". */
int cli_status_failure(int status, const char *in);

/* cli_failure for a failure writing the output `out` (NULL or "-":
 * standard output): "OUT: MESSAGE", EXIT_SYSTEM. */
int cli_write_failure(const ev_diag *d, const char *out);

/* cli_failure for a failure finishing the analysis of the log `name`
 * after reading it (stats, report): "NAME: MESSAGE" (EXIT_SYSTEM for
 * running out of memory, what finishing can fail of). */
int cli_finish_failure(const ev_diag *d, const char *name);

/* cli_origin_error for a failure of the sorter. */
int cli_sorter_error(const ev_sorter *s, const char *in, const char *out);

/* Set once SIGINT or SIGTERM arrived, after cli_catch_interrupts. */
extern volatile sig_atomic_t cli_interrupted;

/* SIGINT and SIGTERM set cli_interrupted, for a command that runs until
 * interrupted and then ends cleanly; no SA_RESTART, so that a blocking
 * open, poll or sleep returns at once. */
void cli_catch_interrupts(void);

/* Installs handlers that remove the temporary outputs on a fatal signal
 * (SIGPIPE too) and then die of it. */
void cli_install_signal_handlers(void);

/* A write failed with EPIPE (SIGPIPE was blocked): removes the temporary
 * outputs and dies of SIGPIPE, as the handler does. */
void cli_broken_pipe(void);

/* `option`'s value as a size in bytes from min to max: a whole number of
 * bytes, or a number (decimals allowed) with K, M, G or T, powers of
 * 1024, and an optional B or iB ("150M", "1.5GiB", "64k"). Leaves *out
 * alone when the option was not given. EXIT_OK, or EXIT_USAGE with a
 * message naming the command, option and value. */
int cli_size(const cli_args *args, int option, uint64_t min, uint64_t max,
	     uint64_t *out);

/* A --block-size `option`: a size from 64 bytes to EV_MAX_BLOCK_SIZE; as
 * cli_size. */
int cli_block_size(const cli_args *args, int option, uint32_t *out);

/* `option`'s value as a whole number from min to max; as cli_size. */
int cli_count(const cli_args *args, int option, uint64_t min, uint64_t max,
	      uint64_t *out);

/* The highest --threads a command that reads in parallel takes. */
#define CLI_MAX_THREADS 256

/* A --threads `option` of a command that reads in parallel (spelt as
 * archive's -T): N workers, 1 for the sequential path; 0 or absent, the
 * cores this process may run on (as nproc counts them). As cli_size. */
int cli_threads(const cli_args *args, int option, unsigned *out);

/* `option`'s value as a duration in ns, not negative (the time grammar
 * of ev_duration_parse: "1000", "1ms", "2.5 us"); as cli_size. */
int cli_duration(const cli_args *args, int option, uint64_t *out);

/* `option`'s value as a time (ev_time_parse: CLI_TIME_FORMS), its base
 * in *base and its nanoseconds in *ns; leaves them alone when the option
 * was not given. EXIT_OK, or EXIT_USAGE with a message naming the
 * option and value. */
int cli_time(const cli_args *args, int option, ev_time_base *base,
	     uint64_t *ns);

#endif
