/*
 * The xxh3-64 of a stream of bytes, hashed piece by piece (the log's
 * digest that info prints and archives store): libxxhash's, or, where
 * the processor has AVX2, the same function compiled for it (about three
 * times as fast; digest_avx2.c), chosen once at run time. Both give the
 * same value.
 *
 * Layering: lib/common calls nothing else of the library.
 */
#ifndef EVTOOL_LIB_DIGEST_H
#define EVTOOL_LIB_DIGEST_H

#include <stddef.h>
#include <stdint.h>

typedef struct evi_digest evi_digest;

/* A digest of no bytes yet: EV_OK and *out, or EV_ENOMEM. */
int evi_digest_new(evi_digest **out);

void evi_digest_update(evi_digest *d, const void *p, size_t n);

/* The digest of the bytes so far. */
uint64_t evi_digest_value(const evi_digest *d);

/* NULL is fine. */
void evi_digest_free(evi_digest *d);

#endif
