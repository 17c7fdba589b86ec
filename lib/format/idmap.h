/*
 * A map from 64-bit identifiers to 64-bit identifiers that remembers the
 * order in which keys were added: used by merge to rename task ids
 * (pointers, doc/format.md section 6) only where two inputs share one, and by
 * filter for the capsets, capability assignments and tasks it learns.
 * Not installed.
 */
#ifndef EVTOOL_LIB_IDMAP_H
#define EVTOOL_LIB_IDMAP_H

#include <stddef.h>
#include <stdint.h>

/* Zero-initialised is an empty map. Entries are kept dense in insertion
 * order (keys[i], values[i]); the hash table holds index + 1. */
typedef struct evi_idmap {
	uint64_t *keys;
	uint64_t *values;
	size_t count;
	size_t capacity; /* of keys and values */
	uint32_t *slots; /* open addressing, linear probing; 0 = empty */
	size_t n_slots;  /* a power of two, at least twice count */
} evi_idmap;

/* Adds `key` -> `value` unless `key` is present. Sets *added (if not
 * NULL) to 1 when it was added. EV_OK, or EV_ENOMEM / EV_ELIMIT (more
 * than `limit` keys). */
int evi_idmap_add(evi_idmap *m, uint64_t key, uint64_t value, size_t limit,
		  int *added);

/* 1 and *value when `key` is present, else 0. */
int evi_idmap_get(const evi_idmap *m, uint64_t key, uint64_t *value);

/* Replaces the value of entry `i` (0 <= i < count). */
static inline void evi_idmap_set_at(evi_idmap *m, size_t i, uint64_t value)
{
	m->values[i] = value;
}

void evi_idmap_free(evi_idmap *m);

#endif
