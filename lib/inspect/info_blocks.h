/*
 * The parallel pass of `evtool info` (info_blocks.c): each block's counts
 * and time order, found by workers block by block, which info.c adds up
 * in file order as if it had read the events one by one.
 */
#ifndef EVTOOL_LIB_INSPECT_INFO_BLOCKS_H
#define EVTOOL_LIB_INSPECT_INFO_BLOCKS_H

#include <stdint.h>

#include "blocks.h"

/* One block's events (its marker aside). */
typedef struct evi_info_block {
	uint64_t events;
	uint64_t first_time;  /* of its first event */
	uint64_t last_time;   /* of its last */
	uint64_t min_time;
	uint64_t max_time;
	uint64_t inversions;  /* an event earlier than the one before */
	uint64_t gc_end_inversions;
	uint16_t first_type;
} evi_info_block;

/* Where an event info decodes (note_metadata, the process list) is. */
typedef struct evi_info_noted {
	uint64_t offset;
	uint64_t index; /* counted from its block's marker */
} evi_info_noted;

typedef struct evi_info_pass {
	/* The caller's: */
	const evi_blocks *b;
	const uint8_t *noted_types; /* a bit per type id: note where */
	/* The pass's: */
	evi_info_block *blocks;     /* one per block */
	uint64_t *per_type;         /* EV_ID_COUNT, summed over workers */
	evi_info_noted *noted;      /* in file order */
	size_t n_noted;
	uint64_t digest;            /* of the whole log, when wanted */
} evi_info_pass;

/* Runs the pass on `threads` workers. EV_OK; EV_EFORMAT when a block is
 * not as the sequential reader would read it (read the log
 * sequentially); EV_ENOMEM. */
int evi_info_scan(evi_info_pass *pass, unsigned threads);

void evi_info_pass_free(evi_info_pass *pass);

#endif
