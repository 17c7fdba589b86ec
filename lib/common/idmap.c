/*
 * An insertion-ordered u64 -> u64 map (see idmap.h).
 */
#include "idmap.h"

#include <stdlib.h>
#include <string.h>

#include "evtool/common.h"

#define FIRST_SLOTS 16u

static int rehash(evi_idmap *m, size_t n_slots)
{
	uint32_t *slots = calloc(n_slots, sizeof *slots);

	if (!slots)
		return EV_ENOMEM;
	free(m->slots);
	m->slots = slots;
	m->n_slots = n_slots;
	for (size_t i = 0; i < m->count; i++)
		*evi_idmap_slot(m, m->keys[i]) = (uint32_t)(i + 1);
	return EV_OK;
}

static int grow_entries(evi_idmap *m)
{
	size_t capacity = m->capacity ? m->capacity * 2 : FIRST_SLOTS / 2;
	uint64_t *keys = realloc(m->keys, capacity * sizeof *keys);
	uint64_t *values;

	if (!keys)
		return EV_ENOMEM;
	m->keys = keys;
	if (!(values = realloc(m->values, capacity * sizeof *values)))
		return EV_ENOMEM;
	m->values = values;
	m->capacity = capacity;
	return EV_OK;
}

int evi_idmap_add(evi_idmap *m, uint64_t key, uint64_t value, size_t limit,
		  int *added)
{
	uint32_t *slot;
	int rc;

	if (added)
		*added = 0;
	if (!m->slots && (rc = rehash(m, FIRST_SLOTS)) < 0)
		return rc;
	slot = evi_idmap_slot(m, key);
	if (*slot)
		return EV_OK;
	if (m->count >= limit || m->count >= UINT32_MAX - 1)
		return EV_ELIMIT;
	if (m->count == m->capacity && (rc = grow_entries(m)) < 0)
		return rc;
	m->keys[m->count] = key;
	m->values[m->count] = value;
	*slot = (uint32_t)++m->count;
	if (added)
		*added = 1;
	/* Keep the load under one half so probes stay short. */
	if (m->count * 2 > m->n_slots)
		return rehash(m, m->n_slots * 2);
	return EV_OK;
}

/* Empties slot `hole` of the table, moving later entries of its probe
 * run back so that every key stays reachable from its home slot. */
static void unslot(evi_idmap *m, size_t hole)
{
	size_t mask = m->n_slots - 1;

	m->slots[hole] = 0;
	for (size_t i = (hole + 1) & mask; m->slots[i]; i = (i + 1) & mask) {
		size_t home = (size_t)evi_hash_mix(m->keys[m->slots[i] - 1]) &
			      mask;
		/* It moves into the hole unless its probe starts after it. */
		if (((i - home) & mask) >= ((i - hole) & mask)) {
			m->slots[hole] = m->slots[i];
			m->slots[i] = 0;
			hole = i;
		}
	}
}

size_t evi_idmap_remove(evi_idmap *m, uint64_t key)
{
	size_t at = evi_idmap_index(m, key), last;

	if (at == SIZE_MAX)
		return SIZE_MAX;
	unslot(m, (size_t)(evi_idmap_slot(m, key) - m->slots));
	last = --m->count;
	if (at != last) {
		/* Its slot still finds it by its key, at its old position. */
		uint32_t *slot = evi_idmap_slot(m, m->keys[last]);
		m->keys[at] = m->keys[last];
		m->values[at] = m->values[last];
		*slot = (uint32_t)(at + 1);
	}
	return at;
}

void evi_idmap_free(evi_idmap *m)
{
	free(m->keys);
	free(m->values);
	free(m->slots);
	memset(m, 0, sizeof *m);
}
