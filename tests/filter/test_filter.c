/* Unit tests for selecting events (lib/filter/filter.c, lib/filter/filter_run.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "evtool/catalog.h"
#include "evtool/filter.h"
#include "evtool/merge.h"
#include "evtool/reader.h"
#include "evtool/writer.h"
#include "filter_internal.h" /* the learning protocol, tested directly */
#include "internal.h"
#include "merge_internal.h"
#include "support.h"

#ifndef EVTOOL_TESTDATA
#define EVTOOL_TESTDATA "testdata"
#endif
#ifndef EVTOOL_CORPUS
#define EVTOOL_CORPUS "../shared/corpus"
#endif

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------------
 * What the tests expect, written from doc/format.md section 5 and the issue,
 * not taken from the filter or the catalogue.
 * ---------------------------------------------------------------------- */

static const uint16_t gc_types[] = { 9, 10, 11, 12, 20, 21, 22, 49, 50,
				     51, 52, 53, 54, 90, 91 };
static const uint16_t scheduler_types[] = { 0, 1, 2, 3, 4, 8, 44, 55, 56,
					    57 };
static const uint16_t user_types[] = { 19, 58, 181 };
/* Kept unless --no-metadata: capsets and caps, process identity, wall
 * clock, heap info, profile and counter definitions, thread labels. */
static const uint16_t metadata_types[] = { 17, 25, 26, 27, 28, 29, 30, 31,
					   32, 33, 43, 44, 45, 46, 47, 48,
					   52, 140, 160, 161, 168, 169, 210 };

static int in_set(const uint16_t *set, size_t n, uint16_t type)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == type)
			return 1;
	return 0;
}

#define IS(set, type) in_set(set, ARRAY_LEN(set), type)

/* ------------------------------------------------------------------------
 * Logs as arrays of events
 * ---------------------------------------------------------------------- */

typedef struct tev {
	uint16_t type, cap;
	uint64_t time;
	uint32_t size;
	uint8_t *payload;
	unsigned session;
} tev;

typedef struct tlog {
	tev *ev;
	size_t n, cap;
	size_t blocks;
	unsigned sessions;
	int status;
	int blocks_single_cap; /* every block's events have its cap */
} tlog;

static void tlog_add(tlog *l, const ev_event *ev, unsigned session)
{
	tev *t;

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 1024;
		l->ev = realloc(l->ev, l->cap * sizeof *l->ev);
		assert_non_null(l->ev);
	}
	t = &l->ev[l->n++];
	t->type = ev->type;
	t->cap = ev->cap;
	t->time = ev->time;
	t->size = ev->size;
	t->payload = malloc(ev->size ? ev->size : 1);
	assert_non_null(t->payload);
	if (ev->size)
		memcpy(t->payload, ev->payload, ev->size);
	t->session = session;
}

static void tlog_free(tlog *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->ev[i].payload);
	free(l->ev);
	memset(l, 0, sizeof *l);
}

static void load_reader(ev_reader *r, tlog *out)
{
	ev_event ev;
	int rc;

	memset(out, 0, sizeof *out);
	out->blocks_single_cap = 1;
	for (;;) {
		while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
			if (ev.type == EV_BLOCK_MARKER) {
				out->blocks++;
				continue;
			}
			tlog_add(out, &ev, ev_reader_session(r));
		}
		out->sessions++;
		out->status = rc;
		if (rc != EV_END || ev_reader_next_session(r) != EV_OK)
			break;
	}
}

static void load_path(const char *path, tlog *out)
{
	ev_reader *r;

	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	load_reader(r, out);
	ev_reader_free(r);
}

static void load_memory(const uint8_t *data, size_t len, tlog *out)
{
	ev_reader *r;

	assert_int_equal(ev_reader_open_memory(&r, data, len, "out", 0,
					       NULL), EV_OK);
	load_reader(r, out);
	ev_reader_free(r);
}

static char *data_path(const char *name)
{
	char *p = ts_path(EVTOOL_TESTDATA, name);

	assert_non_null(p);
	return p;
}

/* Runs `f` over the log at `path` into `sink`: the status; what the run
 * did in `stats` (may be NULL). */
static int filter_path(ev_filter *f, const char *path, ev_sink *sink,
		       ev_filter_stats *stats)
{
	ev_input *in;
	int rc;

	assert_int_equal(ev_input_open(&in, path, NULL), EV_OK);
	rc = ev_filter_run(f, in, sink);
	if (stats)
		*stats = *ev_filter_result(f);
	ev_input_free(in);
	return rc;
}

/* Runs `f` over `path` into memory: the status; the output in `out`. */
static int run(ev_filter *f, const char *path, tlog *out,
	       ev_filter_stats *stats)
{
	ev_sink *sink;
	const uint8_t *bytes;
	size_t len;
	int rc;

	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	rc = filter_path(f, path, sink, stats);
	bytes = ev_sink_memory(sink, &len);
	load_memory(bytes, len, out);
	ev_sink_free(sink);
	return rc;
}

/* Runs a filter built by `setup` over the testdata log `name`. */
static void run_named(const char *name, void (*setup)(ev_filter *f),
		      tlog *in, tlog *out)
{
	char *path = data_path(name);
	ev_filter *f;

	load_path(path, in);
	assert_int_equal(in->status, EV_END);
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	setup(f);
	assert_int_equal(run(f, path, out, NULL), EV_OK);
	assert_int_equal(out->status, EV_END);
	ev_filter_free(f);
	free(path);
}

static int same_event(const tev *a, const tev *b)
{
	return a->type == b->type && a->cap == b->cap && a->time == b->time &&
	       a->size == b->size && a->session == b->session &&
	       memcmp(a->payload, b->payload, a->size) == 0;
}

/* `out` holds exactly the events of `in` that `keep` accepts, in order. */
static void assert_selected(const tlog *in, const tlog *out,
			    int (*keep)(const tev *ev, const void *ctx),
			    const void *ctx)
{
	size_t j = 0;

	for (size_t i = 0; i < in->n; i++) {
		if (!keep(&in->ev[i], ctx))
			continue;
		if (j >= out->n || !same_event(&in->ev[i], &out->ev[j]))
			fail_msg("kept event %zu (input %zu, type %u, time "
				 "%llu) is missing or differs", j, i,
				 in->ev[i].type,
				 (unsigned long long)in->ev[i].time);
		j++;
	}
	assert_int_equal(j, out->n);
}

static size_t count(const tlog *l, int (*keep)(const tev *, const void *),
		    const void *ctx)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++)
		n += keep(&l->ev[i], ctx) != 0;
	return n;
}

static int is_meta(const tev *ev, const void *ctx)
{
	(void)ctx;
	return IS(metadata_types, ev->type);
}

/* ------------------------------------------------------------------------
 * The identity selection
 * ---------------------------------------------------------------------- */

static int keep_all(const tev *ev, const void *ctx)
{
	(void)ev;
	(void)ctx;
	return 1;
}

static void identity_of(const char *path, void *ctx)
{
	size_t *logs = ctx;
	ev_filter *f;
	ev_filter_stats st;
	tlog in, out;
	int rc;

	load_path(path, &in);
	if (in.status != EV_END && in.status != EV_ETRUNCATED) {
		tlog_free(&in);
		return;
	}
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	rc = run(f, path, &out, &st);
	assert_int_equal(rc, in.status == EV_END ? EV_OK : EV_ETRUNCATED);
	assert_int_equal(st.truncated, in.status != EV_END);
	assert_int_equal(out.status, EV_END);
	assert_int_equal(out.sessions, in.sessions);
	assert_selected(&in, &out, keep_all, NULL);
	assert_int_equal(st.events_read, in.n);
	assert_int_equal(st.events_written, in.n);
	assert_int_equal(st.passes, 1);
	(*logs)++;
	ev_filter_free(f);
	tlog_free(&in);
	tlog_free(&out);
}

static void test_identity_gives_back_the_events(void **state)
{
	size_t logs = 0;

	(void)state;
	ts_for_each_log(EVTOOL_TESTDATA, identity_of, &logs);
	ts_for_each_log(EVTOOL_CORPUS, identity_of, &logs);
	assert_true(logs >= 12);
}

/* Output blocks are one per run of consecutive events of one cap. */
static void test_output_is_reblocked(void **state)
{
	char *path = data_path("threads-n4.eventlog");
	size_t len, switches = 0, blocks = 0;
	uint8_t *data;
	ev_filter *f;
	ev_sink *sink;
	ts_log walk;
	uint16_t cap = 0;
	tlog out;

	(void)state;
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(ev_filter_add(f, EV_FILTER_CAP, "1,3", 0), EV_OK);
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(filter_path(f, path, sink, NULL), EV_OK);
	data = (uint8_t *)ev_sink_memory(sink, &len);
	assert_int_equal(ts_walk(data, len, &walk), 1);
	assert_true(walk.complete);
	for (size_t i = 0; i < walk.count; i++) {
		const ts_event *e = &walk.events[i];
		if (e->type == EV_BLOCK_MARKER) {
			blocks++;
			cap = ev_load16(ts_payload(data, e) + 12);
			continue;
		}
		assert_int_equal(e->cap, cap);
		if (i > 0 && walk.events[i - 1].type != EV_BLOCK_MARKER &&
		    walk.events[i - 1].cap != e->cap)
			switches++;
	}
	assert_int_equal(switches, 0);
	/* one block per run of one cap: caps 1 and 3, the labels of threads
	 * on caps 0 and 2 (metadata), the global metadata */
	load_memory(data, len, &out);
	switches = 1;
	for (size_t i = 1; i < out.n; i++)
		switches += out.ev[i].cap != out.ev[i - 1].cap;
	assert_int_equal(blocks, switches);
	assert_true(blocks >= 3);
	tlog_free(&out);
	ts_log_free(&walk);
	ev_sink_free(sink);
	ev_filter_free(f);
	free(path);
}

/* ------------------------------------------------------------------------
 * Classes and types
 * ---------------------------------------------------------------------- */

static void setup_gc(ev_filter *f)
{
	assert_int_equal(ev_filter_add(f, EV_FILTER_CLASS, "gc", 0), EV_OK);
}

static int keep_gc(const tev *ev, const void *ctx)
{
	(void)ctx;
	return IS(gc_types, ev->type) || IS(metadata_types, ev->type);
}

static void test_class_gc_keeps_gc_and_heap_statistics(void **state)
{
	tlog in, out;
	size_t heap_stats = 0;

	(void)state;
	run_named("gc-n2.eventlog", setup_gc, &in, &out);
	assert_selected(&in, &out, keep_gc, NULL);
	for (size_t i = 0; i < out.n; i++)
		heap_stats += out.ev[i].type >= 49 && out.ev[i].type <= 53;
	assert_true(heap_stats > 100); /* HEAP_* and GC_STATS_GHC */
	assert_true(out.n > 6000 && out.n < in.n);
	tlog_free(&in);
	tlog_free(&out);
}

/* The same selection written several ways gives the same bytes. */
static void assert_same_output(const char *name, ev_filter_kind kind,
			       const char *const *lists, size_t n)
{
	char *path = data_path(name);
	uint8_t *first = NULL;
	size_t first_len = 0;

	for (size_t i = 0; i < n; i++) {
		ev_filter *f;
		ev_sink *sink;
		const uint8_t *bytes;
		size_t len;
		assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
		assert_int_equal(ev_filter_add(f, kind, lists[i], 0), EV_OK);
		assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
		assert_int_equal(filter_path(f, path, sink, NULL),
				 EV_OK);
		bytes = ev_sink_memory(sink, &len);
		if (!first) {
			first = malloc(len);
			memcpy(first, bytes, len);
			first_len = len;
		} else {
			assert_int_equal(len, first_len);
			assert_memory_equal(bytes, first, len);
		}
		ev_sink_free(sink);
		ev_filter_free(f);
	}
	free(first);
	free(path);
}

static void test_class_letters_and_names_agree(void **state)
{
	static const char *const gc[] = { "g", "gc", "GC", " gc " };
	static const char *const su[] = { "su", "s,u", "scheduler,user",
					  "user,s" };

	(void)state;
	assert_same_output("gc-n2.eventlog", EV_FILTER_CLASS, gc, 4);
	assert_same_output("user-n1.eventlog", EV_FILTER_CLASS, su, 4);
}

static void setup_user(ev_filter *f)
{
	assert_int_equal(ev_filter_add(f, EV_FILTER_CLASS, "u", 0), EV_OK);
	ev_filter_set_metadata(f, 0);
}

static int keep_user(const tev *ev, const void *ctx)
{
	(void)ctx;
	return IS(user_types, ev->type);
}

static void test_class_user_without_metadata(void **state)
{
	tlog in, out;

	(void)state;
	run_named("user-n1.eventlog", setup_user, &in, &out);
	assert_selected(&in, &out, keep_user, NULL);
	assert_int_equal(out.n, 31); /* 24 messages and 7 markers */
	tlog_free(&in);
	tlog_free(&out);
}

static int is_run_or_stop(const tev *ev, const void *ctx)
{
	(void)ctx;
	return ev->type == EV_RUN_THREAD || ev->type == EV_STOP_THREAD;
}

static void test_type_names_ids_and_ranges_agree(void **state)
{
	static const char *const lists[] = { "RUN_THREAD,stop_thread", "1,2",
					      "1-2", "2, 1" };
	tlog in, out;
	char *path = data_path("threads-n2.eventlog");
	ev_filter *f;

	(void)state;
	assert_same_output("threads-n2.eventlog", EV_FILTER_TYPE, lists, 4);
	load_path(path, &in);
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(ev_filter_add(f, EV_FILTER_TYPE, "1-2", 0), EV_OK);
	assert_int_equal(run(f, path, &out, NULL), EV_OK);
	for (size_t i = 0, j = 0; i < in.n; i++)
		if (in.ev[i].type == 1 || in.ev[i].type == 2 ||
		    IS(metadata_types, in.ev[i].type))
			assert_true(same_event(&in.ev[i], &out.ev[j++]));
	assert_int_equal(out.n, count(&in, is_meta, NULL) +
				count(&in, is_run_or_stop, NULL));
	assert_true(out.n > 2000);
	ev_filter_free(f);
	tlog_free(&in);
	tlog_free(&out);
	free(path);
}

/* ------------------------------------------------------------------------
 * Capabilities, threads, processes
 * ---------------------------------------------------------------------- */

/* Global events naming a cap in their payload (doc/format.md section 6). */
static int names_cap(const tev *ev, uint16_t cap)
{
	const uint8_t *p = ev->payload;

	switch (ev->type) {
	case 45: case 46: case 47: case 48:
		return ev->size >= 2 && ev_load16(p) == cap;
	case 27: case 28:
		return ev->size >= 6 && ev_load16(p + 4) == cap;
	case 55:
		return ev->size >= 10 && ev_load16(p + 8) == cap;
	case 56:
		return ev->size >= 12 && (ev_load16(p + 8) == cap ||
					  ev_load16(p + 10) == cap);
	default:
		return 0;
	}
}

static int keep_caps_0_2_3(const tev *ev, const void *ctx)
{
	(void)ctx;
	if (IS(metadata_types, ev->type))
		return 1;
	if (ev->cap != EV_NO_CAP)
		return ev->cap == 0 || ev->cap == 2 || ev->cap == 3;
	return names_cap(ev, 0) || names_cap(ev, 2) || names_cap(ev, 3);
}

static void setup_caps(ev_filter *f)
{
	assert_int_equal(ev_filter_add(f, EV_FILTER_CAP, "0,2-3", 0), EV_OK);
}

static void test_cap_list_with_ranges(void **state)
{
	tlog in, out;
	size_t tasks = 0;

	(void)state;
	run_named("threads-n4.eventlog", setup_caps, &in, &out);
	assert_selected(&in, &out, keep_caps_0_2_3, NULL);
	for (size_t i = 0; i < out.n; i++) {
		assert_true(out.ev[i].cap != 1 ||
			    out.ev[i].type == EV_THREAD_LABEL);
		tasks += out.ev[i].type == EV_TASK_CREATE;
	}
	assert_true(tasks > 0); /* global TASK_CREATE naming cap 0, 2, 3 */
	tlog_free(&in);
	tlog_free(&out);
}

static void setup_global(ev_filter *f)
{
	assert_int_equal(ev_filter_add(f, EV_FILTER_CAP, "global", 1), EV_OK);
	ev_filter_set_metadata(f, 0);
}

static int keep_not_global(const tev *ev, const void *ctx)
{
	(void)ctx;
	return ev->cap != EV_NO_CAP;
}

static void test_exclude_global(void **state)
{
	tlog in, out;

	(void)state;
	run_named("threads-n2.eventlog", setup_global, &in, &out);
	assert_selected(&in, &out, keep_not_global, NULL);
	tlog_free(&in);
	tlog_free(&out);
}

/* The subject thread: the first u32 of the thread events. */
static int about_thread(const tev *ev, uint32_t tid)
{
	switch (ev->type) {
	case 0: case 1: case 2: case 3: case 4: case 8: case 15: case 44:
		return ev->size >= 4 && ev_load32(ev->payload) == tid;
	default:
		return 0;
	}
}

static int keep_thread_5(const tev *ev, const void *ctx)
{
	(void)ctx;
	if (ev->type == EV_THREAD_LABEL)
		return about_thread(ev, 5);
	return IS(metadata_types, ev->type) || about_thread(ev, 5);
}

static void setup_thread(ev_filter *f)
{
	assert_int_equal(ev_filter_add(f, EV_FILTER_THREAD, "5", 0), EV_OK);
}

static void test_thread_keeps_its_events_and_label(void **state)
{
	tlog in, out;
	size_t labels = 0, runs = 0;

	(void)state;
	run_named("threads-n1.eventlog", setup_thread, &in, &out);
	assert_selected(&in, &out, keep_thread_5, NULL);
	for (size_t i = 0; i < out.n; i++) {
		labels += out.ev[i].type == EV_THREAD_LABEL;
		runs += out.ev[i].type == EV_RUN_THREAD;
	}
	assert_int_equal(labels, 1);
	assert_true(runs > 100);
	tlog_free(&in);
	tlog_free(&out);
}

static void setup_no_scheduler(ev_filter *f)
{
	assert_int_equal(ev_filter_add(f, EV_FILTER_CLASS, "scheduler", 1),
			 EV_OK);
}

static int keep_no_scheduler(const tev *ev, const void *ctx)
{
	(void)ctx;
	return !IS(scheduler_types, ev->type) || IS(metadata_types, ev->type);
}

static void test_exclude_class(void **state)
{
	tlog in, out;

	(void)state;
	run_named("threads-n2.eventlog", setup_no_scheduler, &in, &out);
	assert_selected(&in, &out, keep_no_scheduler, NULL);
	assert_true(out.n < 200);
	tlog_free(&in);
	tlog_free(&out);
}

/* OSPROCESS_PID (32): capset u32, pid u32. */
static uint32_t pid_of(const tlog *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->ev[i].type == EV_OSPROCESS_PID)
			return ev_load32(l->ev[i].payload + 4);
	fail_msg("no OSPROCESS_PID");
	return 0;
}

static void test_process_and_capset(void **state)
{
	char *path = data_path("threads-n2.eventlog");
	char pid[16], other[16];
	tlog in, out;
	ev_filter *f;

	(void)state;
	load_path(path, &in);
	snprintf(pid, sizeof pid, "%u", pid_of(&in));
	snprintf(other, sizeof other, "%u", pid_of(&in) + 1);

	/* the log's own process: everything */
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(ev_filter_add(f, EV_FILTER_PROCESS, pid, 0), EV_OK);
	assert_int_equal(evi_filter_learning_passes(f), 1);
	assert_int_equal(run(f, path, &out, NULL), EV_OK);
	assert_selected(&in, &out, keep_all, NULL);
	ev_filter_free(f);
	tlog_free(&out);

	/* by its capset, the same */
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(ev_filter_add(f, EV_FILTER_CAPSET, "0", 0), EV_OK);
	assert_int_equal(run(f, path, &out, NULL), EV_OK);
	assert_selected(&in, &out, keep_all, NULL);
	ev_filter_free(f);
	tlog_free(&out);

	/* another process: nothing, not even metadata */
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(ev_filter_add(f, EV_FILTER_PROCESS, other, 0), EV_OK);
	assert_int_equal(run(f, path, &out, NULL), EV_OK);
	assert_int_equal(out.n, 0);
	ev_filter_free(f);
	tlog_free(&out);

	/* excluding the process leaves nothing either */
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(ev_filter_add(f, EV_FILTER_PROCESS, pid, 1), EV_OK);
	assert_int_equal(run(f, path, &out, NULL), EV_OK);
	assert_int_equal(out.n, 0);
	ev_filter_free(f);
	tlog_free(&out);
	tlog_free(&in);
	free(path);
}

static void setup_nonmoving(ev_filter *f)
{
	assert_int_equal(ev_filter_add(f, EV_FILTER_CLASS, "n", 0), EV_OK);
	ev_filter_set_metadata(f, 0);
}

/* -ln: the census (207, 208) and the concurrent mark/sweep (200-206). */
static int keep_nonmoving(const tev *ev, const void *ctx)
{
	(void)ctx;
	return ev->type >= 200 && ev->type <= 208;
}

static void test_class_n_is_all_nonmoving_events(void **state)
{
	tlog in, out;
	size_t census = 0, marks = 0;

	(void)state;
	run_named("nonmoving-n2.eventlog", setup_nonmoving, &in, &out);
	assert_selected(&in, &out, keep_nonmoving, NULL);
	for (size_t i = 0; i < out.n; i++) {
		census += out.ev[i].type == EV_NONMOVING_HEAP_CENSUS;
		marks += out.ev[i].type == EV_CONC_MARK_BEGIN;
	}
	assert_true(census > 0 && marks > 0);
	tlog_free(&in);
	tlog_free(&out);
}

/* A log of two processes, as `evtool merge` writes one: capset 0 (pid
 * 100) holds cap 0, capset 2 (pid 200) cap 1; capsets 1 and 3 are their
 * clock domains. */
static const struct {
	uint16_t type, cap;
	uint32_t a, b; /* capset and pid/cap/thread, as the type needs */
} two_processes[] = {
	{ EV_CAPSET_CREATE, EV_NO_CAP, 0, 2 },
	{ EV_CAPSET_CREATE, EV_NO_CAP, 1, 3 },
	{ EV_CAPSET_CREATE, EV_NO_CAP, 2, 2 },
	{ EV_CAPSET_CREATE, EV_NO_CAP, 3, 3 },
	{ EV_CAPSET_ASSIGN_CAP, EV_NO_CAP, 0, 0 },
	{ EV_CAPSET_ASSIGN_CAP, EV_NO_CAP, 1, 0 },
	{ EV_CAPSET_ASSIGN_CAP, EV_NO_CAP, 2, 1 },
	{ EV_CAPSET_ASSIGN_CAP, EV_NO_CAP, 3, 1 },
	{ EV_OSPROCESS_PID, EV_NO_CAP, 0, 100 },
	{ EV_OSPROCESS_PID, EV_NO_CAP, 2, 200 },
	{ EV_WALL_CLOCK_TIME, EV_NO_CAP, 1, 0 },
	{ EV_WALL_CLOCK_TIME, EV_NO_CAP, 3, 0 },
	{ EV_RUN_THREAD, 0, 0, 1 },
	{ EV_RUN_THREAD, 1, 0, 1 },
	{ EV_HEAP_ALLOCATED, 1, 2, 0 },
	{ EV_HEAP_PROF_SAMPLE_BEGIN, EV_NO_CAP, 0, 0 }, /* whose? */
	{ EV_TASK_CREATE, EV_NO_CAP, 0, 1 },          /* names cap 1 */
};
/* What --process 100 keeps, and --exclude-process 100. */
static const int of_pid_100[] = { 1, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1,
				  0, 0, 0, 0 };
static const int not_pid_100[] = { 0, 0, 1, 1, 0, 0, 1, 1, 0, 1, 0, 1, 0,
				   1, 1, 1, 1 };

static void two_process_event(size_t i, uint8_t *payload, ev_event *ev)
{
	memset(payload, 0, 32);
	memset(ev, 0, sizeof *ev);
	ev->type = two_processes[i].type;
	ev->cap = two_processes[i].cap;
	ev->time = 1000 + i;
	ev->payload = payload;
	switch (ev->type) {
	case EV_CAPSET_CREATE:
	case EV_CAPSET_ASSIGN_CAP:
		ev_store32(payload, two_processes[i].a);
		ev_store16(payload + 4, (uint16_t)two_processes[i].b);
		ev->size = 6;
		break;
	case EV_OSPROCESS_PID:
		ev_store32(payload, two_processes[i].a);
		ev_store32(payload + 4, two_processes[i].b);
		ev->size = 8;
		break;
	case EV_WALL_CLOCK_TIME:
		ev_store32(payload, two_processes[i].a);
		ev->size = 16;
		break;
	case EV_RUN_THREAD:
		ev_store32(payload, two_processes[i].b);
		ev->size = 4;
		break;
	case EV_HEAP_ALLOCATED:
		ev_store32(payload, two_processes[i].a);
		ev->size = 12;
		break;
	case EV_TASK_CREATE:
		ev_store16(payload + 8, (uint16_t)two_processes[i].b);
		ev->size = 18;
		break;
	default:
		ev->size = 8;
		break;
	}
}

static void check_two_processes(const char *list, ev_filter_kind kind,
				int exclude, const int *want)
{
	uint8_t payload[32];
	ev_filter *f;
	ev_event ev, out;

	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(ev_filter_add(f, kind, list, exclude), EV_OK);
	assert_int_equal(evi_filter_learning_passes(f), 1);
	for (size_t i = 0; i < ARRAY_LEN(two_processes); i++) {
		two_process_event(i, payload, &ev);
		assert_int_equal(evi_filter_learn(f, 0, 0, &ev), EV_OK);
	}
	assert_int_equal(evi_filter_end_learning(f, 0), EV_OK);
	for (size_t i = 0; i < ARRAY_LEN(two_processes); i++) {
		two_process_event(i, payload, &ev);
		if (evi_filter_apply(f, 0, &ev, &out) != want[i])
			fail_msg("%s %s: event %zu (type %u) should be %s",
				 exclude ? "excluding" : "keeping", list, i,
				 ev.type, want[i] ? "kept" : "dropped");
	}
	ev_filter_free(f);
}

static void test_process_of_a_merged_log(void **state)
{
	(void)state;
	check_two_processes("100", EV_FILTER_PROCESS, 0, of_pid_100);
	check_two_processes("0", EV_FILTER_CAPSET, 0, of_pid_100);
	check_two_processes("1", EV_FILTER_CAPSET, 0, of_pid_100);
	check_two_processes("100", EV_FILTER_PROCESS, 1, not_pid_100);
}

/* ------------------------------------------------------------------------
 * Time windows
 * ---------------------------------------------------------------------- */

typedef struct window {
	uint64_t from, to;
} window;

static int keep_in_window(const tev *ev, const void *ctx)
{
	const window *w = ctx;
	return ev->time >= w->from && ev->time < w->to;
}

static uint64_t first_time(const tlog *l)
{
	uint64_t t = UINT64_MAX;

	for (size_t i = 0; i < l->n; i++)
		if (l->ev[i].time < t)
			t = l->ev[i].time;
	return t;
}

/* WALL_CLOCK_TIME (43): capset u32, seconds u64, nanoseconds u32. */
static uint64_t unix_ns_at_zero(const tlog *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->ev[i].type == EV_WALL_CLOCK_TIME) {
			const uint8_t *p = l->ev[i].payload;
			return ev_load64(p + 4) * 1000000000u +
			       ev_load32(p + 12) - l->ev[i].time;
		}
	fail_msg("no WALL_CLOCK_TIME");
	return 0;
}

static void iso(uint64_t unix_ns, char *out, size_t len)
{
	time_t secs = (time_t)(unix_ns / 1000000000u);
	struct tm tm;
	char date[32];

	gmtime_r(&secs, &tm);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, len, "%s.%09uZ", date, (unsigned)(unix_ns % 1000000000u));
}

static void window_run(const char *path, const char *from, const char *to,
		       tlog *out)
{
	ev_filter *f;

	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	ev_filter_set_metadata(f, 0);
	assert_int_equal(ev_filter_set_time(f, from, to, 0), EV_OK);
	assert_int_equal(run(f, path, out, NULL), EV_OK);
	ev_filter_free(f);
}

static void test_time_window_relative_raw_and_wall(void **state)
{
	char *path = data_path("threads-n2.eventlog");
	char raw_from[32], raw_to[32], wall_from[48], wall_to[48];
	tlog in, out;
	window w;

	(void)state;
	load_path(path, &in);
	w.from = first_time(&in) + 10000000;
	w.to = first_time(&in) + 20000000;

	window_run(path, "+10ms", "+20ms", &out);
	assert_selected(&in, &out, keep_in_window, &w);
	assert_true(out.n > 1000);
	tlog_free(&out);

	window_run(path, "+0.01s", "+20000us", &out);
	assert_selected(&in, &out, keep_in_window, &w);
	tlog_free(&out);

	snprintf(raw_from, sizeof raw_from, "@%lluns",
		 (unsigned long long)w.from);
	snprintf(raw_to, sizeof raw_to, "@%lluns", (unsigned long long)w.to);
	window_run(path, raw_from, raw_to, &out);
	assert_selected(&in, &out, keep_in_window, &w);
	tlog_free(&out);
	/* A bare number is a timestamp, as show prints it. */
	snprintf(raw_from, sizeof raw_from, "%llu", (unsigned long long)w.from);
	snprintf(raw_to, sizeof raw_to, "%llu", (unsigned long long)w.to);
	window_run(path, raw_from, raw_to, &out);
	assert_selected(&in, &out, keep_in_window, &w);
	tlog_free(&out);

	iso(unix_ns_at_zero(&in) + w.from, wall_from, sizeof wall_from);
	iso(unix_ns_at_zero(&in) + w.to, wall_to, sizeof wall_to);
	window_run(path, wall_from, wall_to, &out);
	assert_selected(&in, &out, keep_in_window, &w);
	tlog_free(&out);

	/* A number with a unit is a timestamp too. */
	w.from = 10000000;
	w.to = 20000000;
	window_run(path, "10ms", "20ms", &out);
	assert_selected(&in, &out, keep_in_window, &w);
	assert_true(out.n > 1000);
	tlog_free(&out);

	/* open ends */
	w.from = first_time(&in) + 10000000;
	w.to = UINT64_MAX;
	window_run(path, "+10ms", NULL, &out);
	assert_selected(&in, &out, keep_in_window, &w);
	tlog_free(&out);
	tlog_free(&in);
	free(path);
}

/* The window's events, and the metadata stamped before its end. */
static int keep_window_and_context(const tev *ev, const void *ctx)
{
	const window *w = ctx;

	return keep_in_window(ev, ctx) ||
	       (IS(metadata_types, ev->type) && ev->time < w->to);
}

static int is_label_after(const tev *ev, const void *ctx)
{
	return ev->type == EV_THREAD_LABEL && ev->time >= ((const window *)ctx)->to;
}

static int is_capset_delete(const tev *ev, const void *ctx)
{
	(void)ctx;
	return ev->type == EV_CAPSET_DELETE;
}

/* A slice keeps the metadata its events need (from the run's start) but
 * none stamped after its window, which concerns nothing in it: the
 * capsets' deletion at exit, labels of threads created later (sparks-n2
 * labels a thread at 9.2 ms). */
static void test_time_window_drops_later_metadata(void **state)
{
	char *path = data_path("sparks-n2.eventlog");
	ev_filter *f;
	tlog in, out;
	window w;

	(void)state;
	load_path(path, &in);
	w.from = first_time(&in) + 2000000;
	w.to = first_time(&in) + 7000000;
	assert_true(count(&in, is_label_after, &w) > 0);
	assert_int_equal(count(&in, is_capset_delete, NULL), 2);
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(ev_filter_set_time(f, "+2ms", "+7ms", 0), EV_OK);
	assert_int_equal(run(f, path, &out, NULL), EV_OK);
	assert_selected(&in, &out, keep_window_and_context, &w);
	assert_int_equal(count(&out, is_label_after, &w), 0);
	assert_int_equal(count(&out, is_capset_delete, NULL), 0);
	ev_filter_free(f);
	tlog_free(&in);
	tlog_free(&out);
	free(path);
}

static int keep_outside_window(const tev *ev, const void *ctx)
{
	return IS(metadata_types, ev->type) || !keep_in_window(ev, ctx);
}

static void test_exclude_time_window(void **state)
{
	char *path = data_path("threads-n2.eventlog");
	ev_filter *f;
	tlog in, out;
	window w;

	(void)state;
	load_path(path, &in);
	w.from = first_time(&in) + 5000000;
	w.to = first_time(&in) + 25000000;
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(ev_filter_set_time(f, "+5ms", "+25ms", 1), EV_OK);
	assert_int_equal(run(f, path, &out, NULL), EV_OK);
	assert_selected(&in, &out, keep_outside_window, &w);
	ev_filter_free(f);
	tlog_free(&in);
	tlog_free(&out);
	free(path);
}

static void test_wall_clock_needs_a_wall_clock(void **state)
{
	char *path = data_path("killed-sigkill.eventlog");
	char *dir, *noclock;
	ev_filter *f;
	ev_filter_stats st;
	tlog out;

	(void)state;
	/* a log without events has nothing to place: fine */
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(ev_filter_set_time(f, "2024-01-01T00:00:00Z", NULL,
					    0), EV_OK);
	assert_int_equal(run(f, path, &out, &st), EV_ETRUNCATED);
	tlog_free(&out);
	ev_filter_free(f);
	free(path);

	/* events but no WALL_CLOCK_TIME (the global block lost) */
	dir = ts_path(getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR")
							    : "/tmp",
		      "evtool-test-filter-XXXXXX");
	assert_non_null(mkdtemp(dir));
	noclock = ts_path(dir, "noclock.eventlog");
	{
		ev_filter *strip;
		ev_sink *sink;
		path = data_path("user-n1.eventlog");
		assert_int_equal(ev_filter_new(&strip, NULL, NULL), EV_OK);
		assert_int_equal(ev_filter_add(strip, EV_FILTER_CAP, "global",
					       1), EV_OK);
		ev_filter_set_metadata(strip, 0);
		assert_int_equal(ev_sink_open_path(&sink, noclock,
						   NULL), EV_OK);
		assert_int_equal(filter_path(strip, path, sink, NULL),
				 EV_OK);
		assert_int_equal(ev_sink_commit(sink), EV_OK);
		ev_sink_free(sink);
		ev_filter_free(strip);
		free(path);
	}
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(ev_filter_set_time(f, "2024-01-01T00:00:00Z", NULL,
					    0), EV_OK);
	assert_int_equal(run(f, noclock, &out, &st), EV_EINVAL);
	assert_int_equal(ev_filter_diag(f)->origin, EV_ORIGIN_OPTIONS);
	assert_non_null(strstr(ev_filter_diag(f)->message, "WALL_CLOCK_TIME"));
	tlog_free(&out);
	ev_filter_free(f);
	unlink(noclock);
	rmdir(dir);
	free(noclock);
	free(dir);
}

/* ------------------------------------------------------------------------
 * Marker windows
 * ---------------------------------------------------------------------- */

/* The time of the first USER_MARKER with this exact text. */
static uint64_t marker_time(const tlog *l, const char *text)
{
	uint64_t t = UINT64_MAX;

	for (size_t i = 0; i < l->n; i++)
		if (l->ev[i].type == EV_USER_MARKER &&
		    l->ev[i].size == strlen(text) &&
		    memcmp(l->ev[i].payload, text, l->ev[i].size) == 0 &&
		    l->ev[i].time < t)
			t = l->ev[i].time;
	assert_true(t != UINT64_MAX);
	return t;
}

static int keep_marked(const tev *ev, const void *ctx)
{
	const window *w = ctx;
	return ev->time >= w->from && ev->time <= w->to;
}

static void markers_run(const char *path, const char *start, const char *end,
			ev_filter_stats *st, tlog *out)
{
	ev_filter *f;

	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	ev_filter_set_metadata(f, 0);
	assert_int_equal(ev_filter_set_markers(f, start, end, 0), EV_OK);
	assert_int_equal(run(f, path, out, st), EV_OK);
	ev_filter_free(f);
}

static void test_between_markers(void **state)
{
	char *path = data_path("user-n1.eventlog");
	ev_filter_stats st;
	tlog in, out;
	window w;

	(void)state;
	load_path(path, &in);
	w.from = marker_time(&in, "checkpoint 5");
	w.to = marker_time(&in, "checkpoint 10");

	markers_run(path, "checkpoint 5", "checkpoint 10", &st, &out);
	assert_selected(&in, &out, keep_marked, &w);
	assert_int_equal(out.n, 7); /* both markers, 5 messages */
	assert_int_equal(st.passes, 3);
	assert_int_equal(st.start_marker_missing + st.end_marker_missing, 0);
	tlog_free(&out);

	/* globs; the end is the next match after the start */
	markers_run(path, "check*5", "checkpoint*", &st, &out);
	assert_selected(&in, &out, keep_marked, &w);
	tlog_free(&out);

	/* no end: to the end of the log */
	w.to = UINT64_MAX;
	markers_run(path, "checkpoint 5", NULL, &st, &out);
	assert_selected(&in, &out, keep_marked, &w);
	tlog_free(&out);
	markers_run(path, "checkpoint 5", "no such marker", &st, &out);
	assert_selected(&in, &out, keep_marked, &w);
	assert_int_equal(st.end_marker_missing, 1);
	tlog_free(&out);

	/* no start marker: an empty window */
	markers_run(path, "no such marker", "checkpoint 10", &st, &out);
	assert_int_equal(out.n, 0);
	assert_int_equal(st.start_marker_missing, 1);
	tlog_free(&out);

	/* a substring is not a match */
	markers_run(path, "checkpoint", NULL, &st, &out);
	assert_int_equal(out.n, 0);
	tlog_free(&out);
	tlog_free(&in);
	free(path);
}

/* An input in memory is read again in place by every pass: the same
 * output as its file, nothing spilled. */
static void test_memory_input(void **state)
{
	char *path = data_path("user-n1.eventlog");
	const uint8_t *want, *got;
	size_t want_len, got_len, len;
	uint8_t *data = ts_read_file(path, &len);
	ev_sink *file_sink, *mem_sink;
	ev_filter *f;
	ev_input *in;

	(void)state;
	assert_non_null(data);
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(ev_filter_set_markers(f, "checkpoint 5",
					       "checkpoint 10", 0), EV_OK);
	assert_int_equal(ev_sink_open_memory(&file_sink, NULL), EV_OK);
	assert_int_equal(filter_path(f, path, file_sink, NULL), EV_OK);
	assert_int_equal(ev_input_memory(&in, data, len, NULL, NULL), EV_OK);
	assert_string_equal(ev_input_name(in), "<memory>");
	assert_int_equal(ev_sink_open_memory(&mem_sink, NULL), EV_OK);
	assert_int_equal(ev_filter_run(f, in, mem_sink), EV_OK);
	assert_int_equal(ev_filter_result(f)->passes, 3);
	assert_false(ev_filter_result(f)->spilled);
	want = ev_sink_memory(file_sink, &want_len);
	got = ev_sink_memory(mem_sink, &got_len);
	assert_true(want_len > 0);
	assert_int_equal(got_len, want_len);
	assert_memory_equal(got, want, want_len);
	ev_sink_free(file_sink);
	ev_sink_free(mem_sink);
	ev_input_free(in);
	ev_filter_free(f);
	free(data);
	free(path);
}

/* Markers are found in time order, not file order: the learning protocol
 * driven by hand over events of two caps whose blocks are out of order. */
static void test_markers_in_time_order(void **state)
{
	static const struct {
		uint16_t cap;
		uint64_t time;
		uint16_t type;
		const char *text;
	} events[] = {
		{ 1, 500, EV_USER_MARKER, "go" },   /* a later block first */
		{ 1, 900, EV_USER_MARKER, "stop" },
		{ 1, 950, EV_USER_MSG, "after" },
		{ 0, 100, EV_USER_MSG, "before" },
		{ 0, 200, EV_USER_MARKER, "go" },   /* the first "go" */
		{ 0, 300, EV_USER_MSG, "inside" },
		{ 0, 400, EV_USER_MARKER, "stop, with a comma" },
		{ 0, 450, EV_USER_MSG, "outside" },
	};
	static const int kept[] = { 0, 0, 0, 0, 1, 1, 1, 0 };
	ev_filter *f;
	ev_event out;

	(void)state;
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(ev_filter_set_markers(f, "go", "stop, with*", 0),
			 EV_OK);
	assert_int_equal(evi_filter_learning_passes(f), 2);
	for (unsigned pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < ARRAY_LEN(events); i++) {
			ev_event ev = { events[i].type, events[i].cap,
					(uint32_t)strlen(events[i].text),
					events[i].time,
					(const uint8_t *)events[i].text, 0, i };
			assert_int_equal(evi_filter_learn(f, pass, 0, &ev), EV_OK);
		}
		assert_int_equal(evi_filter_end_learning(f, pass), EV_OK);
	}
	for (size_t i = 0; i < ARRAY_LEN(events); i++) {
		ev_event ev = { events[i].type, events[i].cap,
				(uint32_t)strlen(events[i].text),
				events[i].time,
				(const uint8_t *)events[i].text, 0, i };
		assert_int_equal(evi_filter_apply(f, 0, &ev, &out), kept[i]);
	}
	ev_filter_free(f);
}

/* ------------------------------------------------------------------------
 * Metadata, empty selections, redaction
 * ---------------------------------------------------------------------- */

static void setup_ticky(ev_filter *f)
{
	assert_int_equal(ev_filter_add(f, EV_FILTER_CLASS, "T", 0), EV_OK);
}

static int is_heap_begin(const tev *ev, const void *ctx)
{
	(void)ctx;
	return ev->type == EV_HEAP_PROF_BEGIN;
}

static void test_metadata_is_kept(void **state)
{
	tlog in, out;
	int seen[256] = { 0 };

	(void)state;
	run_named("threads-n2.eventlog", setup_ticky, &in, &out);
	assert_selected(&in, &out, is_meta, NULL);
	for (size_t i = 0; i < out.n; i++)
		seen[out.ev[i].type & 0xff] = 1;
	/* what ThreadScope and eventlog2html need to make sense of a log */
	assert_true(seen[EV_CAPSET_CREATE] && seen[EV_CAPSET_ASSIGN_CAP] &&
		    seen[EV_CAP_CREATE] && seen[EV_RTS_IDENTIFIER] &&
		    seen[EV_PROGRAM_ARGS] && seen[EV_OSPROCESS_PID] &&
		    seen[EV_WALL_CLOCK_TIME] && seen[EV_THREAD_LABEL]);
	tlog_free(&in);
	tlog_free(&out);

	/* heap-profile definitions */
	run_named("heap-n1.eventlog", setup_ticky, &in, &out);
	assert_selected(&in, &out, is_meta, NULL);
	assert_int_equal(count(&out, is_heap_begin, NULL), 1);
	tlog_free(&in);
	tlog_free(&out);
}

static void test_empty_selection_is_a_valid_log(void **state)
{
	char *path = data_path("threads-n2.eventlog");
	ev_filter *f;
	ev_sink *sink;
	const uint8_t *bytes;
	size_t len;
	ts_log walk;
	tlog out;

	(void)state;
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(ev_filter_add(f, EV_FILTER_CLASS, "ticky", 0), EV_OK);
	ev_filter_set_metadata(f, 0);
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(filter_path(f, path, sink, NULL), EV_OK);
	bytes = ev_sink_memory(sink, &len);
	/* header, no events, data end: well formed and complete */
	assert_int_equal(ts_walk(bytes, len, &walk), 1);
	assert_true(walk.complete);
	assert_int_equal(walk.count, 0);
	assert_int_equal(walk.end, len);
	load_memory(bytes, len, &out);
	assert_int_equal(out.status, EV_END);
	assert_int_equal(out.n, 0);
	ts_log_free(&walk);
	tlog_free(&out);
	ev_sink_free(sink);
	ev_filter_free(f);
	free(path);
}

static void apply_strings(ev_filter *f, uint16_t type, const char *strings,
			  size_t len, const char *want, size_t want_len)
{
	uint8_t payload[256];
	ev_event ev = { type, EV_NO_CAP, (uint32_t)(4 + len), 1000, payload, 0,
			0 };
	ev_event out;

	ev_store32(payload, 7);
	memcpy(payload + 4, strings, len);
	assert_int_equal(evi_filter_apply(f, 0, &ev, &out), 1);
	assert_int_equal(out.size, 4 + want_len);
	assert_int_equal(ev_load32(out.payload), 7);
	assert_memory_equal(out.payload + 4, want, want_len);
	assert_int_equal(out.time, 1000);
	assert_int_equal(out.type, type);
}

static void test_redaction(void **state)
{
	static const char args[] = "./prog\0--token\0s3cret\0\0-x";
	static const char args_want[] = "./prog\0<redacted>\0<redacted>\0\0"
					"<redacted>";
	static const char env[] = "HOME=/home/a\0TOKEN=abc\0ODD\0EMPTY=";
	static const char env_want[] = "HOME=<redacted>\0TOKEN=<redacted>\0"
				       "<redacted>\0EMPTY=";
	char *path = data_path("user-n1.eventlog");
	ev_filter *f;
	tlog out;
	int found = 0;

	(void)state;
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(ev_filter_set_redact(f, "args,env"), EV_OK);
	apply_strings(f, EV_PROGRAM_ARGS, args, sizeof args - 1, args_want,
		      sizeof args_want - 1);
	apply_strings(f, EV_PROGRAM_ENV, env, sizeof env,
		      env_want, sizeof env_want);
	assert_int_equal(ev_filter_set_redact(f, "env"), EV_OK);
	apply_strings(f, EV_PROGRAM_ARGS, args, sizeof args - 1, args,
		      sizeof args - 1);
	assert_int_equal(ev_filter_set_redact(f, "args,secrets"), EV_EINVAL);

	/* on a real log: the output still reads */
	assert_int_equal(ev_filter_set_redact(f, "args"), EV_OK);
	assert_int_equal(run(f, path, &out, NULL), EV_OK);
	assert_int_equal(out.status, EV_END);
	for (size_t i = 0; i < out.n; i++) {
		static const char want[] = "./user\0<redacted>\0<redacted>\0"
					   "<redacted>\0<redacted>\0"
					   "<redacted>\0<redacted>";
		if (out.ev[i].type != EV_PROGRAM_ARGS)
			continue;
		found = 1;
		assert_int_equal(out.ev[i].size, 4 + sizeof want);
		assert_memory_equal(out.ev[i].payload + 4, want, sizeof want);
	}
	assert_true(found);
	tlog_free(&out);
	ev_filter_free(f);
	free(path);
}

/* ------------------------------------------------------------------------
 * Bad selectors
 * ---------------------------------------------------------------------- */

static void assert_rejected(int rc, const ev_filter *f, const char *word)
{
	assert_int_equal(rc, EV_EINVAL);
	if (!strstr(ev_filter_diag(f)->message, word))
		fail_msg("message '%s' does not name '%s'",
			 ev_filter_diag(f)->message, word);
}

static void test_bad_selectors_are_named(void **state)
{
	ev_filter *f;

	(void)state;
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_rejected(ev_filter_add(f, EV_FILTER_CLASS, "gc,gcc", 0), f,
			"'gcc'");
	assert_rejected(ev_filter_add(f, EV_FILTER_CLASS, "sgx", 0), f, "sgx");
	assert_rejected(ev_filter_add(f, EV_FILTER_TYPE, "RUN_THREADS", 0), f,
			"RUN_THREADS");
	assert_rejected(ev_filter_add(f, EV_FILTER_TYPE, "65535", 0), f,
			"65535");
	assert_rejected(ev_filter_add(f, EV_FILTER_CAP, "3-1", 0), f, "3-1");
	assert_rejected(ev_filter_add(f, EV_FILTER_CAP, "0,,1", 0), f, "empty");
	assert_rejected(ev_filter_add(f, EV_FILTER_THREAD, "x", 0), f, "'x'");
	assert_rejected(ev_filter_add(f, EV_FILTER_PROCESS, "", 0), f, "empty");
	assert_rejected(ev_filter_set_time(f, "10 20", NULL, 0), f, "'10 20'");
	assert_rejected(ev_filter_set_time(f, "10 mins", NULL, 0), f,
			"10 mins");
	assert_rejected(ev_filter_set_time(f, "1.2.3ms", NULL, 0), f, "1.2.3");
	assert_rejected(ev_filter_set_time(f, "2024-13-01T00:00Z", NULL, 0), f,
			"2024-13");
	assert_rejected(ev_filter_set_time(f, "2ms", "1ms", 0), f, "empty");
	assert_rejected(ev_filter_set_markers(f, NULL, "", 0), f, "marker");
	assert_int_equal(ev_filter_set_time(f, "0", "1.5s", 0), EV_OK);
	assert_int_equal(ev_filter_set_time(f, "@0ns", NULL, 0), EV_OK);
	assert_int_equal(ev_filter_set_time(f, "2024-05-01 12:00:00.25+02:00",
					    NULL, 0), EV_OK);
	assert_int_equal(ev_filter_set_time(f, "2024-05-01T12:00Z",
					    "2024-05-01T12:00:01Z", 0), EV_OK);
	ev_filter_free(f);
	ev_filter_free(NULL);
}

/* ------------------------------------------------------------------------
 * Inputs: standard input (a pipe is copied for the learning pass, a file
 * is read in place), truncation
 * ---------------------------------------------------------------------- */

/* Makes standard input a pipe that a child fills with the file's bytes;
 * returns the child. */
static pid_t stdin_from_pipe(const char *path)
{
	size_t len;
	uint8_t *bytes = ts_read_file(path, &len);
	int fds[2];
	pid_t child;

	assert_int_equal(pipe(fds), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) { /* no cmocka here: plain writes, then out */
		size_t done = 0;
		close(fds[0]);
		while (done < len) {
			ssize_t n = write(fds[1], bytes + done, len - done);
			if (n <= 0)
				_exit(1);
			done += (size_t)n;
		}
		_exit(0);
	}
	close(fds[1]);
	free(bytes);
	assert_int_equal(dup2(fds[0], STDIN_FILENO), STDIN_FILENO);
	close(fds[0]);
	return child;
}

/* Filters a window that needs a learning pass over standard input: a
 * pipe (`from_pipe`) or the file itself. */
static void filter_standard_input(int from_pipe)
{
	char *path = data_path("threads-n2.eventlog");
	int saved = dup(STDIN_FILENO), fd = open(path, O_RDONLY), status;
	pid_t child = -1;
	ev_filter_stats st;
	ev_filter *f;
	tlog in, out;
	window w;

	load_path(path, &in);
	w.from = first_time(&in) + 3000000;
	w.to = UINT64_MAX;
	assert_true(saved >= 0 && fd >= 0);
	if (from_pipe)
		child = stdin_from_pipe(path);
	else
		assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	ev_filter_set_metadata(f, 0);
	assert_int_equal(ev_filter_set_time(f, "+3ms", NULL, 0), EV_OK);
	assert_int_equal(run(f, "-", &out, &st), EV_OK);
	assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);
	if (from_pipe) {
		assert_int_equal(waitpid(child, &status, 0), child);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	assert_int_equal(st.spilled, from_pipe);
	assert_int_equal(st.passes, 2);
	assert_selected(&in, &out, keep_in_window, &w);
	ev_filter_free(f);
	tlog_free(&in);
	tlog_free(&out);
	free(path);
}

static void test_standard_input_pipe_is_copied_when_learning(void **state)
{
	(void)state;
	filter_standard_input(1);
}

static void test_standard_input_file_is_read_in_place(void **state)
{
	(void)state;
	filter_standard_input(0);
}

static void test_truncated_input(void **state)
{
	char *src = data_path("gc-n2.eventlog");
	char *dir = ts_path(getenv("TMPDIR") && *getenv("TMPDIR")
				    ? getenv("TMPDIR") : "/tmp",
			    "evtool-test-filter-XXXXXX");
	char *cut;
	size_t len;
	uint8_t *data = ts_read_file(src, &len);
	ev_filter_stats st;
	ev_filter *f;
	tlog in, out;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	cut = ts_path(dir, "cut.eventlog");
	fp = fopen(cut, "wb");
	assert_int_equal(fwrite(data, 1, len / 3, fp), len / 3);
	fclose(fp);
	load_path(cut, &in);
	assert_int_equal(in.status, EV_ETRUNCATED);
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(ev_filter_add(f, EV_FILTER_CLASS, "gc", 0), EV_OK);
	assert_int_equal(ev_filter_set_time(f, "+1ms", NULL, 0), EV_OK);
	assert_int_equal(run(f, cut, &out, &st), EV_ETRUNCATED);
	assert_true(st.truncated);
	assert_int_equal(ev_filter_diag(f)->origin, EV_ORIGIN_INPUT);
	assert_int_equal(out.status, EV_END);
	assert_int_equal(st.events_read, in.n);
	assert_true(out.n > 0);
	ev_filter_free(f);
	tlog_free(&in);
	tlog_free(&out);
	unlink(cut);
	rmdir(dir);
	free(cut);
	free(dir);
	free(data);
	free(src);
}

/* An input cut inside its first header, or empty (found by the filter
 * fuzzer): there is no log to filter. EV_EFORMAT, not EV_ETRUNCATED,
 * whose output would be complete: nothing is written. */
static void test_header_cut_input(void **state)
{
	char *src = data_path("user-n1.eventlog");
	char *dir = ts_temp_dir();
	char *cut = ts_path(dir, "cut.eventlog");
	size_t len, cuts[] = { 0, 4, 700 };
	uint8_t *data = ts_read_file(src, &len);

	(void)state;
	for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
		ev_filter_stats st;
		ev_filter *f;
		ev_sink *sink;
		size_t out_len;

		assert_true(ts_write_file(cut, data, cuts[i], "wb"));
		assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
		assert_int_equal(ev_filter_add(f, EV_FILTER_CLASS, "u", 0),
				 EV_OK);
		assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
		assert_int_equal(filter_path(f, cut, sink, &st),
				 EV_EFORMAT);
		assert_int_equal(ev_filter_diag(f)->status, EV_EFORMAT);
		/* No byte at all is no eventlog, with a reason. */
		assert_non_null(strstr(ev_filter_diag(f)->message,
				       cuts[i] == 0 ? "the file is empty"
						    : "inside the header"));
		assert_int_equal(ev_filter_diag(f)->reason,
				 cuts[i] == 0 ? EV_REASON_EMPTY_INPUT
					      : EV_REASON_NONE);
		assert_int_equal(ev_filter_diag(f)->origin, EV_ORIGIN_INPUT);
		assert_int_equal(st.sessions, 0);
		(void)ev_sink_memory(sink, &out_len);
		assert_int_equal(out_len, 0);
		ev_sink_free(sink);
		ev_filter_free(f);
	}
	ts_remove_dir(dir);
	free(cut);
	free(dir);
	free(data);
	free(src);
}

/* ------------------------------------------------------------------------
 * More classes, the --exclude- twins, a real merged log
 * ---------------------------------------------------------------------- */

/* Class members from doc/format.md section 5 (the class column): p sparks
 * sampled, f sparks full, prof split into heap (160-166) and time (167,
 * 168) profiling, T ticky. The definitions among them (160, 161, 168,
 * 210) are metadata and kept anyway. */
static const uint16_t sampled_types[] = { 34 };
static const uint16_t full_types[] = { 15, 35, 36, 37, 38, 39, 40, 41 };
static const uint16_t spark_types[] = { 15, 34, 35, 36, 37, 38, 39, 40, 41 };
static const uint16_t heap_prof_types[] = { 160, 161, 162, 163, 164, 165,
					    166 };
static const uint16_t time_prof_types[] = { 167, 168 };
static const uint16_t ticky_types[] = { 210, 211, 212 };

typedef struct type_set {
	const uint16_t *types;
	size_t n;
} type_set;

static int keep_class(const tev *ev, const void *ctx)
{
	const type_set *set = ctx;
	return in_set(set->types, set->n, ev->type) ||
	       IS(metadata_types, ev->type);
}

/* Filters `path` by `--class list` and checks the output against the
 * input's events of `set` and the metadata; `own` of them must be
 * events of the class that are not metadata. Logs cut short are filtered
 * up to their last complete event. */
static void check_class(const char *path, const char *list,
			const uint16_t *types, size_t n, size_t own)
{
	type_set set = { types, n };
	ev_filter_stats st;
	ev_filter *f;
	tlog in, out;
	size_t found = 0;
	int rc;

	load_path(path, &in);
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(ev_filter_add(f, EV_FILTER_CLASS, list, 0), EV_OK);
	rc = run(f, path, &out, &st);
	assert_int_equal(rc, in.status == EV_END ? EV_OK : in.status);
	assert_int_equal(out.status, EV_END);
	assert_selected(&in, &out, keep_class, &set);
	for (size_t i = 0; i < out.n; i++)
		found += in_set(types, n, out.ev[i].type) &&
			 !IS(metadata_types, out.ev[i].type);
	if (found != own)
		fail_msg("%s --class %s: %zu events of the class, want %zu",
			 path, list, found, own);
	ev_filter_free(f);
	tlog_free(&in);
	tlog_free(&out);
}

static char *corpus_path(const char *name)
{
	char *p = ts_path(EVTOOL_CORPUS, name);
	FILE *file = p ? fopen(p, "rb") : NULL;

	if (!file) {
		free(p);
		return NULL;
	}
	fclose(file);
	return p;
}

/* One class selection over one log, with the count of events of the
 * class the log itself holds (evtool info's by-type table), so that a
 * class that selects nothing fails rather than matching nothing. */
typedef struct class_case {
	const char *name;
	const char *list;
	const uint16_t *types;
	size_t n;
	size_t own;
} class_case;

static void test_classes_sparks_profiles_ticky(void **state)
{
	static const class_case cases[] = {
		{ "sparks-n2.eventlog", "p", sampled_types, 1, 13 },
		{ "sparks-n2.eventlog", "sparks-sampled", sampled_types, 1, 13 },
		{ "sparks-n2.eventlog", "sparks", spark_types, 9, 13 },
		{ "sparks-n2.eventlog", "f", full_types, 8, 0 },
		{ "heap-n1.eventlog", "heap-profile", heap_prof_types, 7,
		  17 + 593 + 17 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		char *path = data_path(cases[i].name);
		check_class(path, cases[i].list, cases[i].types, cases[i].n,
			    cases[i].own);
		free(path);
	}
}

/* The same over the corpus's logs of other GHC versions; skipped when the
 * corpus is absent. */
static void test_classes_corpus(void **state)
{
	static const class_case cases[] = {
		/* GHC 7.x: 13 CREATE_SPARK_THREAD (15); RUN_SPARK (5) and
		 * STEAL_SPARK (6) are deprecated, in no class */
		{ "testlog-part.eventlog", "f", full_types, 8, 13 },
		{ "testlog-part.eventlog", "sparks", spark_types, 9, 13 },
		{ "sleep.hd.eventlog", "heap-profile", heap_prof_types, 7,
		  1 + 46 },
		{ "time-prof.eventlog", "time-profile", time_prof_types, 2,
		  340 },
		{ "ticky-ticky.eventlog", "T", ticky_types, 3, 3 },
		{ "ticky-ticky.eventlog", "ticky", ticky_types, 3, 3 },
	};
	size_t done = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		char *path = corpus_path(cases[i].name);
		if (!path)
			continue;
		check_class(path, cases[i].list, cases[i].types, cases[i].n,
			    cases[i].own);
		free(path);
		done++;
	}
	if (done == 0)
		skip();
}

static int keep_not_run_or_stop(const tev *ev, const void *ctx)
{
	return !is_run_or_stop(ev, ctx);
}

static int keep_not_thread_5(const tev *ev, const void *ctx)
{
	(void)ctx;
	return !about_thread(ev, 5);
}

/* A filter of one selector over a testdata log. */
static void run_one(const char *name, ev_filter_kind kind, const char *list,
		    int exclude, tlog *in, tlog *out)
{
	char *path = data_path(name);
	ev_filter *f;

	load_path(path, in);
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(ev_filter_add(f, kind, list, exclude), EV_OK);
	assert_int_equal(run(f, path, out, NULL), EV_OK);
	assert_int_equal(out->status, EV_END);
	ev_filter_free(f);
	free(path);
}

/* --exclude-type drops those types; --exclude-thread drops the events
 * about the thread, its label included (doc/format.md section 6: the subject
 * thread is the first u32 of 0-4, 8, 15, 44). */
static void test_exclude_type_and_thread(void **state)
{
	tlog in, out;
	size_t dropped;

	(void)state;
	run_one("threads-n2.eventlog", EV_FILTER_TYPE,
		"RUN_THREAD,STOP_THREAD", 1, &in, &out);
	assert_selected(&in, &out, keep_not_run_or_stop, NULL);
	dropped = count(&in, is_run_or_stop, NULL);
	assert_true(dropped > 100);
	assert_int_equal(out.n, in.n - dropped);
	tlog_free(&in);
	tlog_free(&out);

	run_one("threads-n1.eventlog", EV_FILTER_THREAD, "5", 1, &in, &out);
	assert_selected(&in, &out, keep_not_thread_5, NULL);
	dropped = 0;
	for (size_t i = 0; i < in.n; i++)
		dropped += about_thread(&in.ev[i], 5);
	assert_true(dropped > 100);
	assert_int_equal(out.n, in.n - dropped);
	tlog_free(&in);
	tlog_free(&out);
}

static int keep_outside_marked(const tev *ev, const void *ctx)
{
	return !keep_marked(ev, ctx);
}

/* --exclude-between-markers drops the window, both markers included. */
static void test_exclude_between_markers(void **state)
{
	char *path = data_path("user-n1.eventlog");
	ev_filter *f;
	tlog in, out;
	window w;

	(void)state;
	load_path(path, &in);
	w.from = marker_time(&in, "checkpoint 5");
	w.to = marker_time(&in, "checkpoint 10");
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	ev_filter_set_metadata(f, 0);
	assert_int_equal(ev_filter_set_markers(f, "checkpoint 5",
					       "checkpoint 10", 1), EV_OK);
	assert_int_equal(run(f, path, &out, NULL), EV_OK);
	assert_selected(&in, &out, keep_outside_marked, &w);
	assert_int_equal(out.n, in.n - 7); /* both markers, 5 messages */
	ev_filter_free(f);
	tlog_free(&in);
	tlog_free(&out);
	free(path);
}

/* An event as input `i` of a merge writes it: time shifted, every id
 * mapped forward through evi_merge_map. */
static void merged_form(ev_merge *m, size_t i, const tev *e, tev *out)
{
	const ev_merge_input *in = ev_merge_input_at(m, i);
	evi_ref refs[64];
	size_t n;

	*out = *e;
	out->payload = malloc(e->size ? e->size : 1);
	assert_non_null(out->payload);
	memcpy(out->payload, e->payload, e->size);
	out->time = e->time + (uint64_t)in->shift;
	if (e->cap != EV_NO_CAP)
		out->cap = (uint16_t)evi_merge_map(m, i, EV_REF_CAP, e->cap);
	n = evi_payload_refs(e->type, e->payload, e->size, refs, 64);
	for (size_t r = 0; r < n && r < 64; r++)
		evi_ref_store(out->payload, &refs[r],
			   evi_merge_map(m, i, refs[r].kind,
					evi_ref_load(e->payload, &refs[r])));
}

static int compare_tev(const void *a, const void *b)
{
	const tev *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	if (x->cap != y->cap)
		return x->cap < y->cap ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return memcmp(x->payload, y->payload, x->size);
}

/* --process and --exclude-capset on a log written by the library's
 * merge of merge-a, -b and -c: one process's events are exactly that
 * input's events as the merge wrote them, TASK_DELETE included (it names
 * only its task, which belongs where its TASK_CREATE put it). */
static void test_process_of_a_real_merged_log(void **state)
{
	static const char *const names[] = { "merge-a.eventlog",
					     "merge-b.eventlog",
					     "merge-c.eventlog" };
	char *dir = ts_temp_dir();
	char *merged = ts_path(dir, "abc.eventlog");
	const uint8_t *data;
	size_t len;
	ev_merge *m;
	ev_sink *sink;
	tlog in[3], out, all;

	(void)state;
	assert_int_equal(ev_merge_new(&m, NULL, NULL), EV_OK);
	for (size_t i = 0; i < 3; i++) {
		char *path = data_path(names[i]);
		load_path(path, &in[i]);
		assert_int_equal(ev_merge_add(m, ts_input(path)), EV_OK);
		free(path);
	}
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(ev_merge_plan(m), EV_OK);
	assert_int_equal(ev_merge_run(m, sink), EV_OK);
	assert_int_equal(ev_sink_commit(sink), EV_OK);
	data = ev_sink_memory(sink, &len);
	assert_int_equal(ts_write_file(merged, data, len, "wb"), 1);
	ev_sink_free(sink);
	load_path(merged, &all);

	for (size_t i = 0; i < 3; i++) {
		char pid[16];
		ev_filter *f;
		tev *want = calloc(in[i].n, sizeof *want);
		size_t n_want = 0;

		assert_non_null(want);
		snprintf(pid, sizeof pid, "%u", pid_of(&in[i]));
		assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
		assert_int_equal(ev_filter_add(f, EV_FILTER_PROCESS, pid, 0),
				 EV_OK);
		assert_int_equal(run(f, merged, &out, NULL), EV_OK);
		ev_filter_free(f);
		for (size_t k = 0; k < in[i].n; k++)
			merged_form(m, i, &in[i].ev[k], &want[n_want++]);
		assert_int_equal(out.n, n_want);
		qsort(want, n_want, sizeof *want, compare_tev);
		qsort(out.ev, out.n, sizeof *out.ev, compare_tev);
		for (size_t k = 0; k < n_want; k++) {
			if (compare_tev(&want[k], &out.ev[k]) != 0)
				fail_msg("input %zu: event %zu (type %u, time "
					 "%llu) differs", i, k, want[k].type,
					 (unsigned long long)want[k].time);
			free(want[k].payload);
		}
		free(want);
		tlog_free(&out);
	}

	/* excluding process b's capsets (its process and clock domain)
	 * leaves the others' events: what names b's caps or capsets goes */
	{
		const ev_merge_input *b = ev_merge_input_at(m, 1);
		char list[32];
		ev_filter *f;
		size_t of_b = 0;
		snprintf(list, sizeof list, "%u,%u", b->os_capset,
			 b->clock_capset);
		assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
		assert_int_equal(ev_filter_add(f, EV_FILTER_CAPSET, list, 1),
				 EV_OK);
		assert_int_equal(run(f, merged, &out, NULL), EV_OK);
		ev_filter_free(f);
		for (size_t k = 0; k < in[1].n; k++)
			of_b += in[1].ev[k].type == EV_TASK_DELETE;
		assert_true(of_b > 0); /* b's TASK_DELETEs go too */
		assert_int_equal(out.n, all.n - in[1].n);
		for (size_t k = 0; k < out.n; k++) {
			const tev *e = &out.ev[k];
			assert_true(e->cap == EV_NO_CAP ||
				    e->cap < b->ids[EV_REF_CAP].base ||
				    e->cap > b->ids[EV_REF_CAP].base +
						     b->ids[EV_REF_CAP].max);
		}
		tlog_free(&out);
	}
	for (size_t i = 0; i < 3; i++)
		tlog_free(&in[i]);
	tlog_free(&all);
	ev_merge_free(m);
	unlink(merged);
	ts_remove_dir(dir);
	free(merged);
	free(dir);
}

/* A restarted eventlog of three sessions, filtered through the run's one
 * writer (its block buffer kept from session to session): each session
 * gets its own header and data end and its own events back. */
static void test_sessions_share_one_writer(void **state)
{
	static const char *const parts[] = { "user-n1.eventlog",
					     "threads-n1.eventlog",
					     "user-n1.eventlog" };
	char *dir = ts_temp_dir();
	char *path = ts_path(dir, "three.eventlog");
	ev_filter_stats st;
	ev_filter *f;
	tlog in, out;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		char *part = data_path(parts[i]);
		size_t len;
		uint8_t *data = ts_read_file(part, &len);
		assert_non_null(data);
		assert_int_equal(ts_write_file(path, data, len,
					       i ? "ab" : "wb"), 1);
		free(data);
		free(part);
	}
	load_path(path, &in);
	assert_int_equal(in.sessions, 3);
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	assert_int_equal(run(f, path, &out, &st), EV_OK);
	assert_int_equal(out.status, EV_END);
	assert_int_equal(out.sessions, 3);
	assert_int_equal(st.sessions, 3);
	assert_int_equal(st.events_written, in.n);
	assert_selected(&in, &out, keep_all, NULL);
	ev_filter_free(f);
	tlog_free(&in);
	tlog_free(&out);
	unlink(path);
	ts_remove_dir(dir);
	free(path);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity_gives_back_the_events),
		cmocka_unit_test(test_output_is_reblocked),
		cmocka_unit_test(test_class_gc_keeps_gc_and_heap_statistics),
		cmocka_unit_test(test_class_letters_and_names_agree),
		cmocka_unit_test(test_class_user_without_metadata),
		cmocka_unit_test(test_type_names_ids_and_ranges_agree),
		cmocka_unit_test(test_cap_list_with_ranges),
		cmocka_unit_test(test_exclude_global),
		cmocka_unit_test(test_thread_keeps_its_events_and_label),
		cmocka_unit_test(test_exclude_class),
		cmocka_unit_test(test_process_and_capset),
		cmocka_unit_test(test_process_of_a_merged_log),
		cmocka_unit_test(test_class_n_is_all_nonmoving_events),
		cmocka_unit_test(test_time_window_relative_raw_and_wall),
		cmocka_unit_test(test_time_window_drops_later_metadata),
		cmocka_unit_test(test_exclude_time_window),
		cmocka_unit_test(test_wall_clock_needs_a_wall_clock),
		cmocka_unit_test(test_between_markers),
		cmocka_unit_test(test_markers_in_time_order),
		cmocka_unit_test(test_metadata_is_kept),
		cmocka_unit_test(test_empty_selection_is_a_valid_log),
		cmocka_unit_test(test_redaction),
		cmocka_unit_test(test_bad_selectors_are_named),
		cmocka_unit_test(test_standard_input_pipe_is_copied_when_learning),
		cmocka_unit_test(test_standard_input_file_is_read_in_place),
		cmocka_unit_test(test_truncated_input),
		cmocka_unit_test(test_header_cut_input),
		cmocka_unit_test(test_classes_sparks_profiles_ticky),
		cmocka_unit_test(test_classes_corpus),
		cmocka_unit_test(test_exclude_type_and_thread),
		cmocka_unit_test(test_exclude_between_markers),
		cmocka_unit_test(test_process_of_a_real_merged_log),
		cmocka_unit_test(test_sessions_share_one_writer),
		cmocka_unit_test(test_memory_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
