/*
 * A map from 64-bit identifiers to 64-bit identifiers that remembers the
 * order in which keys were added: used by merge to rename task ids
 * (pointers, doc/format.md section 6) only where two inputs share one, by
 * filter for the capsets, capability assignments and tasks it learns, and
 * by export for its processes and the labels of live threads (which it
 * removes). Not installed.
 */
#ifndef EVTOOL_LIB_IDMAP_H
#define EVTOOL_LIB_IDMAP_H

#include <stddef.h>
#include <stdint.h>

#include "hash.h"

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

/* The slot holding `key`, or the empty slot where it would go (the map
 * has slots). Inline, as evi_idmap_get: lookups run once per event. */
static inline uint32_t *evi_idmap_slot(const evi_idmap *m, uint64_t key)
{
	size_t mask = m->n_slots - 1;

	for (size_t i = (size_t)evi_hash_mix(key) & mask;; i = (i + 1) & mask) {
		uint32_t *slot = &m->slots[i];
		if (*slot == 0 || m->keys[*slot - 1] == key)
			return slot;
	}
}

/* 1 and *value when `key` is present, else 0 and *value 0 (`value` may
 * be NULL). */
static inline int evi_idmap_get(const evi_idmap *m, uint64_t key,
				uint64_t *value)
{
	const uint32_t *slot = m->slots ? evi_idmap_slot(m, key) : NULL;

	if (value)
		*value = slot && *slot ? m->values[*slot - 1] : 0;
	return slot && *slot;
}

/* The position of `key` among the entries (keys[i]), SIZE_MAX when it
 * is absent. */
static inline size_t evi_idmap_index(const evi_idmap *m, uint64_t key)
{
	const uint32_t *slot = m->slots ? evi_idmap_slot(m, key) : NULL;

	return slot && *slot ? (size_t)*slot - 1 : SIZE_MAX;
}

/* Removes `key`. The last entry moves into its position, so after a
 * removal the entries are no longer in the order they were added (merge
 * and filter, which need that order, never remove). Returns the position
 * `key` had, which now holds the entry that was last (or is past count
 * when `key` was last): a caller keeping an array parallel to the entries
 * moves its last element the same way. SIZE_MAX when `key` is absent. */
size_t evi_idmap_remove(evi_idmap *m, uint64_t key);

/* Replaces the value of entry `i` (0 <= i < count). */
static inline void evi_idmap_set_at(evi_idmap *m, size_t i, uint64_t value)
{
	m->values[i] = value;
}

void evi_idmap_free(evi_idmap *m);

#endif
