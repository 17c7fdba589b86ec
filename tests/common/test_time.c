/* Unit tests for the one time grammar of every option (lib/common/time.c:
 * ev_time_parse, ev_duration_parse). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evtool/reader.h"
#include "evtool/show.h"
#include "support.h"

#ifndef EVTOOL_TESTDATA
#define EVTOOL_TESTDATA "testdata"
#endif

static void expect_time(const char *text, ev_time_base want_base,
			uint64_t want_ns)
{
	ev_time_base base = (ev_time_base)-1;
	uint64_t ns = 0;

	if (ev_time_parse(text, &base, &ns) != EV_OK)
		fail_msg("'%s' was refused", text);
	if (base != want_base || ns != want_ns)
		fail_msg("'%s': base %d, %llu ns; want base %d, %llu ns", text,
			 (int)base, (unsigned long long)ns, (int)want_base,
			 (unsigned long long)want_ns);
}

static void expect_refused(const char *text)
{
	ev_time_base base;
	uint64_t ns;

	if (ev_time_parse(text, &base, &ns) != EV_EINVAL)
		fail_msg("'%s' was accepted as %llu ns", text,
			 (unsigned long long)ns);
}

/* Bare numbers are nanoseconds; units scale; decimals are exact. */
static void test_numbers_and_units(void **state)
{
	(void)state;
	expect_time("0", EV_TIME_RAW, 0);
	expect_time("1979690", EV_TIME_RAW, 1979690);
	expect_time("18446744073709551615", EV_TIME_RAW, UINT64_MAX);
	expect_time("5ns", EV_TIME_RAW, 5);
	expect_time("250us", EV_TIME_RAW, 250000);
	expect_time("250\xc2\xb5s", EV_TIME_RAW, 250000);
	expect_time("1.5ms", EV_TIME_RAW, 1500000);
	expect_time("2s", EV_TIME_RAW, 2000000000);
	expect_time("1.25m", EV_TIME_RAW, 75000000000ull);
	expect_time("2h", EV_TIME_RAW, 7200000000000ull);
	expect_time("0.000000001s", EV_TIME_RAW, 1);
	expect_time("1.5h", EV_TIME_RAW, 5400000000000ull);
	/* A sum of terms, blanks between number and unit allowed. */
	expect_time("1m 30s", EV_TIME_RAW, 90000000000ull);
	expect_time("227240 ns", EV_TIME_RAW, 227240);
	expect_time("0.030057 s", EV_TIME_RAW, 30057000);
	/* @ is optional; + counts from the first event. */
	expect_time("@1979690", EV_TIME_RAW, 1979690);
	expect_time("@10ms", EV_TIME_RAW, 10000000);
	expect_time("+10ms", EV_TIME_RELATIVE, 10000000);
	expect_time("+0", EV_TIME_RELATIVE, 0);
	/* Pasted with show's colon and blanks around. */
	expect_time("  1979690: ", EV_TIME_RAW, 1979690);
}

static void test_wall_clock(void **state)
{
	(void)state;
	/* As info prints the wall clock of threads-n2. */
	expect_time("2026-11-22T03:25:55.998210310Z", EV_TIME_WALL,
		    1795317955998210310ull);
	expect_time("2026-11-22T04:25:56.1+01:00", EV_TIME_WALL,
		    1795317956100000000ull);
	expect_time("2024-05-01 12:00:00.25+02:00", EV_TIME_WALL,
		    1714557600250000000ull);
	expect_time("1970-01-01T00:00Z", EV_TIME_WALL, 0);
	expect_refused("2024-13-01T00:00Z");
	expect_refused("2024-05-01T25:00Z");
	expect_refused("2024-05-01T12:00+1");
}

static void test_refused(void **state)
{
	(void)state;
	expect_refused("");
	expect_refused("   ");
	expect_refused("@");
	expect_refused("+");
	expect_refused("ms");
	expect_refused("1.5");      /* a fraction of what? */
	expect_refused("1.");
	expect_refused("1.2.3ms");
	expect_refused("10 20");    /* two bare numbers */
	expect_refused("10ms 20");  /* a bare number after a term */
	expect_refused("10 ms5");
	expect_refused("10min");
	expect_refused("10msec");
	expect_refused("-5ms");     /* a time is not negative */
	expect_refused("18446744073709551616");
	expect_refused("18446744073709551615ns 1ns");
	expect_refused("5124096h");
	expect_refused("x");
}

static void test_null(void **state)
{
	ev_time_base base;
	uint64_t ns;
	int64_t shift;

	(void)state;
	assert_int_equal(ev_time_parse(NULL, &base, &ns), EV_EINVAL);
	assert_int_equal(ev_duration_parse(NULL, &shift), EV_EINVAL);
}

static void test_durations(void **state)
{
	int64_t ns;

	(void)state;
	assert_int_equal(ev_duration_parse("+15ms", &ns), EV_OK);
	assert_int_equal(ns, 15000000);
	assert_int_equal(ev_duration_parse("-1.5s", &ns), EV_OK);
	assert_int_equal(ns, -1500000000);
	assert_int_equal(ev_duration_parse("300us", &ns), EV_OK);
	assert_int_equal(ns, 300000);
	assert_int_equal(ev_duration_parse("-250", &ns), EV_OK);
	assert_int_equal(ns, -250);
	assert_int_equal(ev_duration_parse("9223372036854775807", &ns), EV_OK);
	assert_int_equal(ns, INT64_MAX);
	assert_int_equal(ev_duration_parse("9223372036854775808", &ns),
			 EV_EINVAL);
	assert_int_equal(ev_duration_parse("@5ms", &ns), EV_EINVAL);
	assert_int_equal(ev_duration_parse("+-5ms", &ns), EV_EINVAL);
	assert_int_equal(ev_duration_parse("2024-05-01T12:00Z", &ns),
			 EV_EINVAL);
}

/* The time in front of one shown line, up to its first ':'. */
static uint64_t parse_shown(const ev_text *t)
{
	const char *colon = memchr(t->data, ':', t->len);
	char buf[64];
	ev_time_base base;
	uint64_t ns = 0;
	size_t len;

	assert_non_null(colon);
	len = (size_t)(colon - t->data) + 1; /* the colon too, as pasted */
	assert_true(len < sizeof buf);
	memcpy(buf, t->data, len);
	buf[len] = '\0';
	if (ev_time_parse(buf, &base, &ns) != EV_OK || base != EV_TIME_RAW)
		fail_msg("show printed '%s', which does not parse", buf);
	return ns;
}

static void expect_shown(const ev_show *plain, const ev_show *pretty,
			 const ev_event *ev)
{
	ev_text a = EV_TEXT_INIT, b = EV_TEXT_INIT;

	assert_int_equal(ev_show_event(plain, ev, &a), EV_OK);
	assert_int_equal(ev_show_event(pretty, ev, &b), EV_OK);
	if (parse_shown(&a) != ev->time || parse_shown(&b) != ev->time)
		fail_msg("time %llu shown as '%.*s' and '%.*s' reads back as "
			 "%llu and %llu", (unsigned long long)ev->time,
			 (int)a.len - 1, a.data, (int)b.len - 1, b.data,
			 (unsigned long long)parse_shown(&a),
			 (unsigned long long)parse_shown(&b));
	ev_text_free(&a);
	ev_text_free(&b);
}

/* Every timestamp show prints, plain and --pretty-time, reads back as
 * the event's time: those of a real log, and times whose pretty form
 * pads the nanoseconds ("456.7  us" is 456 us and 7 ns). */
static void test_show_round_trip(void **state)
{
	static const uint64_t times[] = { 0, 7, 70, 700, 456007, 456070,
					  1023456007, 61000000001ull,
					  3600000000999ull };
	char *path = ts_path(EVTOOL_TESTDATA, "threads-n2.eventlog");
	ev_reader *r;
	ev_show *plain, *pretty;
	ev_event ev;
	int rc;
	size_t n = 0;

	(void)state;
	assert_int_equal(ev_reader_open_path(&r, path, 0), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	assert_int_equal(ev_show_new(&plain, ev_reader_header(r), EV_SHOW_TEXT,
				     0), EV_OK);
	assert_int_equal(ev_show_new(&pretty, ev_reader_header(r),
				     EV_SHOW_TEXT, EV_SHOW_PRETTY_TIME), EV_OK);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
		expect_shown(plain, pretty, &ev);
		if (n++ == 0)
			for (size_t i = 0; i < sizeof times / sizeof *times;
			     i++) {
				ev_event at = ev;
				at.time = times[i];
				expect_shown(plain, pretty, &at);
			}
	}
	assert_int_equal(rc, EV_END);
	assert_true(n > 1000);
	ev_show_free(plain);
	ev_show_free(pretty);
	ev_reader_free(r);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers_and_units),
		cmocka_unit_test(test_wall_clock),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_null),
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_show_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
