/*
 * The one hash mix of the library's hash tables (idmap.c, validate_table.c).
 * Not installed.
 */
#ifndef EVTOOL_LIB_HASH_H
#define EVTOOL_LIB_HASH_H

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

#endif
