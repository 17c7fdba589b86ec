/*
 * Tests of ev_info (include/evtool/info.h) on real GHC 9.0.2 logs, against
 * an independent walk of their bytes (support.h): events, block markers,
 * counts per type and per capability, first and last timestamp and bytes
 * of log; a log cut in the middle of an event (truncated, log_bytes at the
 * last complete event); a stream of two logs (two sessions); the options'
 * version and limits; the analysis as a consumer (consumer.h) driven by
 * other sources (merged inputs, the sorter, a cut log by ev_reader_feed,
 * a live log by the follower),
 * against ev_info_read of the same events.
 */
#include <setjmp.h>
#include <signal.h>
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

static ev_info *info_of(const uint8_t *bytes, size_t len,
			const ev_info_options *o)
{
	ev_info *in;
	ev_reader *r;

	assert_int_equal(ev_info_new(&in, o, NULL), EV_OK);
	assert_int_equal(ev_reader_open_memory(&r, bytes, len, "m",
					       EV_READER_DIGEST, NULL), EV_OK);
	assert_int_equal(ev_info_read(in, r), EV_OK);
	assert_int_equal(ev_info_read(in, r), EV_EINVAL); /* once */
	ev_reader_free(r);
	return in;
}

/* One log against the walker: every count the summary gives. */
static void check_log(const char *path, void *ctx)
{
	size_t len, blocks = 0, events = 0;
	uint8_t *log = ts_read_file(path, &len);
	uint64_t *per_type = calloc(EV_ID_COUNT, sizeof *per_type);
	uint64_t *per_cap = calloc(EV_ID_COUNT, sizeof *per_cap);
	uint64_t first = UINT64_MAX, last = 0;
	const ev_info_summary *s;
	ts_log walk;
	ev_info *in;
	(void)ctx;

	assert_non_null(log);
	assert_non_null(per_type);
	assert_non_null(per_cap);
	if (len >= 2 && log[0] == 0x1f && log[1] == 0x8b)
		goto done; /* the walker reads plain logs */
	assert_true(ts_walk(log, len, &walk));
	for (size_t i = 0; i < walk.count; i++) {
		const ts_event *e = &walk.events[i];
		if (e->type == EV_BLOCK_MARKER) {
			blocks++;
			continue;
		}
		events++;
		per_type[e->type]++;
		per_cap[e->cap]++;
		first = e->time < first ? e->time : first;
		last = e->time > last ? e->time : last;
	}
	in = info_of(log, len, NULL);
	s = ev_info_result(in);
	assert_int_equal(s->status, walk.complete ? EV_END : EV_ETRUNCATED);
	assert_int_equal(s->events, events);
	assert_int_equal(s->blocks, blocks);
	assert_int_equal(s->sessions, 1);
	assert_int_equal(s->log_bytes, walk.end);
	assert_true(s->have_digest);
	assert_int_equal(s->have_time, events > 0);
	if (events) {
		assert_int_equal(s->first_time, first);
		assert_int_equal(s->last_time, last);
	}
	for (unsigned id = 0; id < EV_ID_COUNT; id++) {
		assert_int_equal(ev_info_type_events(in, (uint16_t)id),
				 per_type[id]);
		assert_int_equal(ev_info_cap_events(in, (uint16_t)id),
				 per_cap[id]);
	}
	ev_info_free(in);
	ts_log_free(&walk);
done:
	free(per_type);
	free(per_cap);
	free(log);
}

static void test_every_testdata_log(void **state)
{
	(void)state;
	assert_true(ts_for_each_log(EVTOOL_TESTDATA, check_log, NULL) >= 10);
}

/* Every event counts under exactly one class. */
static void test_classes_add_up(void **state)
{
	size_t len;
	uint8_t *log = ts_load(EVTOOL_TESTDATA, "gc-n2.eventlog", &len);
	uint64_t sum = 0;
	ev_info *in;
	(void)state;

	assert_non_null(log);
	in = info_of(log, len, NULL);
	for (unsigned bit = 0; bit < 15; bit++)
		sum += ev_info_class_events(in, (ev_class)(1u << bit));
	assert_int_equal(sum, ev_info_result(in)->events);
	assert_true(ev_info_class_events(in, EV_CLASS_GC) > 0);
	assert_string_equal(ev_info_type_name(in, EV_GC_START), "GC_START");
	assert_string_equal(ev_info_type_name(in, 999), "UNKNOWN");
	ev_info_free(in);
	free(log);
}

/* Cut in the middle of an event and stored as a file: truncated,
 * log_bytes at the end of the last complete one (the walker's reading of
 * the cut bytes), stored_bytes the file's size. */
static void test_cut_log(void **state)
{
	size_t len;
	uint8_t *log = ts_load(EVTOOL_TESTDATA, "threads-n2.eventlog", &len);
	const ev_info_summary *s;
	char *dir = ts_temp_dir(), *path;
	ts_log walk;
	ev_info *in;
	ev_reader *r;
	size_t cut;
	(void)state;

	assert_non_null(log);
	assert_true(ts_walk(log, len, &walk));
	cut = walk.events[walk.count / 2].offset + 3; /* inside an event */
	ts_log_free(&walk);
	assert_true(ts_walk(log, cut, &walk));
	assert_non_null(dir);
	path = ts_path(dir, "cut.eventlog");
	assert_true(ts_write_file(path, log, cut, "wb"));
	assert_int_equal(ev_info_new(&in, NULL, NULL), EV_OK);
	assert_int_equal(ev_reader_open_path(&r, path, EV_READER_DIGEST, NULL),
			 EV_OK);
	assert_int_equal(ev_info_read(in, r), EV_OK);
	ev_reader_free(r);
	s = ev_info_result(in);
	assert_int_equal(s->status, EV_ETRUNCATED);
	assert_int_equal(s->log_bytes, walk.end);
	assert_int_equal(s->stored_bytes, cut);
	ev_info_free(in);
	ts_log_free(&walk);
	ts_remove_dir(dir);
	free(path);
	free(dir);
	free(log);
}

/* Two logs one after the other: two sessions, each listed, unless the
 * options list only one. */
static void test_two_sessions(void **state)
{
	size_t len;
	uint8_t *two = ts_load_twice(EVTOOL_TESTDATA, "user-n1.eventlog",
				     &len);
	ev_info_options o = EV_INFO_OPTIONS_INIT;
	const ev_info_summary *s;
	ev_info *in;
	(void)state;

	in = info_of(two, 2 * len, &o);
	s = ev_info_result(in);
	assert_int_equal(s->status, EV_END);
	assert_int_equal(s->sessions, 2);
	assert_int_equal(s->n_listed_sessions, 2);
	assert_int_equal(s->session_list[0].start, 0);
	assert_int_equal(s->session_list[0].end, len);
	assert_int_equal(s->session_list[1].start, len);
	assert_int_equal(s->session_list[1].end, 2 * len);
	assert_int_equal(s->session_list[0].events,
			 s->session_list[1].events);
	assert_int_equal(ev_process_list_count(ev_info_processes(in)), 2);
	ev_info_free(in);

	o.max_listed_sessions = 1;
	in = info_of(two, 2 * len, &o);
	assert_int_equal(ev_info_result(in)->sessions, 2);
	assert_int_equal(ev_info_result(in)->n_listed_sessions, 1);
	ev_info_free(in);

	o.version = EV_INFO_OPTIONS_VERSION + 1;
	assert_int_equal(ev_info_new(&in, &o, NULL), EV_EINVAL);
	assert_null(in);
	free(two);
}

/* ---- the analysis as a consumer, from other sources ---- */

/* What `a` (ev_info_read) and `b` (a consumer of another source) found
 * of the same events: equal, but the inversions when `order` is 0 (`b`
 * had them in time order: none) and what only a reader knows. */
static void same_info(const ev_info *a, const ev_info *b, int order)
{
	const ev_info_summary *x = ev_info_result(a), *y = ev_info_result(b);

	assert_int_equal(y->status, x->status);
	assert_int_equal(y->log_bytes, x->log_bytes);
	assert_int_equal(y->sessions, x->sessions);
	assert_int_equal(y->blocks, x->blocks);
	assert_int_equal(y->events, x->events);
	assert_int_equal(y->have_time, x->have_time);
	assert_true(y->first_time == x->first_time &&
		    y->last_time == x->last_time);
	assert_int_equal(y->startup_caps, x->startup_caps);
	assert_int_equal(y->caps_seen, x->caps_seen);
	if (order) {
		assert_int_equal(y->inversions, x->inversions);
		assert_int_equal(y->gc_end_inversions, x->gc_end_inversions);
	} else {
		assert_int_equal(y->inversions, 0);
	}
	assert_int_equal(y->n_capsets, x->n_capsets);
	for (unsigned i = 0; i < x->n_capsets; i++) {
		assert_int_equal(y->capsets[i].id, x->capsets[i].id);
		assert_int_equal(y->capsets[i].type, x->capsets[i].type);
	}
	assert_int_equal(y->n_listed_sessions, x->n_listed_sessions);
	for (unsigned i = 0; i < x->n_listed_sessions; i++) {
		assert_int_equal(y->session_list[i].start,
				 x->session_list[i].start);
		assert_int_equal(y->session_list[i].end,
				 x->session_list[i].end);
		assert_int_equal(y->session_list[i].events,
				 x->session_list[i].events);
		assert_int_equal(y->session_list[i].status,
				 x->session_list[i].status);
	}
	for (unsigned id = 0; id < EV_ID_COUNT; id++) {
		assert_int_equal(ev_info_type_events(b, (uint16_t)id),
				 ev_info_type_events(a, (uint16_t)id));
		assert_int_equal(ev_info_cap_events(b, (uint16_t)id),
				 ev_info_cap_events(a, (uint16_t)id));
		assert_int_equal(!ev_info_cap_seen(b, (uint16_t)id),
				 !ev_info_cap_seen(a, (uint16_t)id));
	}
	assert_int_equal(ev_process_list_count(ev_info_processes(b)),
			 ev_process_list_count(ev_info_processes(a)));
	/* the input's own facts are a reader's */
	assert_false(y->have_digest);
	assert_int_equal(y->stored_bytes, 0);
}

/* ev_info_read of the file at `path`. */
static ev_info *info_of_file(const char *path)
{
	ev_info *in;
	ev_reader *r;

	assert_int_equal(ev_info_new(&in, NULL, NULL), EV_OK);
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	assert_int_equal(ev_info_read(in, r), EV_OK);
	ev_reader_free(r);
	return in;
}

/* Three logs merged: the info of the merged events as ev_merge_visit
 * hands them over is the info of the merged log ev_merge_run writes,
 * where the session lies in it included; the consumer runs once. */
static void test_consumer_of_merge(void **state)
{
	static const char *const names[] = { "merge-a.eventlog",
					     "merge-b.eventlog",
					     "merge-c.eventlog" };
	char *dir = ts_temp_dir(), *path;
	ev_info *want, *got;
	ev_sink *sink;
	ev_merge *m;
	(void)state;

	assert_non_null(dir);
	path = ts_path(dir, "merged.eventlog");
	m = ts_merge(EVTOOL_TESTDATA, names, 3);
	assert_int_equal(ev_sink_open_path(&sink, path, NULL), EV_OK);
	assert_int_equal(ev_merge_run(m, sink), EV_OK);
	assert_int_equal(ev_sink_commit(sink), EV_OK);
	ev_sink_free(sink);
	ev_merge_free(m);
	want = info_of_file(path);
	assert_int_equal(ev_info_result(want)->status, EV_END);

	assert_int_equal(ev_info_new(&got, NULL, NULL), EV_OK);
	m = ts_merge(EVTOOL_TESTDATA, names, 3);
	assert_int_equal(ev_merge_visit(m, ev_info_consumer(), got), EV_OK);
	ev_merge_free(m);
	same_info(want, got, 1);
	assert_int_equal(ev_process_list_count(ev_info_processes(got)), 3);
	/* once */
	m = ts_merge(EVTOOL_TESTDATA, names, 3);
	assert_int_equal(ev_merge_visit(m, ev_info_consumer(), got),
			 EV_EINVAL);
	ev_merge_free(m);
	ev_info_free(got);
	ev_info_free(want);
	ts_remove_dir(dir);
	free(path);
	free(dir);
}

/* A log of two sessions in time order (the sorter): the figures of the
 * file, its sessions where they lie in it, and no inversion. */
static void test_consumer_of_sorter(void **state)
{
	size_t len;
	uint8_t *two = ts_load_twice(EVTOOL_TESTDATA, "threads-n2.eventlog",
				     &len);
	char *dir = ts_temp_dir(), *path;
	ev_info *want, *got;
	ev_sorter *sorter;
	ev_input *in;
	(void)state;

	assert_non_null(dir);
	path = ts_path(dir, "two.eventlog");
	assert_true(ts_write_file(path, two, 2 * len, "wb"));
	want = info_of_file(path);
	assert_int_equal(ev_info_result(want)->sessions, 2);
	assert_true(ev_info_result(want)->inversions > 0);

	assert_int_equal(ev_info_new(&got, NULL, NULL), EV_OK);
	assert_int_equal(ev_sorter_new(&sorter, NULL, NULL), EV_OK);
	assert_int_equal(ev_input_open(&in, path, NULL), EV_OK);
	assert_int_equal(ev_sorter_visit(sorter, in, ev_info_consumer(), got),
			 EV_OK);
	same_info(want, got, 0);
	ev_input_free(in);
	ev_sorter_free(sorter);
	ev_info_free(got);
	ev_info_free(want);
	ts_remove_dir(dir);
	free(path);
	free(dir);
	free(two);
}

/* Cut inside an event, through the public feed (not ev_info_read's):
 * truncated, and the session and the log's bytes end at the end of the
 * last complete event, as the reader says. */
static void test_consumer_of_cut_log(void **state)
{
	size_t len;
	uint8_t *log = ts_load(EVTOOL_TESTDATA, "gc-n2.eventlog", &len);
	const ev_info_summary *s;
	ev_info *want, *got;
	ev_reader *r;
	ts_log walk;
	size_t cut;
	(void)state;

	assert_non_null(log);
	assert_true(ts_walk(log, len, &walk));
	cut = walk.events[walk.count / 3].offset + 5; /* inside an event */
	ts_log_free(&walk);
	assert_int_equal(ev_info_new(&want, NULL, NULL), EV_OK);
	assert_int_equal(ev_reader_open_memory(&r, log, cut, "cut", 0, NULL),
			 EV_OK);
	assert_int_equal(ev_info_read(want, r), EV_OK);
	ev_reader_free(r);
	assert_int_equal(ev_info_result(want)->status, EV_ETRUNCATED);

	assert_int_equal(ev_info_new(&got, NULL, NULL), EV_OK);
	assert_int_equal(ev_reader_open_memory(&r, log, cut, "cut", 0, NULL),
			 EV_OK);
	assert_int_equal(ev_reader_feed(r, ev_info_consumer(), got),
			 EV_ETRUNCATED);
	ev_reader_free(r);
	same_info(want, got, 1);
	s = ev_info_result(got);
	assert_int_equal(s->diag.status, EV_ETRUNCATED);
	assert_int_equal(s->diag.offset, s->log_bytes);
	ev_info_free(got);
	ev_info_free(want);
	free(log);
}

/* A log followed as it is written (a regular file that grows): the
 * follower's idle call, before it waits, appends the rest once, or stops
 * it. The analysis is driven through a consumer that passes each call on
 * to ev_info_consumer()'s, on its own object. */
typedef struct growing {
	ev_info *in;
	const char *path;
	const uint8_t *rest;
	size_t rest_len;
	int idles;
	volatile sig_atomic_t stop;
} growing;

static int grow_begin(void *self, const ev_session *s)
{
	return ev_info_consumer()->begin(((growing *)self)->in, s);
}

static int grow_event(void *self, const ev_event *ev)
{
	return ev_info_consumer()->event(((growing *)self)->in, ev);
}

static int grow_end(void *self, const ev_session *s)
{
	return ev_info_consumer()->end(((growing *)self)->in, s);
}

static int grow_finish(void *self, int status)
{
	return ev_info_consumer()->finish(((growing *)self)->in, status);
}

static int grow_idle(void *self)
{
	growing *g = self;

	if (g->idles++)
		return EV_OK;
	if (!g->rest)
		g->stop = 1;
	else
		assert_true(ts_write_file(g->path, g->rest, g->rest_len, "ab"));
	return EV_OK;
}

/* The analysis of the first `first` bytes of `log` at `path`, followed
 * while the rest is appended (`whole`), or stopped there. */
static ev_info *follow_info(const char *path, const uint8_t *log,
			    size_t len, size_t first, int whole, int *rc)
{
	static const ev_consumer grow = { grow_begin, grow_event, grow_end,
					  grow_finish, EV_CONSUME_MARKERS };
	ev_follow_options o = EV_FOLLOW_OPTIONS_INIT;
	growing g = { NULL, path, whole ? log + first : NULL, len - first,
		      0, 0 };
	ev_follower *f;

	assert_true(ts_write_file(path, log, first, "wb"));
	assert_int_equal(ev_info_new(&g.in, NULL, NULL), EV_OK);
	o.poll_ms = 10;
	o.stop = &g.stop;
	o.idle = grow_idle;
	assert_int_equal(ev_follower_new(&f, &o, NULL), EV_OK);
	*rc = ev_follow_feed(f, path, &grow, &g);
	ev_follower_free(f);
	assert_int_equal(g.idles > 0, 1);
	return g.in;
}

/* Followed to its data end, the live log has the figures of the file;
 * stopped part-way, those of the part that had arrived, cut where the
 * reader of that part says. */
static void test_consumer_of_live_log(void **state)
{
	size_t len, first;
	uint8_t *log = ts_load(EVTOOL_TESTDATA, "gc-n2.eventlog", &len);
	char *dir = ts_temp_dir(), *path, *part;
	ev_info *want, *got;
	ts_log walk;
	int rc;
	(void)state;

	assert_non_null(log);
	assert_non_null(dir);
	assert_true(ts_walk(log, len, &walk));
	first = walk.events[walk.count / 2].offset + 3; /* inside an event */
	ts_log_free(&walk);
	path = ts_path(dir, "live.eventlog");
	part = ts_path(dir, "part.eventlog");
	assert_true(ts_write_file(part, log, len, "wb"));
	want = info_of_file(part);
	got = follow_info(path, log, len, first, 1, &rc);
	assert_int_equal(rc, EV_END);
	same_info(want, got, 1);
	ev_info_free(got);
	ev_info_free(want);

	assert_true(ts_write_file(part, log, first, "wb"));
	want = info_of_file(part);
	assert_int_equal(ev_info_result(want)->status, EV_ETRUNCATED);
	got = follow_info(path, log, len, first, 0, &rc);
	assert_int_equal(rc, EV_ETRUNCATED);
	same_info(want, got, 1);
	ev_info_free(got);
	ev_info_free(want);
	ts_remove_dir(dir);
	free(part);
	free(path);
	free(dir);
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_testdata_log),
		cmocka_unit_test(test_classes_add_up),
		cmocka_unit_test(test_cut_log),
		cmocka_unit_test(test_two_sessions),
		cmocka_unit_test(test_consumer_of_merge),
		cmocka_unit_test(test_consumer_of_sorter),
		cmocka_unit_test(test_consumer_of_cut_log),
		cmocka_unit_test(test_consumer_of_live_log),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
