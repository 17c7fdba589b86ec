/*
 * evtool: what the whole-log operations (filter, sort) have in common.
 *
 * They run one pipeline, reader -> transform -> writer, over a log given
 * by path (or "-" for standard input), and may read it more than once or
 * spill it to unnamed temporary files. When one fails, its diagnostic
 * says which part of the pipeline the failure concerns.
 */
#ifndef EVTOOL_PIPELINE_H
#define EVTOOL_PIPELINE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Which part of a pipeline a failure concerns. */
typedef enum ev_origin {
	EV_ORIGIN_NONE = 0,
	/** The input log: the diagnostic's offset and event index are in
	 *  it (the decompressed stream for gzip input). */
	EV_ORIGIN_INPUT,
	/** The output sink or writer. */
	EV_ORIGIN_OUTPUT,
	/** Temporary files; the message names the folder. */
	EV_ORIGIN_TEMP,
	/** The caller's options (EV_EINVAL); the message says which. */
	EV_ORIGIN_OPTIONS
} ev_origin;

#ifdef __cplusplus
}
#endif

#endif
