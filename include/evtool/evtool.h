/*
 * evtool: umbrella header for libevtool, a library that reads and writes
 * the binary event logs of the GHC runtime (`+RTS -l`).
 */
#ifndef EVTOOL_EVTOOL_H
#define EVTOOL_EVTOOL_H

#include "common.h"
#include "pipeline.h"
#include "consumer.h"
#include "catalog.h"
#include "decode.h"
#include "export.h"
#include "filter.h"
#include "header.h"
#include "info.h"
#include "merge.h"
#include "process.h"
#include "reader.h"
#include "repair.h"
#include "report.h"
#include "show.h"
#include "sort.h"
#include "stats.h"
#include "stats_analysis.h"
#include "stats_heap.h"
#include "stats_spans.h"
#include "writer.h"
#include "validate.h"
#include "view.h"
#include "archive.h"

#endif
