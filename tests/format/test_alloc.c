/*
 * Reading events allocates nothing per event (issue 2: "no allocation per
 * event; memory does not grow with the log").
 *
 * malloc, calloc and realloc are wrapped (-Wl,--wrap, see
 * tests/CMakeLists.txt) and counted. After the header, reading every event
 * of a log must cost exactly as many allocations as reading its first 100
 * events, for each way a reader takes input: a file (read through its
 * window), a memory buffer and gzip (inflated on the fly), on a real log
 * and on one several times larger than the reader's 1 MiB window, so that
 * the window is refilled many times. Decoding every payload (ev_decode)
 * allocates nothing at all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "evtool/evtool.h"
#include "internal.h"
#include "support.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);

/* Allocation calls made by the code under test (libevtool and this file;
 * not by cmocka or libc, which are not linked with the wrap). */
static uint64_t allocations;

void *__wrap_malloc(size_t n)
{
	allocations++;
	return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	allocations++;
	return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	allocations++;
	return __real_realloc(p, n);
}

/* How a case opens its reader. */
typedef struct input {
	const char *path;    /* a file, or NULL for `data` */
	const uint8_t *data; /* a memory buffer (plain or gzip) */
	size_t len;
} input;

static void open_input(const input *in, ev_reader **r)
{
	if (in->path)
		assert_int_equal(ev_reader_open_path(r, in->path, 0,
						     NULL), EV_OK);
	else
		assert_int_equal(ev_reader_open_memory(r, in->data, in->len,
						       "memory", 0,
						       NULL), EV_OK);
}

/* The allocations made while reading events after the header: the first
 * `limit` of them, or all (limit 0, then the log must be complete).
 * `*events` is how many were read. */
static uint64_t allocations_reading(const input *in, uint64_t limit,
				    uint64_t *events)
{
	ev_reader *r;
	ev_event ev;
	uint64_t before, n = 0;
	int rc = EV_OK;

	open_input(in, &r);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	before = allocations;
	while ((limit == 0 || n < limit) &&
	       (rc = ev_reader_next(r, &ev)) == EV_OK)
		n++;
	before = allocations - before;
	assert_int_equal(rc, limit ? EV_OK : EV_END);
	ev_reader_free(r);
	*events = n;
	return before;
}

/* Reading all events costs what reading the first 100 does. */
static void check_flat(const input *in, uint64_t min_events)
{
	uint64_t first, all, n_first, n_all;

	first = allocations_reading(in, 100, &n_first);
	all = allocations_reading(in, 0, &n_all);
	assert_int_equal(n_first, 100);
	assert_true(n_all >= min_events);
	assert_int_equal(all, first);
}

static uint8_t *gzip_bytes(const uint8_t *data, size_t len, size_t *out_len)
{
	z_stream z;
	uLong cap = compressBound((uLong)len) + 64;
	uint8_t *out = malloc(cap);

	assert_non_null(out);
	memset(&z, 0, sizeof z);
	/* 16 + 15 window bits: a gzip wrapper, as gzip(1) writes. */
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 16 + 15, 8,
				      Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (Bytef *)(uintptr_t)data;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	*out_len = z.total_out;
	deflateEnd(&z);
	return out;
}

/* The real log threads-n4 (four capabilities, ~5300 events). */
static const char *real_log(void)
{
	return EVTOOL_TESTDATA "/threads-n4.eventlog";
}

static void test_real_log_file(void **state)
{
	input in = { real_log(), NULL, 0 };

	(void)state;
	check_flat(&in, 5000);
}

static void test_real_log_memory(void **state)
{
	size_t len;
	uint8_t *data = ts_read_file(real_log(), &len);
	input in = { NULL, data, len };

	(void)state;
	assert_non_null(data);
	check_flat(&in, 5000);
	free(data);
}

static void test_real_log_gzip(void **state)
{
	size_t len, gz_len;
	uint8_t *data = ts_read_file(real_log(), &len);
	uint8_t *gz;
	input in;

	(void)state;
	assert_non_null(data);
	gz = gzip_bytes(data, len, &gz_len);
	in = (input){ NULL, gz, gz_len };
	check_flat(&in, 5000);
	free(gz);
	free(data);
}

/* The events of the real log, written `copies` times over (each copy
 * later in time than the one before) into one log with one header: about
 * 90 KB per copy. */
static uint8_t *big_log(unsigned copies, size_t *len)
{
	ev_sink *sink;
	ev_writer *w;
	ev_writer_options opts = EV_WRITER_OPTIONS_INIT;
	const uint8_t *bytes;
	uint8_t *copy;
	uint64_t shift = 0, last = 0;

	opts.mode = EV_WRITE_REBLOCK;
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	for (unsigned i = 0; i < copies; i++) {
		ev_reader *r;
		ev_event ev;
		int rc;
		assert_int_equal(ev_reader_open_path(&r, real_log(), 0,
						     NULL), EV_OK);
		assert_int_equal(ev_reader_read_header(r), EV_OK);
		if (i == 0)
			assert_int_equal(ev_writer_open(&w, sink,
							ev_reader_header(r),
							&opts, NULL), EV_OK);
		while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
			if (ev.type == EV_BLOCK_MARKER)
				continue;
			ev.time += shift;
			if (ev.time > last)
				last = ev.time;
			assert_int_equal(ev_writer_write(w, &ev), EV_OK);
		}
		assert_int_equal(rc, EV_END);
		ev_reader_free(r);
		shift = last + 1;
	}
	assert_int_equal(ev_writer_finish(w), EV_OK);
	ev_writer_free(w);
	bytes = ev_sink_memory(sink, len);
	copy = malloc(*len);
	assert_non_null(copy);
	memcpy(copy, bytes, *len);
	ev_sink_free(sink);
	return copy;
}

/* A log four times the reader's window: from a file, memory and gzip. */
static void test_big_log(void **state)
{
	size_t len, gz_len;
	uint8_t *data = big_log(48, &len);
	uint8_t *gz = gzip_bytes(data, len, &gz_len);
	char *dir = ts_temp_dir();
	char *path;
	input file, memory = { NULL, data, len }, gzip = { NULL, gz, gz_len };

	(void)state;
	assert_true(len > 4u * 1024u * 1024u);
	assert_non_null(dir);
	path = ts_path(dir, "big.eventlog");
	assert_true(ts_write_file(path, data, len, "wb"));
	file = (input){ path, NULL, 0 };
	check_flat(&file, 48u * 5000u);
	check_flat(&memory, 48u * 5000u);
	check_flat(&gzip, 48u * 5000u);
	ts_remove_dir(dir);
	free(path);
	free(dir);
	free(gz);
	free(data);
}

/* ev_decode fills a caller's struct: decoding every payload of a log
 * allocates nothing. */
static void test_decode(void **state)
{
	ev_reader *r;
	ev_event ev;
	ev_decoded d;
	uint64_t before, decoded = 0;
	int rc;

	(void)state;
	assert_int_equal(ev_reader_open_path(&r, real_log(), 0, NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	before = allocations;
	while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
		decoded += (uint64_t)ev_decode(&ev, &d);
		(void)ev_decoded_field(&d, "thread");
	}
	assert_int_equal(allocations - before, 0);
	assert_int_equal(rc, EV_END);
	assert_true(decoded > 5000);
	ev_reader_free(r);
}

/* The counter works: allocating through the library is seen. */
static void test_counter_counts(void **state)
{
	uint64_t before = allocations;
	ev_header *h;

	(void)state;
	assert_int_equal(evi_header_new(&h, NULL), EV_OK);
	assert_true(allocations > before);
	evi_header_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counter_counts),
		cmocka_unit_test(test_real_log_file),
		cmocka_unit_test(test_real_log_memory),
		cmocka_unit_test(test_real_log_gzip),
		cmocka_unit_test(test_big_log),
		cmocka_unit_test(test_decode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
