/* Unit tests for the exporter (lib/export*.c): options, the perfetto
 * slices and their arguments from hand-made event sequences (labels, GC
 * statistics posted after GC_END, a GC_END that steps back), the bounded
 * label table, the hp band names of cost-centre stacks, and the refusal
 * of logs without what a format needs, and a real log through the
 * formats' thread with an output that fails midway, and real logs
 * exported with workers picking the events (as one thread). Whole real
 * logs are
 * checked by
 * tests/export (Trace Event Format rules, the RTS's .hp, hp2ps) and the
 * golden tests. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "evtool/catalog.h"
#include "evtool/export.h"
#include "evtool/header.h"
#include "evtool/pipeline.h"
#include "evtool/sort.h"
#include "evtool/writer.h"
#include "internal.h"
#include "support.h"

#ifndef EVTOOL_TESTDATA
#define EVTOOL_TESTDATA "testdata"
#endif

/* ------------------------------------------------------------------------
 * Helpers
 * ---------------------------------------------------------------------- */

typedef struct fixture {
	ev_sink *sink;
	ev_exporter *x;
	char *text; /* the output, NUL-terminated, after finish() */
} fixture;

static void start(fixture *f, ev_export_format format)
{
	ev_export_options o = EV_EXPORT_OPTIONS_INIT;

	memset(f, 0, sizeof *f);
	o.format = format;
	assert_int_equal(ev_sink_open_memory(&f->sink, NULL), EV_OK);
	assert_int_equal(ev_exporter_new(&f->x, &o, f->sink, NULL), EV_OK);
	assert_int_equal(ev_exporter_session(f->x, 0, NULL), EV_OK);
}

static void feed(fixture *f, uint16_t type, uint16_t cap, uint64_t time,
		 const void *payload, uint32_t size)
{
	ev_event ev;

	memset(&ev, 0, sizeof ev);
	ev.type = type;
	ev.cap = cap;
	ev.time = time;
	ev.payload = payload;
	ev.size = size;
	assert_int_equal(ev_exporter_event(f->x, &ev), EV_OK);
}

static int finish(fixture *f)
{
	int rc = ev_exporter_finish(f->x);
	size_t len;
	const uint8_t *p = ev_sink_memory(f->sink, &len);

	f->text = malloc(len + 1);
	assert_non_null(f->text);
	memcpy(f->text, p, len);
	f->text[len] = '\0';
	return rc;
}

static void stop(fixture *f)
{
	ev_exporter_free(f->x);
	ev_sink_free(f->sink);
	free(f->text);
}

static void run_thread(fixture *f, uint16_t cap, uint64_t t, uint32_t thread)
{
	uint8_t p[4];

	ev_store32(p, thread);
	feed(f, EV_RUN_THREAD, cap, t, p, sizeof p);
}

static void stop_thread(fixture *f, uint16_t cap, uint64_t t, uint32_t thread,
			uint16_t status)
{
	uint8_t p[10] = { 0 };

	ev_store32(p, thread);
	ev_store16(p + 4, status);
	feed(f, EV_STOP_THREAD, cap, t, p, sizeof p);
}

static void label(fixture *f, uint32_t thread, const char *text)
{
	uint8_t p[64];
	size_t n = strlen(text);

	ev_store32(p, thread);
	memcpy(p + 4, text, n);
	feed(f, EV_THREAD_LABEL, 0, 1, p, (uint32_t)(4 + n));
}

static size_t count(const char *text, const char *needle)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* ------------------------------------------------------------------------
 * Options
 * ---------------------------------------------------------------------- */

static void test_bad_options(void **state)
{
	ev_export_options o = EV_EXPORT_OPTIONS_INIT;
	ev_exporter *x;
	ev_sink *sink;

	(void)state;
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	o.version = 99;
	assert_int_equal(ev_exporter_new(&x, &o, sink, NULL), EV_EINVAL);
	o.version = EV_EXPORT_OPTIONS_VERSION;
	o.format = (ev_export_format)7;
	assert_int_equal(ev_exporter_new(&x, &o, sink, NULL), EV_EINVAL);
	o.format = EV_EXPORT_HP;
	assert_int_equal(ev_exporter_new(&x, &o, NULL, NULL), EV_EINVAL);
	assert_int_equal(ev_exporter_new(&x, NULL, sink, NULL), EV_OK);
	ev_exporter_free(x);
	ev_sink_free(sink);
}

/* ------------------------------------------------------------------------
 * perfetto
 * ---------------------------------------------------------------------- */

static void test_thread_slices(void **state)
{
	fixture f;

	(void)state;
	start(&f, EV_EXPORT_PERFETTO);
	label(&f, 7, "worker \"one\"");
	run_thread(&f, 0, 1234, 7);
	stop_thread(&f, 0, 5678, 7, 7);
	run_thread(&f, 1, 2000, 8);
	stop_thread(&f, 1, 3000, 8, 5);
	assert_int_equal(finish(&f), EV_OK);
	/* Named by the label (JSON-quoted), ts and dur in microseconds with
	 * three decimals, the stop reason as ghc-events names it. */
	assert_non_null(strstr(f.text, "{\"ph\":\"X\",\"name\":\"worker \\\"one\\\"\","
				       "\"cat\":\"thread\",\"dur\":4.444,"
				       "\"ts\":1.234,\"pid\":1,\"tid\":1,"
				       "\"args\":{\"thread\":7,\"stop\":\"BlockedOnMVar\"}}"));
	assert_non_null(strstr(f.text, "\"name\":\"thread 8\",\"cat\":\"thread\","
				       "\"dur\":1.000,\"ts\":2.000,\"pid\":1,"
				       "\"tid\":2,\"args\":{\"thread\":8,"
				       "\"stop\":\"ThreadFinished\"}}"));
	assert_non_null(strstr(f.text, "\"name\":\"thread_name\",\"pid\":1,"
				       "\"tid\":2,\"args\":{\"name\":\"cap 1\"}}"));
	assert_int_equal(f.text[strlen(f.text) - 3], ']');
	stop(&f);
}

/* A session whose header reads like GHC 7.8.2's (USER_MARKER declared,
 * HACK_BUG_T9003 not) numbers STOP_THREAD statuses as that GHC did
 * (ghc-events mkStopStatus782): its 8 is BlockedOnMVarRead, its 9
 * BlockedOnBlackHole; the session after it, with a usual header, is read
 * in the usual numbering again. */
static void test_ghc782_stop_status(void **state)
{
	ev_header *h782, *h;
	fixture f;

	(void)state;
	assert_int_equal(evi_header_new(&h782, NULL), EV_OK);
	assert_int_equal(evi_header_add(h782, EV_USER_MARKER, EV_SIZE_VARIABLE,
				       "", 0, NULL, 0), EV_OK);
	assert_true(evi_header_quirks(h782) & EVI_QUIRK_GHC782);
	assert_int_equal(evi_header_copy(&h, h782), EV_OK);
	assert_int_equal(evi_header_add(h, EV_HACK_BUG_T9003, 0, "", 0, NULL,
				       0), EV_OK);
	assert_false(evi_header_quirks(h) & EVI_QUIRK_GHC782);
	start(&f, EV_EXPORT_PERFETTO);
	assert_int_equal(ev_exporter_session(f.x, 0, h782), EV_OK);
	run_thread(&f, 0, 1000, 7);
	stop_thread(&f, 0, 2000, 7, 8);
	run_thread(&f, 0, 3000, 7);
	stop_thread(&f, 0, 4000, 7, 9);
	assert_int_equal(ev_exporter_session(f.x, 1, h), EV_OK);
	run_thread(&f, 0, 5000, 7);
	stop_thread(&f, 0, 6000, 7, 8);
	assert_int_equal(finish(&f), EV_OK);
	assert_int_equal(count(f.text, "\"stop\":\"BlockedOnMVarRead\""), 1);
	assert_int_equal(count(f.text, "\"stop\":\"BlockedOnBlackHole\""), 2);
	stop(&f);
	evi_header_free(h782);
	evi_header_free(h);
}

/* GC_STATS_GHC comes after GC_END (GHC posts it in stat_endGC): the GC
 * slice waits for it and carries its fields; a GC_END stamped before the
 * phase that ended last does not make the slice end before its phases. */
static void test_gc_slice(void **state)
{
	fixture f;
	uint8_t stats[58] = { 0 };
	uint8_t capset[12] = { 0 };

	(void)state;
	start(&f, EV_EXPORT_PERFETTO);
	feed(&f, EV_GC_START, 0, 10000, NULL, 0);
	feed(&f, EV_GC_WORK, 0, 11000, NULL, 0);
	feed(&f, EV_GC_IDLE, 0, 15000, NULL, 0);
	feed(&f, EV_GC_DONE, 0, 16000, NULL, 0);
	feed(&f, EV_GC_END, 0, 15500, NULL, 0); /* steps back */
	feed(&f, EV_GC_GLOBAL_SYNC, 0, 16100, NULL, 0);
	ev_store16(stats + 4, 1);       /* generation */
	ev_store64(stats + 6, 4096);    /* copied */
	ev_store32(stats + 30, 2);      /* par threads */
	feed(&f, EV_GC_STATS_GHC, 0, 16200, stats, sizeof stats);
	ev_store64(capset + 4, 1u << 20);
	feed(&f, EV_HEAP_SIZE, 0, 16300, capset, sizeof capset);
	assert_int_equal(finish(&f), EV_OK);
	assert_non_null(strstr(f.text, "\"name\":\"GC work\",\"cat\":\"gc\","
				       "\"dur\":4.000,\"ts\":11.000"));
	assert_non_null(strstr(f.text, "\"name\":\"GC idle\",\"cat\":\"gc\","
				       "\"dur\":1.000,\"ts\":15.000"));
	assert_non_null(strstr(f.text, "\"name\":\"GC\",\"cat\":\"gc\","
				       "\"dur\":6.000,\"ts\":10.000,\"pid\":1,"
				       "\"tid\":1,\"args\":{\"generation\":1,"
				       "\"copied\":4096,\"slop\":0,"
				       "\"fragmentation\":0,\"par_n_threads\":2,"));
	assert_non_null(strstr(f.text, "{\"ph\":\"i\",\"name\":\"GC global sync\""));
	assert_non_null(strstr(f.text, "{\"ph\":\"C\",\"name\":\"heap size\","
				       "\"ts\":16.300,\"pid\":1,"
				       "\"args\":{\"bytes\":1048576}}"));
	stop(&f);
}

/* A thread still running at the end is closed at the last event; a RUN
 * that starts before the previous slice ended starts where it ended. */
static void test_open_slices_closed(void **state)
{
	fixture f;

	(void)state;
	start(&f, EV_EXPORT_PERFETTO);
	run_thread(&f, 0, 1000, 1);
	stop_thread(&f, 0, 3000, 1, 3);
	run_thread(&f, 0, 2000, 2);
	feed(&f, EV_GC_START, 1, 9000, NULL, 0);
	assert_int_equal(finish(&f), EV_OK);
	assert_non_null(strstr(f.text, "\"name\":\"thread 2\",\"cat\":\"thread\","
				       "\"dur\":6.000,\"ts\":3.000"));
	assert_non_null(strstr(f.text, "\"name\":\"GC\",\"cat\":\"gc\","
				       "\"dur\":0.000,\"ts\":9.000"));
	stop(&f);
}

/* Labels beyond EV_EXPORT_MAX_LABELS live threads are dropped and
 * counted; a finished thread's label frees its place. */
static void test_label_bound(void **state)
{
	fixture f;
	char text[32];
	uint32_t n = EV_EXPORT_MAX_LABELS;

	(void)state;
	start(&f, EV_EXPORT_PERFETTO);
	for (uint32_t t = 1; t <= n + 5; t++) {
		snprintf(text, sizeof text, "t%u", (unsigned)t);
		label(&f, t, text);
	}
	assert_int_equal(ev_exporter_result(f.x)->labels_dropped, 5);
	/* Every other thread finishes: the others keep their labels. */
	for (uint32_t t = 1; t <= n; t += 2) {
		run_thread(&f, 0, 10 + t, t);
		stop_thread(&f, 0, 10 + t, t, 5);
	}
	for (uint32_t t = 2; t <= 200; t += 2) {
		run_thread(&f, 0, 100000 + t, t);
		stop_thread(&f, 0, 100000 + t, t, 3);
	}
	label(&f, n + 1, "late");
	run_thread(&f, 0, 200000, n + 1);
	stop_thread(&f, 0, 200001, n + 1, 3);
	assert_int_equal(ev_exporter_result(f.x)->labels_dropped, 5);
	assert_int_equal(finish(&f), EV_OK);
	assert_non_null(strstr(f.text, "\"name\":\"t200\""));
	assert_non_null(strstr(f.text, "\"name\":\"t2\","));
	assert_non_null(strstr(f.text, "\"name\":\"late\""));
	assert_int_equal(count(f.text, "\"name\":\"thread "), 0);
	stop(&f);
}

static void test_processes(void **state)
{
	fixture f;
	uint8_t create[6], assign[6], pid[8], args[4 + 16];

	(void)state;
	start(&f, EV_EXPORT_PERFETTO);
	ev_store32(create, 3);
	ev_store16(create + 4, EV_CAPSET_OS_PROCESS);
	feed(&f, EV_CAPSET_CREATE, EV_NO_CAP, 0, create, sizeof create);
	ev_store32(pid, 3);
	ev_store32(pid + 4, 4242);
	feed(&f, EV_OSPROCESS_PID, EV_NO_CAP, 0, pid, sizeof pid);
	ev_store32(args, 3);
	memcpy(args + 4, "/usr/bin/prog\0-x", 16);
	feed(&f, EV_PROGRAM_ARGS, EV_NO_CAP, 0, args, sizeof args);
	ev_store32(assign, 3);
	ev_store16(assign + 4, 2);
	feed(&f, EV_CAPSET_ASSIGN_CAP, EV_NO_CAP, 0, assign, sizeof assign);
	run_thread(&f, 2, 10, 1);
	stop_thread(&f, 2, 20, 1, 3);
	run_thread(&f, 5, 10, 2); /* a cap no capset claims */
	assert_int_equal(finish(&f), EV_OK);
	assert_non_null(strstr(f.text, "\"name\":\"process_name\",\"pid\":1,"
				       "\"args\":{\"name\":\"prog (pid 4242)\"}}"));
	assert_non_null(strstr(f.text, "\"name\":\"process_name\",\"pid\":2,"
				       "\"args\":{\"name\":\"GHC process\"}}"));
	assert_non_null(strstr(f.text, "\"name\":\"thread_name\",\"pid\":1,"
				       "\"tid\":3,\"args\":{\"name\":\"cap 2\"}}"));
	assert_non_null(strstr(f.text, "\"name\":\"thread_name\",\"pid\":2,"
				       "\"tid\":6,\"args\":{\"name\":\"cap 5\"}}"));
	assert_int_equal(ev_exporter_result(f.x)->processes, 1);
	stop(&f);
}

/* ------------------------------------------------------------------------
 * hp and speedscope
 * ---------------------------------------------------------------------- */

static void define_cc(fixture *f, uint32_t id, const char *label,
		      const char *module)
{
	uint8_t p[128];
	size_t at = 4;

	ev_store32(p, id);
	memcpy(p + at, label, strlen(label) + 1);
	at += strlen(label) + 1;
	memcpy(p + at, module, strlen(module) + 1);
	at += strlen(module) + 1;
	memcpy(p + at, "M.hs:1:1\0", 10);
	at += 10;
	p[at++] = 0; /* flags */
	feed(f, EV_HEAP_PROF_COST_CENTRE, EV_NO_CAP, 0, p, (uint32_t)at);
}

static void ccs_sample(fixture *f, uint64_t bytes, const uint32_t *ids,
		       unsigned depth)
{
	uint8_t p[10 + 4 * 16];

	p[0] = 0; /* profile */
	ev_store64(p + 1, bytes);
	p[9] = (uint8_t)depth;
	for (unsigned i = 0; i < depth; i++)
		ev_store32(p + 10 + 4 * i, ids[i]);
	feed(f, EV_HEAP_PROF_SAMPLE_COST_CENTRE, EV_NO_CAP, 5, p, 10 + 4 * depth);
}

/* -hc bands as the RTS's fprint_ccs writes them (less the ccsID prefix):
 * innermost first, "/" between, a CAF as MODULE.CAF, MAIN alone, and
 * longer than 25 bytes cut to 21 and "...". */
static void test_hp_bands(void **state)
{
	static const uint32_t inner[] = { 1, 2, 3 };
	static const uint32_t caf[] = { 1, 4 };
	static const uint32_t deep[] = { 5, 5, 5, 5 };
	uint8_t begin[13] = { 0 }, era[8] = { 0 }, thread[4] = { 0, 0, 0, 1 };
	fixture f;

	(void)state;
	start(&f, EV_EXPORT_HP);
	feed(&f, EV_HEAP_PROF_BEGIN, EV_NO_CAP, 0, begin, sizeof begin);
	/* A run is at work within milliseconds of its start (else it is a
	 * slice: test_hp_slice). */
	feed(&f, EV_RUN_THREAD, 0, 1000, thread, sizeof thread);
	define_cc(&f, 1, "go", "Main");
	define_cc(&f, 2, "loop", "Main");
	define_cc(&f, 3, "main", "Main");
	define_cc(&f, 4, "CAF", "Data.Foo");
	define_cc(&f, 5, "abcdefgh", "Main");
	feed(&f, EV_HEAP_PROF_SAMPLE_BEGIN, EV_NO_CAP, 1500000000, era, 8);
	ccs_sample(&f, 100, inner, 3);
	ccs_sample(&f, 200, caf, 2);
	ccs_sample(&f, 300, deep, 4);
	ccs_sample(&f, 400, NULL, 0);
	feed(&f, EV_HEAP_PROF_SAMPLE_END, EV_NO_CAP, 1500000000, era, 8);
	assert_int_equal(finish(&f), EV_OK);
	assert_non_null(strstr(f.text, "BEGIN_SAMPLE 0.000000\nEND_SAMPLE 0.000000\n"
				       "BEGIN_SAMPLE 1.500000\n"
				       "go/loop/main\t100\n"
				       "go/Data.Foo.CAF\t200\n"
				       "abcdefgh/abcdefgh/abc...\t300\n"
				       "MAIN\t400\n"
				       "END_SAMPLE 1.500000\n"));
	stop(&f);
}

/* A slice of a run (filter --from; lib/inspect/slice.h): its metadata
 * from the run's start, its first other event 1.5 s later. Its profile
 * starts there, not at the run's start, so that hp2ps draws the slice;
 * and ends at its last event. */
static void test_hp_slice(void **state)
{
	uint8_t begin[13] = { 0 }, era[8] = { 0 }, thread[4] = { 0, 0, 0, 1 };
	fixture f;

	(void)state;
	start(&f, EV_EXPORT_HP);
	feed(&f, EV_HEAP_PROF_BEGIN, EV_NO_CAP, 0, begin, sizeof begin);
	feed(&f, EV_RUN_THREAD, 0, 1500000000, thread, sizeof thread);
	feed(&f, EV_HEAP_PROF_SAMPLE_BEGIN, EV_NO_CAP, 1600000000, era, 8);
	feed(&f, EV_HEAP_PROF_SAMPLE_END, EV_NO_CAP, 1600000000, era, 8);
	feed(&f, EV_RUN_THREAD, 0, 1700000000, thread, sizeof thread);
	assert_int_equal(finish(&f), EV_OK);
	assert_non_null(strstr(f.text, "VALUE_UNIT \"bytes\"\n"
				       "BEGIN_SAMPLE 1.500000\n"
				       "END_SAMPLE 1.500000\n"
				       "BEGIN_SAMPLE 1.600000\n"
				       "END_SAMPLE 1.600000\n"
				       "BEGIN_SAMPLE 1.700000\n"
				       "END_SAMPLE 1.700000\n"));
	stop(&f);
}

/* The DATE line from the first WALL_CLOCK_TIME that is a clock reading:
 * one with a nanosecond field of 10^9 is none (ev_wall_clock_epoch), so
 * the next one dates the run. */
static void test_hp_date(void **state)
{
	uint8_t begin[13] = { 0 }, era[8] = { 0 }, bad[16], good[16];
	fixture f;

	(void)state;
	ev_store32(bad, 0);
	ev_store64(bad + 4, 86400); /* Fri Jan 02 00:00 1970 */
	ev_store32(bad + 12, 1000000000u);
	memcpy(good, bad, sizeof good);
	ev_store64(good + 4, 86400 + 3600);
	ev_store32(good + 12, 999999999u);
	start(&f, EV_EXPORT_HP);
	feed(&f, EV_WALL_CLOCK_TIME, EV_NO_CAP, 0, bad, sizeof bad);
	feed(&f, EV_WALL_CLOCK_TIME, EV_NO_CAP, 0, good, sizeof good);
	feed(&f, EV_HEAP_PROF_BEGIN, EV_NO_CAP, 0, begin, sizeof begin);
	feed(&f, EV_HEAP_PROF_SAMPLE_BEGIN, EV_NO_CAP, 10, era, 8);
	feed(&f, EV_HEAP_PROF_SAMPLE_END, EV_NO_CAP, 10, era, 8);
	assert_int_equal(finish(&f), EV_OK);
	assert_non_null(strstr(f.text, "\nDATE \"Fri Jan 02 01:00 1970\"\n"));
	stop(&f);
}

/* The smallest payload of `type` the catalogue can read (its oldest
 * form's fixed fields). */
static uint32_t oldest_form(uint16_t type)
{
	uint32_t size = 0;

	while (!evi_catalog_layout(type, size))
		size++;
	return size;
}

/* An event too short for the fields of its type's oldest form is an
 * error, as for stats and report (it was skipped without a word); one
 * that has them is exported. */
static void test_short_event_is_an_error(void **state)
{
	static const uint16_t read[] = {
		EV_RUN_THREAD, EV_STOP_THREAD, EV_THREAD_LABEL,
		EV_PROGRAM_ARGS, EV_CAPSET_CREATE, EV_CAPSET_ASSIGN_CAP,
		EV_OSPROCESS_PID, EV_HEAP_SIZE, EV_HEAP_LIVE,
		EV_HEAP_ALLOCATED, EV_SPARK_COUNTERS, EV_GC_STATS_GHC
	};
	uint8_t p[64] = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof read / sizeof read[0]; i++) {
		uint32_t need = oldest_form(read[i]);
		ev_event ev = { .type = read[i], .cap = 0, .time = 1,
				.payload = p, .size = need - 1,
				.offset = 77 };
		fixture f;
		int rc;

		assert_true(need > 0 && need <= sizeof p);
		start(&f, EV_EXPORT_PERFETTO);
		feed(&f, read[i], 0, 1, p, need);
		/* The formats run behind the caller (export_pipe.c): the
		 * failure comes with this call or the finish. */
		rc = ev_exporter_event(f.x, &ev);
		if (rc == EV_OK)
			rc = ev_exporter_finish(f.x);
		assert_int_equal(rc, EV_EFORMAT);
		assert_int_equal(ev_exporter_diag(f.x)->offset, 77);
		assert_non_null(strstr(ev_exporter_diag(f.x)->message,
				       ev_catalog_find(read[i])->name));
		stop(&f);
	}
}

static void test_nothing_to_export(void **state)
{
	fixture f;

	(void)state;
	start(&f, EV_EXPORT_HP);
	run_thread(&f, 0, 1, 1);
	assert_int_equal(finish(&f), EV_EXPORT_NOTHING);
	assert_string_equal(f.text, "");
	stop(&f);
	start(&f, EV_EXPORT_SPEEDSCOPE);
	define_cc(&f, 1, "go", "Main");
	assert_int_equal(finish(&f), EV_EXPORT_NOTHING);
	assert_string_equal(f.text, "");
	stop(&f);
}

/* Samples of two caps, spilled and written back per cap, stacks root first;
 * a cost centre no definition names still gets a frame. */
static void test_speedscope_profiles(void **state)
{
	fixture f;
	uint8_t s[13 + 8];

	(void)state;
	start(&f, EV_EXPORT_SPEEDSCOPE);
	define_cc(&f, 1, "go", "Main");
	define_cc(&f, 2, "main", "Main");
	for (unsigned i = 0; i < 3; i++) {
		ev_store32(s, i % 2);          /* cap */
		ev_store64(s + 4, i);          /* ticks */
		s[12] = 2;                     /* depth */
		ev_store32(s + 13, i == 2 ? 9 : 1);
		ev_store32(s + 17, 2);
		feed(&f, EV_PROF_SAMPLE_COST_CENTRE, EV_NO_CAP, i, s, sizeof s);
	}
	assert_int_equal(finish(&f), EV_OK);
	assert_non_null(strstr(f.text, "{\"type\":\"sampled\",\"name\":\"cap 0\","
				       "\"unit\":\"none\",\"startValue\":0,"
				       "\"endValue\":2,\"samples\":[[1,0],[1,2]],"
				       "\"weights\":[1,1]}"));
	assert_non_null(strstr(f.text, "\"name\":\"cap 1\",\"unit\":\"none\","
				       "\"startValue\":0,\"endValue\":1,"
				       "\"samples\":[[1,0]]"));
	assert_non_null(strstr(f.text, "{\"name\":\"Main.go\",\"file\":\"M.hs\","
				       "\"line\":1,\"col\":1}"));
	assert_non_null(strstr(f.text, "{\"name\":\"cost centre 9\"}"));
	assert_int_equal(ev_exporter_result(f.x)->profiles, 2);
	stop(&f);
}

/* ------------------------------------------------------------------------
 * The formats' thread (export_pipe.c) with an output that fails midway
 * ---------------------------------------------------------------------- */

typedef struct feeder {
	ev_exporter *x;
	uint64_t events;
} feeder;

static int feed_session(void *ctx, const ev_session *s)
{
	unsigned session = s->index;
	const ev_header *h = s->header;
	return ev_exporter_session(((feeder *)ctx)->x, session, h);
}

static int feed_event(void *ctx, const ev_event *ev)
{
	feeder *f = ctx;

	f->events++;
	return ev_exporter_event(f->x, ev);
}

static int count_session(void *ctx, const ev_session *s)
{
	unsigned session = s->index;
	const ev_header *h = s->header;
	(void)ctx;
	(void)session;
	(void)h;
	return EV_OK;
}

static int count_event(void *ctx, const ev_event *ev)
{
	(void)ev;
	++*(uint64_t *)ctx;
	return EV_OK;
}

#define PASSES 6

/* A real log (gc-n2, PASSES passes: about 12 of the pipe's 128 KiB
 * batches) exported to a file that may hold 4 KiB (RLIMIT_FSIZE): the
 * thread's first write of the output (256 KiB) fails with EFBIG, within
 * the first pass's batches. The caller hands over at most four batches
 * ahead of the thread, so it meets the failure while it is still handing
 * events over: the visit stops with the sink's status, passes before the
 * last one ends; finish reports the same status and message, and free
 * returns (nothing waits for a thread that stopped). */
static void test_failing_output(void **state)
{
	static const ev_consumer visitor = { feed_session, feed_event, NULL, NULL, 0 };
	static const ev_consumer counter = { count_session, count_event, NULL, NULL, 0 };
	char *path = ts_path(EVTOOL_TESTDATA, "gc-n2.eventlog");
	struct rlimit old, small;
	void (*old_xfsz)(int);
	FILE *file = tmpfile();
	uint64_t per_pass = 0;
	feeder f = { NULL, 0 };
	ev_sorter *s;
	ev_input *in;
	ev_sink *sink;
	int rc = EV_OK, finished, passes = 0;
	struct stat st;
	char want[128];

	(void)state;
	assert_non_null(file);
	assert_int_equal(ev_sink_open_fd(&sink, fileno(file), "small",
					 NULL), EV_OK);
	assert_int_equal(ev_exporter_new(&f.x, NULL, sink, NULL), EV_OK);
	assert_int_equal(ev_sorter_new(&s, NULL, NULL), EV_OK);
	assert_int_equal(ev_input_open(&in, path, NULL), EV_OK);
	assert_int_equal(ev_sorter_visit(s, in, &counter, &per_pass), EV_OK);
	ev_input_free(in);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = old;
	small.rlim_cur = 4096;
	old_xfsz = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	while (rc == EV_OK && passes++ < PASSES) {
		assert_int_equal(ev_input_open(&in, path, NULL), EV_OK);
		rc = ev_sorter_visit(s, in, &visitor, &f);
		ev_input_free(in);
	}
	finished = ev_exporter_finish(f.x);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, old_xfsz);

	snprintf(want, sizeof want, "write failed: %s", strerror(EFBIG));
	assert_int_equal(rc, EV_EIO);
	assert_int_equal(ev_sorter_diag(s)->origin, EV_ORIGIN_OUTPUT);
	assert_true(per_pass > 0);
	assert_true(f.events < PASSES * per_pass);
	assert_int_equal(finished, EV_EIO);
	assert_int_equal(ev_exporter_diag(f.x)->status, EV_EIO);
	assert_string_equal(ev_exporter_diag(f.x)->message, want);
	ev_exporter_free(f.x);
	/* What the file got: the output's first 4 KiB. */
	assert_int_equal(fstat(fileno(file), &st), 0);
	assert_int_equal(st.st_size, 4096);
	ev_sink_free(sink);
	ev_sorter_free(s);
	fclose(file);
	free(path);
}

/* `name` exported as `format` by ev_exporter_visit with `threads`: the
 * output (NUL-terminated) and *events_in. */
static char *visit(const char *name, ev_export_format format,
		   unsigned threads, uint64_t *events_in)
{
	ev_export_options o = EV_EXPORT_OPTIONS_INIT;
	char *path = ts_path(EVTOOL_TESTDATA, name), *text;
	const uint8_t *bytes;
	ev_exporter *x;
	ev_sorter *s;
	ev_input *in;
	ev_sink *sink;
	size_t len;

	o.format = format;
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(ev_exporter_new(&x, &o, sink, NULL), EV_OK);
	assert_int_equal(ev_sorter_new(&s, NULL, NULL), EV_OK);
	assert_int_equal(ev_input_open(&in, path, NULL), EV_OK);
	ev_exporter_set_threads(x, threads);
	assert_int_equal(ev_exporter_visit(x, s, in), EV_OK);
	*events_in = ev_exporter_result(x)->events_in;
	bytes = ev_sink_memory(sink, &len);
	text = malloc(len + 1);
	assert_non_null(text);
	memcpy(text, bytes, len);
	text[len] = '\0';
	ev_input_free(in);
	ev_sorter_free(s);
	ev_exporter_free(x);
	ev_sink_free(sink);
	free(path);
	return text;
}

/* speedscope and hp with workers picking their events (export_blocks.c)
 * write what one thread writes, and count every event of the log as
 * handed over, as one thread does. */
static void test_visit_in_parallel(void **state)
{
	static const struct {
		const char *log;
		ev_export_format format;
		const char *has;
	} cases[] = {
		{ "prof-n2.eventlog", EV_EXPORT_SPEEDSCOPE, "\"type\":\"sampled\"" },
		{ "prof-n2.eventlog", EV_EXPORT_HP, "BEGIN_SAMPLE" },
		{ "hpt-n1.eventlog", EV_EXPORT_HP, "BEGIN_SAMPLE" },
		{ "heapdiff-a-hc.eventlog", EV_EXPORT_HP, "END_SAMPLE" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint64_t one, two, three;
		char *want = visit(cases[i].log, cases[i].format, 1, &one);
		char *got = visit(cases[i].log, cases[i].format, 2, &two);
		char *more = visit(cases[i].log, cases[i].format, 3, &three);

		assert_non_null(strstr(want, cases[i].has));
		assert_string_equal(got, want);
		assert_string_equal(more, want);
		assert_true(one > 0);
		assert_int_equal(two, one);
		assert_int_equal(three, one);
		free(want);
		free(got);
		free(more);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_thread_slices),
		cmocka_unit_test(test_ghc782_stop_status),
		cmocka_unit_test(test_gc_slice),
		cmocka_unit_test(test_open_slices_closed),
		cmocka_unit_test(test_label_bound),
		cmocka_unit_test(test_processes),
		cmocka_unit_test(test_hp_bands),
		cmocka_unit_test(test_hp_slice),
		cmocka_unit_test(test_hp_date),
		cmocka_unit_test(test_short_event_is_an_error),
		cmocka_unit_test(test_nothing_to_export),
		cmocka_unit_test(test_speedscope_profiles),
		cmocka_unit_test(test_failing_output),
		cmocka_unit_test(test_visit_in_parallel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
