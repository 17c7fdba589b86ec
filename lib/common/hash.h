/*
 * The one hash mix of the library's hash tables (idmap.c, validate_table.c).
 * Not installed.
 */
#ifndef EVTOOL_LIB_HASH_H
#define EVTOOL_LIB_HASH_H

#include <stddef.h>
#include <stdint.h>

/* MurmurHash3's 64-bit finaliser: every key bit reaches every bit of the
 * result. Ids are often pointers (task ids), whose low bits are mostly
 * zero, so they must be spread before a table masks them. */
static inline uint64_t evi_hash_mix(uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	key *= 0xc4ceb9fe1a85ec53ull;
	key ^= key >> 33;
	return key;
}

/* FNV-1a of `len` bytes, from `seed` (0: the usual offset basis mixed
 * with nothing): the key of a name in an id map (stats' span names and
 * heap-profile bands), whose caller compares the names on a hit. */
static inline uint64_t evi_hash_bytes(const void *p, size_t len,
				      uint64_t seed)
{
	const uint8_t *s = p;
	uint64_t h = 0xcbf29ce484222325ull ^ seed;

	for (size_t i = 0; i < len; i++)
		h = (h ^ s[i]) * 0x100000001b3ull;
	return h;
}

#endif
