/*
 * A slice of a run (filter --from/--to, --between-markers): how the
 * analyses tell one from the events, with no record of the window in the
 * log. filter keeps the run's metadata from before its window (the
 * context its events need) and drops what comes after it; GHC's RTS has
 * its capabilities at work within a few milliseconds of creating its
 * capsets (3.6 ms at most in logs of GHC 6.12 to 9.5). So a process
 * whose first event that is not metadata (evi_type_is_metadata) comes
 * more than EVI_SLICE_GAP_NS after its start (its CAPSET_CREATE, else
 * the log's first event) is a slice, which starts at that event. Stats
 * (stats_finish.c) and export's hp format use it; not installed.
 */
#ifndef EVTOOL_LIB_SLICE_H
#define EVTOOL_LIB_SLICE_H

#include <stdint.h>

#define EVI_SLICE_GAP_NS 5000000u

/* Whether a process that started at `start` and whose first event that
 * is not metadata is at `first_work` is a slice of its run. */
static inline int evi_is_slice(uint64_t start, uint64_t first_work)
{
	return first_work > start && first_work - start > EVI_SLICE_GAP_NS;
}

#endif
