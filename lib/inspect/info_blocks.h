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

/* An event info decodes (note_metadata, the process list), copied: its
 * payload is at `at` in the pass's bytes, its index counted from its
 * block's marker. */
typedef struct evi_info_noted {
	ev_event ev;
	size_t at;
	size_t block;
} evi_info_noted;

typedef struct evi_info_pass {
	/* The caller's: */
	const evi_blocks *b;
	const uint8_t *noted_types; /* a bit per type id: note where */
	/* The pass's: */
	evi_info_block *blocks;     /* one per block */
	uint64_t *per_type;         /* EV_ID_COUNT, summed over workers */
	evi_info_noted *noted;      /* in file order */
	size_t n_noted, cap_noted;
	uint8_t *bytes;             /* their payloads */
	size_t n_bytes, cap_bytes;
	uint64_t digest;            /* of the whole log, when wanted */
} evi_info_pass;

/* The most payload bytes of noted events a pass keeps: a log of more
 * (no real one) is read sequentially. */
#define EVI_INFO_NOTED_BYTES (16u << 20)

/* Runs the pass on `threads` workers (blocks.h's scan): the caller's
 * thread takes the chunks back in file order, copies the noted events
 * and hashes the log. EV_OK; EV_EFORMAT when a block is not as the
 * sequential reader would read it, or the noted events are too many
 * (read the log sequentially); EV_END when the blocks are too large for
 * the scan (the same); EV_ENOMEM. */
int evi_info_scan(evi_info_pass *pass, unsigned threads);

void evi_info_pass_free(evi_info_pass *pass);

#endif
