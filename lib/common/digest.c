/*
 * The log's digest (digest.h): libxxhash's XXH3 state, or the AVX2 one
 * (digest_avx2.c) when the build has it and the processor runs it.
 */
#include "digest.h"

#include <stdlib.h>
#include <xxhash.h>

#include "evtool/common.h"

#ifdef EVTOOL_DIGEST_AVX2
/* digest_avx2.c: the same functions, with AVX2. */
void *evi_digest_avx2_new(void);
void evi_digest_avx2_update(void *state, const void *p, size_t n);
uint64_t evi_digest_avx2_value(const void *state);
void evi_digest_avx2_free(void *state);

static int use_avx2(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2");
}
#else
static int use_avx2(void)
{
	return 0;
}
#endif

struct evi_digest {
	int avx2;
	void *state; /* XXH3_state_t, of libxxhash or of digest_avx2.c */
};

int evi_digest_new(evi_digest **out)
{
	evi_digest *d = calloc(1, sizeof *d);

	*out = NULL;
	if (!d)
		return EV_ENOMEM;
	d->avx2 = use_avx2();
#ifdef EVTOOL_DIGEST_AVX2
	if (d->avx2)
		d->state = evi_digest_avx2_new();
	else
#endif
	if ((d->state = XXH3_createState()) &&
	    XXH3_64bits_reset(d->state) != XXH_OK) {
		XXH3_freeState(d->state);
		d->state = NULL;
	}
	if (!d->state) {
		free(d);
		return EV_ENOMEM;
	}
	*out = d;
	return EV_OK;
}

void evi_digest_update(evi_digest *d, const void *p, size_t n)
{
#ifdef EVTOOL_DIGEST_AVX2
	if (d->avx2) {
		evi_digest_avx2_update(d->state, p, n);
		return;
	}
#endif
	XXH3_64bits_update(d->state, p, n);
}

uint64_t evi_digest_value(const evi_digest *d)
{
#ifdef EVTOOL_DIGEST_AVX2
	if (d->avx2)
		return evi_digest_avx2_value(d->state);
#endif
	return XXH3_64bits_digest(d->state);
}

void evi_digest_free(evi_digest *d)
{
	if (!d)
		return;
#ifdef EVTOOL_DIGEST_AVX2
	if (d->avx2)
		evi_digest_avx2_free(d->state);
	else
#endif
		XXH3_freeState(d->state);
	free(d);
}
