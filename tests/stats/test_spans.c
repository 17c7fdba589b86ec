/*
 * Spans of the user's own code (include/evtool/stats_spans.h) on the real
 * logs spans-a and spans-b (testdata/src/spans.hs): sleeps of 20 ms (a)
 * or 30 ms (b), 10 ms jobs on a second thread, computations, overlapping
 * and nested names, markers 5 ms apart, a STOP without its START and a
 * START never stopped. The program posts what it measured itself
 * ("measured NAME NS", GHC.Clock: the clock the RTS stamps events with)
 * after each bracketed phase; each span must match it within the clock's
 * noise: the program's reading comes just before the START is posted and
 * just after the STOP, so it is a little longer, never shorter.
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

#define MAX_SPANS 64
#define MS 1000000ull
/* What the program's own reading may add to a span: two clock readings
 * and the posting of two events. */
#define NOISE_NS 200000ull

typedef struct span_list {
	size_t n;
	char name[MAX_SPANS][32];
	uint32_t tid[MAX_SPANS];
	uint64_t ns[MAX_SPANS];
} span_list;

static void on_span(void *ctx, const ev_stats_span_end *s)
{
	span_list *l = ctx;

	assert_true(l->n < MAX_SPANS);
	snprintf(l->name[l->n], sizeof l->name[0], "%s", s->span->name);
	l->tid[l->n] = s->tid;
	l->ns[l->n++] = s->duration_ns;
}

/* The spans of `log` (kinds `kinds`), each as it ended, into `l`; the
 * finished accumulator returned. */
static ev_stats *read_spans(const char *log, unsigned kinds, span_list *l)
{
	char *path = ts_path(EVTOOL_TESTDATA, log);
	ev_reader *r;
	ev_stats *st;

	memset(l, 0, sizeof *l);
	assert_int_equal(ev_stats_new(&st), EV_OK);
	assert_int_equal(ev_stats_keep_spans(st, kinds), EV_OK);
	ev_stats_on_span(st, on_span, l);
	assert_int_equal(ev_reader_open_path(&r, path, 0), EV_OK);
	assert_int_equal(ev_reader_feed(r, ev_stats_consumer(), st), EV_END);
	assert_int_equal(ev_stats_finish(st), EV_OK);
	ev_reader_free(r);
	free(path);
	return st;
}

/* The program's own "measured NAME NS" messages, in the log's order. */
static void read_measured(const char *log, span_list *l)
{
	char *path = ts_path(EVTOOL_TESTDATA, log);
	ev_reader *r;
	ev_event ev;

	memset(l, 0, sizeof *l);
	assert_int_equal(ev_reader_open_path(&r, path, 0), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	while (ev_reader_next(r, &ev) == EV_OK) {
		char text[64];
		unsigned long long ns;
		if (ev.type != EV_USER_MSG || ev.size >= sizeof text)
			continue;
		memcpy(text, ev.payload, ev.size);
		text[ev.size] = '\0';
		if (sscanf(text, "measured %31s %llu", l->name[l->n], &ns) != 2)
			continue;
		assert_true(l->n < MAX_SPANS - 1);
		l->ns[l->n++] = ns;
	}
	ev_reader_free(r);
	free(path);
}

static const ev_stats_span *named(const ev_stats *st, const char *name)
{
	long i = ev_stats_span_find(st, name, strlen(name), 0);

	assert_true(i >= 0);
	return ev_stats_span_at(st, (size_t)i);
}

/* Every span of a bracketed phase matches the program's own reading, in
 * order per name: never longer, at most NOISE_NS shorter. */
static void check_measured(const char *log, uint64_t sleep_ns)
{
	span_list spans, measured;
	ev_stats *st = read_spans(log, EV_STATS_SPANS_EVENTS, &spans);
	size_t matched = 0;

	read_measured(log, &measured);
	assert_int_equal(measured.n, 13); /* 3 jobs, 5 sleeps, 4 works, outer */
	for (size_t m = 0; m < measured.n; m++) {
		size_t k = 0, s = 0;
		for (size_t i = 0; i < m; i++)
			k += strcmp(measured.name[i], measured.name[m]) == 0;
		for (;; s++) { /* the k-th span of that name */
			assert_true(s < spans.n);
			if (strcmp(spans.name[s], measured.name[m]) == 0 &&
			    k-- == 0)
				break;
		}
		assert_true(spans.ns[s] <= measured.ns[m]);
		assert_true(measured.ns[m] - spans.ns[s] < NOISE_NS);
		if (strcmp(spans.name[s], "sleep") == 0) {
			assert_true(spans.ns[s] >= sleep_ns);
			assert_true(spans.ns[s] < sleep_ns + 5 * MS);
		}
		matched++;
	}
	assert_int_equal(matched, 13);
	assert_int_equal(named(st, "sleep")->all.count, 5);
	assert_int_equal(named(st, "work")->all.count, 4);
	assert_int_equal(named(st, "job")->all.count, 3);
	ev_stats_free(st);
}

static void spans_match_the_programs_clock(void **state)
{
	(void)state;
	check_measured("spans-a.eventlog", 20 * MS);
	check_measured("spans-b.eventlog", 30 * MS);
}

/* Nested, overlapping, unmatched and unstopped; per thread. */
static void spans_pair_per_name_and_thread(void **state)
{
	span_list l;
	ev_stats *st = read_spans("spans-a.eventlog", EV_STATS_SPANS_EVENTS,
				  &l);
	const ev_stats_span *nest = named(st, "nest"), *a = named(st, "a");
	const ev_stats_span *b = named(st, "b"), *outer = named(st, "outer");
	const ev_stats_span *sleep = named(st, "sleep"), *job = named(st, "job");
	ev_stats_spans_summary sum;

	(void)state;
	/* START nest, START nest, 3 ms, STOP (the inner), 3 ms, STOP. */
	assert_int_equal(nest->all.count, 2);
	assert_true(nest->all.min_ns >= 3 * MS && nest->all.min_ns < 4 * MS);
	assert_true(nest->all.max_ns >= 6 * MS && nest->all.max_ns < 8 * MS);
	/* a: START a, 2 ms, START b, 2 ms, STOP a; b: 2 ms more. */
	assert_true(a->all.total_ns >= 4 * MS && a->all.total_ns < 5 * MS);
	assert_true(b->all.total_ns >= 4 * MS && b->all.total_ns < 5 * MS);
	/* outer holds every sleep and work span of the main thread. */
	assert_true(outer->all.total_ns >= sleep->all.total_ns +
					    named(st, "work")->all.total_ns);
	assert_int_equal(named(st, "orphan")->unmatched_stops, 1);
	assert_int_equal(named(st, "orphan")->all.count, 0);
	assert_int_equal(named(st, "leak")->unstopped, 1);
	ev_stats_spans_summary_get(st, &sum);
	assert_int_equal(sum.unmatched_stops, 1);
	assert_int_equal(sum.unstopped, 1);
	assert_int_equal(sum.spans, 17);
	/* One thread each; the job runs on another thread than main. */
	assert_int_equal(sleep->n_threads, 1);
	assert_int_equal(job->n_threads, 1);
	assert_int_not_equal(sleep->threads[0].tid, 0);
	assert_int_not_equal(job->threads[0].tid, 0);
	assert_int_not_equal(sleep->threads[0].tid, job->threads[0].tid);
	assert_int_equal(sleep->threads[0].tid, outer->threads[0].tid);
	/* Percentiles of 5 sleeps: nearest rank, among the longest kept. */
	assert_true(sleep->all.p50_ns <= sleep->all.p90_ns);
	assert_int_equal(sleep->all.p99_ns, sleep->all.max_ns);
	assert_int_equal(sleep->all.mean_ns, sleep->all.total_ns / 5);
	ev_stats_free(st);
}

/* Markers 5 ms apart: four spans between five markers "frame". */
static void spans_between_markers(void **state)
{
	span_list l;
	ev_stats *st = read_spans("spans-a.eventlog", EV_STATS_SPANS_MARKERS,
				  &l);
	const ev_stats_span *frame;

	(void)state;
	assert_int_equal(ev_stats_span_count(st), 1);
	frame = ev_stats_span_at(st, 0);
	assert_string_equal(frame->name, "frame");
	assert_int_equal(frame->kind, EV_STATS_SPANS_MARKERS);
	assert_int_equal(frame->all.count, 4);
	assert_int_equal(frame->unstopped, 0);
	assert_true(frame->all.min_ns >= 5 * MS);
	assert_true(frame->all.max_ns < 8 * MS);
	assert_int_equal(ev_stats_span_find(st, "sleep", 5, 0), -1);
	ev_stats_free(st);
}

/* The gate's span figures parse, and refuse what they cannot name. */
static void span_conditions(void **state)
{
	ev_stats_condition c;
	ev_diag d;

	(void)state;
	assert_int_equal(ev_stats_condition_parse("span:handle.p99>+10%", &c,
						  &d), EV_OK);
	assert_int_equal(c.subject, EV_STATS_OF_SPAN);
	assert_int_equal(c.name_len, 6);
	assert_memory_equal(c.name, "handle", 6);
	assert_int_equal(c.figure, EV_STATS_SPAN_P99);
	assert_true(c.relative);
	assert_int_equal(ev_stats_condition_parse("span:a.b.total <= 1.5ms",
						  &c, &d), EV_OK);
	assert_int_equal(c.name_len, 3); /* "a.b": to the last '.' */
	assert_int_equal(c.figure, EV_STATS_SPAN_TOTAL);
	assert_true(c.value == 1500000.0);
	assert_int_equal(ev_stats_condition_parse("span:x.count>=3", &c, &d),
			 EV_OK);
	assert_true(c.value == 3.0);
	assert_int_equal(ev_stats_condition_parse("span:x.p98>1ms", &c, &d),
			 EV_EINVAL);
	assert_non_null(strstr(d.message, "p98"));
	assert_int_equal(ev_stats_condition_parse("span:x>1ms", &c, &d),
			 EV_EINVAL);
	assert_int_equal(ev_stats_condition_parse("span:x.max>1GiB", &c, &d),
			 EV_EINVAL);
}

static void keep_spans_before_events_only(void **state)
{
	ev_stats *st;
	ev_event ev = { 0 };

	(void)state;
	assert_int_equal(ev_stats_new(&st), EV_OK);
	assert_int_equal(ev_stats_keep_spans(st, 0), EV_EINVAL);
	ev.type = EV_GC_START;
	ev.cap = 0;
	assert_int_equal(ev_stats_add(st, &ev), EV_OK);
	assert_int_equal(ev_stats_keep_spans(st, EV_STATS_SPANS_EVENTS),
			 EV_EINVAL);
	assert_int_equal(ev_stats_span_count(st), 0);
	ev_stats_free(st);
}

/* A user message `text` at `time` on cap 0 (no thread runs there). */
static int add_message(ev_stats *st, const char *text, uint64_t time)
{
	ev_event ev = { 0 };

	ev.type = EV_USER_MSG;
	ev.cap = 0;
	ev.time = time;
	ev.payload = (const uint8_t *)text;
	ev.size = (uint32_t)strlen(text);
	return ev_stats_add(st, &ev);
}

/* Hostile numbers of names and of open spans stay within the limits and
 * are counted, not kept. */
static void spans_within_their_limits(void **state)
{
	ev_stats *st;
	ev_stats_spans_summary sum;
	char text[64];
	unsigned names = EV_STATS_MAX_SPAN_NAMES + 44;

	(void)state;
	assert_int_equal(ev_stats_new(&st), EV_OK);
	assert_int_equal(ev_stats_keep_spans(st, EV_STATS_SPANS_EVENTS), EV_OK);
	for (unsigned i = 0; i < names; i++) {
		snprintf(text, sizeof text, "START name %u", i);
		assert_int_equal(add_message(st, text, i), EV_OK);
		snprintf(text, sizeof text, "STOP name %u", i);
		assert_int_equal(add_message(st, text, i + 10), EV_OK);
	}
	assert_int_equal(ev_stats_finish(st), EV_OK);
	ev_stats_spans_summary_get(st, &sum);
	assert_int_equal(ev_stats_span_count(st), EV_STATS_MAX_SPAN_NAMES);
	/* 44 names past the limit: their STARTs and STOPs. */
	assert_int_equal(sum.dropped, 2 * 44);
	assert_int_equal(sum.spans, EV_STATS_MAX_SPAN_NAMES);
	assert_int_equal(ev_stats_span_at(st, 0)->all.max_ns, 10);
	assert_int_equal(ev_stats_span_at(st, 0)->threads[0].tid, 0);
	ev_stats_free(st);

	/* STARTs never stopped: past EV_STATS_MAX_OPEN_SPANS, dropped; a
	 * STOP closes the latest kept one. */
	assert_int_equal(ev_stats_new(&st), EV_OK);
	assert_int_equal(ev_stats_keep_spans(st, EV_STATS_SPANS_EVENTS), EV_OK);
	for (unsigned i = 0; i < EV_STATS_MAX_OPEN_SPANS + 5; i++)
		assert_int_equal(add_message(st, "START deep", 1000 + i), EV_OK);
	assert_int_equal(add_message(st, "STOP deep", 200000), EV_OK);
	assert_int_equal(ev_stats_finish(st), EV_OK);
	ev_stats_spans_summary_get(st, &sum);
	assert_int_equal(sum.dropped, 5);
	assert_int_equal(sum.spans, 1);
	assert_int_equal(sum.unstopped, EV_STATS_MAX_OPEN_SPANS - 1);
	assert_int_equal(ev_stats_span_at(st, 0)->all.max_ns,
			 200000 - (1000 + EV_STATS_MAX_OPEN_SPANS - 1));
	ev_stats_free(st);
}

/* RUN_THREAD (1) of thread `tid` on cap 0: thread u32. */
static void run_thread(ev_stats *st, uint32_t tid, uint64_t time)
{
	uint8_t payload[4] = { (uint8_t)(tid >> 24), (uint8_t)(tid >> 16),
			       (uint8_t)(tid >> 8), (uint8_t)tid };
	ev_event ev = { 0 };

	ev.type = EV_RUN_THREAD;
	ev.cap = 0;
	ev.time = time;
	ev.payload = payload;
	ev.size = sizeof payload;
	assert_int_equal(ev_stats_add(st, &ev), EV_OK);
}

/* A span on each of 6,000 threads (a thread per request): a name's
 * figures count them all, EV_STATS_MAX_SPAN_THREADS of them one by one;
 * the open spans' map forgets the threads done with. */
static void spans_of_many_threads(void **state)
{
	ev_stats *st;
	const ev_stats_span *s;
	unsigned threads = 6000;

	(void)state;
	assert_int_equal(ev_stats_new(&st), EV_OK);
	assert_int_equal(ev_stats_keep_spans(st, EV_STATS_SPANS_EVENTS), EV_OK);
	for (unsigned t = 1; t <= threads; t++) {
		run_thread(st, t, 100 * t);
		assert_int_equal(add_message(st, "START handle", 100 * t + 1),
				 EV_OK);
		assert_int_equal(add_message(st, "STOP handle", 100 * t + 1 + t),
				 EV_OK);
	}
	assert_int_equal(ev_stats_finish(st), EV_OK);
	s = ev_stats_span_at(st, 0);
	assert_int_equal(s->all.count, threads);
	assert_int_equal(s->all.max_ns, threads);
	assert_int_equal(s->all.min_ns, 1);
	assert_int_equal(s->n_threads, EV_STATS_MAX_SPAN_THREADS);
	assert_int_equal(s->other_threads_count,
			 threads - EV_STATS_MAX_SPAN_THREADS);
	assert_int_equal(s->threads[0].tid, 1);
	assert_int_equal(s->unstopped, 0);
	ev_stats_free(st);
}

/* A STOP read before its START (a migrated thread's capability block
 * first in the log) pairs with the START when that is not later in time;
 * otherwise both are counted, not paired. */
static void stop_read_before_its_start(void **state)
{
	ev_stats *st;
	ev_stats_spans_summary sum;
	const ev_stats_span *x, *y;

	(void)state;
	assert_int_equal(ev_stats_new(&st), EV_OK);
	assert_int_equal(ev_stats_keep_spans(st, EV_STATS_SPANS_EVENTS), EV_OK);
	run_thread(st, 7, 10);
	assert_int_equal(add_message(st, "STOP x", 100), EV_OK);
	assert_int_equal(add_message(st, "START x", 50), EV_OK);
	assert_int_equal(add_message(st, "STOP y", 100), EV_OK);
	assert_int_equal(add_message(st, "START y", 150), EV_OK);
	assert_int_equal(ev_stats_finish(st), EV_OK);
	x = ev_stats_span_at(st, (size_t)ev_stats_span_find(st, "x", 1, 0));
	y = ev_stats_span_at(st, (size_t)ev_stats_span_find(st, "y", 1, 0));
	assert_int_equal(x->all.count, 1);
	assert_int_equal(x->all.total_ns, 50);
	assert_int_equal(x->threads[0].tid, 7);
	assert_int_equal(x->unmatched_stops + x->unstopped, 0);
	assert_int_equal(y->all.count, 0);
	assert_int_equal(y->unmatched_stops, 1);
	assert_int_equal(y->unstopped, 1);
	ev_stats_spans_summary_get(st, &sum);
	assert_int_equal(sum.unmatched_stops, 1);
	assert_int_equal(sum.unstopped, 1);
	ev_stats_free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(spans_match_the_programs_clock),
		cmocka_unit_test(spans_pair_per_name_and_thread),
		cmocka_unit_test(spans_between_markers),
		cmocka_unit_test(span_conditions),
		cmocka_unit_test(keep_spans_before_events_only),
		cmocka_unit_test(spans_within_their_limits),
		cmocka_unit_test(spans_of_many_threads),
		cmocka_unit_test(stop_read_before_its_start),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
