/* The subcommands, one file each. */
#ifndef EVTOOL_CMD_COMMANDS_H
#define EVTOOL_CMD_COMMANDS_H

#include "cli.h"

int cmd_cat(const cli_command *cmd, const cli_args *args);
int cmd_info(const cli_command *cmd, const cli_args *args);

extern const cli_option cat_options[];
extern const cli_option info_options[];

#endif
