/* Unit tests for the payload decoder (lib/format/decode.c, lib/format/catalog_fields.c),
 * the ghc-events text and NDJSON renderers (lib/show*.c) and the sorter's
 * streaming interface (ev_sorter_visit). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evtool/decode.h"
#include "evtool/show.h"
#include "evtool/sort.h"
#include "internal.h"
#include "support.h"

#ifndef EVTOOL_TESTDATA
#define EVTOOL_TESTDATA "testdata"
#endif

/* ------------------------------------------------------------------------
 * Helpers
 * ---------------------------------------------------------------------- */

/* A header declaring the types GHC 9.0 declares that the tests use, with
 * USER_MARKER and HACK_BUG_T9003 (so not GHC 7.8.2). */
static ev_header *modern_header(void)
{
	static const struct {
		uint16_t id;
		int32_t size;
		const char *desc;
	} types[] = {
		{ 2, 10, "Stop thread" }, { 18, 14, "Block marker" },
		{ 30, -1, "Program arguments" }, { 58, -1, "User marker" },
		{ 59, 0, "Empty event for bug #9003" },
		{ 250, 3, "Something new" },
	};
	ev_header *h;

	assert_int_equal(evi_header_new(&h, NULL), EV_OK);
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		assert_int_equal(evi_header_add(h, types[i].id, types[i].size,
					       types[i].desc,
					       (uint32_t)strlen(types[i].desc),
					       NULL, 0),
				 EV_OK);
	return h;
}

static ev_event event(uint16_t type, uint64_t time, uint16_t cap,
		      const void *payload, uint32_t size)
{
	ev_event ev;

	memset(&ev, 0, sizeof ev);
	ev.type = type;
	ev.time = time;
	ev.cap = cap;
	ev.payload = payload;
	ev.size = size;
	return ev;
}

/* Renders one event with `h` and compares the line (newline included). */
static void expect_line(const ev_header *h, unsigned flags,
			const ev_event *ev, const char *want)
{
	ev_show *s;
	ev_text out = EV_TEXT_INIT;

	assert_int_equal(ev_show_new(&s, h, EV_SHOW_TEXT, flags, NULL), EV_OK);
	assert_int_equal(ev_show_event(s, ev, &out), EV_OK);
	assert_int_equal(out.len, strlen(want));
	assert_memory_equal(out.data, want, out.len);
	ev_show_free(s);
	ev_text_free(&out);
}

static void expect_json(const ev_event *ev, const char *want)
{
	ev_header *h = modern_header();
	ev_show *s;
	ev_text out = EV_TEXT_INIT;

	assert_int_equal(ev_show_new(&s, h, EV_SHOW_NDJSON, 0, NULL), EV_OK);
	assert_int_equal(ev_show_event(s, ev, &out), EV_OK);
	assert_int_equal(out.len, strlen(want));
	assert_memory_equal(out.data, want, out.len);
	ev_show_free(s);
	ev_text_free(&out);
	evi_header_free(h);
}

static void put32(uint8_t *p, uint32_t v)
{
	ev_store32(p, v);
}

/* ------------------------------------------------------------------------
 * Layouts and decoding
 * ---------------------------------------------------------------------- */

static void test_layout_forms(void **state)
{
	(void)state;
	/* the form with the largest min_size not above the payload size */
	assert_int_equal(evi_catalog_layout(EV_STOP_THREAD, 6)->n_fields, 2);
	assert_int_equal(evi_catalog_layout(EV_STOP_THREAD, 10)->n_fields, 3);
	assert_int_equal(evi_catalog_layout(EV_STOP_THREAD, 12)->n_fields, 3);
	assert_null(evi_catalog_layout(EV_STOP_THREAD, 4));
	assert_int_equal(evi_catalog_layout(EV_GC_STATS_GHC, 50)->n_fields, 8);
	assert_int_equal(evi_catalog_layout(EV_GC_STATS_GHC, 58)->n_fields, 9);
	assert_string_equal(evi_catalog_layout(EV_NONMOVING_HEAP_CENSUS, 13)
				    ->fields[0].name, "log2_block_size");
	assert_string_equal(evi_catalog_layout(EV_NONMOVING_HEAP_CENSUS, 14)
				    ->fields[0].name, "block_size");
	assert_null(evi_catalog_layout(250, 3));
	assert_null(evi_catalog_layout(EV_INTERN_STRING, 10));
	assert_non_null(evi_catalog_layout(EV_TICKY_COUNTER_BEGIN_SAMPLE, 0));
}

static void test_decode_fixed(void **state)
{
	uint8_t p[18] = { 0 };
	ev_event ev;
	ev_decoded d;

	(void)state;
	ev_store64(p, 0xdeadbeef);
	ev_store16(p + 8, 3);
	ev_store64(p + 10, 4242);
	ev = event(EV_TASK_CREATE, 1, 0, p, sizeof p);
	assert_int_equal(ev_decode(&ev, &d), 1);
	assert_int_equal(d.n, 3);
	assert_int_equal(ev_decoded_num(&d, 0), 0xdeadbeef);
	assert_int_equal(ev_decoded_field(&d, "cap")->num, 3);
	assert_int_equal(ev_decoded_field(&d, "kernel_thread")->num, 4242);
	assert_null(ev_decoded_field(&d, "thread"));
}

/* TICKY_COUNTER_DEF grew an info table and then JSON at its end. */
static void test_decode_optional_tail(void **state)
{
	static const uint8_t old[] = { 0, 0, 0, 0, 0, 0, 0, 7, 0, 2,
				       'k', 0, 'f', 'n', 0 };
	uint8_t now[sizeof old + 8 + 3];
	ev_event ev = event(EV_TICKY_COUNTER_DEF, 1, EV_NO_CAP, old,
			    sizeof old);
	ev_decoded d;

	(void)state;
	assert_int_equal(ev_decode(&ev, &d), 1);
	assert_int_equal(d.n, 4);
	assert_int_equal(d.values[3].len, 2);
	assert_memory_equal(d.values[3].bytes, "fn", 2);
	memcpy(now, old, sizeof old);
	ev_store64(now + sizeof old, 0xabc);
	memcpy(now + sizeof old + 8, "{}", 3);
	ev = event(EV_TICKY_COUNTER_DEF, 1, EV_NO_CAP, now, sizeof now);
	assert_int_equal(ev_decode(&ev, &d), 1);
	assert_int_equal(d.n, 6);
	assert_int_equal(ev_decoded_num(&d, 4), 0xabc);
	assert_int_equal(d.values[5].len, 2);
}

/* A list's length is capped by the payload, not trusted. */
static void test_decode_list_capped(void **state)
{
	uint8_t p[13 + 8] = { 0 };
	ev_event ev;
	ev_decoded d;

	(void)state;
	p[12] = 200; /* depth */
	ev = event(EV_PROF_SAMPLE_COST_CENTRE, 1, EV_NO_CAP, p, sizeof p);
	assert_int_equal(ev_decode(&ev, &d), 1);
	assert_int_equal(d.values[3].num, 2);
}

/* ------------------------------------------------------------------------
 * ghc-events text
 * ---------------------------------------------------------------------- */

static void test_header_text(void **state)
{
	ev_header *h = modern_header();
	ev_show *s;
	ev_text out = EV_TEXT_INIT;
	static const char want[] =
		"Event Types:\n2: Stop thread (size 10)\n"
		"18: Block marker (size 14)\n"
		"30: Program arguments (size variable)\n"
		"58: User marker (size variable)\n"
		"59: Empty event for bug #9003 (size 0)\n"
		"250: Something new (size 3)\n\nEvents:\n\n";

	(void)state;
	assert_int_equal(ev_show_new(&s, h, EV_SHOW_TEXT, 0, NULL), EV_OK);
	assert_int_equal(ev_show_header(s, &out), EV_OK);
	assert_int_equal(ev_show_footer(s, &out), EV_OK);
	assert_int_equal(out.len, strlen(want));
	assert_memory_equal(out.data, want, out.len);
	ev_show_free(s);
	ev_text_free(&out);
	evi_header_free(h);
}

static void test_stop_thread(void **state)
{
	ev_header *h = modern_header();
	uint8_t p[10] = { 0 };
	ev_event ev = event(EV_STOP_THREAD, 5, 1, p, sizeof p);

	(void)state;
	put32(p, 7);
	ev_store16(p + 4, 8);
	put32(p + 6, 3);
	expect_line(h, 0, &ev, "5: cap 1: stopping thread 7 (blocked on "
		    "black hole owned by thread 3)\n");
	ev_store16(p + 4, 2);
	put32(p + 6, 110);
	expect_line(h, 0, &ev, "5: cap 1: stopping thread 7 (stack "
		    "overflow, size 110)\n");
	ev_store16(p + 4, 18);
	expect_line(h, 0, &ev, "5: cap 1: stopping thread 7 (blocked in "
		    "throwTo)\n");
	ev_store16(p + 4, 99);
	expect_line(h, 0, &ev, "5: cap 1: stopping thread 7 (No stop thread "
		    "status)\n");
	ev.size = 6; /* before GHC ~7.2: no info field */
	ev_store16(p + 4, 8);
	expect_line(h, 0, &ev, "5: cap 1: stopping thread 7 (blocked on a "
		    "black hole)\n");
	evi_header_free(h);
}

/* GHC 7.8.2: USER_MARKER declared but not HACK_BUG_T9003. */
static void test_stop_thread_ghc782(void **state)
{
	ev_header *h;
	uint8_t p[10] = { 0, 0, 0, 1, 0, 8, 0, 0, 0, 0 };
	ev_event ev = event(EV_STOP_THREAD, 5, 0, p, sizeof p);

	(void)state;
	assert_int_equal(evi_header_new(&h, NULL), EV_OK);
	assert_int_equal(evi_header_add(h, 2, 10, "Stop thread", 11, NULL, 0),
			 EV_OK);
	assert_int_equal(evi_header_add(h, 58, -1, "User marker", 11, NULL,
				       0), EV_OK);
	expect_line(h, 0, &ev, "5: cap 0: stopping thread 1 (blocked reading "
		    "an MVar)\n");
	evi_header_free(h);
}

static void test_haskell_show_of_args(void **state)
{
	ev_header *h = modern_header();
	/* capset 0; "a\"b\\", "\xce\xbb" then "1" (lambda before a digit),
	 * "\x0e" "H", "\x01", an invalid byte; trailing NULs dropped */
	static const uint8_t p[] = {
		0, 0, 0, 0, 'a', '"', 'b', '\\', 0, 0xce, 0xbb, '1', 0,
		0x0e, 'H', 0x01, 0x7f, 0, 0xff, 0, 0
	};
	ev_event ev = event(EV_PROGRAM_ARGS, 9, EV_NO_CAP, p, sizeof p);

	(void)state;
	expect_line(h, 0, &ev, "9: capset 0: args: [\"a\\\"b\\\\\",\"\\955\\&1\","
		    "\"\\SO\\&H\\SOH\\DEL\",\"\\65533\"]\n");
	evi_header_free(h);
}

static void test_texts(void **state)
{
	ev_header *h = modern_header();
	static const uint8_t marker[] = { 'm', 0xc3, 0xa9, 0xff, '!' };
	static const uint8_t binary[] = { 'H', 'i', 0x00, 0xff, 0xe2, 0x82,
					  0xac, '\n' };
	ev_event ev = event(EV_USER_MARKER, 1, 2, marker, sizeof marker);

	(void)state;
	expect_line(h, 0, &ev, "1: cap 2: marker: m\xc3\xa9\xef\xbf\xbd!\n");
	ev = event(EV_USER_BINARY_MSG, 1, 2, binary, sizeof binary);
	expect_line(h, 0, &ev, "1: cap 2: binary message Hi..\xe2\x82\xac.\n");
	evi_header_free(h);
}

static void test_block_marker_and_unknown(void **state)
{
	ev_header *h = modern_header();
	uint8_t p[14] = { 0 };
	ev_event ev = event(EV_BLOCK_MARKER, 100, EV_NO_CAP, p, sizeof p);

	(void)state;
	put32(p, 24);
	ev_store64(p + 4, 200);
	ev_store16(p + 12, 0xffff);
	expect_line(h, 0, &ev, "100: event block: cap 65535, end time: 200\n\n");
	ev_store16(p + 12, 3);
	ev.cap = 3;
	expect_line(h, 0, &ev, "100: cap 3: event block: cap 3, end time: "
		    "200\n\n");
	ev = event(250, 7, 0, p, 3); /* no parser: the header's text */
	expect_line(h, 0, &ev, "7: cap 0: Something new\n");
	ev = event(EV_HACK_BUG_T9003, 7, 0, p, 0);
	expect_line(h, 0, &ev, "7: cap 0: Empty event for bug #9003\n");
	evi_header_free(h);
}

static void test_pretty_time(void **state)
{
	ev_header *h = modern_header();
	ev_event ev = event(EV_GC_START, 0, 0, NULL, 0);

	(void)state;
	ev.time = 1234567891;
	expect_line(h, EV_SHOW_PRETTY_TIME, &ev,
		    "  1s 234ms 567.891us: cap 0: starting GC\n");
	ev.time = 5007;
	expect_line(h, EV_SHOW_PRETTY_TIME, &ev,
		    "  0s   0ms   5.7  us: cap 0: starting GC\n");
	evi_header_free(h);
}

static void test_profiling_texts(void **state)
{
	ev_header *h = modern_header();
	static const uint8_t begin[] = {
		0, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0, 3,
		'M', 0, 0, 'T', 0, 0, 0, 0, 0
	};
	static const uint8_t cc[] = { 0, 0, 0, 9, 'f', 0, 'M', 0,
				      'a', '.', 'h', 's', 0, 1 };
	static const uint8_t census[] = { 3, 0, 0, 0, 1, 0, 0, 0, 2,
					  0, 0, 0, 4 };
	ev_event ev = event(EV_HEAP_PROF_BEGIN, 1, EV_NO_CAP, begin,
			    sizeof begin);

	(void)state;
	expect_line(h, 0, &ev, "1: start heap profiling 0 at sampling period "
		    "100 broken down by closure description filtered by M, "
		    "T, \n");
	ev = event(EV_HEAP_PROF_COST_CENTRE, 1, EV_NO_CAP, cc, sizeof cc);
	expect_line(h, 0, &ev, "1: cost centre 9 f in M at a.hs CAF\n");
	ev = event(EV_NONMOVING_HEAP_CENSUS, 1, EV_NO_CAP, census,
		   sizeof census);
	expect_line(h, 0, &ev, "1: nonmoving heap census 8: 1 active "
		    "segments, 2 filled segments, 4 live blocks\n");
	evi_header_free(h);
}

/* ------------------------------------------------------------------------
 * NDJSON
 * ---------------------------------------------------------------------- */

static void test_json(void **state)
{
	static const uint8_t args[] = { 0, 0, 0, 1, 'a', '"', 0, 0xff, '\n',
					0 };
	static const uint8_t binary[] = { 0x00, 0xab };
	uint8_t stop[10] = { 0 };
	ev_event ev = event(EV_PROGRAM_ARGS, 3, EV_NO_CAP, args, sizeof args);

	(void)state;
	expect_json(&ev, "{\"time\":3,\"cap\":null,\"type\":\"PROGRAM_ARGS\","
		    "\"id\":30,\"fields\":{\"capset\":1,\"args\":[\"a\\\"\","
		    "\"\xef\xbf\xbd\\n\"]}}\n");
	put32(stop, 5);
	ev_store16(stop + 4, 5);
	put32(stop + 6, 0);
	ev = event(EV_STOP_THREAD, 4, 1, stop, sizeof stop);
	expect_json(&ev, "{\"time\":4,\"cap\":1,\"type\":\"STOP_THREAD\","
		    "\"id\":2,\"fields\":{\"thread\":5,\"status\":5,"
		    "\"status_name\":\"ThreadFinished\",\"info\":0}}\n");
	/* Above 2^53 an integer also comes as a string (jq 1.6 rounds). */
	ev = event(EV_STOP_THREAD, (UINT64_C(1) << 53) + 1, 1, stop,
		   sizeof stop);
	expect_json(&ev, "{\"time\":9007199254740993,"
		    "\"time_str\":\"9007199254740993\",\"cap\":1,"
		    "\"type\":\"STOP_THREAD\",\"id\":2,\"fields\":{"
		    "\"thread\":5,\"status\":5,\"status_name\":"
		    "\"ThreadFinished\",\"info\":0}}\n");
	ev = event(EV_USER_BINARY_MSG, 4, 0, binary, sizeof binary);
	expect_json(&ev, "{\"time\":4,\"cap\":0,\"type\":\"USER_BINARY_MSG\","
		    "\"id\":181,\"fields\":{\"payload\":\"00ab\"}}\n");
	ev = event(250, 4, 0, binary, sizeof binary);
	expect_json(&ev, "{\"time\":4,\"cap\":0,\"type\":null,\"id\":250,"
		    "\"fields\":{\"payload\":\"00ab\"}}\n");
}

/* The one JSON string writer: valid UTF-8 whatever the bytes. */
static void test_json_string(void **state)
{
	static const struct {
		const char *in;
		size_t len;
		const char *want;
	} cases[] = {
		{ "a\"\\", 3, "\"a\\\"\\\\\"" },
		{ "\n\t\r\x01", 4, "\"\\n\\t\\r\\u0001\"" },
		{ "\xce\xb1", 2, "\"\xce\xb1\"" },           /* α kept */
		{ "\xff", 1, "\"\xef\xbf\xbd\"" },           /* U+FFFD */
		{ "\xce", 1, "\"\xef\xbf\xbd\"" },           /* cut */
		{ "\xed\xa0\x80", 3, "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" },
		{ "\xc0\xaf", 2, "\"\xef\xbf\xbd\xef\xbf\xbd\"" }, /* overlong */
		{ "", 0, "\"\"" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ev_text out = EV_TEXT_INIT;
		assert_int_equal(ev_json_string(&out, cases[i].in, cases[i].len),
				 EV_OK);
		assert_int_equal(out.len, strlen(cases[i].want));
		assert_memory_equal(out.data, cases[i].want, out.len);
		ev_text_free(&out);
	}
	assert_int_equal(ev_json_string(NULL, "a", 1), EV_EINVAL);
}

/* ------------------------------------------------------------------------
 * ev_sorter_visit
 * ---------------------------------------------------------------------- */

typedef struct visit_log {
	unsigned sessions, finishes;
	int finish_status, finish_with; /* finish_with: not 0, returned */
	size_t n, cap;
	uint64_t *times;
	uint16_t *types;
} visit_log;

static int on_session(void *ctx, const ev_session *s)
{
	unsigned session = s->index;
	const ev_header *h = s->header;
	visit_log *v = ctx;

	assert_int_equal(session, v->sessions);
	assert_non_null(h);
	v->sessions++;
	return EV_OK;
}

static int on_event(void *ctx, const ev_event *ev)
{
	visit_log *v = ctx;

	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 1024;
		v->times = realloc(v->times, v->cap * sizeof *v->times);
		v->types = realloc(v->types, v->cap * sizeof *v->types);
		assert_non_null(v->times);
		assert_non_null(v->types);
	}
	v->times[v->n] = ev->time;
	v->types[v->n++] = ev->type;
	return EV_OK;
}

static int on_finish(void *ctx, int status)
{
	visit_log *v = ctx;

	v->finishes++;
	v->finish_status = status;
	return v->finish_with ? v->finish_with : status;
}

static void visit(const char *path, ev_sort_method method, size_t memory,
		  visit_log *out)
{
	static const ev_consumer visitor = { on_session, on_event, NULL,
					     on_finish, EV_CONSUME_MARKERS };
	ev_sort_options opts = EV_SORT_OPTIONS_INIT;
	ev_input *in;
	ev_sorter *s;
	size_t markers = 0;

	opts.method = method;
	opts.memory = memory;
	memset(out, 0, sizeof *out);
	assert_int_equal(ev_sorter_new(&s, &opts, NULL), EV_OK);
	assert_int_equal(ev_input_open(&in, path, NULL), EV_OK);
	assert_int_equal(ev_sorter_visit(s, in, &visitor, out), EV_OK);
	assert_int_equal(out->finishes, 1);
	assert_int_equal(out->finish_status, EV_OK);
	ev_input_free(in);
	for (size_t i = 0; i < out->n; i++)
		markers += out->types[i] == EV_BLOCK_MARKER;
	assert_int_equal(ev_sorter_result(s)->events, out->n - markers);
	ev_sorter_free(s);
}

/* Every event of the log, markers included, stably by time; the merge in
 * place and the external sort agree exactly. */
static void test_visit_order(void **state)
{
	char *path = ts_path(EVTOOL_TESTDATA, "threads-n2.eventlog");
	visit_log merged, external;
	size_t len;
	uint8_t *data = ts_read_file(path, &len);
	ts_log log;

	(void)state;
	assert_non_null(data);
	assert_int_equal(ts_walk(data, len, &log), 1);
	visit(path, EV_SORT_MERGE, 0, &merged);
	visit(path, EV_SORT_EXTERNAL, EV_SORT_MIN_MEMORY, &external);
	assert_int_equal(merged.sessions, 1);
	assert_int_equal(merged.n, log.count);
	for (size_t i = 1; i < merged.n; i++)
		assert_true(merged.times[i - 1] <= merged.times[i]);
	assert_int_equal(external.n, merged.n);
	assert_memory_equal(external.times, merged.times,
			    merged.n * sizeof *merged.times);
	assert_memory_equal(external.types, merged.types,
			    merged.n * sizeof *merged.types);
	free(merged.times);
	free(merged.types);
	free(external.times);
	free(external.types);
	ts_log_free(&log);
	free(data);
	free(path);
}

static int stop_at_first(void *ctx, const ev_event *ev)
{
	(void)ctx;
	(void)ev;
	return EV_EIO;
}

static void test_visit_stops(void **state)
{
	static const ev_consumer visitor = { on_session, stop_at_first, NULL, NULL, 0 };
	char *path = ts_path(EVTOOL_TESTDATA, "threads-n1.eventlog");
	visit_log v;
	ev_input *in;
	ev_sorter *s;

	(void)state;
	memset(&v, 0, sizeof v);
	assert_int_equal(ev_sorter_new(&s, NULL, NULL), EV_OK);
	assert_int_equal(ev_input_open(&in, path, NULL), EV_OK);
	assert_int_equal(ev_sorter_visit(s, in, &visitor, &v), EV_EIO);
	assert_int_equal(ev_sorter_diag(s)->origin, EV_ORIGIN_OUTPUT);
	assert_int_equal(ev_sorter_visit(s, in, NULL, &v), EV_EINVAL);
	ev_input_free(in);
	ev_sorter_free(s);
	free(path);
}

static void visit_reset(visit_log *v)
{
	free(v->times);
	free(v->types);
	memset(v, 0, sizeof *v);
}

/* Finish comes once, last, with the status: a cut log's, or the
 * consumer's failure; a failure of finish's own is the visit's, and the
 * output's (the consumer's side) as an event's is. */
static void test_visit_finish(void **state)
{
	static const ev_consumer visitor = { on_session, on_event, NULL,
					     on_finish, 0 };
	static const ev_consumer stopper = { on_session, stop_at_first, NULL,
					     on_finish, 0 };
	char *path = ts_path(EVTOOL_TESTDATA, "threads-n1.eventlog");
	size_t len;
	uint8_t *data = ts_read_file(path, &len);
	visit_log v;
	ev_input *in;
	ev_sorter *s;

	(void)state;
	assert_non_null(data);
	assert_int_equal(ev_sorter_new(&s, NULL, NULL), EV_OK);

	memset(&v, 0, sizeof v);
	in = ts_memory_input(data, len / 2, "cut");
	assert_int_equal(ev_sorter_visit(s, in, &visitor, &v), EV_ETRUNCATED);
	assert_int_equal(v.finishes, 1);
	assert_int_equal(v.finish_status, EV_ETRUNCATED);
	assert_true(v.n > 0);
	ev_input_free(in);

	visit_reset(&v);
	assert_int_equal(ev_input_open(&in, path, NULL), EV_OK);
	assert_int_equal(ev_sorter_visit(s, in, &stopper, &v), EV_EIO);
	assert_int_equal(v.finishes, 1);
	assert_int_equal(v.finish_status, EV_EIO);
	ev_input_free(in);

	visit_reset(&v);
	v.finish_with = EV_ENOMEM;
	assert_int_equal(ev_input_open(&in, path, NULL), EV_OK);
	assert_int_equal(ev_sorter_visit(s, in, &visitor, &v), EV_ENOMEM);
	assert_int_equal(v.finish_status, EV_OK);
	assert_int_equal(ev_sorter_diag(s)->status, EV_ENOMEM);
	assert_int_equal(ev_sorter_diag(s)->origin, EV_ORIGIN_OUTPUT);
	ev_input_free(in);

	visit_reset(&v);
	ev_sorter_free(s);
	free(data);
	free(path);
}

/* ------------------------------------------------------------------------
 * ev_show_writer: the text as an event consumer
 * ---------------------------------------------------------------------- */

/* What the writer wrote, and the call at which `write` fails (0: never). */
typedef struct written {
	char *data;
	size_t len;
	unsigned calls, fail_at;
} written;

static int write_text(void *ctx, const char *text, size_t len)
{
	written *w = ctx;

	if (++w->calls == w->fail_at)
		return EV_EIO;
	w->data = realloc(w->data, w->len + len);
	assert_non_null(w->data);
	memcpy(w->data + w->len, text, len);
	w->len += len;
	return EV_OK;
}

/* The text of every session of the log `data` reads, rendered event by
 * event with ev_show as ev_show_writer's documentation says. */
static void render_by_hand(const uint8_t *data, size_t len,
			   ev_show_format format, ev_text *out)
{
	ev_reader *r;
	ev_show *sh;
	ev_event ev;
	int rc;

	assert_int_equal(ev_reader_open_memory(&r, data, len, "m", 0, NULL),
			 EV_OK);
	do {
		assert_int_equal(ev_reader_read_header(r), EV_OK);
		assert_int_equal(ev_show_new(&sh, ev_reader_header(r), format,
					     0, NULL), EV_OK);
		assert_int_equal(ev_show_header(sh, out), EV_OK);
		while ((rc = ev_reader_next(r, &ev)) == EV_OK)
			assert_int_equal(ev_show_event(sh, &ev, out), EV_OK);
		assert_int_equal(rc, EV_END);
		assert_int_equal(ev_show_footer(sh, out), EV_OK);
		ev_show_free(sh);
	} while (ev_reader_next_session(r) == EV_OK);
	ev_reader_free(r);
}

/* The writer of `format` on `got`, driven by ev_reader_feed over the
 * `len` bytes of log at `data`: what the feed returns. */
static int feed_writer(const uint8_t *data, size_t len, ev_show_format format,
		       written *got)
{
	ev_show_writer *sw;
	ev_reader *r;
	int rc;

	assert_int_equal(ev_show_writer_new(&sw, format, 0, write_text, got,
					    NULL), EV_OK);
	assert_int_equal(ev_reader_open_memory(&r, data, len, "m", 0, NULL),
			 EV_OK);
	rc = ev_reader_feed(r, ev_show_writer_consumer(), sw);
	ev_reader_free(r);
	ev_show_writer_free(sw);
	return rc;
}

/* A log of two sessions in file order (ev_reader_feed): the writer's
 * text, in both formats, is each session's as ev_show renders it; a
 * failing write stops the source with its status. */
static void test_show_writer(void **state)
{
	size_t len;
	uint8_t *two = ts_load_twice(EVTOOL_TESTDATA, "threads-n2.eventlog",
				     &len);
	ev_show_format formats[] = { EV_SHOW_TEXT, EV_SHOW_NDJSON };
	ev_show_writer *sw;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		written got = { NULL, 0, 0, 0 };
		ev_text want = EV_TEXT_INIT;

		render_by_hand(two, 2 * len, formats[i], &want);
		assert_int_equal(feed_writer(two, 2 * len, formats[i], &got),
				 EV_END);
		assert_true(got.len > 1000);
		assert_int_equal(got.len, want.len);
		assert_memory_equal(got.data, want.data, want.len);
		free(got.data);
		ev_text_free(&want);
	}
	{
		written got = { NULL, 0, 0, 1 };

		assert_int_equal(feed_writer(two, 2 * len, EV_SHOW_TEXT, &got),
				 EV_EIO);
		assert_int_equal(got.calls, 1);
		free(got.data);
	}
	assert_int_equal(ev_show_writer_new(&sw, EV_SHOW_TEXT, 0, NULL, NULL,
					    NULL), EV_EINVAL);
	assert_null(sw);
	free(two);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_forms),
		cmocka_unit_test(test_decode_fixed),
		cmocka_unit_test(test_decode_optional_tail),
		cmocka_unit_test(test_decode_list_capped),
		cmocka_unit_test(test_header_text),
		cmocka_unit_test(test_stop_thread),
		cmocka_unit_test(test_stop_thread_ghc782),
		cmocka_unit_test(test_haskell_show_of_args),
		cmocka_unit_test(test_texts),
		cmocka_unit_test(test_block_marker_and_unknown),
		cmocka_unit_test(test_pretty_time),
		cmocka_unit_test(test_profiling_texts),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_string),
		cmocka_unit_test(test_visit_order),
		cmocka_unit_test(test_visit_stops),
		cmocka_unit_test(test_visit_finish),
		cmocka_unit_test(test_show_writer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
