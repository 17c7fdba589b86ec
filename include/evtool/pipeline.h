/*
 * evtool: what the whole-log operations (filter, sort) have in common.
 *
 * They run one pipeline, reader -> transform -> writer, over a log given
 * by path (or "-" for standard input), and may read it more than once or
 * spill it to unnamed temporary files. When one fails, its diagnostic
 * says which part of the pipeline the failure concerns (ev_diag.origin,
 * common.h, as every operation's does).
 */
#ifndef EVTOOL_PIPELINE_H
#define EVTOOL_PIPELINE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif


#ifdef __cplusplus
}
#endif

#endif
