/*
 * The bands of a heap profile as ev_stats reads them
 * (include/evtool/stats_heap.h), on the real logs heapdiff-{a,b}-hT
 * (testdata/src/heapdiff.hs: b keeps 20,000 boxed Doubles that a never
 * makes), against an independent reading of the same events here: each
 * HEAP_PROF_SAMPLE_STRING's label and residency (profile id u8, bytes
 * u64, label) between HEAP_PROF_SAMPLE_BEGIN and _END.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evtool/evtool.h"
#include "support.h"

#ifndef EVTOOL_TESTDATA
#define EVTOOL_TESTDATA "testdata"
#endif

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* One band's peak and sum over the samples, as read here. */
typedef struct oracle {
	const char *label;
	uint64_t samples, peak, sum, in_sample;
} oracle;

static void read_oracle(const char *log, oracle *o)
{
	char *path = ts_path(EVTOOL_TESTDATA, log);
	size_t len = strlen(o->label);
	ev_reader *r;
	ev_event ev;

	assert_int_equal(ev_reader_open_path(&r, path, 0), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	while (ev_reader_next(r, &ev) == EV_OK) {
		if (ev.type == EV_HEAP_PROF_SAMPLE_BEGIN) {
			o->samples++;
			o->in_sample = 0;
		} else if (ev.type == EV_HEAP_PROF_SAMPLE_STRING &&
			   ev.size >= 9 + len &&
			   memcmp(ev.payload + 9, o->label, len) == 0 &&
			   (ev.size == 9 + len || ev.payload[9 + len] == 0)) {
			o->in_sample += be64(ev.payload + 1);
			o->sum += be64(ev.payload + 1);
		} else if (ev.type == EV_HEAP_PROF_SAMPLE_END &&
			   o->in_sample > o->peak) {
			o->peak = o->in_sample;
		}
	}
	ev_reader_free(r);
	free(path);
}

static ev_stats *read_bands(const char *log)
{
	char *path = ts_path(EVTOOL_TESTDATA, log);
	ev_reader *r;
	ev_stats *st;

	assert_int_equal(ev_stats_new(&st), EV_OK);
	assert_int_equal(ev_stats_keep_bands(st), EV_OK);
	assert_int_equal(ev_reader_open_path(&r, path, 0), EV_OK);
	assert_int_equal(ev_reader_feed(r, ev_stats_consumer(), st), EV_END);
	assert_int_equal(ev_stats_finish(st), EV_OK);
	ev_reader_free(r);
	free(path);
	return st;
}

static const ev_stats_band *band(const ev_stats *st, const char *name)
{
	long i = ev_stats_band_find(st, name, strlen(name));

	return i >= 0 ? ev_stats_band_at(st, (size_t)i) : NULL;
}

/* Every band the oracle names, peak and mean as read here. */
static void check_band(const char *log, const char *label)
{
	oracle o = { label, 0, 0, 0, 0 };
	ev_stats *st = read_bands(log);
	ev_stats_heap_profile p;
	const ev_stats_band *b = band(st, label);

	read_oracle(log, &o);
	ev_stats_heap_profile_get(st, &p);
	assert_true(p.have);
	assert_int_equal(p.breakdown, 7); /* closure type, -hT */
	assert_string_equal(ev_stats_breakdown_flag(p.breakdown), "T");
	assert_int_equal(p.samples, o.samples);
	if (!o.sum) {
		assert_null(b);
	} else {
		assert_non_null(b);
		assert_int_equal(b->peak_bytes, o.peak);
		assert_int_equal(b->mean_bytes, o.sum / o.samples);
	}
	ev_stats_free(st);
}

static void bands_as_the_events_give_them(void **state)
{
	(void)state;
	check_band("heapdiff-a-hT.eventlog", "ghc-prim:GHC.Types.:");
	check_band("heapdiff-b-hT.eventlog", "ghc-prim:GHC.Types.:");
	check_band("heapdiff-a-hT.eventlog", "ghc-prim:GHC.Types.I#");
	check_band("heapdiff-b-hT.eventlog", "ghc-prim:GHC.Types.I#");
	check_band("heapdiff-a-hT.eventlog", "ghc-prim:GHC.Types.D#");
	check_band("heapdiff-b-hT.eventlog", "ghc-prim:GHC.Types.D#");
}

/* The known difference: 20,000 D# of 16 bytes in b, none in a. */
static void the_known_band(void **state)
{
	ev_stats *a = read_bands("heapdiff-a-hT.eventlog");
	ev_stats *b = read_bands("heapdiff-b-hT.eventlog");

	(void)state;
	assert_null(band(a, "ghc-prim:GHC.Types.D#"));
	assert_non_null(band(b, "ghc-prim:GHC.Types.D#"));
	assert_int_equal(band(b, "ghc-prim:GHC.Types.D#")->peak_bytes,
			 20000 * 16);
	assert_true(ev_stats_band_count(a) > 10);
	ev_stats_free(a);
	ev_stats_free(b);
}

/* A log without a heap profile: no bands, no profile. */
static void no_profile(void **state)
{
	ev_stats *st = read_bands("threads-n1.eventlog");
	ev_stats_heap_profile p;

	(void)state;
	ev_stats_heap_profile_get(st, &p);
	assert_false(p.have);
	assert_int_equal(ev_stats_band_count(st), 0);
	assert_null(ev_stats_breakdown_flag(0));
	ev_stats_free(st);
}

static void band_conditions(void **state)
{
	ev_stats_condition c;
	ev_diag d;

	(void)state;
	assert_int_equal(ev_stats_condition_parse(
		"band:ghc-prim:GHC.Types.D#.peak>+20%", &c, &d), EV_OK);
	assert_int_equal(c.subject, EV_STATS_OF_BAND);
	assert_int_equal(c.name_len, strlen("ghc-prim:GHC.Types.D#"));
	assert_int_equal(c.figure, 0);
	assert_int_equal(ev_stats_condition_parse("band:Double.mean <= 2MiB",
						  &c, &d), EV_OK);
	assert_int_equal(c.figure, 1);
	assert_true(c.value == 2097152.0);
	assert_int_equal(ev_stats_condition_parse("band:Double.max>1", &c, &d),
			 EV_EINVAL);
	assert_int_equal(ev_stats_condition_parse("band:Double.peak>5ms", &c,
						  &d), EV_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bands_as_the_events_give_them),
		cmocka_unit_test(the_known_band),
		cmocka_unit_test(no_profile),
		cmocka_unit_test(band_conditions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
