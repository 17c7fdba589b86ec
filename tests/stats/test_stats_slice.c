/*
 * stats on a slice of a run (include/evtool/stats.h, ev_stats_process's
 * slice): gc-n2's events cut by the library's own filter (ev_filter_set_time,
 * as `evtool filter --from --to` does), summarised, and checked against
 * figures computed here from the kept events' payloads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evtool/evtool.h"
#include "filter_internal.h" /* the learning protocol, driven event by event */
#include "internal.h"
#include "support.h"

#ifndef EVTOOL_TESTDATA
#define EVTOOL_TESTDATA "testdata"
#endif

#define MAX_CAPS 8

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* What the kept events say: per cap the first and last HEAP_ALLOCATED,
 * and the first event of a cap that is not metadata. */
typedef struct expected {
	int have[MAX_CAPS];
	uint64_t first[MAX_CAPS], last[MAX_CAPS];
	int have_work;
	uint64_t work;
} expected;

static void note(expected *x, const ev_event *ev)
{
	if (ev->cap == EV_NO_CAP || ev->type == EV_BLOCK_MARKER)
		return;
	assert_true(ev->cap < MAX_CAPS);
	if (!evi_type_is_metadata(ev->type) &&
	    (!x->have_work || ev->time < x->work)) {
		x->work = ev->time;
		x->have_work = 1;
	}
	if (ev->type == EV_HEAP_ALLOCATED) {
		uint64_t v = be64(ev->payload + 4);
		if (!x->have[ev->cap])
			x->first[ev->cap] = v;
		x->last[ev->cap] = v;
		x->have[ev->cap] = 1;
	}
}

/* One learning pass of `f` over the log at `path`. */
static void learn(ev_filter *f, const char *path, unsigned pass)
{
	ev_reader *r;
	ev_event ev;

	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	while (ev_reader_next(r, &ev) == EV_OK)
		assert_int_equal(evi_filter_learn(f, pass, 0, &ev), EV_OK);
	ev_reader_free(r);
	assert_int_equal(evi_filter_end_learning(f, pass), EV_OK);
}

/* Summarises gc-n2 filtered to [from, to) (NULL: no filter). */
static ev_stats *slice(const char *from, const char *to, expected *x)
{
	char *path = ts_path(EVTOOL_TESTDATA, "gc-n2.eventlog");
	ev_filter *f = NULL;
	ev_stats *st;
	ev_reader *r;
	ev_event ev, kept;

	memset(x, 0, sizeof *x);
	assert_int_equal(ev_stats_new(&st, NULL), EV_OK);
	if (from) {
		assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
		assert_int_equal(ev_filter_set_time(f, from, to, 0), EV_OK);
		for (unsigned pass = 0; pass < evi_filter_learning_passes(f);
		     pass++)
			learn(f, path, pass);
	}
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	while (ev_reader_next(r, &ev) == EV_OK) {
		if (f && evi_filter_apply(f, 0, &ev, &kept) != 1)
			continue;
		note(x, &ev);
		assert_int_equal(ev_stats_add(st, &ev), EV_OK);
	}
	ev_reader_free(r);
	ev_filter_free(f);
	free(path);
	assert_int_equal(ev_stats_finish(st), EV_OK);
	assert_int_equal(ev_stats_process_count(st), 1);
	return st;
}

static uint64_t allocated_since_first(const expected *x)
{
	uint64_t sum = 0;

	for (int c = 0; c < MAX_CAPS; c++)
		if (x->have[c])
			sum += x->last[c] - x->first[c];
	return sum;
}

static void test_slices_count_from_their_start(void **state)
{
	static const char *const windows[][2] = { { "10ms", "20ms" },
						  { "20ms", "30ms" } };
	expected whole, x;
	ev_stats *all = slice(NULL, NULL, &whole);
	const ev_stats_process *w = ev_stats_process_at(all, 0);

	(void)state;
	assert_false(w->slice);
	assert_int_equal(w->start_ns, 0);
	for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++) {
		ev_stats *st = slice(windows[i][0], windows[i][1], &x);
		const ev_stats_process *p = ev_stats_process_at(st, 0);
		assert_true(p->slice);
		assert_int_equal(p->slice_start_ns, x.work);
		assert_int_equal(p->start_ns, x.work);
		assert_int_equal(p->allocated_bytes, allocated_since_first(&x));
		assert_true(p->allocated_bytes < w->allocated_bytes);
		assert_int_equal(p->elapsed_ns, p->end_ns - x.work);
		assert_true(p->elapsed_ns <= 10000000u);
		ev_stats_free(st);
	}
	ev_stats_free(all);
}

/* A window that starts with the run is the run's start: counted from 0. */
static void test_window_at_the_start_is_no_slice(void **state)
{
	expected x;
	ev_stats *st = slice("0", "10ms", &x);
	const ev_stats_process *p = ev_stats_process_at(st, 0);

	(void)state;
	assert_false(p->slice);
	assert_int_equal(p->start_ns, 0);
	ev_stats_free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slices_count_from_their_start),
		cmocka_unit_test(test_window_at_the_start_is_no_slice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
