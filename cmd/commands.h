/* The subcommands, one file each. */
#ifndef EVTOOL_CMD_COMMANDS_H
#define EVTOOL_CMD_COMMANDS_H

#include "cli.h"

int cmd_archive(const cli_args *args);
int cmd_export(const cli_args *args);
int cmd_cat(const cli_args *args);
int cmd_filter(const cli_args *args);
int cmd_info(const cli_args *args);
int cmd_show(const cli_args *args);
int cmd_report(const cli_args *args);
int cmd_sort(const cli_args *args);
int cmd_stats(const cli_args *args);
int cmd_merge(const cli_args *args);
int cmd_monitor(const cli_args *args);
int cmd_truncate(const cli_args *args);
int cmd_validate(const cli_args *args);
int cmd_view(const cli_args *args);

extern const cli_option archive_options[];
extern const cli_option cat_options[];
extern const cli_option export_options[];
extern const cli_option filter_options[];
extern const cli_option info_options[];
extern const cli_option show_options[];
extern const cli_option report_options[];
extern const cli_option sort_options[];
extern const cli_option stats_options[];
extern const cli_option merge_options[];
extern const cli_option monitor_options[];
extern const cli_option truncate_options[];
extern const cli_option validate_options[];
extern const cli_option view_options[];

#endif
