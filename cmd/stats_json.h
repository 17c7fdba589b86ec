/* The JSON form of ev_stats figures, shared by stats and report. */
#ifndef EVTOOL_CMD_STATS_JSON_H
#define EVTOOL_CMD_STATS_JSON_H

#include <evtool/evtool.h>

#include "json.h"

/* Prints process `p` as one JSON object, member `key` of the enclosing
 * object (NULL in an array), with the keys of `evtool stats --json`
 * (schema_version 1). */
void stats_json_process(json_out *j, const char *key,
			const ev_stats_process *p);

#endif
