/*
 * evtool: the bands of a log's heap profile as an ev_stats accumulator
 * sees them, for comparing two runs' heaps (evtool stats A B). The
 * samples are read as export's hp format and the report read them (the
 * first heap profile of the log, HEAP_PROF_SAMPLE_* events); per band (a
 * closure type, cost-centre stack, type, module, ... as the profile's
 * breakdown says) the accumulator keeps its peak residency over the
 * samples and its mean (its residency summed over every sample, 0 in a
 * sample without it, over the number of samples). Bounded:
 * EV_STATS_MAX_BANDS bands, further ones summed into one "(other)".
 *
 *     ev_stats_keep_bands(st);              // before the first event
 *     ev_reader_feed(reader, ev_stats_consumer(), st);
 *     ev_stats_finish(st);
 *     ev_stats_heap_profile_get(st, &profile);
 *     for (size_t i = 0; i < ev_stats_band_count(st); i++)
 *             use(ev_stats_band_at(st, i));
 */
#ifndef EVTOOL_STATS_HEAP_H
#define EVTOOL_STATS_HEAP_H

#include "common.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bands kept one by one; the rest are summed into "(other)". */
#define EV_STATS_MAX_BANDS 4096u

/** The heap profile of a log. */
typedef struct ev_stats_heap_profile {
	int have;            /**< the log has a HEAP_PROF_BEGIN */
	uint32_t breakdown;  /**< HEAP_PROF_BEGIN's: 1 cost centre (-hc),
				  2 module (-hm), 3 closure description
				  (-hd), 4 type (-hy), 5 retainer (-hr),
				  6 biography (-hb), 7 closure type (-hT),
				  8 info table (-hi), 9 era (-he) */
	uint64_t samples;    /**< samples read */
} ev_stats_heap_profile;

/** One band over the samples. */
typedef struct ev_stats_band {
	const char *name;    /**< its band name; "(other)" for the rest */
	uint64_t peak_bytes; /**< its largest residency in one sample */
	uint64_t mean_bytes; /**< its residency summed / samples */
	uint64_t sampled;    /**< samples it appears in */
} ev_stats_band;

/** Reads the heap profile's bands (the log's first profile). Call it
 *  before the first event; EV_OK, or EV_EINVAL after one. */
EV_API int ev_stats_keep_bands(ev_stats *st);

/** The profile, after ev_stats_finish (have 0 without one). */
EV_API void ev_stats_heap_profile_get(const ev_stats *st,
				      ev_stats_heap_profile *out);

/** Bands, first seen first, "(other)" last when there is one; after
 *  ev_stats_finish. */
EV_API size_t ev_stats_band_count(const ev_stats *st);

/** Band `i`, or NULL out of range. Owned by `st`, valid until the free. */
EV_API const ev_stats_band *ev_stats_band_at(const ev_stats *st, size_t i);

/** The index of the band named `name` (`len` bytes), or -1. */
EV_API long ev_stats_band_find(const ev_stats *st, const char *name,
			       size_t len);

/** The -h flag letter(s) of breakdown `b` ("T" for 7), or NULL. */
EV_API const char *ev_stats_breakdown_flag(uint32_t b);

#ifdef __cplusplus
}
#endif

#endif
