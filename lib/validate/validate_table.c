/*
 * The validator's tables: bounded open-addressing hash tables of
 * fixed-size entries (threads, tasks, capsets). Linear probing at a load
 * of at most 3/4; the hash is seeded with a value that differs from run
 * to run, so that a crafted log cannot make every id collide. Nothing
 * that is reported depends on the order of entries.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xxhash.h>

#include "hash.h"
#include "validate_internal.h"

#define MIN_TABLE_SIZE 256u

/* The mix (hash.h) over the seeded key: the seed is unknown to the log's
 * writer. */
static uint32_t hash_slot(const evv_table *t, uint64_t key)
{
	return (uint32_t)evi_hash_mix(key ^ t->seed) & (t->size - 1);
}

/* Differs from run to run (address layout, time); any value works. */
static uint64_t new_seed(const evv_table *t)
{
	uint64_t now = (uint64_t)time(NULL);

	return XXH3_64bits_withSeed(&now, sizeof now, (uint64_t)(uintptr_t)t);
}

static evv_slot *slot_at(const evv_table *t, uint32_t i)
{
	return (evv_slot *)(t->entries + (size_t)i * t->entry_size);
}

void evv_table_init(evv_table *t, size_t entry_size, uint32_t max)
{
	memset(t, 0, sizeof *t);
	t->entry_size = entry_size;
	t->max = max;
	t->seed = new_seed(t);
}

void *evv_table_find(const evv_table *t, uint64_t key)
{
	if (t->size == 0)
		return NULL;
	for (uint32_t i = hash_slot(t, key);; i = (i + 1) & (t->size - 1)) {
		evv_slot *s = slot_at(t, i);
		if (!s->used)
			return NULL;
		if (s->key == key)
			return s;
	}
}

static evv_slot *place(evv_table *t, uint64_t key)
{
	uint32_t i = hash_slot(t, key);

	while (slot_at(t, i)->used)
		i = (i + 1) & (t->size - 1);
	return slot_at(t, i);
}

/* Doubles the table (load stays at most 3/4). */
static int grow(evv_table *t)
{
	evv_table bigger = *t;

	bigger.size = t->size ? t->size * 2 : MIN_TABLE_SIZE;
	bigger.entries = calloc(bigger.size, t->entry_size);
	if (!bigger.entries)
		return -1;
	for (uint32_t i = 0; i < t->size; i++) {
		evv_slot *s = slot_at(t, i);
		if (s->used)
			memcpy(place(&bigger, s->key), s, t->entry_size);
	}
	free(t->entries);
	*t = bigger;
	t->gen++;
	return 0;
}

void *evv_table_insert(evv_table *t, uint64_t key)
{
	evv_slot *s;

	if (t->count >= t->max)
		return NULL;
	if ((uint64_t)(t->count + 1) * 4 > (uint64_t)t->size * 3 && grow(t) < 0)
		return NULL;
	s = place(t, key);
	memset(s, 0, t->entry_size);
	s->key = key;
	s->used = 1;
	t->count++;
	return s;
}

void evv_table_clear(evv_table *t)
{
	if (t->entries)
		memset(t->entries, 0, (size_t)t->size * t->entry_size);
	t->count = 0;
	t->gen++;
}

void evv_table_free(evv_table *t)
{
	free(t->entries);
	t->entries = NULL;
	t->size = t->count = 0;
}

void evv_table_each(const evv_table *t, void (*fn)(void *entry, void *ctx),
		    void *ctx)
{
	for (uint32_t i = 0; i < t->size; i++)
		if (slot_at(t, i)->used)
			fn(slot_at(t, i), ctx);
}

int evv_table_filter(evv_table *t, int (*keep)(const void *entry))
{
	uint32_t n = 0;
	uint8_t *kept = malloc((size_t)t->count * t->entry_size + 1);

	if (!kept)
		return -1;
	for (uint32_t i = 0; i < t->size; i++) {
		evv_slot *s = slot_at(t, i);
		if (s->used && keep(s))
			memcpy(kept + (size_t)n++ * t->entry_size, s,
			       t->entry_size);
	}
	evv_table_clear(t);
	for (uint32_t i = 0; i < n; i++) {
		evv_slot *s = (evv_slot *)(kept + (size_t)i * t->entry_size);
		memcpy(place(t, s->key), s, t->entry_size);
	}
	t->count = n;
	free(kept);
	return 0;
}
