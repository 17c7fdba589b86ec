/*
 * Tests of ev_wall_clock_epoch (include/evtool/decode.h) on a real GHC
 * 9.0.2 log: the epoch of its WALL_CLOCK_TIME against an independent walk
 * of its bytes (support.h), and copies of the log whose WALL_CLOCK_TIME is
 * damaged in memory (nanoseconds of 10^9, seconds past year 2255), which
 * the decode layer and the process list reject with the event's offset.
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

#define NS_PER_SEC 1000000000ull

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

static void put_be32(uint8_t *p, uint32_t v)
{
	for (int i = 3; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

typedef struct fixture {
	uint8_t *log;
	size_t len;
	ts_log walk;
	const ts_event *wall; /* the walker's WALL_CLOCK_TIME */
} fixture;

static void load(fixture *fx)
{
	fx->log = ts_load(EVTOOL_TESTDATA, "threads-n2.eventlog", &fx->len);
	assert_non_null(fx->log);
	assert_true(ts_walk(fx->log, fx->len, &fx->walk));
	fx->wall = NULL;
	for (size_t i = 0; i < fx->walk.count && !fx->wall; i++)
		if (fx->walk.events[i].type == EV_WALL_CLOCK_TIME)
			fx->wall = &fx->walk.events[i];
	assert_non_null(fx->wall);
	assert_int_equal(fx->wall->size, 16);
}

static void unload(fixture *fx)
{
	ts_log_free(&fx->walk);
	free(fx->log);
}

/* The library's reading of the event at the walker's offset. */
static void read_wall(const fixture *fx, ev_reader **r, ev_event *ev)
{
	assert_int_equal(ev_reader_open_memory(r, fx->log, fx->len, "m", 0,
					       NULL),
			 EV_OK);
	assert_int_equal(ev_reader_read_header(*r), EV_OK);
	while (ev_reader_next(*r, ev) == EV_OK)
		if (ev->offset == fx->wall->offset)
			return;
	fail_msg("the reader never reached offset %llu",
		 (unsigned long long)fx->wall->offset);
}

/* Payload: capset u32, seconds u64, nanoseconds u32 (doc/format.md s. 6). */
static int64_t walker_epoch(const fixture *fx)
{
	const uint8_t *p = ts_payload(fx->log, fx->wall);
	return (int64_t)(be64(p + 4) * NS_PER_SEC + be32(p + 12)) -
	       (int64_t)fx->wall->time;
}

static void test_epoch_of_real_log(void **state)
{
	fixture fx;
	ev_reader *r;
	ev_event ev;
	int64_t epoch = 0;
	(void)state;

	load(&fx);
	read_wall(&fx, &r, &ev);
	assert_int_equal(ev_wall_clock_epoch(&ev, &epoch, NULL), EV_OK);
	assert_true(epoch == walker_epoch(&fx));
	assert_true(epoch > 0);
	ev_reader_free(r);
	unload(&fx);
}

/* Rewrites the WALL_CLOCK_TIME's seconds and nanoseconds in place. */
static void damage(fixture *fx, uint64_t sec, uint32_t nsec)
{
	uint8_t *p = fx->log + (ts_payload(fx->log, fx->wall) - fx->log);
	put_be64(p + 4, sec);
	put_be32(p + 12, nsec);
}

static void expect_rejected(fixture *fx, uint64_t sec, uint32_t nsec)
{
	ev_reader *r;
	ev_event ev;
	ev_diag d;
	int64_t epoch = 42;
	char want[96];

	damage(fx, sec, nsec);
	read_wall(fx, &r, &ev);
	assert_int_equal(ev_wall_clock_epoch(&ev, &epoch, &d), EV_EFORMAT);
	assert_true(epoch == 42); /* untouched */
	assert_int_equal(d.status, EV_EFORMAT);
	assert_int_equal(d.offset, fx->wall->offset);
	snprintf(want, sizeof want, "WALL_CLOCK_TIME %llu s %lu ns is not a "
		 "clock reading", (unsigned long long)sec, (unsigned long)nsec);
	assert_string_equal(d.message, want);
	/* no diag: still rejected */
	assert_int_equal(ev_wall_clock_epoch(&ev, &epoch, NULL), EV_EFORMAT);
	ev_reader_free(r);
}

static void test_nanoseconds_of_a_second_or_more(void **state)
{
	fixture fx;
	uint64_t sec;
	(void)state;

	load(&fx);
	sec = be64(ts_payload(fx.log, fx.wall) + 4);
	expect_rejected(&fx, sec, 1000000000u);
	expect_rejected(&fx, sec, UINT32_MAX);
	unload(&fx);
}

static void test_seconds_past_2255(void **state)
{
	fixture fx;
	(void)state;

	load(&fx);
	expect_rejected(&fx, EV_WALL_CLOCK_MAX_SEC + 1, 0);
	expect_rejected(&fx, UINT64_MAX, 0);
	unload(&fx);
}

/* The largest values that are still a clock: accepted, exactly. */
static void test_bounds_accepted(void **state)
{
	fixture fx;
	ev_reader *r;
	ev_event ev;
	int64_t epoch;
	(void)state;

	load(&fx);
	damage(&fx, EV_WALL_CLOCK_MAX_SEC, 999999999u);
	read_wall(&fx, &r, &ev);
	assert_int_equal(ev_wall_clock_epoch(&ev, &epoch, NULL), EV_OK);
	assert_true(epoch == walker_epoch(&fx));
	ev_reader_free(r);
	unload(&fx);
}

/* An event of another type, or one cut before the nanoseconds, holds no
 * clock: EV_EINVAL, and the diag is left alone. */
static void test_no_clock_in_event(void **state)
{
	fixture fx;
	ev_reader *r;
	ev_event ev, cut;
	ev_diag d;
	int64_t epoch;
	(void)state;

	load(&fx);
	read_wall(&fx, &r, &ev);
	memset(&d, 0, sizeof d);
	cut = ev;
	cut.size = 15;
	assert_int_equal(ev_wall_clock_epoch(&cut, &epoch, &d), EV_EINVAL);
	cut = ev;
	cut.type = EV_PROGRAM_ARGS;
	assert_int_equal(ev_wall_clock_epoch(&cut, &epoch, &d), EV_EINVAL);
	assert_int_equal(d.status, 0);
	ev_reader_free(r);
	unload(&fx);
}

/* The process list goes through the same check: the damaged event is
 * refused with its offset, and no process claims a wall clock from it. */
static void test_process_list_rejects(void **state)
{
	fixture fx;
	ev_process_list *pl;
	ev_reader *r;
	ev_event ev;
	int rc, refused = 0;
	(void)state;

	load(&fx);
	damage(&fx, be64(ts_payload(fx.log, fx.wall) + 4), 1000000000u);
	assert_int_equal(ev_process_list_new(&pl, NULL), EV_OK);
	assert_int_equal(ev_reader_open_memory(&r, fx.log, fx.len, "m", 0,
					       NULL),
			 EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
		int added = ev_process_list_add(pl, &ev);
		if (ev.offset == fx.wall->offset) {
			assert_int_equal(added, EV_EFORMAT);
			refused = 1;
		} else {
			assert_int_equal(added, EV_OK);
		}
	}
	assert_int_equal(rc, EV_END);
	assert_true(refused);
	assert_int_equal(ev_process_list_diag(pl)->offset, fx.wall->offset);
	assert_int_equal(ev_process_list_finish(pl), EV_OK);
	assert_int_equal(ev_process_list_count(pl), 1);
	assert_false(ev_process_list_at(pl, 0)->have_wall);
	ev_process_list_free(pl);
	ev_reader_free(r);
	unload(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_epoch_of_real_log),
		cmocka_unit_test(test_nanoseconds_of_a_second_or_more),
		cmocka_unit_test(test_seconds_past_2255),
		cmocka_unit_test(test_bounds_accepted),
		cmocka_unit_test(test_no_clock_in_event),
		cmocka_unit_test(test_process_list_rejects),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
