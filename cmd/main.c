/*
 * evtool: the command table and the entry point.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

const cli_command cli_commands[] = {
	{ "cat", cmd_cat, "copy a log (decompressing gzip), optionally re-blocked",
	  "IN... -o OUT",
	  "Copies IN to OUT byte for byte; several inputs are written one after\n"
	  "the other as separate sessions. With --reblock, events are grouped\n"
	  "into fresh blocks by capability (the blocks GHC's RTS would write).\n"
	  "\n"
	  "example: evtool cat run.eventlog.gz -o run.eventlog",
	  cat_options, 1, -1 },
	{ "info", cmd_info, "summarise logs: GHC version, caps, times, event counts",
	  "FILE...",
	  "Prints the RTS identifier, program arguments, pid, capabilities and\n"
	  "capsets, first and last timestamps, wall-clock start, events per\n"
	  "type, class and capability, blocks, whether the log is complete,\n"
	  "time inversions and the xxh3-64 digest of each FILE.\n"
	  "\n"
	  "example: evtool info --json myprog.eventlog | jq .files[0].events",
	  info_options, 1, -1 },
	{ NULL, NULL, NULL, NULL, NULL, NULL, 0, 0 }
};

static void print_main_help(FILE *to)
{
	fputs("usage: evtool COMMAND [OPTIONS] [FILE...]\n"
	      "       evtool help COMMAND | evtool COMMAND --help\n"
	      "       evtool --version\n\n"
	      "A toolkit for GHC eventlogs (+RTS -l). Every command reads "
	      "plain or gzip logs,\nand '-' for standard input.\n\n"
	      "commands:\n", to);
	for (const cli_command *c = cli_commands; c->name; c++)
		fprintf(to, "  %-10s %s\n", c->name, c->summary);
	fputs("\nexit codes:\n"
	      "  0  success\n"
	      "  1  invalid input data\n"
	      "  2  usage error\n"
	      "  3  finished, but data was dropped or repaired\n"
	      "  4  I/O or system error\n", to);
}

static int run_help(int argc, char **argv)
{
	const cli_command *cmd;

	if (argc < 1) {
		print_main_help(stdout);
		return EXIT_OK;
	}
	if (!(cmd = cli_find_command(argv[0])))
		return cli_usage_error(NULL, "unknown command '%s'", argv[0]);
	cli_print_command_help(cmd, stdout);
	return EXIT_OK;
}

static int run_command(const cli_command *cmd, int argc, char **argv)
{
	cli_args args;
	int help, rc = cli_parse(cmd, argc, argv, &args, &help);

	if (rc == EXIT_OK && help)
		cli_print_command_help(cmd, stdout);
	else if (rc == EXIT_OK)
		rc = cmd->run(cmd, &args);
	cli_free_args(&args);
	return rc;
}

int main(int argc, char **argv)
{
	const cli_command *cmd;

	if (argc < 2)
		return print_main_help(stderr), EXIT_USAGE;
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return run_help(0, NULL);
	if (strcmp(argv[1], "--version") == 0) {
		printf("evtool %s\n", ev_version());
		return EXIT_OK;
	}
	if (strcmp(argv[1], "help") == 0)
		return run_help(argc - 2, argv + 2);
	if (!(cmd = cli_find_command(argv[1])))
		return cli_usage_error(NULL, "unknown command '%s'", argv[1]);
	cli_install_signal_handlers();
	if (fflush(stdout) != 0)
		return EXIT_SYSTEM;
	{
		int rc = run_command(cmd, argc - 2, argv + 2);
		if (fflush(stdout) != 0 || ferror(stdout))
			/* A reader that went away (| head) is not news. */
			return errno == EPIPE ? EXIT_SYSTEM
					      : cli_error(EXIT_SYSTEM,
							  "cannot write standard "
							  "output: %s",
							  strerror(errno));
		return rc;
	}
}
