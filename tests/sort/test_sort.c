/* Unit tests for the sorter (lib/sort/sort.c, lib/sort/sort_merge.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "evtool/catalog.h"
#include "evtool/reader.h"
#include "evtool/sort.h"
#include "evtool/writer.h"
#include "internal.h"
#include "support.h"

#ifndef EVTOOL_TESTDATA
#define EVTOOL_TESTDATA "testdata"
#endif
#ifndef EVTOOL_CORPUS
#define EVTOOL_CORPUS "../shared/corpus"
#endif

/* ------------------------------------------------------------------------
 * Helpers: logs as arrays of events
 * ---------------------------------------------------------------------- */

typedef struct tev {
	uint16_t type, cap;
	uint64_t time;
	uint32_t size;
	uint8_t *payload;
	unsigned session;
	uint64_t order; /* position in the file, markers not counted */
} tev;

typedef struct tlog {
	tev *ev;
	size_t n, cap;
	size_t blocks;
	unsigned sessions;
	int status; /* EV_END or the reader's final status */
} tlog;

static void tlog_add(tlog *l, const ev_event *ev, unsigned session)
{
	tev *t;

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 1024;
		l->ev = realloc(l->ev, l->cap * sizeof *l->ev);
		assert_non_null(l->ev);
	}
	t = &l->ev[l->n];
	t->type = ev->type;
	t->cap = ev->cap;
	t->time = ev->time;
	t->size = ev->size;
	t->payload = malloc(ev->size ? ev->size : 1);
	assert_non_null(t->payload);
	if (ev->size)
		memcpy(t->payload, ev->payload, ev->size);
	t->session = session;
	t->order = l->n;
	l->n++;
}

static void tlog_free(tlog *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->ev[i].payload);
	free(l->ev);
	memset(l, 0, sizeof *l);
}

/* Every session's events, block markers counted apart. */
static void load_reader(ev_reader *r, tlog *out)
{
	ev_event ev;
	int rc;

	memset(out, 0, sizeof *out);
	for (;;) {
		while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
			if (ev.type == EV_BLOCK_MARKER)
				out->blocks++;
			else
				tlog_add(out, &ev, ev_reader_session(r));
		}
		out->sessions++;
		out->status = rc;
		if (rc != EV_END || ev_reader_next_session(r) != EV_OK)
			break;
	}
}

static void load_memory(const uint8_t *data, size_t len, tlog *out)
{
	ev_reader *r;

	assert_int_equal(ev_reader_open_memory(&r, data, len, "mem", 0,
					       NULL), EV_OK);
	load_reader(r, out);
	ev_reader_free(r);
}

static void load_path(const char *path, tlog *out)
{
	ev_reader *r;

	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	load_reader(r, out);
	ev_reader_free(r);
}

static int same_event(const tev *a, const tev *b)
{
	return a->type == b->type && a->cap == b->cap && a->time == b->time &&
	       a->size == b->size && a->session == b->session &&
	       memcmp(a->payload, b->payload, a->size) == 0;
}

/* Stable by time within a session: the order `ghc-events show` uses. */
static int by_session_time_order(const void *x, const void *y)
{
	const tev *a = x, *b = y;

	if (a->session != b->session)
		return a->session < b->session ? -1 : 1;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* The expected output: the input's events stably sorted by time. */
static void expected_order(const tlog *in, tlog *out)
{
	*out = *in;
	out->ev = malloc((in->n ? in->n : 1) * sizeof *out->ev);
	assert_non_null(out->ev);
	if (in->n)
		memcpy(out->ev, in->ev, in->n * sizeof *in->ev);
	qsort(out->ev, in->n, sizeof *out->ev, by_session_time_order);
}

static void assert_sorted_copy(const tlog *in, const tlog *out)
{
	tlog want;

	expected_order(in, &want);
	assert_int_equal(out->n, in->n);
	for (size_t i = 0; i < in->n; i++) {
		if (!same_event(&want.ev[i], &out->ev[i]))
			fail_msg("event %zu differs: want type %u cap %u time "
				 "%llu, got type %u cap %u time %llu", i,
				 want.ev[i].type, want.ev[i].cap,
				 (unsigned long long)want.ev[i].time,
				 out->ev[i].type, out->ev[i].cap,
				 (unsigned long long)out->ev[i].time);
		if (i && out->ev[i].session == out->ev[i - 1].session)
			assert_true(out->ev[i].time >= out->ev[i - 1].time);
	}
	free(want.ev); /* the payloads belong to `in` */
}

/* What the last failure of sort_to_memory concerned. */
static ev_origin sorted_origin;

/* Sorts the log at `path` into `sink`. */
static int sort_path(ev_sorter *s, const char *path, ev_sink *sink)
{
	ev_input *in;
	int rc;

	assert_int_equal(ev_input_open(&in, path, NULL), EV_OK);
	rc = ev_sorter_run(s, in, sink);
	ev_input_free(in);
	return rc;
}

/* Sorts `path` into memory; returns the status and fills the bytes. */
static int sort_to_memory(const char *path, const ev_sort_options *opts,
			  uint8_t **bytes, size_t *len, ev_sort_stats *stats)
{
	ev_sorter *s;
	ev_sink *sink;
	const uint8_t *data;
	int rc;

	assert_int_equal(ev_sorter_new(&s, opts, NULL), EV_OK);
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	rc = sort_path(s, path, sink);
	if (stats)
		*stats = *ev_sorter_result(s);
	sorted_origin = ev_sorter_diag(s)->origin;
	data = ev_sink_memory(sink, len);
	*bytes = malloc(*len ? *len : 1);
	assert_non_null(*bytes);
	memcpy(*bytes, data, *len);
	ev_sink_free(sink);
	ev_sorter_free(s);
	return rc;
}

static char *temp_dir(void)
{
	const char *base = getenv("TMPDIR");
	char *dir = ts_path(base && *base ? base : "/tmp",
			    "evtool-test-sort-XXXXXX");

	assert_non_null(dir);
	assert_non_null(mkdtemp(dir));
	return dir;
}

static size_t entries_in(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			char *p = ts_path(dir, e->d_name);
			unlink(p);
			free(p);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* ------------------------------------------------------------------------
 * Real logs, every method
 * ---------------------------------------------------------------------- */

typedef struct method_case {
	ev_sort_method method;
	size_t memory;
	size_t logs;
	uint64_t runs;
	unsigned passes;
} method_case;

static void check_real_log(const char *path, void *ctx)
{
	method_case *mc = ctx;
	ev_sort_options opts = EV_SORT_OPTIONS_INIT;
	ev_sort_stats st;
	tlog in, out;
	uint8_t *bytes;
	size_t len;
	int rc;

	opts.method = mc->method;
	opts.memory = mc->memory;
	load_path(path, &in);
	if (in.status != EV_END && in.status != EV_ETRUNCATED) {
		tlog_free(&in);
		return; /* not a log the reader takes; others test that */
	}
	rc = sort_to_memory(path, &opts, &bytes, &len, &st);
	assert_int_equal(rc, in.status == EV_END ? EV_OK : EV_ETRUNCATED);
	assert_int_equal(st.truncated, in.status != EV_END);
	load_memory(bytes, len, &out);
	assert_int_equal(out.status, EV_END);
	assert_int_equal(out.sessions, in.sessions);
	assert_sorted_copy(&in, &out);
	assert_int_equal(st.events, in.n);
	if (mc->method == EV_SORT_EXTERNAL)
		assert_int_equal(st.external_sessions, in.sessions);
	if (mc->method == EV_SORT_MERGE)
		assert_int_equal(st.merged_sessions, in.sessions);
	mc->runs += st.runs;
	if (st.merge_passes > mc->passes)
		mc->passes = st.merge_passes;
	mc->logs++;
	free(bytes);
	tlog_free(&in);
	tlog_free(&out);
}

static void test_merge_sorts_real_logs(void **state)
{
	method_case mc = { EV_SORT_MERGE, 0, 0, 0, 0 };

	(void)state;
	assert_true(ts_for_each_log(EVTOOL_TESTDATA, check_real_log, &mc) >= 10);
	ts_for_each_log(EVTOOL_CORPUS, check_real_log, &mc);
	assert_int_equal(mc.runs, 0);
}

static void test_external_sorts_real_logs(void **state)
{
	method_case mc = { EV_SORT_EXTERNAL, 0, 0, 0, 0 };

	(void)state;
	assert_true(ts_for_each_log(EVTOOL_TESTDATA, check_real_log, &mc) >= 10);
	ts_for_each_log(EVTOOL_CORPUS, check_real_log, &mc);
	assert_true(mc.runs >= mc.logs - 1); /* an empty log has none */
}

/* A tiny memory limit: runs of a few KiB, several merge passes. */
static void test_tiny_memory_spills_runs(void **state)
{
	method_case mc = { EV_SORT_AUTO, EV_SORT_MIN_MEMORY, 0, 0, 0 };
	ev_sort_options opts = EV_SORT_OPTIONS_INIT;
	ev_sort_stats st;
	char *path = ts_path(EVTOOL_TESTDATA, "gc-n2.eventlog");
	uint8_t *bytes;
	size_t len;

	(void)state;
	ts_for_each_log(EVTOOL_TESTDATA, check_real_log, &mc);
	assert_true(mc.runs > 20);
	assert_true(mc.passes >= 2);

	opts.memory = EV_SORT_MIN_MEMORY;
	assert_int_equal(sort_to_memory(path, &opts, &bytes, &len, &st), EV_OK);
	assert_int_equal(st.external_sessions, 1);
	assert_true(st.runs > 5);
	assert_true(st.merge_passes >= 2);
	assert_true(st.spilled_bytes > 159009);
	free(bytes);
	free(path);
}

static void test_sorting_sorted_log_changes_nothing(void **state)
{
	static const char *logs[] = { "threads-n4.eventlog", "gc-n2.eventlog",
				      "heap-n1.eventlog", "user-n1.eventlog" };
	char *dir = temp_dir();

	(void)state;
	for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
		char *in = ts_path(EVTOOL_TESTDATA, logs[i]);
		char *once = ts_path(dir, "once.eventlog");
		uint8_t *a, *b;
		size_t alen, blen;
		ev_reader *r;
		ev_sort_inversion inv;

		assert_int_equal(sort_to_memory(in, NULL, &a, &alen, NULL),
				 EV_OK);
		write_file(once, a, alen);
		assert_int_equal(sort_to_memory(once, NULL, &b, &blen, NULL),
				 EV_OK);
		assert_int_equal(alen, blen);
		assert_memory_equal(a, b, alen);
		assert_int_equal(ev_reader_open_path(&r, once, 0, NULL), EV_OK);
		assert_int_equal(ev_sort_check(r, &inv), 0);
		ev_reader_free(r);
		free(a);
		free(b);
		free(in);
		free(once);
	}
	remove_tree(dir);
	free(dir);
}

/* ------------------------------------------------------------------------
 * Logs shaped like the large ones
 * ---------------------------------------------------------------------- */

/* A block of `n` events starting at `from`, all of one cap. */
typedef struct block_ref {
	size_t from, n;
} block_ref;

/* Writes events [from, from + n) of `l` (all of one cap) as one block. */
static void write_block(ev_writer *w, const ev_header *h, const tlog *l,
			size_t from, size_t n)
{
	uint8_t payload[14];
	ev_event marker = { EV_BLOCK_MARKER, l->ev[from].cap, 14, 0, payload,
			    0, 0 };
	uint32_t size = 24;
	uint64_t first = UINT64_MAX, last = 0;

	for (size_t i = from; i < from + n; i++) {
		const tev *t = &l->ev[i];
		size += 10 + t->size +
			(ev_header_find(h, t->type)->size == EV_SIZE_VARIABLE
				 ? 2 : 0);
		if (t->time < first)
			first = t->time;
		if (t->time > last)
			last = t->time;
	}
	marker.time = first;
	ev_store32(payload, size);
	ev_store64(payload + 4, last);
	ev_store16(payload + 12, l->ev[from].cap);
	assert_int_equal(ev_writer_write(w, &marker), EV_OK);
	for (size_t i = from; i < from + n; i++) {
		const tev *t = &l->ev[i];
		ev_event ev = { t->type, t->cap, t->size, t->time, t->payload,
				0, 0 };
		assert_int_equal(ev_writer_write(w, &ev), EV_OK);
	}
}

/*
 * Rewrites a real log as GHC writes large ones: every cap's events cut
 * into blocks of `per_block` events, the blocks of all caps interleaved
 * in a flush order that is not time order (cap 0's blocks each come
 * after the next block of every other cap; the global block last), or,
 * with `swap_first`, cap 0's first two blocks in the wrong order.
 */
static void reshape(const char *path, size_t per_block, int swap_first,
		    const char *out)
{
	tlog l;
	ev_reader *r;
	ev_sink *sink;
	ev_writer *w;
	block_ref *blocks[3] = { NULL, NULL, NULL }; /* cap 0, others, global */
	const ev_header *h;
	size_t nb[3] = { 0, 0, 0 };

	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	load_reader(r, &l);
	/* events of one cap in file order, cut every per_block */
	for (size_t i = 0; i < l.n;) {
		size_t j = i;
		int k = l.ev[i].cap == 0 ? 0 : l.ev[i].cap == EV_NO_CAP ? 2 : 1;
		while (j < l.n && l.ev[j].cap == l.ev[i].cap &&
		       j - i < per_block)
			j++;
		blocks[k] = realloc(blocks[k], (nb[k] + 1) * sizeof **blocks);
		blocks[k][nb[k]].from = i;
		blocks[k][nb[k]].n = j - i;
		nb[k]++;
		i = j;
	}
	assert_true(nb[0] >= 2);
	assert_int_equal(ev_sink_open_path(&sink, out, NULL), EV_OK);
	/* the reader is still open: its header is valid */
	h = ev_reader_header(r);
	assert_int_equal(ev_writer_open(&w, sink, h, NULL, NULL), EV_OK);
	if (swap_first) {
		write_block(w, h, &l, blocks[0][1].from, blocks[0][1].n);
		write_block(w, h, &l, blocks[0][0].from, blocks[0][0].n);
		for (size_t i = 2; i < nb[0]; i++)
			write_block(w, h, &l, blocks[0][i].from, blocks[0][i].n);
	}
	for (size_t i = 0, o = 0; !swap_first && (i < nb[0] || o < nb[1]);) {
		for (size_t k = 0; k < 2 && o < nb[1]; k++, o++)
			write_block(w, h, &l, blocks[1][o].from, blocks[1][o].n);
		if (i < nb[0]) {
			write_block(w, h, &l, blocks[0][i].from, blocks[0][i].n);
			i++;
		}
	}
	for (size_t o = 0; swap_first && o < nb[1]; o++)
		write_block(w, h, &l, blocks[1][o].from, blocks[1][o].n);
	for (size_t g = 0; g < nb[2]; g++)
		write_block(w, h, &l, blocks[2][g].from, blocks[2][g].n);
	assert_int_equal(ev_writer_finish(w), EV_OK);
	assert_int_equal(ev_sink_commit(sink), EV_OK);
	ev_writer_free(w);
	ev_sink_free(sink);
	ev_reader_free(r);
	for (int k = 0; k < 3; k++)
		free(blocks[k]);
	tlog_free(&l);
}

static void sort_and_compare(const char *path, ev_sort_stats *st,
			     const ev_sort_options *opts)
{
	tlog in, out;
	uint8_t *bytes;
	size_t len;

	load_path(path, &in);
	assert_int_equal(in.status, EV_END);
	assert_int_equal(sort_to_memory(path, opts, &bytes, &len, st), EV_OK);
	load_memory(bytes, len, &out);
	assert_sorted_copy(&in, &out);
	free(bytes);
	tlog_free(&in);
	tlog_free(&out);
}

static void test_blocks_out_of_order_merge_in_place(void **state)
{
	char *dir = temp_dir();
	char *shaped = ts_path(dir, "shaped.eventlog");
	char *in = ts_path(EVTOOL_TESTDATA, "threads-n4.eventlog");
	ev_sort_stats st;
	tlog l;
	size_t cap_switches = 0;

	(void)state;
	reshape(in, 40, 0, shaped);
	/* the shape: many blocks, and a cap's block after later ones */
	load_path(shaped, &l);
	assert_true(l.blocks > 100);
	for (size_t i = 1; i < l.n; i++)
		cap_switches += l.ev[i].cap != l.ev[i - 1].cap &&
				l.ev[i].time < l.ev[i - 1].time;
	assert_true(cap_switches > 10);
	tlog_free(&l);

	sort_and_compare(shaped, &st, NULL);
	assert_int_equal(st.merged_sessions, 1);
	assert_int_equal(st.external_sessions, 0);
	assert_int_equal(st.streams, 5); /* caps 0-3 and the global buffer */
	assert_true(st.widest_window >= 1 && st.widest_window <= 8);
	assert_int_equal(st.spilled_bytes, 0);
	remove_tree(dir);
	free(dir);
	free(shaped);
	free(in);
}

/* A cap whose stream jumps back by a whole block is not nearly sorted:
 * the sorter notices and uses the external sort. */
static void test_disordered_stream_falls_back(void **state)
{
	char *dir = temp_dir();
	char *shaped = ts_path(dir, "swapped.eventlog");
	char *in = ts_path(EVTOOL_TESTDATA, "threads-n1.eventlog");
	ev_sort_options opts = EV_SORT_OPTIONS_INIT;
	ev_sort_stats st;
	uint8_t *bytes;
	size_t len;

	(void)state;
	reshape(in, 1500, 1, shaped);
	sort_and_compare(shaped, &st, NULL);
	assert_int_equal(st.merged_sessions, 0);
	assert_int_equal(st.external_sessions, 1);

	opts.method = EV_SORT_MERGE;
	assert_int_equal(sort_to_memory(shaped, &opts, &bytes, &len, &st),
			 EV_ELIMIT);
	assert_int_equal(sorted_origin, EV_ORIGIN_OPTIONS);
	free(bytes);
	remove_tree(dir);
	free(dir);
	free(shaped);
	free(in);
}

/*
 * Rewrites a real log with every `every`-th event moved back `by` places
 * among the events of its cap before it (GC_END-like steps back, made
 * everywhere), in blocks of consecutive events of one cap.
 */
static void step_back(const char *path, size_t every, size_t by,
		      const char *out)
{
	tlog l;
	ev_reader *r;
	ev_sink *sink;
	ev_writer *w;
	const ev_header *h;

	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	load_reader(r, &l);
	for (size_t i = every; i < l.n; i += every) {
		size_t j = i;
		while (j > 0 && i - j < by && l.ev[j - 1].cap == l.ev[i].cap)
			j--;
		tev moved = l.ev[i];
		memmove(&l.ev[j + 1], &l.ev[j], (i - j) * sizeof *l.ev);
		l.ev[j] = moved;
	}
	assert_int_equal(ev_sink_open_path(&sink, out, NULL), EV_OK);
	h = ev_reader_header(r);
	assert_int_equal(ev_writer_open(&w, sink, h, NULL, NULL), EV_OK);
	for (size_t i = 0; i < l.n;) {
		size_t j = i;
		while (j < l.n && l.ev[j].cap == l.ev[i].cap)
			j++;
		write_block(w, h, &l, i, j - i);
		i = j;
	}
	assert_int_equal(ev_writer_finish(w), EV_OK);
	assert_int_equal(ev_sink_commit(sink), EV_OK);
	ev_writer_free(w);
	ev_sink_free(sink);
	ev_reader_free(r);
	tlog_free(&l);
}

/* Streams that step back here and there are merged in place, with their
 * windows only where they step back (708 stretches in cap 1's 5,308
 * events with every = 7), or everywhere when the memory limit has no
 * room to note so many (the third column: 256K leaves the spans 16K,
 * room for cap 0's 353 and not for cap 1's 708); the output is the
 * stable sort either way, and the same as the external sort's. */
static void test_streams_stepping_back_merge_in_place(void **state)
{
	static const size_t cases[][3] = { { 400, 1, 0 }, { 200, 5, 0 },
					   { 41, 30, 0 }, { 7, 2, 0 },
					   { 3, 9, 0 }, { 7, 2, 256 * 1024 } };
	char *dir = temp_dir();
	char *shaped = ts_path(dir, "steps.eventlog");
	char *in = ts_path(EVTOOL_TESTDATA, "gc-n2.eventlog");
	ev_sort_options opts = EV_SORT_OPTIONS_INIT;
	ev_sort_stats st;

	(void)state;
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		uint8_t *merged, *external;
		size_t merged_len, external_len;

		step_back(in, cases[c][0], cases[c][1], shaped);
		sort_and_compare(shaped, &st, NULL);
		assert_int_equal(st.merged_sessions, 1);
		assert_true(st.widest_window >= 1);
		opts.method = EV_SORT_MERGE;
		opts.memory = cases[c][2];
		assert_int_equal(sort_to_memory(shaped, &opts, &merged,
						&merged_len, &st), EV_OK);
		assert_int_equal(st.merged_sessions, 1);
		opts.method = EV_SORT_EXTERNAL;
		opts.memory = 0;
		assert_int_equal(sort_to_memory(shaped, &opts, &external,
						&external_len, &st), EV_OK);
		assert_int_equal(merged_len, external_len);
		assert_memory_equal(merged, external, merged_len);
		free(merged);
		free(external);
	}
	remove_tree(dir);
	free(dir);
	free(shaped);
	free(in);
}

/* ------------------------------------------------------------------------
 * Ties, hand-made logs
 * ---------------------------------------------------------------------- */

static ev_header *message_header(void)
{
	ev_header *h;

	assert_int_equal(evi_header_new(&h, NULL), EV_OK);
	assert_int_equal(evi_header_add(h, EV_BLOCK_MARKER, 14, "Block marker",
				       12, NULL, 0), EV_OK);
	assert_int_equal(evi_header_add(h, EV_USER_MSG, EV_SIZE_VARIABLE,
				       "User message", 12, NULL, 0), EV_OK);
	return h;
}

static void write_message(ev_writer *w, uint16_t cap, uint64_t time,
			  const char *text)
{
	ev_event ev = { EV_USER_MSG, cap, (uint32_t)strlen(text), time,
			(const uint8_t *)text, 0, 0 };

	assert_int_equal(ev_writer_write(w, &ev), EV_OK);
}

/* Messages of up to 30,000 bytes, two capabilities taking turns in
 * blocks larger than a cursor's buffer: read ahead in the merge, a message is often cut at
 * the end of a cursor's buffer with more of it than fits in front of
 * the bytes read ahead (4 KiB), which are then dropped and read again in
 * turn. The merge in place gives the stable sort, as the external sort
 * does. */
static void test_large_events_across_buffers(void **state)
{
	char *dir = temp_dir();
	char *path = ts_path(dir, "large.eventlog");
	ev_header *h = message_header();
	ev_writer_options wo = EV_WRITER_OPTIONS_INIT;
	ev_sort_options opts = EV_SORT_OPTIONS_INIT;
	static char text[30001];
	uint32_t seed = 12345;
	ev_sort_stats st;
	ev_sink *sink;
	ev_writer *w;

	(void)state;
	memset(text, 'x', sizeof text - 1);
	wo.mode = EV_WRITE_REBLOCK;
	assert_int_equal(ev_sink_open_path(&sink, path, NULL), EV_OK);
	assert_int_equal(ev_writer_open(&w, sink, h, &wo, NULL), EV_OK);
	for (uint64_t i = 0; i < 400; i++) {
		seed = seed * 1103515245u + 12345u;
		text[(seed >> 8) % 30000 + 1] = '\0';
		/* blocks of 40 (about 600 KB) of each capability in turn,
		 * cap 1's stamped earlier than cap 0's block before it */
		write_message(w, (uint16_t)(i / 40 % 2),
			      10 * i + 500 - 450 * (i / 40 % 2), text);
		text[(seed >> 8) % 30000 + 1] = 'x';
	}
	assert_int_equal(ev_writer_finish(w), EV_OK);
	assert_int_equal(ev_sink_commit(sink), EV_OK);
	ev_writer_free(w);
	ev_sink_free(sink);

	opts.method = EV_SORT_MERGE;
	opts.memory = 1024 * 1024; /* buffers of about 250 KB */
	sort_and_compare(path, &st, &opts);
	assert_int_equal(st.merged_sessions, 1);
	assert_int_equal(st.events, 400);
	opts.method = EV_SORT_EXTERNAL;
	sort_and_compare(path, &st, &opts);
	assert_int_equal(st.external_sessions, 1);
	evi_header_free(h);
	remove_tree(dir);
	free(dir);
	free(path);
}

static void test_ties_keep_file_order(void **state)
{
	static const struct {
		uint16_t cap;
		uint64_t time;
		const char *text;
	} events[] = {
		{ 1, 100, "a" }, { 0, 100, "b" }, { 1, 100, "c" },
		{ 0, 50, "d" },  { 2, 100, "e" }, { 0, 100, "f" },
		{ 1, 200, "g" }, { 2, 100, "h" }, { 0, 150, "i" },
	};
	static const char *want[] = { "d", "a", "b", "c", "e", "f", "h", "i",
				      "g" };
	ev_sort_method methods[] = { EV_SORT_AUTO, EV_SORT_EXTERNAL };
	char *dir = temp_dir();
	char *path = ts_path(dir, "ties.eventlog");
	ev_header *h = message_header();
	ev_writer_options wo = EV_WRITER_OPTIONS_INIT;
	ev_sink *sink;
	ev_writer *w;

	(void)state;
	wo.mode = EV_WRITE_REBLOCK;
	assert_int_equal(ev_sink_open_path(&sink, path, NULL), EV_OK);
	assert_int_equal(ev_writer_open(&w, sink, h, &wo, NULL), EV_OK);
	for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
		write_message(w, events[i].cap, events[i].time, events[i].text);
	assert_int_equal(ev_writer_finish(w), EV_OK);
	assert_int_equal(ev_sink_commit(sink), EV_OK);
	ev_writer_free(w);
	ev_sink_free(sink);

	for (size_t m = 0; m < 2; m++) {
		ev_sort_options opts = EV_SORT_OPTIONS_INIT;
		tlog out;
		uint8_t *bytes;
		size_t len;
		opts.method = methods[m];
		assert_int_equal(sort_to_memory(path, &opts, &bytes, &len,
						NULL), EV_OK);
		load_memory(bytes, len, &out);
		assert_int_equal(out.n, 9);
		for (size_t i = 0; i < 9; i++) {
			assert_int_equal(out.ev[i].size, 1);
			assert_memory_equal(out.ev[i].payload, want[i], 1);
		}
		/* re-blocked: one block per run of one cap (no two
		 * neighbours share a cap here) */
		assert_int_equal(out.blocks, 9);
		free(bytes);
		tlog_free(&out);
	}
	evi_header_free(h);
	remove_tree(dir);
	free(dir);
	free(path);
}

/* ------------------------------------------------------------------------
 * Inputs: truncated, gzip, standard input, several sessions
 * ---------------------------------------------------------------------- */

static void test_truncated_input_keeps_complete_events(void **state)
{
	char *dir = temp_dir();
	char *cut = ts_path(dir, "cut.eventlog");
	char *src = ts_path(EVTOOL_TESTDATA, "threads-n2.eventlog");
	size_t len;
	uint8_t *data = ts_read_file(src, &len);
	uint8_t *bytes;
	size_t out_len;
	ev_sort_stats st;
	tlog in, out;

	(void)state;
	assert_non_null(data);
	write_file(cut, data, len / 2 + 7);
	load_path(cut, &in);
	assert_int_equal(in.status, EV_ETRUNCATED);
	assert_int_equal(sort_to_memory(cut, NULL, &bytes, &out_len, &st),
			 EV_ETRUNCATED);
	assert_true(st.truncated);
	assert_int_equal(sorted_origin, EV_ORIGIN_INPUT);
	load_memory(bytes, out_len, &out);
	assert_int_equal(out.status, EV_END);
	assert_sorted_copy(&in, &out);
	free(bytes);
	free(data);
	tlog_free(&in);
	tlog_free(&out);
	remove_tree(dir);
	free(dir);
	free(cut);
	free(src);
}

/* An empty input, or one cut inside its first header, is no log: an
 * EV_EFORMAT with the reader's message and nothing written, not a
 * truncated log sorted into 0 bytes. */
static void test_header_cut_input(void **state)
{
	static const size_t cuts[] = { 0, 3, 100, 1000 };
	char *dir = temp_dir();
	char *cut = ts_path(dir, "cut.eventlog");
	char *src = ts_path(EVTOOL_TESTDATA, "threads-n2.eventlog");
	size_t len;
	uint8_t *data = ts_read_file(src, &len);

	(void)state;
	assert_non_null(data);
	for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
		ev_sorter *s;
		ev_sink *sink;
		size_t out_len;
		char want[64];

		write_file(cut, data, cuts[k]);
		assert_int_equal(ev_sorter_new(&s, NULL, NULL), EV_OK);
		assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
		assert_int_equal(sort_path(s, cut, sink), EV_EFORMAT);
		assert_int_equal(ev_sorter_diag(s)->status, EV_EFORMAT);
		assert_int_equal(ev_sorter_diag(s)->origin, EV_ORIGIN_INPUT);
		if (cuts[k] == 0) /* no byte at all: no eventlog */
			snprintf(want, sizeof want, "the file is empty");
		else
			snprintf(want, sizeof want, "ends inside the header "
				 "(%zu bytes", cuts[k]);
		assert_non_null(strstr(ev_sorter_diag(s)->message, want));
		ev_sink_memory(sink, &out_len);
		assert_int_equal(out_len, 0);
		ev_sink_free(sink);
		ev_sorter_free(s);
	}
	free(data);
	remove_tree(dir);
	free(dir);
	free(cut);
	free(src);
}

static void test_gzip_input_is_copied_then_merged(void **state)
{
	char *dir = temp_dir();
	char *gz = ts_path(dir, "in.eventlog.gz");
	char *src = ts_path(EVTOOL_TESTDATA, "gc-n2.eventlog");
	size_t len;
	uint8_t *data = ts_read_file(src, &len), *a, *b;
	size_t alen, blen;
	ev_sort_stats st;
	ev_sort_options opts = EV_SORT_OPTIONS_INIT;
	gzFile f;

	(void)state;
	f = gzopen(gz, "wb");
	assert_non_null(f);
	assert_int_equal(gzwrite(f, data, (unsigned)len), (int)len);
	assert_int_equal(gzclose(f), Z_OK);
	opts.tmpdir = dir;
	assert_int_equal(sort_to_memory(src, NULL, &a, &alen, NULL), EV_OK);
	assert_int_equal(sort_to_memory(gz, &opts, &b, &blen, &st), EV_OK);
	assert_true(st.copied_input);
	assert_int_equal(st.merged_sessions, 1);
	assert_int_equal(alen, blen);
	assert_memory_equal(a, b, alen);
	assert_int_equal(entries_in(dir), 1); /* only the .gz: copies are gone */
	free(a);
	free(b);
	free(data);
	remove_tree(dir);
	free(dir);
	free(gz);
	free(src);
}

static void test_standard_input(void **state)
{
	char *src = ts_path(EVTOOL_TESTDATA, "threads-n4.eventlog");
	char *dir = temp_dir();
	ev_sort_options opts = EV_SORT_OPTIONS_INIT;
	ev_sort_stats st;
	uint8_t *a, *b;
	size_t alen, blen;
	int saved = dup(STDIN_FILENO), fd = open(src, O_RDONLY);

	(void)state;
	assert_true(saved >= 0 && fd >= 0);
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	opts.tmpdir = dir;
	opts.memory = EV_SORT_MIN_MEMORY;
	assert_int_equal(sort_to_memory("-", &opts, &b, &blen, &st), EV_OK);
	assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);
	/* Standard input redirected from a file is that file: read in place
	 * (a pipe is copied: tests/cli/cases/sort-gzip-stdin.t). */
	assert_false(st.copied_input);
	assert_int_equal(entries_in(dir), 0);
	assert_int_equal(sort_to_memory(src, NULL, &a, &alen, NULL), EV_OK);
	assert_int_equal(alen, blen);
	assert_memory_equal(a, b, alen);
	free(a);
	free(b);
	remove_tree(dir);
	free(dir);
	free(src);
}

static void test_sessions_are_sorted_apart(void **state)
{
	char *dir = temp_dir();
	char *two = ts_path(dir, "two.eventlog");
	char *a = ts_path(EVTOOL_TESTDATA, "threads-n2.eventlog");
	char *b = ts_path(EVTOOL_TESTDATA, "user-n1.eventlog");
	size_t alen, blen, len;
	uint8_t *da = ts_read_file(a, &alen), *db = ts_read_file(b, &blen);
	uint8_t *both = malloc(alen + blen), *bytes;
	ev_sort_stats st;
	tlog in, out;

	(void)state;
	memcpy(both, da, alen);
	memcpy(both + alen, db, blen);
	write_file(two, both, alen + blen);
	load_path(two, &in);
	assert_int_equal(in.sessions, 2);
	assert_int_equal(sort_to_memory(two, NULL, &bytes, &len, &st), EV_OK);
	assert_int_equal(st.sessions, 2);
	assert_int_equal(st.merged_sessions, 2);
	load_memory(bytes, len, &out);
	assert_int_equal(out.sessions, 2);
	assert_sorted_copy(&in, &out);
	free(bytes);
	free(both);
	free(da);
	free(db);
	tlog_free(&in);
	tlog_free(&out);
	remove_tree(dir);
	free(dir);
	free(two);
	free(a);
	free(b);
}

/* ------------------------------------------------------------------------
 * Temporary files and options
 * ---------------------------------------------------------------------- */

static void test_temporary_files_are_gone(void **state)
{
	char *dir = temp_dir();
	char *src = ts_path(EVTOOL_TESTDATA, "nonmoving-n2.eventlog");
	ev_sort_options opts = EV_SORT_OPTIONS_INIT;
	ev_sort_stats st;
	uint8_t *bytes;
	size_t len;

	(void)state;
	opts.tmpdir = dir;
	opts.memory = EV_SORT_MIN_MEMORY;
	opts.method = EV_SORT_EXTERNAL;
	assert_int_equal(sort_to_memory(src, &opts, &bytes, &len, &st), EV_OK);
	assert_true(st.runs > 1);
	assert_true(st.spilled_bytes > 0);
	assert_int_equal(entries_in(dir), 0);
	free(bytes);
	remove_tree(dir);

	/* a folder that does not exist: a clear failure, nothing written */
	assert_int_equal(sort_to_memory(src, &opts, &bytes, &len, &st), EV_EIO);
	assert_int_equal(sorted_origin, EV_ORIGIN_TEMP);
	free(bytes);
	free(dir);
	free(src);
}

static void test_options_are_checked(void **state)
{
	ev_sort_options opts = EV_SORT_OPTIONS_INIT;
	ev_sorter *s = NULL;

	(void)state;
	opts.memory = 1000;
	assert_int_equal(ev_sorter_new(&s, &opts, NULL), EV_EINVAL);
	assert_null(s);
	opts.memory = 0;
	opts.version = 99;
	assert_int_equal(ev_sorter_new(&s, &opts, NULL), EV_EINVAL);
	assert_int_equal(ev_sorter_new(&s, NULL, NULL), EV_OK);
	ev_sorter_free(s);
	ev_sorter_free(NULL);
}

/* An input in memory sorts to the same bytes as its file, through a
 * temporary copy (the sorter reads by offset); the input keeps the copy,
 * so a second run reads it again without copying. */
static void test_memory_input(void **state)
{
	char *path = ts_path(EVTOOL_TESTDATA, "threads-n4.eventlog");
	uint8_t *want, *data;
	size_t want_len, len, got_len;
	const uint8_t *got;
	ev_sort_stats st;
	ev_sorter *s;
	ev_input *in;
	ev_sink *sink;

	(void)state;
	assert_int_equal(sort_to_memory(path, NULL, &want, &want_len, &st),
			 EV_OK);
	assert_false(st.copied_input);
	data = ts_read_file(path, &len);
	assert_non_null(data);
	assert_int_equal(ev_input_memory(&in, data, len, "mem", NULL), EV_OK);
	assert_string_equal(ev_input_name(in), "mem");
	assert_int_equal(ev_sorter_new(&s, NULL, NULL), EV_OK);
	for (int run = 0; run < 2; run++) {
		assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
		assert_int_equal(ev_sorter_run(s, in, sink), EV_OK);
		assert_int_equal(ev_sorter_result(s)->copied_input, run == 0);
		got = ev_sink_memory(sink, &got_len);
		assert_int_equal(got_len, want_len);
		assert_memory_equal(got, want, want_len);
		ev_sink_free(sink);
	}
	ev_sorter_free(s);
	ev_input_free(in);
	free(data);
	free(want);
	free(path);
}

static void test_missing_input(void **state)
{
	ev_input *in = NULL;

	(void)state;
	errno = 0;
	assert_int_equal(ev_input_open(&in, "/nonexistent/x.eventlog", NULL),
			 EV_EIO);
	assert_int_equal(errno, ENOENT);
	assert_null(in);
}

/* ------------------------------------------------------------------------
 * --check
 * ---------------------------------------------------------------------- */

static void test_check_names_first_inversion(void **state)
{
	char *path = ts_path(EVTOOL_TESTDATA, "threads-n2.eventlog");
	size_t len, i;
	uint8_t *data = ts_read_file(path, &len);
	ts_log walk;
	ev_reader *r;
	ev_sort_inversion inv;
	const ts_event *prev = NULL;

	(void)state;
	/* the first event, markers skipped, earlier than the one before */
	assert_int_equal(ts_walk(data, len, &walk), 1);
	for (i = 0; i < walk.count; i++) {
		const ts_event *e = &walk.events[i];
		if (e->type == EV_BLOCK_MARKER)
			continue;
		if (prev && e->time < prev->time)
			break;
		prev = e;
	}
	assert_true(i < walk.count);
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	assert_int_equal(ev_sort_check(r, &inv), 1);
	assert_int_equal(inv.offset, walk.events[i].offset);
	assert_int_equal(inv.index, i);
	assert_int_equal(inv.time, walk.events[i].time);
	assert_int_equal(inv.type, walk.events[i].type);
	assert_int_equal(inv.prev_offset, prev->offset);
	assert_int_equal(inv.prev_time, prev->time);
	assert_int_equal(inv.session, 0);
	ev_reader_free(r);
	ts_log_free(&walk);
	free(data);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_sorts_real_logs),
		cmocka_unit_test(test_external_sorts_real_logs),
		cmocka_unit_test(test_tiny_memory_spills_runs),
		cmocka_unit_test(test_sorting_sorted_log_changes_nothing),
		cmocka_unit_test(test_blocks_out_of_order_merge_in_place),
		cmocka_unit_test(test_disordered_stream_falls_back),
		cmocka_unit_test(test_streams_stepping_back_merge_in_place),
		cmocka_unit_test(test_large_events_across_buffers),
		cmocka_unit_test(test_ties_keep_file_order),
		cmocka_unit_test(test_truncated_input_keeps_complete_events),
		cmocka_unit_test(test_header_cut_input),
		cmocka_unit_test(test_gzip_input_is_copied_then_merged),
		cmocka_unit_test(test_standard_input),
		cmocka_unit_test(test_sessions_are_sorted_apart),
		cmocka_unit_test(test_temporary_files_are_gone),
		cmocka_unit_test(test_options_are_checked),
		cmocka_unit_test(test_memory_input),
		cmocka_unit_test(test_missing_input),
		cmocka_unit_test(test_check_names_first_inversion),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
