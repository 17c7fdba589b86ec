/* Unit tests for the writer and the sinks (lib/format/writer.c,
 * lib/format/writer_block.c, lib/io/sink.c).
 *
 * Output is checked byte for byte against the input (PRESERVE), against
 * bytes written by hand, or walked with ts_walk() (tests/support.c), a
 * decoder written from doc/format.md that shares no code with the library. */
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

#include "evtool/catalog.h"
#include "evtool/header.h"
#include "evtool/reader.h"
#include "evtool/validate.h"
#include "evtool/writer.h"
#include "internal.h"
#include "support.h"
#include "writer_block.h" /* the block builder */

#ifndef EVTOOL_TESTDATA
#define EVTOOL_TESTDATA "testdata"
#endif
#ifndef EVTOOL_CORPUS
#define EVTOOL_CORPUS "../shared/corpus"
#endif

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define VAR EV_SIZE_VARIABLE
#define MARKER_BYTES 24u /* BLOCK_MARKER on the wire: 2 + 8 + 14 */

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

static uint8_t *load(const char *dir, const char *name, size_t *len)
{
	char *path = ts_path(dir, name);
	uint8_t *log = path ? ts_read_file(path, len) : NULL;

	free(path);
	return log;
}

/* Copies what the sink holds into a malloc'd buffer. */
static uint8_t *sink_copy(const ev_sink *sink, size_t *len)
{
	const uint8_t *bytes = ev_sink_memory(sink, len);
	uint8_t *copy = malloc(*len ? *len : 1);

	assert_non_null(bytes);
	assert_non_null(copy);
	memcpy(copy, bytes, *len);
	return copy;
}

/* Reads `log` and writes every event it has through a writer in `mode`.
 * Returns the writer's output; *read_rc is how the read ended and
 * *read_end the reader's offset then. */
static uint8_t *rewrite(const uint8_t *log, size_t len, ev_write_mode mode,
			uint32_t max_block, size_t *out_len, int *read_rc,
			uint64_t *read_end, uint64_t *events)
{
	ev_reader *r = NULL;
	ev_sink *sink = NULL;
	ev_writer *w = NULL;
	ev_writer_options opts = EV_WRITER_OPTIONS_INIT;
	ev_event ev;
	uint64_t n = 0;
	int rc;

	opts.mode = mode;
	opts.max_block_size = max_block;
	assert_int_equal(ev_reader_open_memory(&r, log, len, "in", 0,
					       NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(ev_writer_open(&w, sink, ev_reader_header(r), &opts,
					NULL),
			 EV_OK);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
		assert_int_equal(ev_writer_write(w, &ev), EV_OK);
		if (ev.type != EV_BLOCK_MARKER) /* markers are not events */
			n++;
	}
	assert_int_equal(ev_writer_events(w), n);
	assert_int_equal(ev_writer_finish(w), EV_OK);
	*read_rc = rc;
	*read_end = ev_reader_offset(r);
	if (events)
		*events = n;
	uint8_t *out = sink_copy(sink, out_len);
	assert_int_equal(ev_sink_bytes(sink), *out_len);
	ev_writer_free(w);
	ev_sink_free(sink);
	ev_reader_free(r);
	return out;
}

/* ------------------------------------------------------------------------
 * PRESERVE: a copy is the input, byte for byte
 * ---------------------------------------------------------------------- */

struct preserve_check {
	size_t logs;
	size_t complete;
};

static void check_preserve(const char *path, void *ctx)
{
	struct preserve_check *check = ctx;
	size_t len = 0, out_len;
	uint8_t *log = ts_read_file(path, &len);
	int read_rc;
	uint64_t read_end, events;
	ts_log walk;

	assert_non_null(log);
	assert_true(ts_walk(log, len, &walk));
	uint8_t *out = rewrite(log, len, EV_WRITE_PRESERVE, 0, &out_len,
			       &read_rc, &read_end, &events);
	size_t markers = 0;
	for (size_t i = 0; i < walk.count; i++)
		markers += walk.events[i].type == EV_BLOCK_MARKER;
	assert_int_equal(events, walk.count - markers);
	if (walk.complete) {
		assert_int_equal(read_rc, EV_END);
		assert_int_equal(out_len, len);
		assert_memory_equal(out, log, len);
		check->complete++;
	} else {
		/* An incomplete log: every complete event, then the data
		 * end the writer adds. */
		assert_int_equal(read_rc, EV_ETRUNCATED);
		assert_int_equal(read_end, walk.end);
		assert_int_equal(out_len, walk.end + 2);
		assert_memory_equal(out, log, walk.end);
		assert_int_equal(be16(out + walk.end), 0xffff);
	}
	check->logs++;
	free(out);
	ts_log_free(&walk);
	free(log);
}

static void test_preserve_testdata_byte_for_byte(void **state)
{
	(void)state;
	struct preserve_check check = { 0, 0 };

	assert_int_equal(ts_for_each_log(EVTOOL_TESTDATA, check_preserve,
					 &check),
			 26);
	assert_int_equal(check.complete, 25);
}

static void test_preserve_corpus_byte_for_byte(void **state)
{
	(void)state;
	struct preserve_check check = { 0, 0 };

	if (ts_for_each_log(EVTOOL_CORPUS, check_preserve, &check) == 0)
		skip();
	assert_true(check.complete > 0);
}

/* Through a descriptor sink, with a buffer that must be flushed. */
static void test_preserve_to_fd(void **state)
{
	(void)state;
	size_t len, got_len;
	uint8_t *log = load(EVTOOL_TESTDATA, "gc-n2.eventlog", &len);
	char *dir = ts_temp_dir();
	char *path = ts_path(dir, "copy.eventlog");
	ev_reader *r = NULL;
	ev_sink *sink = NULL;
	ev_writer *w = NULL;
	ev_event ev;
	int fd, rc;

	assert_non_null(log);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ev_reader_open_memory(&r, log, len, "in", 0,
					       NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	assert_int_equal(ev_sink_open_fd(&sink, fd, "copy", NULL), EV_OK);
	assert_null(ev_sink_temp_path(sink));
	assert_null(ev_sink_memory(sink, &got_len));
	assert_int_equal(ev_writer_open(&w, sink, ev_reader_header(r), NULL,
					NULL),
			 EV_OK);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK)
		assert_int_equal(ev_writer_write(w, &ev), EV_OK);
	assert_int_equal(rc, EV_END);
	assert_int_equal(ev_writer_finish(w), EV_OK);
	assert_int_equal(ev_sink_commit(sink), EV_OK);
	assert_int_equal(ev_sink_bytes(sink), len);
	ev_writer_free(w);
	ev_sink_free(sink);
	/* The descriptor stays the caller's. */
	assert_int_equal(fcntl(fd, F_GETFD), 0);
	close(fd);
	uint8_t *got = ts_read_file(path, &got_len);
	assert_non_null(got);
	assert_int_equal(got_len, len);
	assert_memory_equal(got, log, len);
	free(got);
	ev_reader_free(r);
	ts_remove_dir(dir);
	free(path);
	free(dir);
	free(log);
}

/* ------------------------------------------------------------------------
 * REBLOCK: fresh blocks by capability
 * ---------------------------------------------------------------------- */

/* One non-marker event of a walked log, for per-cap comparisons. */
typedef struct cap_event {
	uint16_t cap;
	size_t order; /* position in the log */
	const ts_event *ev;
	const uint8_t *log;
} cap_event;

static int compare_cap_order(const void *a, const void *b)
{
	const cap_event *x = a, *y = b;

	if (x->cap != y->cap)
		return x->cap < y->cap ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The log's non-marker events grouped by cap, in log order within a cap. */
static cap_event *by_cap(const ts_log *walk, const uint8_t *log, size_t *n)
{
	cap_event *v = malloc((walk->count + 1) * sizeof *v);

	assert_non_null(v);
	*n = 0;
	for (size_t i = 0; i < walk->count; i++)
		if (walk->events[i].type != EV_BLOCK_MARKER)
			v[(*n)++] = (cap_event){ walk->events[i].cap, i,
						 &walk->events[i], log };
	qsort(v, *n, sizeof *v, compare_cap_order);
	return v;
}

/* Runs of consecutive non-marker events of one cap. */
static size_t cap_runs(const ts_log *walk)
{
	size_t runs = 0;
	int have = 0;
	uint16_t cap = 0;

	for (size_t i = 0; i < walk->count; i++) {
		const ts_event *e = &walk->events[i];
		if (e->type == EV_BLOCK_MARKER)
			continue;
		if (!have || e->cap != cap)
			runs++;
		have = 1;
		cap = e->cap;
	}
	return runs;
}

struct block_stats {
	size_t blocks;
	size_t oversized;
	size_t largest;
};

/* Checks the blocks of a re-blocked log (doc/format.md section 2). */
static struct block_stats check_blocks(const ts_log *walk, const uint8_t *out,
				       uint32_t max_block)
{
	struct block_stats st = { 0, 0, 0 };
	uint64_t data_end = walk->end - 2;

	assert_true(walk->complete);
	for (size_t i = 0; i < walk->count;) {
		const ts_event *m = &walk->events[i];
		/* Every event is in a block: a marker comes first. */
		assert_int_equal(m->type, EV_BLOCK_MARKER);
		const uint8_t *p = ts_payload(out, m);
		uint32_t size = be32(p);
		uint64_t end_time = be64(p + 4);
		uint16_t cap = be16(p + 12);
		uint64_t end = m->offset + size;
		uint64_t min_time = UINT64_MAX, max_time = 0, bytes = 0;
		size_t k = i + 1, n = 0;

		for (; k < walk->count && walk->events[k].type != EV_BLOCK_MARKER;
		     k++, n++) {
			const ts_event *e = &walk->events[k];
			assert_true(e->offset + e->wire <= end);
			assert_int_equal(e->cap, cap);
			assert_true(m->time <= e->time);
			assert_true(e->time <= end_time);
			if (e->time < min_time)
				min_time = e->time;
			if (e->time > max_time)
				max_time = e->time;
			bytes += e->wire;
		}
		/* The size counts the marker and lands on the next marker or
		 * the data end; no empty blocks are made. */
		assert_true(n > 0);
		assert_int_equal(size, MARKER_BYTES + bytes);
		assert_int_equal(end, k < walk->count ? walk->events[k].offset
						       : data_end);
		/* Stamped with the earliest time, ending at the latest. */
		assert_int_equal(m->time, min_time);
		assert_int_equal(end_time, max_time);
		if (size > max_block) {
			/* Only a single event too large for any block. */
			assert_int_equal(n, 1);
			st.oversized++;
		}
		/* Greedy packing: a block of the same cap follows only when
		 * its first event would not have fit. */
		if (k + 1 < walk->count &&
		    walk->events[k + 1].type != EV_BLOCK_MARKER) {
			const ts_event *next_marker = &walk->events[k];
			uint16_t next_cap = be16(ts_payload(out, next_marker) + 12);
			if (next_cap == cap)
				assert_true(size + walk->events[k + 1].wire >
					    max_block);
		}
		if (size > st.largest)
			st.largest = size;
		st.blocks++;
		i = k;
	}
	return st;
}

/* Same non-marker events, per cap in the same order. */
static void check_same_per_cap(const ts_log *in, const uint8_t *in_log,
			       const ts_log *out, const uint8_t *out_log)
{
	size_t n_in, n_out;
	cap_event *a = by_cap(in, in_log, &n_in);
	cap_event *b = by_cap(out, out_log, &n_out);

	assert_int_equal(n_in, n_out);
	for (size_t i = 0; i < n_in; i++) {
		assert_int_equal(a[i].cap, b[i].cap);
		assert_int_equal(a[i].ev->type, b[i].ev->type);
		assert_int_equal(a[i].ev->time, b[i].ev->time);
		assert_int_equal(a[i].ev->size, b[i].ev->size);
		if (a[i].ev->size)
			assert_memory_equal(ts_payload(in_log, a[i].ev),
					    ts_payload(out_log, b[i].ev),
					    a[i].ev->size);
	}
	free(a);
	free(b);
}

/* The reader agrees with the walk of the output. */
static void check_reader_agrees(const uint8_t *out, size_t out_len,
				const ts_log *walk)
{
	ev_reader *r = NULL;
	ev_event ev;
	size_t i = 0;
	int rc;

	assert_int_equal(ev_reader_open_memory(&r, out, out_len, "out", 0,
					       NULL),
			 EV_OK);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
		assert_true(i < walk->count);
		assert_int_equal(ev.offset, walk->events[i].offset);
		assert_int_equal(ev.type, walk->events[i].type);
		assert_int_equal(ev.cap, walk->events[i].cap);
		i++;
	}
	assert_int_equal(rc, EV_END);
	assert_int_equal(i, walk->count);
	ev_reader_free(r);
}

static struct block_stats reblock_log(const char *name, uint32_t max_block,
				      int same_header)
{
	size_t len, out_len;
	uint8_t *log = load(EVTOOL_TESTDATA, name, &len);
	int read_rc;
	uint64_t read_end, events;
	ts_log in, out;

	assert_non_null(log);
	assert_true(ts_walk(log, len, &in));
	uint8_t *bytes = rewrite(log, len, EV_WRITE_REBLOCK, max_block,
				 &out_len, &read_rc, &read_end, &events);
	assert_int_equal(read_rc, EV_END);
	assert_true(ts_walk(bytes, out_len, &out));
	assert_true(out.complete);
	assert_int_equal(out.end, out_len);
	if (same_header) {
		/* BLOCK_MARKER is declared already: the header is copied. */
		assert_int_equal(out.header_end, in.header_end);
		assert_memory_equal(bytes, log, in.header_end);
	}
	check_same_per_cap(&in, log, &out, bytes);
	struct block_stats st = check_blocks(&out, bytes,
					     max_block ? max_block
						       : EV_MAX_BLOCK_SIZE);
	assert_int_equal(out.count, events + st.blocks);
	check_reader_agrees(bytes, out_len, &out);
	if (!max_block)
		/* Nothing forces a split: one block per run of a cap. */
		assert_int_equal(st.blocks, cap_runs(&in));
	ts_log_free(&in);
	ts_log_free(&out);
	free(bytes);
	free(log);
	return st;
}

static void test_reblock_multi_cap(void **state)
{
	(void)state;
	struct block_stats st = reblock_log("threads-n4.eventlog", 0, 1);

	/* testdata/README.md: 4 cap blocks and the global one. */
	assert_int_equal(st.blocks, 5);
	assert_int_equal(st.oversized, 0);
}

static void test_reblock_small_blocks(void **state)
{
	(void)state;
	struct block_stats st = reblock_log("threads-n4.eventlog", 256, 1);

	assert_true(st.blocks > 300);
	assert_true(st.largest <= 256);
	assert_int_equal(st.oversized, 0);

	st = reblock_log("gc-n2.eventlog", 100, 1);
	assert_true(st.blocks > 1000);

	/* 64 bytes: the larger variable events (labels, program args,
	 * RTS identifier) get blocks of their own. */
	st = reblock_log("user-n1.eventlog", 64, 1);
	assert_true(st.oversized > 0);
	st = reblock_log("threads-n2.eventlog", 4096, 1);
	assert_true(st.blocks > 10);
}

static void test_reblock_max_block_limits(void **state)
{
	(void)state;
	ev_header *h = NULL;
	ev_sink *sink = NULL;
	ev_writer *w = NULL;
	ev_writer_options opts = EV_WRITER_OPTIONS_INIT;

	assert_int_equal(evi_header_new(&h, NULL), EV_OK);
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	opts.mode = EV_WRITE_REBLOCK;
	/* A block must hold more than its marker. */
	opts.max_block_size = MARKER_BYTES;
	w = (ev_writer *)&w;
	assert_int_equal(ev_writer_open(&w, sink, h, &opts, NULL), EV_EINVAL);
	assert_null(w);
	opts.max_block_size = 25;
	assert_int_equal(ev_writer_open(&w, sink, h, &opts, NULL), EV_OK);
	ev_writer_free(w);
	/* An unknown options version. */
	opts.version = 99;
	assert_int_equal(ev_writer_open(&w, sink, h, &opts, NULL), EV_EINVAL);
	assert_null(w);
	ev_sink_free(sink);
	evi_header_free(h);
	ev_writer_free(NULL);
}

/* Exact bytes of a small re-blocked log, built by hand. */

typedef struct bytes_out {
	uint8_t b[4096];
	size_t len;
} bytes_out;

static void put(bytes_out *o, const void *p, size_t n)
{
	assert_true(o->len + n <= sizeof o->b);
	if (n)
		memcpy(o->b + o->len, p, n);
	o->len += n;
}

static void put16(bytes_out *o, uint16_t v)
{
	uint8_t p[2] = { (uint8_t)(v >> 8), (uint8_t)v };
	put(o, p, 2);
}

static void put32(bytes_out *o, uint32_t v)
{
	put16(o, (uint16_t)(v >> 16));
	put16(o, (uint16_t)v);
}

static void put64(bytes_out *o, uint64_t v)
{
	put32(o, (uint32_t)(v >> 32));
	put32(o, (uint32_t)v);
}

static void put_marker(bytes_out *o, uint64_t time, uint32_t size,
		       uint64_t end_time, uint16_t cap)
{
	put16(o, EV_BLOCK_MARKER);
	put64(o, time);
	put32(o, size);
	put64(o, end_time);
	put16(o, cap);
}

static void put_event(bytes_out *o, uint16_t type, uint64_t time,
		      const void *payload, uint32_t size, int variable)
{
	put16(o, type);
	put64(o, time);
	if (variable)
		put16(o, (uint16_t)size);
	put(o, payload, size);
}

static ev_event event(uint16_t type, uint16_t cap, uint64_t time,
		      const void *payload, uint32_t size)
{
	return (ev_event){ .type = type, .cap = cap, .time = time,
			   .payload = payload, .size = size };
}

static void add_type(ev_header *h, uint16_t id, int32_t size,
		     const char *desc)
{
	assert_int_equal(evi_header_add(h, id, size, desc,
				       (uint32_t)strlen(desc), NULL, 0),
			 EV_OK);
}

static void test_reblock_exact_bytes(void **state)
{
	(void)state;
	ev_header *h = NULL;
	ev_sink *sink = NULL;
	ev_writer *w = NULL;
	ev_writer_options opts = EV_WRITER_OPTIONS_INIT;
	uint8_t text[100];
	bytes_out want = { .len = 0 };
	size_t len;

	for (size_t i = 0; i < sizeof text; i++)
		text[i] = (uint8_t)('a' + i % 26);
	assert_int_equal(evi_header_new(&h, NULL), EV_OK);
	add_type(h, EV_RUN_THREAD, 4, "Run thread");
	add_type(h, EV_GC_END, 0, "Finished GC");
	add_type(h, EV_BLOCK_MARKER, 14, "Block marker");
	add_type(h, EV_USER_MSG, VAR, "User message");
	want.len = evi_header_encoded_size(h);
	evi_header_encode(h, want.b);

	opts.mode = EV_WRITE_REBLOCK;
	opts.max_block_size = 64;
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(ev_writer_open(&w, sink, h, &opts, NULL), EV_OK);
	/* cap 0: two events (14 + 10 bytes: 24 + 24 = 48 <= 64), the second
	 * earlier than the first (GC_END steps back). */
	ev_event evs[] = {
		event(EV_RUN_THREAD, 0, 100, "\0\0\0\x01", 4),
		event(EV_GC_END, 0, 90, NULL, 0),
		/* A third would make 62 bytes... */
		event(EV_RUN_THREAD, 0, 110, "\0\0\0\x02", 4),
		/* ...and a fourth 76 > 64: a new block of cap 0. */
		event(EV_RUN_THREAD, 0, 120, "\0\0\0\x03", 4),
		/* Another cap. */
		event(EV_GC_END, 1, 50, NULL, 0),
		/* 112 bytes on the wire: a block of its own. */
		event(EV_USER_MSG, 1, 60, text, 100),
		event(EV_GC_END, 1, 70, NULL, 0),
		/* A given marker is dropped in REBLOCK mode. */
		event(EV_BLOCK_MARKER, 7, 1, "\0\0\0\x18\0\0\0\0\0\0\0\x01\0\x07",
		      14),
		/* No cap: the global buffer. */
		event(EV_USER_MSG, EV_NO_CAP, 5, "hi", 2),
	};
	for (size_t i = 0; i < ARRAY_LEN(evs); i++)
		assert_int_equal(ev_writer_write(w, &evs[i]), EV_OK);
	assert_int_equal(ev_writer_events(w), ARRAY_LEN(evs) - 1);
	assert_int_equal(ev_writer_finish(w), EV_OK);

	put_marker(&want, 90, 24 + 14 + 10 + 14, 110, 0);
	put_event(&want, EV_RUN_THREAD, 100, "\0\0\0\x01", 4, 0);
	put_event(&want, EV_GC_END, 90, NULL, 0, 0);
	put_event(&want, EV_RUN_THREAD, 110, "\0\0\0\x02", 4, 0);
	put_marker(&want, 120, 24 + 14, 120, 0);
	put_event(&want, EV_RUN_THREAD, 120, "\0\0\0\x03", 4, 0);
	put_marker(&want, 50, 24 + 10, 50, 1);
	put_event(&want, EV_GC_END, 50, NULL, 0, 0);
	put_marker(&want, 60, 24 + 112, 60, 1);
	put_event(&want, EV_USER_MSG, 60, text, 100, 1);
	put_marker(&want, 70, 24 + 10, 70, 1);
	put_event(&want, EV_GC_END, 70, NULL, 0, 0);
	put_marker(&want, 5, 24 + 14, 5, 0xffff);
	put_event(&want, EV_USER_MSG, 5, "hi", 2, 1);
	put16(&want, 0xffff);

	const uint8_t *got = ev_sink_memory(sink, &len);
	assert_int_equal(len, want.len);
	assert_memory_equal(got, want.b, want.len);
	ev_writer_free(w);
	ev_sink_free(sink);
	evi_header_free(h);
}

/* An event larger than the block size between two ordinary ones. */
static void test_reblock_oversized_event(void **state)
{
	(void)state;
	ev_header *h = NULL;
	ev_sink *sink = NULL;
	ev_writer *w = NULL;
	ev_writer_options opts = EV_WRITER_OPTIONS_INIT;
	uint8_t *big = calloc(1, 65535);
	size_t len;
	ts_log walk;

	assert_non_null(big);
	assert_int_equal(evi_header_new(&h, NULL), EV_OK);
	add_type(h, EV_RUN_THREAD, 4, "Run thread");
	add_type(h, EV_BLOCK_MARKER, 14, "Block marker");
	add_type(h, EV_USER_MSG, VAR, "User message");
	opts.mode = EV_WRITE_REBLOCK;
	opts.max_block_size = 1000;
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(ev_writer_open(&w, sink, h, &opts, NULL), EV_OK);
	ev_event a = event(EV_RUN_THREAD, 3, 10, "\0\0\0\x01", 4);
	ev_event b = event(EV_USER_MSG, 3, 20, big, 65535);
	ev_event c = event(EV_RUN_THREAD, 3, 30, "\0\0\0\x02", 4);
	assert_int_equal(ev_writer_write(w, &a), EV_OK);
	assert_int_equal(ev_writer_write(w, &b), EV_OK);
	assert_int_equal(ev_writer_write(w, &c), EV_OK);
	assert_int_equal(ev_writer_finish(w), EV_OK);
	const uint8_t *out = ev_sink_memory(sink, &len);
	assert_true(ts_walk(out, len, &walk));
	assert_true(walk.complete);
	assert_int_equal(walk.count, 6);
	struct block_stats st = check_blocks(&walk, out, 1000);
	assert_int_equal(st.blocks, 3);
	assert_int_equal(st.oversized, 1);
	/* The middle block covers the whole 65547-byte event. */
	assert_int_equal(be32(ts_payload(out, &walk.events[2])),
			 MARKER_BYTES + 12 + 65535);
	assert_int_equal(walk.events[3].size, 65535);
	ts_log_free(&walk);
	ev_writer_free(w);
	ev_sink_free(sink);
	evi_header_free(h);
	free(big);
}

/* ------------------------------------------------------------------------
 * Header handling and invalid events
 * ---------------------------------------------------------------------- */

/* A damaged header declaring BLOCK_MARKER with 6 bytes (an input of the
 * truncate fuzzer, fed to filter): markers written under it would not
 * read back, so REBLOCK declares 14 bytes in its place and drops the
 * input's type-18 events without checking them against the old size. */
static void test_reblock_redeclares_bad_block_marker(void **state)
{
	(void)state;
	ev_header *h = NULL;
	ev_sink *sink = NULL;
	ev_writer *w = NULL;
	ev_writer_options opts = EV_WRITER_OPTIONS_INIT;
	ev_reader *r = NULL;
	ev_event ev;
	size_t len;

	assert_int_equal(evi_header_new(&h, NULL), EV_OK);
	add_type(h, EV_RUN_THREAD, 4, "Run thread");
	add_type(h, EV_BLOCK_MARKER, 6, "Block marker");
	add_type(h, EV_USER_MSG, VAR, "User message");
	opts.mode = EV_WRITE_REBLOCK;
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(ev_writer_open(&w, sink, h, &opts, NULL), EV_OK);
	ev_event bad = event(EV_BLOCK_MARKER, 0, 5, "abcdef", 6);
	ev_event a = event(EV_RUN_THREAD, 1, 10, "\0\0\0\x05", 4);
	assert_int_equal(ev_writer_write(w, &bad), EV_OK);
	assert_int_equal(ev_writer_write(w, &a), EV_OK);
	assert_int_equal(ev_writer_finish(w), EV_OK);
	assert_int_equal(ev_writer_events(w), 1);
	const uint8_t *out = ev_sink_memory(sink, &len);

	assert_int_equal(ev_reader_open_memory(&r, out, len, "out", 0,
					       NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	const ev_header *back = ev_reader_header(r);
	assert_int_equal(ev_header_count(back), 3);
	/* Where it was declared, with its description. */
	assert_int_equal(ev_header_at(back, 1)->id, EV_BLOCK_MARKER);
	assert_int_equal(ev_header_at(back, 1)->size, 14);
	assert_string_equal(ev_header_at(back, 1)->desc, "Block marker");
	assert_int_equal(ev_reader_next(r, &ev), EV_OK);
	assert_int_equal(ev.type, EV_BLOCK_MARKER);
	assert_int_equal(ev.cap, 1);
	assert_int_equal(ev_reader_next(r, &ev), EV_OK);
	assert_int_equal(ev.type, EV_RUN_THREAD);
	assert_int_equal(ev_reader_next(r, &ev), EV_END);
	/* The caller's header is not changed. */
	assert_int_equal(ev_header_find(h, EV_BLOCK_MARKER)->size, 6);
	ev_reader_free(r);
	ev_writer_free(w);
	ev_sink_free(sink);
	evi_header_free(h);
}

static void test_reblock_declares_block_marker(void **state)
{
	(void)state;
	ev_header *h = NULL;
	ev_sink *sink = NULL;
	ev_writer *w = NULL;
	ev_writer_options opts = EV_WRITER_OPTIONS_INIT;
	ev_reader *r = NULL;
	ev_event ev;
	size_t len;

	assert_int_equal(evi_header_new(&h, NULL), EV_OK);
	add_type(h, EV_RUN_THREAD, 4, "Run thread");
	add_type(h, EV_USER_MSG, VAR, "User message");
	opts.mode = EV_WRITE_REBLOCK;
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(ev_writer_open(&w, sink, h, &opts, NULL), EV_OK);
	/* The caller's header is not changed. */
	assert_null(ev_header_find(h, EV_BLOCK_MARKER));
	ev_event a = event(EV_RUN_THREAD, 2, 10, "\0\0\0\x05", 4);
	assert_int_equal(ev_writer_write(w, &a), EV_OK);
	assert_int_equal(ev_writer_finish(w), EV_OK);
	const uint8_t *out = ev_sink_memory(sink, &len);

	assert_int_equal(ev_reader_open_memory(&r, out, len, "out", 0,
					       NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	const ev_header *back = ev_reader_header(r);
	assert_int_equal(ev_header_count(back), 3);
	/* Added after the declared types. */
	const ev_type_decl *t = ev_header_at(back, 2);
	assert_int_equal(t->id, EV_BLOCK_MARKER);
	assert_int_equal(t->size, 14);
	assert_true(t->desc_len > 0);
	assert_int_equal(ev_header_at(back, 0)->id, EV_RUN_THREAD);
	assert_int_equal(ev_header_at(back, 1)->id, EV_USER_MSG);
	assert_int_equal(ev_reader_next(r, &ev), EV_OK);
	assert_int_equal(ev.type, EV_BLOCK_MARKER);
	assert_int_equal(ev.cap, 2);
	assert_int_equal(ev_reader_next(r, &ev), EV_OK);
	assert_int_equal(ev.type, EV_RUN_THREAD);
	assert_int_equal(ev.cap, 2);
	assert_int_equal(ev_reader_next(r, &ev), EV_END);
	ev_reader_free(r);
	ev_writer_free(w);
	ev_sink_free(sink);

	/* PRESERVE leaves the header as it is. */
	uint8_t encoded[256];
	size_t n = evi_header_encoded_size(h);
	assert_true(n <= sizeof encoded);
	evi_header_encode(h, encoded);
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(ev_writer_open(&w, sink, h, NULL, NULL), EV_OK);
	assert_int_equal(ev_writer_write(w, &a), EV_OK);
	assert_int_equal(ev_writer_finish(w), EV_OK);
	out = ev_sink_memory(sink, &len);
	assert_int_equal(len, n + 14 + 2);
	assert_memory_equal(out, encoded, n);
	ev_writer_free(w);
	ev_sink_free(sink);
	evi_header_free(h);
}

static void test_invalid_events(void **state)
{
	(void)state;
	ev_header *h = NULL;
	ev_sink *sink = NULL;
	ev_writer *w = NULL;
	ev_writer_options opts = EV_WRITER_OPTIONS_INIT;
	uint8_t *big = calloc(1, 70000);

	assert_non_null(big);
	assert_int_equal(evi_header_new(&h, NULL), EV_OK);
	add_type(h, EV_RUN_THREAD, 4, "Run thread");
	add_type(h, EV_BLOCK_MARKER, 14, "Block marker");
	add_type(h, EV_USER_MSG, VAR, "User message");
	add_type(h, 400, 3, "Custom");

	for (int mode = 0; mode < 2; mode++) {
		opts.mode = mode ? EV_WRITE_REBLOCK : EV_WRITE_PRESERVE;
		assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
		assert_int_equal(ev_writer_open(&w, sink, h, &opts,
						NULL), EV_OK);
		uint64_t before = ev_sink_bytes(sink);

		ev_event undeclared = event(EV_CREATE_THREAD, 0, 1, "\0\0\0\1", 4);
		assert_int_equal(ev_writer_write(w, &undeclared), EV_EINVAL);
		const ev_diag *d = ev_writer_diag(w);
		assert_int_equal(d->status, EV_EINVAL);
		assert_non_null(strstr(d->message, "not declared"));
		assert_non_null(strstr(d->message, "0"));
		ev_event undeclared_high = event(401, 0, 1, "abc", 3);
		assert_int_equal(ev_writer_write(w, &undeclared_high), EV_EINVAL);
		assert_non_null(strstr(ev_writer_diag(w)->message, "401"));

		ev_event wrong = event(EV_RUN_THREAD, 0, 1, "\0\0\0\1\0\0", 6);
		assert_int_equal(ev_writer_write(w, &wrong), EV_EINVAL);
		assert_non_null(strstr(ev_writer_diag(w)->message, "6-byte"));
		wrong.size = 2;
		assert_int_equal(ev_writer_write(w, &wrong), EV_EINVAL);
		ev_event wrong_high = event(400, 0, 1, "abcd", 4);
		assert_int_equal(ev_writer_write(w, &wrong_high), EV_EINVAL);

		ev_event too_long = event(EV_USER_MSG, 0, 1, big, 65536);
		assert_int_equal(ev_writer_write(w, &too_long), EV_EINVAL);

		/* Nothing was written for them, nothing counted. */
		assert_int_equal(ev_sink_bytes(sink), before);
		assert_int_equal(ev_writer_events(w), 0);
		/* The writer still works. */
		ev_event ok = event(400, 0, 1, "abc", 3);
		assert_int_equal(ev_writer_write(w, &ok), EV_OK);
		assert_int_equal(ev_writer_events(w), 1);
		assert_int_equal(ev_writer_finish(w), EV_OK);
		ev_writer_free(w);
		ev_sink_free(sink);
	}
	evi_header_free(h);
	free(big);
}

/* ------------------------------------------------------------------------
 * The atomic path sink
 * ---------------------------------------------------------------------- */

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static size_t files_in(const char *dir)
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

static uint8_t *pattern(size_t len)
{
	uint8_t *p = malloc(len);

	assert_non_null(p);
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 131 + (i >> 9));
	return p;
}

/* A target that is not a regular file (here a FIFO; /dev/null is the
 * usual one) is written in place: a temporary file renamed over it would
 * replace the device with a file. The test holds the FIFO open for
 * reading, so that opening it for writing does not block. */
static void test_path_sink_device_written_in_place(void **state)
{
	(void)state;
	char *dir = ts_temp_dir();
	char *fifo = ts_path(dir, "fifo");
	const char text[] = "written through the fifo";
	char got[sizeof text] = { 0 };
	struct stat st;
	ev_sink *s = NULL;
	int reader;

	assert_int_equal(mkfifo(fifo, 0600), 0);
	reader = open(fifo, O_RDONLY | O_NONBLOCK);
	assert_true(reader >= 0);
	assert_int_equal(ev_sink_open_path(&s, fifo, NULL), EV_OK);
	assert_null(ev_sink_temp_path(s));
	assert_int_equal(ev_sink_write(s, text, sizeof text - 1), EV_OK);
	assert_int_equal(ev_sink_commit(s), EV_OK);
	ev_sink_free(s);
	assert_int_equal(read(reader, got, sizeof got), (ssize_t)sizeof text - 1);
	assert_string_equal(got, text);
	assert_int_equal(stat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(files_in(dir), 1);
	close(reader);
	ts_remove_dir(dir);
	free(fifo);
	free(dir);
}

static void test_path_sink_commit(void **state)
{
	(void)state;
	char *dir = ts_temp_dir();
	char *target = ts_path(dir, "out.eventlog");
	size_t len = 1000 + 300 * 1024 + 10, got_len;
	uint8_t *bytes = pattern(len);
	ev_sink *s = NULL;

	assert_non_null(dir);
	assert_int_equal(ev_sink_open_path(&s, target, NULL), EV_OK);
	const char *temp = ev_sink_temp_path(s);
	assert_non_null(temp);
	char *temp_copy = strdup(temp);
	assert_non_null(temp_copy);
	/* Beside the target, so that rename is atomic. */
	assert_int_equal(strncmp(temp, dir, strlen(dir)), 0);
	assert_int_equal(temp[strlen(dir)], '/');
	assert_null(strchr(temp + strlen(dir) + 1, '/'));
	assert_string_not_equal(temp, target);
	assert_null(ev_sink_memory(s, &got_len));

	/* Small, larger than the sink's buffer, small again. */
	assert_int_equal(ev_sink_write(s, bytes, 1000), EV_OK);
	assert_int_equal(ev_sink_write(s, bytes + 1000, 300 * 1024), EV_OK);
	assert_int_equal(ev_sink_write(s, bytes + 1000 + 300 * 1024, 10), EV_OK);
	assert_int_equal(ev_sink_bytes(s), len);
	assert_false(exists(target));
	assert_true(exists(temp));
	assert_int_equal(files_in(dir), 1);

	assert_int_equal(ev_sink_commit(s), EV_OK);
	assert_null(ev_sink_temp_path(s));
	assert_true(exists(target));
	assert_false(exists(temp_copy));
	assert_int_equal(files_in(dir), 1);
	uint8_t *got = ts_read_file(target, &got_len);
	assert_non_null(got);
	assert_int_equal(got_len, len);
	assert_memory_equal(got, bytes, len);
	ev_sink_free(s);
	/* Freeing a committed sink keeps the file. */
	assert_true(exists(target));

	free(got);
	free(temp_copy);
	free(bytes);
	ts_remove_dir(dir);
	free(target);
	free(dir);
}

static void test_path_sink_uncommitted(void **state)
{
	(void)state;
	char *dir = ts_temp_dir();
	char *target = ts_path(dir, "out.eventlog");
	uint8_t *bytes = pattern(400 * 1024);
	ev_sink *s = NULL;

	assert_non_null(dir);
	assert_int_equal(ev_sink_open_path(&s, target, NULL), EV_OK);
	assert_int_equal(ev_sink_write(s, bytes, 400 * 1024), EV_OK);
	assert_int_equal(files_in(dir), 1);
	ev_sink_free(s);
	assert_int_equal(files_in(dir), 0);
	assert_false(exists(target));

	/* An existing target is left as it was. */
	assert_true(ts_write_file(target, "old", 3, "wb"));
	assert_int_equal(ev_sink_open_path(&s, target, NULL), EV_OK);
	assert_int_equal(ev_sink_write(s, bytes, 1000), EV_OK);
	ev_sink_free(s);
	assert_int_equal(files_in(dir), 1);
	size_t len;
	uint8_t *got = ts_read_file(target, &len);
	assert_int_equal(len, 3);
	assert_memory_equal(got, "old", 3);
	free(got);

	/* A folder that does not exist. */
	char *missing = ts_path(dir, "no/such/dir.eventlog");
	s = NULL;
	assert_int_equal(ev_sink_open_path(&s, missing, NULL), EV_EIO);
	free(missing);

	free(bytes);
	ts_remove_dir(dir);
	free(target);
	free(dir);
}

static void replace_keeps_mode(const char *dir, mode_t mode)
{
	char *target = ts_path(dir, "keep.eventlog");
	ev_sink *s = NULL;
	struct stat st;
	size_t len;

	assert_true(ts_write_file(target, "previous contents", 17, "wb"));
	assert_int_equal(chmod(target, mode), 0);
	assert_int_equal(ev_sink_open_path(&s, target, NULL), EV_OK);
	assert_int_equal(ev_sink_write(s, "new", 3), EV_OK);
	/* Not replaced before the commit. */
	uint8_t *got = ts_read_file(target, &len);
	assert_int_equal(len, 17);
	free(got);
	assert_int_equal(ev_sink_commit(s), EV_OK);
	ev_sink_free(s);
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_mode & 07777, mode);
	got = ts_read_file(target, &len);
	assert_int_equal(len, 3);
	assert_memory_equal(got, "new", 3);
	free(got);
	assert_int_equal(files_in(dir), 1);
	unlink(target);
	free(target);
}

static void test_path_sink_permissions(void **state)
{
	(void)state;
	char *dir = ts_temp_dir();
	char *fresh = ts_path(dir, "fresh.eventlog");
	mode_t old_mask = umask(027);
	ev_sink *s = NULL;
	struct stat st;

	replace_keeps_mode(dir, 0600);
	replace_keeps_mode(dir, 0640);
	replace_keeps_mode(dir, 0755);
	replace_keeps_mode(dir, 0604);

	/* A new file: 0666 less the umask. */
	assert_int_equal(ev_sink_open_path(&s, fresh, NULL), EV_OK);
	assert_int_equal(ev_sink_commit(s), EV_OK);
	ev_sink_free(s);
	assert_int_equal(stat(fresh, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	/* The umask is left as it was. */
	assert_int_equal(umask(old_mask), 027);

	ts_remove_dir(dir);
	free(fresh);
	free(dir);
}

/* A whole log through the writer into a path sink. */
static void test_writer_to_path_sink(void **state)
{
	(void)state;
	size_t len, got_len;
	uint8_t *log = load(EVTOOL_TESTDATA, "threads-n4.eventlog", &len);
	char *dir = ts_temp_dir();
	char *target = ts_path(dir, "copy.eventlog");
	ev_reader *r = NULL;
	ev_sink *s = NULL;
	ev_writer *w = NULL;
	ev_event ev;
	int rc;

	assert_non_null(log);
	assert_int_equal(ev_reader_open_memory(&r, log, len, "in", 0,
					       NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	assert_int_equal(ev_sink_open_path(&s, target, NULL), EV_OK);
	assert_int_equal(ev_writer_open(&w, s, ev_reader_header(r), NULL, NULL),
			 EV_OK);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK)
		assert_int_equal(ev_writer_write(w, &ev), EV_OK);
	assert_int_equal(rc, EV_END);
	assert_int_equal(ev_writer_finish(w), EV_OK);
	assert_false(exists(target));
	assert_int_equal(ev_sink_commit(s), EV_OK);
	ev_writer_free(w);
	ev_sink_free(s);
	uint8_t *got = ts_read_file(target, &got_len);
	assert_int_equal(got_len, len);
	assert_memory_equal(got, log, len);
	free(got);
	ev_reader_free(r);
	ts_remove_dir(dir);
	free(target);
	free(dir);
	free(log);
}

static void test_memory_sink(void **state)
{
	(void)state;
	ev_sink *s = NULL;
	size_t len = 1;
	uint8_t *bytes = pattern(100000);

	assert_int_equal(ev_sink_open_memory(&s, NULL), EV_OK);
	assert_non_null(ev_sink_memory(s, &len));
	assert_int_equal(len, 0);
	assert_null(ev_sink_temp_path(s));
	for (size_t at = 0; at < 100000; at += 9999)
		assert_int_equal(ev_sink_write(s, bytes + at,
					       at + 9999 <= 100000 ? 9999
								  : 100000 - at),
				 EV_OK);
	const uint8_t *got = ev_sink_memory(s, &len);
	assert_int_equal(len, 100000);
	assert_memory_equal(got, bytes, 100000);
	assert_int_equal(ev_sink_commit(s), EV_OK);
	assert_int_equal(ev_sink_bytes(s), 100000);
	ev_sink_free(s);
	ev_sink_free(NULL);
	free(bytes);
}

/* ------------------------------------------------------------------------
 * The block builder (lib/format/writer_block.c): blocks held back behind
 * their marker as read, as repair writes them, and blocks framed afresh,
 * as merge writes them, on real logs
 * ---------------------------------------------------------------------- */

/* Logs of testdata that validate with no finding. */
static const char *const clean_logs[] = { "gc-n2.eventlog",
					  "threads-n4.eventlog",
					  "heap-a.eventlog",
					  "nonmoving-n2.eventlog" };

/* The validator's verdict on `log`, with its errors and warnings. */
static void validate_clean(const uint8_t *log, size_t len,
			   ev_validate_result *res)
{
	ev_validate_options opts = EV_VALIDATE_OPTIONS_INIT;
	ev_reader *r;

	assert_int_equal(ev_reader_open_memory(&r, log, len, "out", 0,
					       NULL), EV_OK);
	assert_int_equal(ts_validate(r, &opts, NULL, NULL, res), EV_OK);
	ev_reader_free(r);
	assert_int_equal(res->verdict, EV_VERDICT_COMPLETE);
	assert_int_equal(res->errors, 0);
	assert_int_equal(res->warnings, 0);
}

/* The events of `out` (markers aside) are those of `in` but for the ones
 * at the input offsets `dropped` (ascending, `n_dropped` of them). */
static void assert_same_events(const uint8_t *in, size_t in_len,
			       const uint8_t *out, size_t out_len,
			       const uint64_t *dropped, size_t n_dropped)
{
	ev_reader *a, *b;
	ev_event x, y;
	size_t d = 0;
	uint64_t compared = 0;
	int ra, rb;

	assert_int_equal(ev_reader_open_memory(&a, in, in_len, "in", 0,
					       NULL), EV_OK);
	assert_int_equal(ev_reader_open_memory(&b, out, out_len, "out", 0,
					       NULL),
			 EV_OK);
	assert_int_equal(ev_reader_read_header(a), EV_OK);
	assert_int_equal(ev_reader_read_header(b), EV_OK);
	for (;;) {
		while ((ra = ev_reader_next(a, &x)) == EV_OK &&
		       (x.type == EV_BLOCK_MARKER ||
			(d < n_dropped && dropped[d] == x.offset)))
			d += x.type != EV_BLOCK_MARKER;
		while ((rb = ev_reader_next(b, &y)) == EV_OK &&
		       y.type == EV_BLOCK_MARKER)
			;
		assert_int_equal(ra, rb);
		if (ra != EV_OK)
			break;
		assert_int_equal(x.type, y.type);
		assert_int_equal(x.time, y.time);
		assert_int_equal(x.size, y.size);
		assert_int_equal(x.cap, y.cap);
		if (x.size)
			assert_memory_equal(x.payload, y.payload, x.size);
		compared++;
	}
	assert_int_equal(ra, EV_END);
	assert_int_equal(d, n_dropped);
	assert_true(compared > 1000);
	ev_reader_free(a);
	ev_reader_free(b);
}

/* What copy_held and copy_built made. */
typedef struct copied {
	uint8_t *out;
	size_t len;
	uint64_t dropped[4096]; /* input offsets of the events left out */
	size_t n_dropped;
	size_t blocks;          /* input blocks */
} copied;

/* Its bytes on the wire: the reader is just past it. */
static size_t wire_of(const ev_reader *r, const ev_event *ev)
{
	return (size_t)(ev_reader_offset(r) - ev->offset);
}

/* `ev` as the builder takes it, of the form it had on the wire. */
static evi_wire_event wire_event(const ev_reader *r, const ev_event *ev)
{
	return evi_wire_event_of(ev, wire_of(r, ev) - ev->size ==
					     EVI_VAR_HEADER);
}

/* Copies the one-session `log` as repair does: each block is held from
 * its marker to the next marker or the data end and then written. With
 * `drop`, the HEAP_ALLOCATED events (which no check of ev_validate
 * follows) of every other block are left out and every block's marker is
 * restamped (size: what is held; end: its latest event);
 * without, each block goes out as it was held. */
static void copy_held(const uint8_t *log, size_t len, int drop, copied *c)
{
	ev_reader *r;
	ev_sink *sink;
	ev_writer *w;
	evi_block *b;
	ev_event ev;
	int held = 0, drop_here = 0, rc;
	uint64_t start = 0, latest = 0, written = 0;

	assert_int_equal(ev_reader_open_memory(&r, log, len, "in", 0,
					       NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(ev_writer_open(&w, sink, ev_reader_header(r), NULL,
					NULL),
			 EV_OK);
	assert_non_null(b = evi_writer_new_block(w, EV_MAX_BLOCK_SIZE));
	c->n_dropped = 0;
	c->blocks = 0;
	while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
		size_t wire = wire_of(r, &ev);
		evi_wire_event we = wire_event(r, &ev);
		if (ev.type == EV_BLOCK_MARKER) {
			if (held)
				assert_int_equal(evi_block_write(b, drop, start,
								 latest),
						 EV_OK);
			evi_block_begin_marker(b, &we);
			assert_int_equal(evi_block_bytes(b), wire);
			held = 1;
			drop_here = drop && c->blocks++ % 2 == 0;
			start = latest = ev.time;
			continue;
		}
		written++;
		if (!held) {
			assert_int_equal(ev_writer_write(w, &ev), EV_OK);
			continue;
		}
		if (drop_here && ev.type == EV_HEAP_ALLOCATED) {
			assert_true(c->n_dropped < ARRAY_LEN(c->dropped));
			c->dropped[c->n_dropped++] = ev.offset;
			written--;
			continue;
		}
		assert_true(evi_block_fits(b, wire));
		assert_non_null(evi_block_add(b, &we));
		if (ev.time > latest)
			latest = ev.time;
	}
	assert_int_equal(rc, EV_END);
	if (held)
		assert_int_equal(evi_block_write(b, drop, start, latest),
				 EV_OK);
	/* Every event written, held or not; the markers not counted. */
	assert_int_equal(ev_writer_events(w), written);
	assert_int_equal(ev_writer_finish(w), EV_OK);
	c->out = sink_copy(sink, &c->len);
	ev_writer_free(w);
	ev_sink_free(sink);
	ev_reader_free(r);
}

/* Each block marker of the walked `l` declares the bytes up to the next
 * marker or the data end, and an end time no earlier than its events. */
static void assert_markers_exact(const uint8_t *out, const ts_log *l)
{
	for (size_t i = 0; i < l->count; i++) {
		const ts_event *m = &l->events[i];
		const uint8_t *p = ts_payload(out, m);
		uint64_t next = l->end - 2; /* the data end */
		size_t j;

		if (m->type != EV_BLOCK_MARKER)
			continue;
		for (j = i + 1; j < l->count; j++) {
			if (l->events[j].type == EV_BLOCK_MARKER) {
				next = l->events[j].offset;
				break;
			}
			assert_true(l->events[j].time <= be64(p + 4));
		}
		assert_int_equal(be32(p), next - m->offset);
	}
}

/* Held blocks written as they were held: the log, byte for byte. */
static void test_held_blocks_as_held(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(clean_logs); i++) {
		size_t len;
		uint8_t *log = load(EVTOOL_TESTDATA, clean_logs[i], &len);
		copied *c = calloc(1, sizeof *c);

		assert_non_null(log);
		assert_non_null(c);
		copy_held(log, len, 0, c);
		assert_int_equal(c->len, len);
		assert_memory_equal(c->out, log, len);
		free(c->out);
		free(c);
		free(log);
	}
}

/* Held blocks that lost an event, their markers restamped: the output
 * validates, every marker declares its block's true size, and the events
 * read back are the input's but for those left out. */
static void test_held_blocks_restamped(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(clean_logs); i++) {
		size_t len;
		uint8_t *log = load(EVTOOL_TESTDATA, clean_logs[i], &len);
		copied *c = calloc(1, sizeof *c);
		ev_validate_result in_res, res;
		ts_log walk;

		assert_non_null(log);
		assert_non_null(c);
		validate_clean(log, len, &in_res);
		copy_held(log, len, 1, c);
		assert_true(c->n_dropped > 0);
		assert_true(c->len < len);
		/* The header went out as it was read. */
		assert_true(ts_walk(log, len, &walk));
		assert_memory_equal(c->out, log, walk.header_end);
		ts_log_free(&walk);
		validate_clean(c->out, c->len, &res);
		assert_int_equal(res.blocks, in_res.blocks);
		assert_int_equal(res.events, in_res.events - c->n_dropped);
		assert_true(ts_walk(c->out, c->len, &walk));
		assert_true(walk.complete);
		assert_markers_exact(c->out, &walk);
		ts_log_free(&walk);
		assert_same_events(log, len, c->out, c->len, c->dropped,
				   c->n_dropped);
		free(c->out);
		free(c);
		free(log);
	}
}

/* Copies the one-session `log` as merge does: each capability's block
 * through one builder with its marker's times, the global block's events
 * through another, which frames them afresh; blocks of at most
 * `max_block` bytes. */
static void copy_built(const uint8_t *log, size_t len, uint32_t max_block,
		       copied *c)
{
	ev_reader *r;
	ev_sink *sink;
	ev_writer *w;
	evi_block *cap, *global, *s = NULL;
	ev_event ev;
	int rc;

	assert_int_equal(ev_reader_open_memory(&r, log, len, "in", 0,
					       NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(ev_writer_open(&w, sink, ev_reader_header(r), NULL,
					NULL),
			 EV_OK);
	cap = evi_writer_new_block(w, max_block);
	global = evi_writer_new_block(w, max_block);
	assert_non_null(cap);
	assert_non_null(global);
	assert_null(evi_writer_block(w)); /* PRESERVE builds none itself */
	c->n_dropped = 0;
	c->blocks = 0;
	while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
		evi_wire_event we = wire_event(r, &ev);
		if (ev.type == EV_BLOCK_MARKER) {
			ev_block b;
			if (s)
				assert_int_equal(evi_block_close(s), EV_OK);
			ev_reader_block(r, &b);
			c->blocks++;
			s = b.cap == EV_NO_CAP ? global : cap;
			if (s == cap)
				evi_block_begin_times(cap, b.cap, b.start_time,
						      b.end_time);
			continue;
		}
		if (!s) {
			assert_int_equal(ev_writer_write(w, &ev), EV_OK);
			continue;
		}
		assert_non_null(evi_block_add(s, &we));
	}
	assert_int_equal(rc, EV_END);
	if (s)
		assert_int_equal(evi_block_close(s), EV_OK);
	assert_int_equal(ev_writer_finish(w), EV_OK);
	c->out = sink_copy(sink, &c->len);
	ev_writer_free(w);
	ev_sink_free(sink);
	ev_reader_free(r);
}

/* Builders with room for whole blocks: the output validates with as many
 * blocks, exact markers and the same events. */
static void test_built_whole_blocks(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(clean_logs); i++) {
		size_t len;
		uint8_t *log = load(EVTOOL_TESTDATA, clean_logs[i], &len);
		copied *c = calloc(1, sizeof *c);
		ev_validate_result in_res, res;
		ts_log walk;

		assert_non_null(log);
		assert_non_null(c);
		validate_clean(log, len, &in_res);
		copy_built(log, len, EV_MAX_BLOCK_SIZE, c);
		validate_clean(c->out, c->len, &res);
		assert_int_equal(res.blocks, in_res.blocks);
		assert_int_equal(res.events, in_res.events);
		assert_true(ts_walk(c->out, c->len, &walk));
		assert_markers_exact(c->out, &walk);
		ts_log_free(&walk);
		assert_same_events(log, len, c->out, c->len, NULL, 0);
		free(c->out);
		free(c);
		free(log);
	}
}

/* Small builders cut blocks into pieces of at most 4 KiB, each with its own
 * marker; a capability block's first piece starts at its marker's start
 * time, its last ends at its end time. */
static void test_built_pieces(void **state)
{
	(void)state;
	const uint32_t max = 4096;

	for (size_t i = 0; i < ARRAY_LEN(clean_logs); i++) {
		size_t len;
		uint8_t *log = load(EVTOOL_TESTDATA, clean_logs[i], &len);
		copied *c = calloc(1, sizeof *c);
		ev_validate_result in_res, res;
		ts_log in_walk, walk;

		assert_non_null(log);
		assert_non_null(c);
		validate_clean(log, len, &in_res);
		copy_built(log, len, max, c);
		validate_clean(c->out, c->len, &res);
		assert_true(res.blocks > in_res.blocks);
		assert_int_equal(res.events, in_res.events);
		assert_true(ts_walk(c->out, c->len, &walk));
		assert_true(ts_walk(log, len, &in_walk));
		assert_markers_exact(c->out, &walk);
		/* Each cap block's start and end times are some piece's. */
		for (size_t j = 0; j < in_walk.count; j++) {
			const ts_event *m = &in_walk.events[j];
			const uint8_t *p = ts_payload(log, m);
			int starts = 0, ends = 0;
			if (m->type != EV_BLOCK_MARKER ||
			    be16(p + 12) == EV_NO_CAP)
				continue;
			for (size_t k = 0; k < walk.count; k++) {
				const ts_event *o = &walk.events[k];
				const uint8_t *q = ts_payload(c->out, o);
				if (o->type != EV_BLOCK_MARKER ||
				    be16(q + 12) != be16(p + 12))
					continue;
				starts += o->time == m->time;
				ends += be64(q + 4) == be64(p + 4);
			}
			assert_true(starts > 0);
			assert_true(ends > 0);
		}
		for (size_t k = 0; k < walk.count; k++)
			if (walk.events[k].type == EV_BLOCK_MARKER)
				assert_true(be32(ts_payload(c->out,
							    &walk.events[k])) <=
					    max);
		ts_log_free(&in_walk);
		ts_log_free(&walk);
		assert_same_events(log, len, c->out, c->len, NULL, 0);
		free(c->out);
		free(c);
		free(log);
	}
}

/* A block begun behind a marker as read that a log declares variable-size
 * (a u16 length after its time) with two bytes more than GHC's payload:
 * written as read, the marker is the bytes given; restamped, only its
 * start, size and end change, its head, cap and extra bytes stay. */
static void test_built_marker_as_read(void **state)
{
	static const uint8_t extra[2] = { 0xab, 0xcd };
	uint8_t payload[16], ev_payload[4] = { 1, 2, 3, 4 };
	evi_wire_event marker = { payload, 100, sizeof payload,
				  EV_BLOCK_MARKER, 1 };
	evi_wire_event ev = { ev_payload, 150, sizeof ev_payload, 7, 0 };
	ev_sink *sink;
	ev_diag diag;
	evi_block *b;
	const uint8_t *out;
	size_t len, block = 12 + 16 + 2 * (10 + 4);

	(void)state;
	memset(&diag, 0, sizeof diag);
	payload[0] = 0; /* size, end time, cap: as a damaged log said */
	payload[1] = 0;
	payload[2] = 0x10;
	payload[3] = 0;
	memset(payload + 4, 0, 8);
	payload[11] = 120;
	payload[12] = 0;
	payload[13] = 3;
	memcpy(payload + 14, extra, 2);
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_non_null(b = evi_block_new(sink, &diag, 4096));
	for (int restamp = 0; restamp < 2; restamp++) {
		evi_block_begin_marker(b, &marker);
		assert_int_equal(evi_block_bytes(b), 12 + 16);
		assert_non_null(evi_block_add(b, &ev));
		ev.time = 140;
		assert_non_null(evi_block_add(b, &ev));
		ev.time = 150;
		assert_int_equal(evi_block_bytes(b), block);
		assert_int_equal(evi_block_write(b, restamp, 90, 150), EV_OK);
	}
	out = ev_sink_memory(sink, &len);
	assert_int_equal(len, 2 * block);
	/* As read: head (type, time, length), then the payload given. */
	assert_int_equal(be16(out), EV_BLOCK_MARKER);
	assert_int_equal(be64(out + 2), 100);
	assert_int_equal(be16(out + 10), 16);
	assert_memory_equal(out + 12, payload, 16);
	assert_int_equal(be16(out + 28), 7);
	assert_int_equal(be64(out + 30), 150);
	assert_memory_equal(out + 38, ev_payload, 4);
	assert_int_equal(be64(out + 44), 140);
	/* Restamped: the same bytes but for start, size and end. */
	out += block;
	assert_int_equal(be16(out), EV_BLOCK_MARKER);
	assert_int_equal(be64(out + 2), 90);
	assert_int_equal(be16(out + 10), 16);
	assert_int_equal(be32(out + 12), block);
	assert_int_equal(be64(out + 16), 150);
	assert_int_equal(be16(out + 24), 3);
	assert_memory_equal(out + 26, extra, 2);
	assert_memory_equal(out + 28, ev_sink_memory(sink, &len) + 28,
			    block - 28);
	evi_block_free(b);
	ev_sink_free(sink);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_preserve_testdata_byte_for_byte),
		cmocka_unit_test(test_preserve_corpus_byte_for_byte),
		cmocka_unit_test(test_preserve_to_fd),
		cmocka_unit_test(test_reblock_multi_cap),
		cmocka_unit_test(test_reblock_small_blocks),
		cmocka_unit_test(test_reblock_max_block_limits),
		cmocka_unit_test(test_reblock_exact_bytes),
		cmocka_unit_test(test_reblock_oversized_event),
		cmocka_unit_test(test_reblock_declares_block_marker),
		cmocka_unit_test(test_reblock_redeclares_bad_block_marker),
		cmocka_unit_test(test_invalid_events),
		cmocka_unit_test(test_path_sink_commit),
		cmocka_unit_test(test_path_sink_device_written_in_place),
		cmocka_unit_test(test_path_sink_uncommitted),
		cmocka_unit_test(test_path_sink_permissions),
		cmocka_unit_test(test_writer_to_path_sink),
		cmocka_unit_test(test_memory_sink),
		cmocka_unit_test(test_held_blocks_as_held),
		cmocka_unit_test(test_held_blocks_restamped),
		cmocka_unit_test(test_built_whole_blocks),
		cmocka_unit_test(test_built_pieces),
		cmocka_unit_test(test_built_marker_as_read),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
