/*
 * digest.h's functions compiled with AVX2 (this file alone is built with
 * -mavx2, on x86-64; digest.c calls it only on processors that have it):
 * xxhash.h inlined, so that XXH3 takes its AVX2 path.
 */
#include <stdint.h>
#include <stdlib.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

void *evi_digest_avx2_new(void);
void evi_digest_avx2_update(void *state, const void *p, size_t n);
uint64_t evi_digest_avx2_value(const void *state);
void evi_digest_avx2_free(void *state);

void *evi_digest_avx2_new(void)
{
	XXH3_state_t *st = XXH3_createState();

	if (st && XXH3_64bits_reset(st) != XXH_OK) {
		XXH3_freeState(st);
		st = NULL;
	}
	return st;
}

void evi_digest_avx2_update(void *state, const void *p, size_t n)
{
	XXH3_64bits_update(state, p, n);
}

uint64_t evi_digest_avx2_value(const void *state)
{
	return XXH3_64bits_digest(state);
}

void evi_digest_avx2_free(void *state)
{
	XXH3_freeState(state);
}
