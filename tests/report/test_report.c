/*
 * Tests of the report's time buckets (include/evtool/report.h): on the
 * real GHC 9.0.2 logs against the stats accumulator (allocation, live
 * bytes, collections, pauses) and against the independent walker of
 * support.c (capability times, heap-profile samples); on a merged log;
 * and on events fed out of time order, which must bucket as in order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evtool/evtool.h"
#include "internal.h"
#include "report_internal.h"
#include "support.h"

/* The report of `len` bytes at `data` after one finish. */
static ev_report *report_of_memory(const void *data, size_t len,
				   const ev_report_options *opt)
{
	ev_reader *r;
	ev_report *rep;
	ev_event ev;
	int rc;

	assert_int_equal(ev_reader_open_memory(&r, data, len, "mem", 0,
					       NULL), EV_OK);
	assert_int_equal(ev_report_new(&rep, opt, NULL), EV_OK);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK)
		assert_int_equal(evi_report_add(rep, &ev), EV_OK);
	assert_int_equal(rc, EV_END);
	assert_int_equal(evi_report_finish(rep), EV_OK);
	ev_reader_free(r);
	return rep;
}

static ev_stats *stats_of_memory(const void *data, size_t len)
{
	ev_reader *r;
	ev_stats *st;

	assert_int_equal(ev_reader_open_memory(&r, data, len, "mem", 0,
					       NULL), EV_OK);
	assert_int_equal(ev_stats_new(&st, NULL), EV_OK);
	assert_int_equal(ev_reader_feed(r, ev_stats_consumer(), st), EV_END);
	ev_reader_free(r);
	return st;
}

typedef struct loaded {
	uint8_t *data;
	size_t len;
	ts_log walk;
} loaded;

static void load(const char *name, loaded *l)
{
	char *path = ts_path(EVTOOL_TESTDATA, name);

	l->data = ts_read_file(path, &l->len);
	assert_non_null(l->data);
	assert_true(ts_walk(l->data, l->len, &l->walk));
	free(path);
}

static void unload(loaded *l)
{
	ts_log_free(&l->walk);
	free(l->data);
}

/* ---- the grid ---- */

static void check_grid(const ev_report_grid *g, const loaded *l,
		       unsigned buckets)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	/* The grid draws the events that are not metadata (nor block
	 * markers): a slice's metadata is stamped before its window. */
	for (size_t i = 0; i < l->walk.count; i++) {
		if (l->walk.events[i].type == EV_BLOCK_MARKER ||
		    evi_type_is_metadata(l->walk.events[i].type))
			continue;
		if (l->walk.events[i].time < lo)
			lo = l->walk.events[i].time;
		if (l->walk.events[i].time > hi)
			hi = l->walk.events[i].time;
	}
	assert_int_equal(g->first_ns, lo);
	assert_int_equal(g->last_ns, hi);
	assert_true(g->start_ns <= lo);
	assert_true(g->start_ns + g->width_ns > lo);
	assert_true(g->start_ns + g->buckets * g->width_ns > hi);
	assert_true(g->start_ns + (g->buckets - 1) * g->width_ns <= hi);
	/* Doubling leaves at least a quarter of the buckets in use. */
	assert_true(g->buckets <= buckets);
	assert_true(g->buckets * 4 >= buckets);
}

/* ---- capabilities: running time against the walker ---- */

/* Per cap: time between each RUN_THREAD and the next STOP_THREAD. */
static uint64_t walk_cap_running(const loaded *l, uint16_t cap)
{
	uint64_t running = 0, run_at = 0;
	int on = 0;

	for (size_t i = 0; i < l->walk.count; i++) {
		const ts_event *e = &l->walk.events[i];
		if (e->cap != cap || e->type == EV_BLOCK_MARKER)
			continue;
		if (e->type == EV_RUN_THREAD) {
			on = 1;
			run_at = e->time;
		} else if (e->type == EV_STOP_THREAD && on) {
			running += e->time - run_at;
			on = 0;
		}
	}
	return running;
}

/* The first and last times of the log's events that are not metadata (nor
 * block markers), the span the report's grid covers. */
static void walk_span(const loaded *l, uint64_t *first, uint64_t *last)
{
	*first = UINT64_MAX;
	*last = 0;
	for (size_t i = 0; i < l->walk.count; i++) {
		const ts_event *e = &l->walk.events[i];
		if (e->type == EV_BLOCK_MARKER || evi_type_is_metadata(e->type))
			continue;
		if (e->time < *first)
			*first = e->time;
		if (e->time > *last)
			*last = e->time;
	}
}

/* Every capability's running time is the walker's; running, GC and idle
 * fill its process's run (stats' start to end, within the log's events),
 * as ev_stats_capability counts them. */
static void check_caps(const ev_report_process *p, const ev_stats_process *s,
		       const loaded *l, const ev_report_grid *g)
{
	uint64_t first, last, from, to;

	walk_span(l, &first, &last);
	from = s->start_ns > first ? s->start_ns : first;
	to = s->end_ns < last ? s->end_ns : last;
	assert_true(p->n_caps > 0);
	for (size_t c = 0; c < p->n_caps; c++) {
		uint64_t running = 0, busy = 0;
		for (size_t i = 0; i < g->buckets; i++) {
			const ev_report_cap_bucket *b = &p->caps[c].buckets[i];
			assert_true(b->running_ns + b->gc_ns + b->idle_ns <=
				    g->width_ns);
			running += b->running_ns;
			busy += b->running_ns + b->gc_ns + b->idle_ns;
		}
		assert_int_equal(running, walk_cap_running(l, p->caps[c].cap));
		assert_int_equal(busy, to - from);
	}
}

/* ---- heap and collections against ev_stats ---- */

static void check_heap(const ev_report_process *p, const ev_stats_process *s,
		       const ev_report_grid *g)
{
	uint64_t alloc = 0, live = 0, size = 0, colls = 0, pause = 0,
		 max_pause = 0, gen_max = 0;

	assert_int_equal(p->have_heap, s->have_heap);
	for (size_t i = 0; i < g->buckets; i++) {
		const ev_report_heap_bucket *h = &p->heap[i];
		alloc += h->allocated_bytes;
		if (h->live_bytes > live)
			live = h->live_bytes;
		if (h->heap_size_bytes > size)
			size = h->heap_size_bytes;
		colls += h->collections;
		pause += h->pause_ns;
		if (h->max_pause_ns > max_pause)
			max_pause = h->max_pause_ns;
		if (!(h->have & EV_REPORT_HAVE_LIVE))
			assert_int_equal(h->live_bytes, 0);
		/* A pause and its collection are in the same bucket. */
		if (h->max_pause_ns > 0)
			assert_true(h->collections > 0);
	}
	for (unsigned k = 0; k < s->n_gens; k++)
		if (s->gens[k].max_pause_ns > gen_max)
			gen_max = s->gens[k].max_pause_ns;
	assert_int_equal(alloc, s->allocated_bytes);
	assert_int_equal(live, s->max_live_bytes);
	assert_true(size <= s->max_mem_bytes && size > 0);
	assert_int_equal(colls, s->collections);
	assert_int_equal(pause, s->gc_elapsed_ns);
	assert_int_equal(max_pause, gen_max);
}

static void check_log(const char *name, unsigned buckets)
{
	ev_report_options opt = EV_REPORT_OPTIONS_INIT;
	loaded l;
	ev_report *rep;
	ev_stats *st;

	opt.buckets = buckets;
	load(name, &l);
	rep = report_of_memory(l.data, l.len, &opt);
	st = stats_of_memory(l.data, l.len);
	check_grid(ev_report_buckets(rep), &l, buckets);
	assert_int_equal(ev_report_process_count(rep), 1);
	assert_int_equal(ev_stats_process_count(st), 1);
	check_caps(ev_report_process_at(rep, 0), ev_stats_process_at(st, 0), &l,
		   ev_report_buckets(rep));
	check_heap(ev_report_process_at(rep, 0), ev_stats_process_at(st, 0),
		   ev_report_buckets(rep));
	assert_int_equal(ev_report_process_at(rep, 0)->n_caps,
			 ev_stats_process_at(st, 0)->caps);
	ev_stats_free(st);
	ev_report_free(rep);
	unload(&l);
}

static void test_real_logs(void **state)
{
	(void)state;
	check_log("threads-n1.eventlog", 1024);
	check_log("threads-n4.eventlog", 1024);
	check_log("gc-n2.eventlog", 1024);
	check_log("gc-n2.eventlog", 16);
	check_log("heap-n1.eventlog", 300);
	check_log("nonmoving-n2.eventlog", 5000);
}

/* ---- who the process is ---- */

/* Whether the NUL-separated PROGRAM_ARGS hold `arg`. */
static int has_arg(const ev_report_process *p, const char *arg)
{
	for (size_t at = 0; at < p->args_len; at += strlen(p->args + at) + 1)
		if (strcmp(p->args + at, arg) == 0)
			return 1;
	return 0;
}

static void test_identity(void **state)
{
	loaded l;
	ev_report *rep;
	const ev_report_process *p;

	(void)state;
	load("threads-n1.eventlog", &l);
	rep = report_of_memory(l.data, l.len, NULL);
	p = ev_report_process_at(rep, 0);
	assert_true(p->known);
	assert_string_equal(p->rts_identifier, "GHC-9.0.2 rts_thr_l");
	/* testdata/README.md: the first argument and the RTS options. */
	assert_non_null(p->args);
	assert_string_equal(p->args, "./threads");
	assert_true(has_arg(p, "-N1"));
	assert_true(p->have_pid);
	assert_null(ev_report_heap_profile(rep));
	ev_report_free(rep);
	unload(&l);
}

/* ---- user markers ---- */

static void test_markers(void **state)
{
	loaded l;
	ev_report *rep;
	const ev_report_process *p;
	size_t want = 0, k = 0;

	(void)state;
	load("user-n1.eventlog", &l);
	rep = report_of_memory(l.data, l.len, NULL);
	p = ev_report_process_at(rep, 0);
	for (size_t i = 0; i < l.walk.count; i++) {
		const ts_event *e = &l.walk.events[i];
		if (e->type != EV_USER_MARKER)
			continue;
		want++;
		assert_true(k < p->n_markers);
		assert_int_equal(p->markers[k].time_ns, e->time);
		assert_int_equal(strlen(p->markers[k].text), e->size);
		assert_memory_equal(p->markers[k].text,
				    ts_payload(l.data, e), e->size);
		k++;
	}
	assert_int_equal(want, 7); /* testdata/README.md */
	assert_int_equal(p->n_markers, want);
	assert_int_equal(p->markers_dropped, 0);
	ev_report_free(rep);
	unload(&l);
}

/* ---- heap profile against the walker ---- */

#define MAX_SAMPLES 64
#define MAX_LABELS 128

typedef struct walked_profile {
	uint64_t time[MAX_SAMPLES];
	char label[MAX_LABELS][64];
	uint64_t bytes[MAX_SAMPLES][MAX_LABELS]; /* per sample and label */
	size_t n_samples, n_labels;
} walked_profile;

static size_t label_index(walked_profile *w, const char *s)
{
	for (size_t i = 0; i < w->n_labels; i++)
		if (strcmp(w->label[i], s) == 0)
			return i;
	assert_true(w->n_labels < MAX_LABELS);
	snprintf(w->label[w->n_labels], sizeof w->label[0], "%s", s);
	return w->n_labels++;
}

static void walk_profile(const loaded *l, walked_profile *w)
{
	memset(w, 0, sizeof *w);
	for (size_t i = 0; i < l->walk.count; i++) {
		const ts_event *e = &l->walk.events[i];
		const uint8_t *pl = ts_payload(l->data, e);
		if (e->type == EV_HEAP_PROF_SAMPLE_BEGIN) {
			assert_true(w->n_samples < MAX_SAMPLES);
			w->time[w->n_samples++] = e->time;
		} else if (e->type == EV_HEAP_PROF_SAMPLE_STRING) {
			size_t k = label_index(w, (const char *)pl + 9);
			w->bytes[w->n_samples - 1][k] += ev_load64(pl + 1);
		}
	}
}

static void check_profile(const ev_report_profile *pr, const walked_profile *w,
			  const ev_report_grid *g)
{
	uint64_t last_sample[1024];
	int have[1024] = { 0 };

	assert_int_equal(pr->samples, w->n_samples);
	assert_int_equal(pr->labels, w->n_labels);
	assert_int_equal(pr->n_bands, 16); /* 15 and the rest */
	assert_string_equal(pr->bands[15].label, "(other)");
	assert_true(g->buckets <= 1024);
	for (size_t s = 0; s < w->n_samples; s++) {
		size_t b = (w->time[s] - g->start_ns) / g->width_ns;
		last_sample[b] = s;
		have[b] = 1;
	}
	for (size_t b = 0; b < g->buckets; b++) {
		uint64_t total = 0, want = 0;
		assert_int_equal(pr->sampled[b], have[b]);
		for (size_t k = 0; k < pr->n_bands; k++)
			total += pr->bands[k].bytes[b];
		for (size_t k = 0; have[b] && k < w->n_labels; k++)
			want += w->bytes[last_sample[b]][k];
		assert_int_equal(total, want);
	}
	/* The bands given apart are the largest by peak, in order. */
	for (size_t k = 0; k + 1 < 15; k++)
		assert_true(pr->bands[k].peak_bytes >=
			    pr->bands[k + 1].peak_bytes);
	for (size_t k = 0; k < 15; k++) {
		size_t i = 0;
		uint64_t peak = 0;
		while (strcmp(w->label[i], pr->bands[k].label) != 0)
			i++;
		for (size_t s = 0; s < w->n_samples; s++)
			if (w->bytes[s][i] > peak)
				peak = w->bytes[s][i];
		assert_int_equal(pr->bands[k].peak_bytes, peak);
	}
}

static void test_heap_profile(void **state)
{
	ev_report_options opt = EV_REPORT_OPTIONS_INIT;
	walked_profile *w = malloc(sizeof *w);
	loaded l;

	(void)state;
	assert_non_null(w);
	load("heap-n1.eventlog", &l);
	walk_profile(&l, w);
	assert_int_equal(w->n_samples, 17); /* testdata/README.md */
	for (unsigned n = 16; n <= 1024; n *= 4) {
		ev_report *rep;
		opt.buckets = n;
		rep = report_of_memory(l.data, l.len, &opt);
		check_profile(ev_report_heap_profile(rep), w,
			      ev_report_buckets(rep));
		ev_report_free(rep);
	}
	unload(&l);
	free(w);
}

/* prof-n2 is a -hc run: its samples hold HEAP_PROF_SAMPLE_COST_CENTRE
 * entries, which the report read as nothing (no bands) while export's hp
 * format drew them. Each sampled bucket's bands add up to the residency
 * of the entries of its last sample, counted by the independent walker;
 * every stack is a label. */
static void test_cost_centre_profile(void **state)
{
	uint64_t sample_bytes[64] = { 0 }, sample_time[64];
	size_t n_samples = 0, entries = 0;
	const ev_report_profile *pr;
	const ev_report_grid *g;
	ev_report *rep;
	loaded l;

	(void)state;
	load("prof-n2.eventlog", &l);
	for (size_t i = 0; i < l.walk.count; i++) {
		const ts_event *e = &l.walk.events[i];
		if (e->type == EV_HEAP_PROF_SAMPLE_BEGIN) {
			assert_true(n_samples < 64);
			sample_time[n_samples++] = e->time;
		} else if (e->type == EV_HEAP_PROF_SAMPLE_COST_CENTRE) {
			sample_bytes[n_samples - 1] +=
				ev_load64(ts_payload(l.data, e) + 1);
			entries++;
		}
	}
	assert_true(n_samples > 0 && entries > 0);
	rep = report_of_memory(l.data, l.len, NULL);
	pr = ev_report_heap_profile(rep);
	g = ev_report_buckets(rep);
	assert_int_equal(pr->samples, n_samples);
	assert_true(pr->labels > 0 && pr->n_bands > 0);
	for (size_t b = 0; b < g->buckets; b++) {
		uint64_t total = 0, want = 0;
		for (size_t s = 0; s < n_samples; s++)
			if ((sample_time[s] - g->start_ns) / g->width_ns == b)
				want = sample_bytes[s];
		for (size_t k = 0; k < pr->n_bands; k++)
			total += pr->bands[k].bytes[b];
		assert_int_equal(total, want);
	}
	ev_report_free(rep);
	unload(&l);
}

/* ---- a merged log: one process per input ---- */

static void test_merged(void **state)
{
	ev_merge *m;
	ev_sink *sink;
	const void *data;
	size_t len;
	ev_report *rep;
	char *a = ts_path(EVTOOL_TESTDATA, "merge-a.eventlog");
	char *b = ts_path(EVTOOL_TESTDATA, "merge-b.eventlog");

	(void)state;
	assert_int_equal(ev_merge_new(&m, NULL, NULL), EV_OK);
	assert_int_equal(ev_merge_add(m, ts_input(a)), EV_OK);
	assert_int_equal(ev_merge_add(m, ts_input(b)), EV_OK);
	assert_int_equal(ev_merge_plan(m), EV_OK);
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(ev_merge_run(m, sink), EV_OK);
	assert_int_equal(ev_sink_commit(sink), EV_OK);
	data = ev_sink_memory(sink, &len);
	rep = report_of_memory(data, len, NULL);
	assert_int_equal(ev_report_process_count(rep), 2);
	/* merge-a ran with -N1, merge-b with -N2 (testdata/README.md). */
	assert_int_equal(ev_report_process_at(rep, 0)->n_caps, 1);
	assert_int_equal(ev_report_process_at(rep, 1)->n_caps, 2);
	for (size_t i = 0; i < 2; i++) {
		const ev_report_process *p = ev_report_process_at(rep, i);
		assert_true(p->known);
		assert_non_null(strstr(p->args, "worker"));
		assert_true(p->have_heap);
	}
	assert_true(ev_report_process_at(rep, 0)->capset !=
		    ev_report_process_at(rep, 1)->capset);
	ev_report_free(rep);
	ev_sink_free(sink);
	ev_merge_free(m);
	free(a);
	free(b);
}

/* ---- out of time order: the same buckets as in order ---- */

/* One event of thread 1 (RUN_THREAD 4 bytes, STOP_THREAD 10: status 0). */
static void feed(ev_report *rep, uint16_t type, uint16_t cap, uint64_t t)
{
	static const uint8_t payload[10] = { 0, 0, 0, 1 };
	uint32_t size = type == EV_RUN_THREAD ? 4 : type == EV_STOP_THREAD ? 10 : 0;
	ev_event ev = { type, cap, size, t, payload, 0, 0 };

	assert_int_equal(evi_report_add(rep, &ev), EV_OK);
}

/* Cap 0 runs in [1000, 5000) and [90000, 91000), cap 1 in
 * [3000, 700000); fed cap by cap in `order` (0: cap 0 first). */
static ev_report *two_caps(int order)
{
	ev_report_options opt = EV_REPORT_OPTIONS_INIT;
	ev_report *rep;

	opt.buckets = 64;
	assert_int_equal(ev_report_new(&rep, &opt, NULL), EV_OK);
	for (int k = 0; k < 2; k++) {
		if ((k == 0) == (order == 0)) {
			feed(rep, EV_RUN_THREAD, 0, 1000);
			feed(rep, EV_STOP_THREAD, 0, 5000);
			feed(rep, EV_RUN_THREAD, 0, 90000);
			feed(rep, EV_STOP_THREAD, 0, 91000);
		} else {
			feed(rep, EV_RUN_THREAD, 1, 3000);
			feed(rep, EV_GC_START, 1, 600000);
			feed(rep, EV_GC_END, 1, 650000);
			feed(rep, EV_STOP_THREAD, 1, 700000);
		}
	}
	assert_int_equal(evi_report_finish(rep), EV_OK);
	return rep;
}

static void test_out_of_order(void **state)
{
	ev_report *a = two_caps(0), *b = two_caps(1);
	const ev_report_grid *ga = ev_report_buckets(a),
			     *gb = ev_report_buckets(b);
	const ev_report_process *pa = ev_report_process_at(a, 0),
				*pb = ev_report_process_at(b, 0);
	uint64_t gc = 0, run = 0;

	(void)state;
	assert_memory_equal(ga, gb, sizeof *ga);
	assert_int_equal(ga->first_ns, 1000);
	assert_int_equal(ga->last_ns, 700000);
	assert_false(pa->known); /* no capsets: caps of no known process */
	assert_int_equal(pa->n_caps, 2);
	for (size_t c = 0; c < 2; c++)
		assert_memory_equal(pa->caps[c].buckets, pb->caps[c].buckets,
				    ga->buckets * sizeof *pa->caps[c].buckets);
	for (size_t i = 0; i < ga->buckets; i++) {
		run += pa->caps[1].buckets[i].running_ns;
		gc += pa->caps[1].buckets[i].gc_ns;
	}
	assert_int_equal(gc, 50000);
	assert_int_equal(run, 700000 - 3000 - 50000);
	ev_report_free(a);
	ev_report_free(b);
}

/* ---- texts cut to their limits ---- */

/* A marker longer than EV_REPORT_MAX_TEXT and program arguments longer
 * than EV_REPORT_MAX_ARGS, each with a two-byte character across its
 * limit: both are cut before that character, never inside it. */
static void test_long_texts(void **state)
{
	static uint8_t marker[EV_REPORT_MAX_TEXT + 40];
	static uint8_t args[4 + EV_REPORT_MAX_ARGS + 40];
	const size_t at_text = EV_REPORT_MAX_TEXT - 1;
	const size_t at_args = 4 + EV_REPORT_MAX_ARGS - 1;
	ev_event m = { EV_USER_MARKER, 0, sizeof marker, 20, marker, 0, 0 };
	ev_event a = { EV_PROGRAM_ARGS, EV_NO_CAP, sizeof args, 10, args, 0, 0 };
	const ev_report_process *p;
	ev_report *rep;

	(void)state;
	memset(marker, 'm', sizeof marker);
	marker[at_text] = 0xc3; /* U+00E9 across the limit */
	marker[at_text + 1] = 0xa9;
	memset(args, 'a', sizeof args);
	memset(args, 0, 4); /* capset 0 */
	args[at_args] = 0xc3;
	args[at_args + 1] = 0xa9;
	assert_int_equal(ev_report_new(&rep, NULL, NULL), EV_OK);
	assert_int_equal(evi_report_add(rep, &a), EV_OK);
	assert_int_equal(evi_report_add(rep, &m), EV_OK);
	feed(rep, EV_RUN_THREAD, 0, 30);
	assert_int_equal(evi_report_finish(rep), EV_OK);
	assert_int_equal(ev_report_process_count(rep), 1);
	p = ev_report_process_at(rep, 0);
	assert_true(p->known);
	assert_int_equal(p->args_len, at_args - 4);
	assert_memory_equal(p->args, args + 4, p->args_len);
	assert_int_equal(p->n_markers, 1);
	assert_int_equal(strlen(p->markers[0].text), at_text);
	assert_memory_equal(p->markers[0].text, marker, at_text);
	ev_report_free(rep);
}

/* ---- bad input and misuse ---- */

static void test_errors(void **state)
{
	ev_report_options opt = EV_REPORT_OPTIONS_INIT;
	ev_report *rep;
	uint8_t short_heap[8] = { 0 };
	ev_event ev = { EV_HEAP_LIVE, 0, sizeof short_heap, 10, short_heap,
			4096, 7 };

	(void)state;
	opt.buckets = 8;
	assert_int_equal(ev_report_new(&rep, &opt, NULL), EV_EINVAL);
	assert_null(rep);
	opt.buckets = 1024;
	opt.version = 99;
	assert_int_equal(ev_report_new(&rep, &opt, NULL), EV_EINVAL);
	assert_int_equal(ev_report_new(&rep, NULL, NULL), EV_OK);
	assert_int_equal(evi_report_add(rep, &ev), EV_EFORMAT);
	assert_int_equal(ev_report_diag(rep)->offset, 4096);
	assert_int_equal(ev_report_diag(rep)->event_index, 7);
	assert_non_null(strstr(ev_report_diag(rep)->message, "HEAP_LIVE"));
	ev.cap = EV_REPORT_MAX_CAPS;
	ev.type = EV_RUN_THREAD;
	ev.size = 4;
	assert_int_equal(evi_report_add(rep, &ev), EV_ELIMIT);
	assert_int_equal(evi_report_finish(rep), EV_OK);
	assert_int_equal(ev_report_process_count(rep), 0);
	assert_int_equal(ev_report_buckets(rep)->buckets, 1);
	assert_int_equal(evi_report_finish(rep), EV_EINVAL);
	ev.cap = 0;
	assert_int_equal(evi_report_add(rep, &ev), EV_EINVAL);
	ev_report_free(rep);
	ev_report_free(NULL);
}

/* Two processes that name no capability (no CAPSET_ASSIGN_CAP, as GHC
 * before 7.0 wrote): each cap goes to the capset its HEAP_ALLOCATED
 * names, in the report as in its ev_stats (the report put both in the
 * unknown process). */
static void test_caps_by_heap_capset(void **state)
{
	ev_report *rep;
	const ev_stats *st;
	uint8_t run[4] = { 0, 0, 0, 1 }, heap[12] = { 0 };
	size_t found = 0;

	(void)state;
	assert_int_equal(ev_report_new(&rep, NULL, NULL), EV_OK);
	for (uint16_t cap = 0; cap < 2; cap++) {
		ev_event r = { EV_RUN_THREAD, cap, sizeof run, 10, run, 0, 0 };
		ev_event h = { EV_HEAP_ALLOCATED, cap, sizeof heap, 20 + cap,
			       heap, 0, 0 };
		ev_store32(heap, 5 + cap); /* capsets 5 and 6 */
		assert_int_equal(evi_report_add(rep, &r), EV_OK);
		assert_int_equal(evi_report_add(rep, &h), EV_OK);
	}
	assert_int_equal(evi_report_finish(rep), EV_OK);
	st = ev_report_stats(rep);
	assert_int_equal(ev_stats_capability_count(st), 2);
	for (size_t i = 0; i < ev_report_process_count(rep); i++) {
		const ev_report_process *p = ev_report_process_at(rep, i);
		for (size_t k = 0; k < p->n_caps; k++) {
			const ev_stats_capability *c =
				ev_stats_capability_at(st, p->caps[k].cap);
			assert_true(p->known);
			assert_true(c->have_process);
			assert_int_equal(c->capset, p->capset);
			assert_int_equal(p->capset, 5 + p->caps[k].cap);
			found++;
		}
	}
	assert_int_equal(found, 2);
	ev_report_free(rep);
}

/* Times near 2^64: the grid widens to the largest widths without
 * overflowing. */
static void test_extreme_times(void **state)
{
	ev_report *rep;
	const ev_report_grid *g;
	uint64_t run = 0;

	(void)state;
	assert_int_equal(ev_report_new(&rep, NULL, NULL), EV_OK);
	feed(rep, EV_RUN_THREAD, 0, 5);
	feed(rep, EV_STOP_THREAD, 0, UINT64_MAX - 1);
	feed(rep, EV_RUN_THREAD, 1, UINT64_MAX);
	feed(rep, EV_STOP_THREAD, 1, 0);
	assert_int_equal(evi_report_finish(rep), EV_OK);
	g = ev_report_buckets(rep);
	assert_int_equal(g->first_ns, 0);
	assert_int_equal(g->last_ns, UINT64_MAX);
	for (size_t i = 0; i < g->buckets; i++)
		run += ev_report_process_at(rep, 0)->caps[0].buckets[i].running_ns;
	assert_int_equal(run, UINT64_MAX - 1 - 5);
	ev_report_free(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_logs),
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_markers),
		cmocka_unit_test(test_long_texts),
		cmocka_unit_test(test_heap_profile),
		cmocka_unit_test(test_cost_centre_profile),
		cmocka_unit_test(test_merged),
		cmocka_unit_test(test_out_of_order),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_caps_by_heap_capset),
		cmocka_unit_test(test_extreme_times),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
