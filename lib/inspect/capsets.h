/*
 * The processes of a log keyed by capset, as the analyses that keep one
 * record per process (stats, report) find them, and the one rule that
 * gives a capability its process (capsets.c); not installed.
 */
#ifndef EVTOOL_LIB_CAPSETS_H
#define EVTOOL_LIB_CAPSETS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

/* What a capability's events said about its process. */
typedef struct evi_cap_claim {
	int have_process;   /* assigned (CAPSET_ASSIGN_CAP) to a capset */
	uint32_t process;   /* ... known by then as an OS process */
	int have_heap;      /* named by its HEAP_ALLOCATED or GC_STATS_GHC */
	uint32_t heap;
} evi_cap_claim;

/* The capset of the process capability `c` belongs to, in *capset: the
 * OS-process capset it was assigned to, else the capset its heap events
 * name, else `only` when the log has one process (`n_procs` is 1). 1, or
 * 0 when none of these holds. */
int evi_cap_claim_owner(const evi_cap_claim *c, size_t n_procs,
			uint32_t only, uint32_t *capset);

/* A table of processes: `n` pointers to records of the caller's type,
 * ascending by the u32 capset at `key_offset` in each record. */
typedef struct evi_capsets {
	void **items;
	size_t n, alloc;
	size_t key_offset;
	size_t record_size;  /* bytes calloc'd per record */
	unsigned max;        /* EV_ELIMIT past this many */
} evi_capsets;

/* The capset of record `i`. */
static inline uint32_t evi_capsets_key(const evi_capsets *t, size_t i)
{
	uint32_t key;

	memcpy(&key, (const char *)t->items[i] + t->key_offset, sizeof key);
	return key;
}

/* Index of the first record whose capset is >= `capset`. */
size_t evi_capsets_search(const evi_capsets *t, uint32_t capset);

/* The record of `capset`, or NULL. */
void *evi_capsets_find(const evi_capsets *t, uint32_t capset);

/* The record of `capset`, created (zeroed, its key set) when absent;
 * NULL with EV_ENOMEM or EV_ELIMIT in `d`. */
void *evi_capsets_get(evi_capsets *t, uint32_t capset, ev_diag *d);

/* Frees the array (the records are the caller's to free first). */
void evi_capsets_free(evi_capsets *t);

#endif
