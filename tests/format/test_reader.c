/* Unit tests for the streaming reader (lib/format/reader.c, lib/io/source.c).
 *
 * Expected results come from logs built byte by byte in this file and
 * from ts_walk() (tests/support.c), a decoder written from doc/format.md that
 * shares no code with the library. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>
#include <zlib.h>

#include "evtool/catalog.h"
#include "evtool/archive.h"
#include "evtool/consumer.h"
#include "evtool/reader.h"
#include "archive_internal.h"
#include "internal.h"
#include "support.h"

#ifndef EVTOOL_TESTDATA
#define EVTOOL_TESTDATA "testdata"
#endif
#ifndef EVTOOL_CORPUS
#define EVTOOL_CORPUS "../shared/corpus"
#endif

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define VAR EV_SIZE_VARIABLE

/* ------------------------------------------------------------------------
 * A small-log builder: header and events written by hand (doc/format.md s. 1)
 * ---------------------------------------------------------------------- */

/* What the reader must say about one event the builder wrote. */
typedef struct want_event {
	uint16_t type;
	uint16_t cap;
	uint32_t size;
	uint64_t time;
	size_t offset;
	size_t payload_at;  /* offset of the payload in the built bytes */
	int in_block;       /* ev_reader_block() after this event */
	size_t block_offset;
	uint16_t block_cap;
	uint64_t block_start;
	uint64_t block_end_time;
} want_event;

typedef struct log_builder {
	uint8_t *bytes;
	size_t len;
	size_t cap;
	size_t header_end;
	want_event want[64];
	size_t n_want;
	/* The block the builder is writing into, as the format defines it;
	 * open until lb_close_block gives it its size. */
	int in_block;
	int block_open;
	size_t block_offset;
	uint16_t block_cap;
	uint64_t block_start;
	uint64_t block_end_time;
	/* Declared sizes of the types the header declared (-2: none). */
	int32_t sizes[1024];
} log_builder;

static void lb_put(log_builder *b, const void *data, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		while (cap < b->len + n)
			cap *= 2;
		b->bytes = realloc(b->bytes, cap);
		assert_non_null(b->bytes);
		b->cap = cap;
	}
	if (n)
		memcpy(b->bytes + b->len, data, n);
	b->len += n;
}

static void lb_u16(log_builder *b, uint16_t v)
{
	uint8_t p[2] = { (uint8_t)(v >> 8), (uint8_t)v };
	lb_put(b, p, 2);
}

static void lb_u32(log_builder *b, uint32_t v)
{
	uint8_t p[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16),
			 (uint8_t)(v >> 8), (uint8_t)v };
	lb_put(b, p, 4);
}

static void lb_u64(log_builder *b, uint64_t v)
{
	lb_u32(b, (uint32_t)(v >> 32));
	lb_u32(b, (uint32_t)v);
}

static void set_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void lb_init(log_builder *b)
{
	memset(b, 0, sizeof *b);
	for (size_t i = 0; i < ARRAY_LEN(b->sizes); i++)
		b->sizes[i] = -2;
	lb_put(b, "hdrbhetb", 8);
}

/* One "etb\0 ... ete\0" entry. */
static void lb_type(log_builder *b, uint16_t id, int32_t size,
		    const char *desc)
{
	lb_put(b, "etb\0", 4);
	lb_u16(b, id);
	lb_u16(b, size == VAR ? 0xffff : (uint16_t)size);
	lb_u32(b, (uint32_t)strlen(desc));
	lb_put(b, desc, strlen(desc));
	lb_u32(b, 0);
	lb_put(b, "ete\0", 4);
	if (id < ARRAY_LEN(b->sizes))
		b->sizes[id] = size;
}

static void lb_end_header(log_builder *b)
{
	lb_put(b, "hetehdredatb", 12);
	b->header_end = b->len;
}

/* The types most tests use; 250 and 300 are unknown to the catalogue. */
static void lb_standard_header(log_builder *b)
{
	lb_init(b);
	lb_type(b, EV_CREATE_THREAD, 4, "Create thread");
	lb_type(b, EV_RUN_THREAD, 4, "Run thread");
	lb_type(b, EV_STOP_THREAD, 10, "Stop thread");
	lb_type(b, EV_GC_START, 0, "Start GC");
	lb_type(b, EV_STARTUP, 2, "Startup");
	lb_type(b, EV_BLOCK_MARKER, 14, "Block marker");
	lb_type(b, EV_USER_MSG, VAR, "User message");
	lb_type(b, 250, 5, "Unknown fixed");
	lb_type(b, 300, 7, "Unknown fixed, page 1");
	lb_type(b, 301, VAR, "Unknown variable");
	lb_end_header(b);
}

static want_event *lb_record(log_builder *b, uint16_t type, uint64_t time,
			     uint32_t size, size_t offset, size_t payload_at)
{
	want_event *w = &b->want[b->n_want++];

	assert_true(b->n_want <= ARRAY_LEN(b->want));
	/* An event past the block's declared size is outside it. */
	if (b->in_block && !b->block_open) {
		uint32_t block_size = (uint32_t)(b->bytes[b->block_offset + 10] << 24 |
						 b->bytes[b->block_offset + 11] << 16 |
						 b->bytes[b->block_offset + 12] << 8 |
						 b->bytes[b->block_offset + 13]);
		if (offset >= b->block_offset + block_size)
			b->in_block = 0;
	}
	*w = (want_event){
		.type = type,
		.cap = b->in_block ? b->block_cap : EV_NO_CAP,
		.size = size,
		.time = time,
		.offset = offset,
		.payload_at = payload_at,
		.in_block = b->in_block,
		.block_offset = b->block_offset,
		.block_cap = b->block_cap,
		.block_start = b->block_start,
		.block_end_time = b->block_end_time,
	};
	return w;
}

/* A fixed-size event; the payload size is what the header declared. */
static void lb_event(log_builder *b, uint16_t type, uint64_t time,
		     const void *payload, uint32_t size)
{
	size_t offset = b->len;

	lb_u16(b, type);
	lb_u64(b, time);
	lb_put(b, payload, size);
	lb_record(b, type, time, size, offset, offset + 10);
}

static void lb_var_event(log_builder *b, uint16_t type, uint64_t time,
			 const void *payload, uint16_t size)
{
	size_t offset = b->len;

	lb_u16(b, type);
	lb_u64(b, time);
	lb_u16(b, size);
	lb_put(b, payload, size);
	lb_record(b, type, time, size, offset, offset + 12);
}

/* Opens a block; its size is filled in by lb_close_block. Returns the
 * marker's offset. */
static size_t lb_marker(log_builder *b, uint64_t time, uint64_t end_time,
			uint16_t cap)
{
	size_t offset = b->len;

	lb_u16(b, EV_BLOCK_MARKER);
	lb_u64(b, time);
	lb_u32(b, 24);
	lb_u64(b, end_time);
	lb_u16(b, cap);
	b->in_block = 1;
	b->block_open = 1;
	b->block_offset = offset;
	b->block_cap = cap;
	b->block_start = time;
	b->block_end_time = end_time;
	want_event *w = lb_record(b, EV_BLOCK_MARKER, time, 14, offset,
				  offset + 10);
	w->cap = cap; /* a marker has its own cap, 0xffff included */
	return offset;
}

/* The block ends at the current length (doc/format.md s. 2: the size counts
 * the 24-byte marker). */
static void lb_close_block(log_builder *b, size_t marker)
{
	set_u32(b->bytes + marker + 10, (uint32_t)(b->len - marker));
	b->block_open = 0;
}

static void lb_data_end(log_builder *b)
{
	lb_u16(b, 0xffff);
}

static void lb_free(log_builder *b)
{
	free(b->bytes);
}

/* ------------------------------------------------------------------------
 * Checking what a reader returns
 * ---------------------------------------------------------------------- */

static ev_reader *open_memory(const void *data, size_t len)
{
	ev_reader *r = NULL;

	assert_int_equal(ev_reader_open_memory(&r, data, len, "mem", 0,
					       NULL), EV_OK);
	assert_non_null(r);
	return r;
}

static void expect_built(ev_reader *r, const log_builder *b, size_t i,
			 const ev_event *ev)
{
	const want_event *w = &b->want[i];
	ev_block block;

	assert_int_equal(ev->type, w->type);
	assert_int_equal(ev->time, w->time);
	assert_int_equal(ev->size, w->size);
	assert_int_equal(ev->offset, w->offset);
	assert_int_equal(ev->index, i);
	assert_int_equal(ev->cap, w->cap);
	if (w->size)
		assert_memory_equal(ev->payload, b->bytes + w->payload_at,
				    w->size);
	memset(&block, 0x5a, sizeof block);
	assert_int_equal(!!ev_reader_block(r, &block), w->in_block);
	assert_int_equal(!!ev_reader_block(r, NULL), w->in_block);
	if (w->in_block) {
		uint32_t size = (uint32_t)(b->bytes[w->block_offset + 10] << 24 |
					   b->bytes[w->block_offset + 11] << 16 |
					   b->bytes[w->block_offset + 12] << 8 |
					   b->bytes[w->block_offset + 13]);
		assert_int_equal(block.offset, w->block_offset);
		assert_int_equal(block.size, size);
		assert_int_equal(block.cap, w->block_cap);
		assert_int_equal(block.start_time, w->block_start);
		assert_int_equal(block.end_time, w->block_end_time);
	}
}

/* Reads the built log to its end and checks every event. */
static void read_built(const log_builder *b, int want_rc)
{
	ev_reader *r = open_memory(b->bytes, b->len);
	ev_event ev;
	size_t i = 0;
	int rc;

	assert_int_equal(ev_reader_read_header(r), EV_OK);
	assert_int_equal(ev_reader_offset(r), b->header_end);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
		assert_true(i < b->n_want);
		expect_built(r, b, i, &ev);
		i++;
	}
	assert_int_equal(rc, want_rc);
	assert_int_equal(i, b->n_want);
	if (want_rc == EV_END) {
		assert_int_equal(ev_reader_offset(r), b->len);
		assert_int_equal(ev_reader_block(r, NULL), 0);
		/* Stays at the end. */
		assert_int_equal(ev_reader_next(r, &ev), EV_END);
	}
	ev_reader_free(r);
}

static const uint8_t tid1[4] = { 0, 0, 0, 1 };
static const uint8_t tid2[4] = { 0, 0, 0, 2 };
static const uint8_t stop[10] = { 0, 0, 0, 2, 0, 5, 0, 0, 0, 0 };

/* ------------------------------------------------------------------------
 * Built logs: events, blocks and capabilities
 * ---------------------------------------------------------------------- */

static void test_built_events_and_caps(void **state)
{
	(void)state;
	log_builder b;
	size_t m;

	lb_standard_header(&b);
	/* STARTUP right after "datb", outside any block (6.12-era logs). */
	lb_event(&b, EV_STARTUP, 5, (const uint8_t[]){ 0, 2 }, 2);
	m = lb_marker(&b, 10, 50, 0);
	lb_event(&b, EV_CREATE_THREAD, 11, tid1, 4);
	lb_event(&b, EV_RUN_THREAD, 12, tid1, 4);
	lb_var_event(&b, EV_USER_MSG, 13, "hello", 5);
	lb_event(&b, EV_STOP_THREAD, 14, stop, 10);
	lb_close_block(&b, m);
	m = lb_marker(&b, 20, 60, 1);
	lb_event(&b, EV_CREATE_THREAD, 21, tid2, 4);
	lb_var_event(&b, EV_USER_MSG, 22, "", 0);
	lb_close_block(&b, m);
	/* An empty block (size 24), then an event right after it. */
	m = lb_marker(&b, 25, 25, 2);
	lb_close_block(&b, m);
	lb_event(&b, EV_GC_START, 26, NULL, 0);
	/* The global buffer: cap 0xffff means no cap. */
	m = lb_marker(&b, 30, 70, 0xffff);
	lb_event(&b, 250, 31, "\x01\x02\x03\x04\x05", 5);
	lb_event(&b, 300, 32, "abcdefg", 7);
	lb_var_event(&b, 301, 33, "xyz", 3);
	lb_close_block(&b, m);
	/* A block of cap 3 whose size covers one event: the second event is
	 * after its declared end and has no cap. */
	m = lb_marker(&b, 40, 41, 3);
	lb_event(&b, EV_RUN_THREAD, 41, tid2, 4);
	lb_close_block(&b, m);
	lb_event(&b, EV_RUN_THREAD, 42, tid1, 4);
	lb_event(&b, EV_GC_START, 43, NULL, 0);
	lb_data_end(&b);

	/* The expectations the builder derived, spelled out. */
	static const struct { uint16_t type, cap; } caps[] = {
		{ EV_STARTUP, EV_NO_CAP },    { EV_BLOCK_MARKER, 0 },
		{ EV_CREATE_THREAD, 0 },      { EV_RUN_THREAD, 0 },
		{ EV_USER_MSG, 0 },           { EV_STOP_THREAD, 0 },
		{ EV_BLOCK_MARKER, 1 },       { EV_CREATE_THREAD, 1 },
		{ EV_USER_MSG, 1 },           { EV_BLOCK_MARKER, 2 },
		{ EV_GC_START, EV_NO_CAP },   { EV_BLOCK_MARKER, EV_NO_CAP },
		{ 250, EV_NO_CAP },           { 300, EV_NO_CAP },
		{ 301, EV_NO_CAP },           { EV_BLOCK_MARKER, 3 },
		{ EV_RUN_THREAD, 3 },         { EV_RUN_THREAD, EV_NO_CAP },
		{ EV_GC_START, EV_NO_CAP },
	};
	assert_int_equal(b.n_want, ARRAY_LEN(caps));
	for (size_t i = 0; i < ARRAY_LEN(caps); i++) {
		assert_int_equal(b.want[i].type, caps[i].type);
		assert_int_equal(b.want[i].cap, caps[i].cap);
	}
	assert_int_equal(b.want[0].offset, b.header_end);
	assert_false(b.want[0].in_block);
	assert_false(b.want[10].in_block);
	assert_false(b.want[17].in_block);

	read_built(&b, EV_END);
	lb_free(&b);
}

static void test_block_sizes_and_count(void **state)
{
	(void)state;
	log_builder b;
	ev_reader *r;
	ev_event ev;
	ev_block block;
	size_t m0, m1;

	lb_standard_header(&b);
	m0 = lb_marker(&b, 100, 200, 7);
	lb_event(&b, EV_RUN_THREAD, 150, tid1, 4);
	lb_var_event(&b, EV_USER_MSG, 160, "abc", 3);
	lb_close_block(&b, m0);
	m1 = lb_marker(&b, 300, 300, 8);
	lb_close_block(&b, m1);
	lb_data_end(&b);
	/* 24 (marker) + 14 (RUN_THREAD) + 15 (USER_MSG "abc"). */
	assert_int_equal(m1 - m0, 24 + 14 + 15);

	r = open_memory(b.bytes, b.len);
	assert_int_equal(evi_reader_block_count(r), 0);
	assert_int_equal(ev_reader_block(r, &block), 0);
	assert_int_equal(ev_reader_next(r, &ev), EV_OK);
	assert_int_equal(ev.type, EV_BLOCK_MARKER);
	assert_int_equal(ev.cap, 7);
	assert_int_equal(evi_reader_block_count(r), 1);
	assert_true(ev_reader_block(r, &block));
	assert_int_equal(block.offset, m0);
	assert_int_equal(block.size, 53);
	assert_int_equal(block.start_time, 100);
	assert_int_equal(block.end_time, 200);
	assert_int_equal(block.cap, 7);
	assert_int_equal(ev_reader_next(r, &ev), EV_OK);
	assert_int_equal(ev_reader_next(r, &ev), EV_OK);
	assert_int_equal(ev.type, EV_USER_MSG);
	assert_int_equal(ev.cap, 7);
	assert_int_equal(ev_reader_next(r, &ev), EV_OK);
	assert_int_equal(ev.type, EV_BLOCK_MARKER);
	assert_int_equal(ev.cap, 8);
	assert_int_equal(evi_reader_block_count(r), 2);
	assert_true(ev_reader_block(r, &block));
	assert_int_equal(block.offset, m1);
	assert_int_equal(block.size, 24);
	assert_int_equal(block.start_time, 300);
	assert_int_equal(block.end_time, 300);
	assert_int_equal(ev_reader_next(r, &ev), EV_END);
	assert_int_equal(ev_reader_block(r, &block), 0);
	assert_int_equal(evi_reader_block_count(r), 2);
	ev_reader_free(r);
	read_built(&b, EV_END);
	lb_free(&b);
}

/* GHC >= 9.2: the last global block's size also covers the data end. */
static void test_last_block_covers_data_end(void **state)
{
	(void)state;
	log_builder b;
	size_t m;

	lb_standard_header(&b);
	m = lb_marker(&b, 10, 20, 0);
	lb_event(&b, EV_RUN_THREAD, 11, tid1, 4);
	lb_close_block(&b, m);
	m = lb_marker(&b, 5, 30, 0xffff);
	lb_event(&b, 250, 12, "12345", 5);
	lb_var_event(&b, EV_USER_MSG, 13, "last", 4);
	lb_data_end(&b);
	lb_close_block(&b, m);
	assert_int_equal(b.len - m, 24 + 15 + 16 + 2);
	read_built(&b, EV_END);
	lb_free(&b);

	/* The same with a cap block last: its events keep the cap up to the
	 * data end. */
	lb_standard_header(&b);
	m = lb_marker(&b, 10, 20, 5);
	lb_event(&b, EV_RUN_THREAD, 11, tid1, 4);
	lb_event(&b, EV_GC_START, 12, NULL, 0);
	lb_data_end(&b);
	lb_close_block(&b, m);
	assert_int_equal(b.want[2].cap, 5);
	read_built(&b, EV_END);
	lb_free(&b);
}

/* No blocks at all: every event has no cap. */
static void test_events_without_blocks(void **state)
{
	(void)state;
	log_builder b;

	lb_standard_header(&b);
	lb_event(&b, EV_STARTUP, 1, (const uint8_t[]){ 0, 4 }, 2);
	lb_event(&b, EV_CREATE_THREAD, 2, tid1, 4);
	lb_var_event(&b, 301, 3, "v", 1);
	lb_data_end(&b);
	for (size_t i = 0; i < b.n_want; i++)
		assert_int_equal(b.want[i].cap, EV_NO_CAP);
	read_built(&b, EV_END);
	lb_free(&b);
}

static void test_empty_log(void **state)
{
	(void)state;
	log_builder b;
	ev_reader *r;
	ev_event ev;

	lb_standard_header(&b);
	lb_data_end(&b);
	r = open_memory(b.bytes, b.len);
	/* ev_reader_next reads the header itself. */
	assert_int_equal(ev_reader_next(r, &ev), EV_END);
	assert_non_null(ev_reader_header(r));
	assert_int_equal(ev_header_count(ev_reader_header(r)), 10);
	assert_int_equal(ev_reader_offset(r), b.len);
	assert_int_equal(ev_reader_session(r), 0);
	assert_string_equal(ev_reader_name(r), "mem");
	assert_int_equal(ev_reader_is_gzip(r), 0);
	ev_reader_free(r);
	lb_free(&b);
}

/* ------------------------------------------------------------------------
 * Sizes: unknown ids, declared sizes that differ from the catalogue's,
 * variable events
 * ---------------------------------------------------------------------- */

static void test_declared_sizes_rule(void **state)
{
	(void)state;
	log_builder b;
	uint8_t big[1000];

	for (size_t i = 0; i < sizeof big; i++)
		big[i] = (uint8_t)(i * 7);
	lb_init(&b);
	/* CREATE_THREAD with 2 appended bytes, STOP_THREAD in the old 6-byte
	 * layout, GC_STATS_GHC in the 50-byte layout, unknown ids. */
	lb_type(&b, EV_CREATE_THREAD, 6, "Create thread (longer)");
	lb_type(&b, EV_STOP_THREAD, 6, "Stop thread (older)");
	lb_type(&b, EV_BLOCK_MARKER, 14, "Block marker");
	lb_type(&b, EV_USER_MSG, VAR, "User message");
	lb_type(&b, EV_GC_STATS_GHC, 50, "GC statistics");
	lb_type(&b, 250, 0, "Unknown empty");
	lb_type(&b, 251, 65534, "Unknown huge");
	lb_type(&b, 300, 3, "Unknown");
	lb_type(&b, 65000, VAR, "Unknown variable");
	lb_end_header(&b);
	size_t m = lb_marker(&b, 1, 9, 0);
	lb_event(&b, EV_CREATE_THREAD, 2, "\0\0\0\x09\xaa\xbb", 6);
	lb_event(&b, EV_STOP_THREAD, 3, "\0\0\0\x09\0\x05", 6);
	lb_event(&b, 250, 4, NULL, 0);
	lb_event(&b, 300, 5, "\x01\x02\x03", 3);
	lb_var_event(&b, 65000, 6, big, 1000);
	uint8_t stats[50];
	memset(stats, 0x11, sizeof stats);
	lb_event(&b, EV_GC_STATS_GHC, 7, stats, 50);
	lb_var_event(&b, EV_USER_MSG, 8, big, 0);
	lb_var_event(&b, EV_USER_MSG, 9, big + 1, 999);
	lb_close_block(&b, m);
	/* A 65534-byte payload after the block (no cap). */
	uint8_t *huge = malloc(65535);
	assert_non_null(huge);
	for (size_t i = 0; i < 65535; i++)
		huge[i] = (uint8_t)(i >> 3);
	lb_event(&b, 251, 10, huge, 65534);
	lb_var_event(&b, 65000, 11, huge, 65535);
	lb_event(&b, EV_CREATE_THREAD, 12, "\0\0\0\x0a\xcc\xdd", 6);
	lb_data_end(&b);
	free(huge);
	read_built(&b, EV_END);

	/* The same bytes through a file descriptor reader (window refills). */
	char *dir = ts_temp_dir();
	assert_non_null(dir);
	char *path = ts_path(dir, "sizes.eventlog");
	assert_true(ts_write_file(path, b.bytes, b.len, "wb"));
	ev_reader *r = NULL;
	ev_event ev;
	size_t i = 0;
	int rc;
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK)
		expect_built(r, &b, i++, &ev);
	assert_int_equal(rc, EV_END);
	assert_int_equal(i, b.n_want);
	ev_reader_free(r);
	ts_remove_dir(dir);
	free(path);
	free(dir);
	lb_free(&b);
}

/* ------------------------------------------------------------------------
 * Malformed input
 * ---------------------------------------------------------------------- */

static void test_undeclared_type_mid_stream(void **state)
{
	(void)state;
	log_builder b;
	ev_reader *r;
	ev_event ev;
	size_t bad;

	lb_standard_header(&b);
	size_t m = lb_marker(&b, 1, 5, 0);
	lb_event(&b, EV_RUN_THREAD, 2, tid1, 4);
	lb_var_event(&b, EV_USER_MSG, 3, "ok", 2);
	bad = b.len;
	lb_u16(&b, 77); /* not declared */
	lb_u64(&b, 4);
	lb_put(&b, "\0\0\0\0", 4);
	lb_close_block(&b, m);
	lb_data_end(&b);

	r = open_memory(b.bytes, b.len);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(ev_reader_next(r, &ev), EV_OK);
		expect_built(r, &b, i, &ev);
	}
	assert_int_equal(ev_reader_next(r, &ev), EV_EFORMAT);
	const ev_diag *d = ev_reader_diag(r);
	assert_int_equal(d->status, EV_EFORMAT);
	assert_int_equal(d->offset, bad);
	assert_int_equal(d->event_index, 3);
	assert_non_null(strstr(d->message, "77"));
	assert_non_null(strstr(d->message, "not declared"));
	assert_int_equal(d->reason, EV_REASON_UNDECLARED_TYPE);
	/* The failure is sticky. */
	assert_int_equal(ev_reader_next(r, &ev), EV_EFORMAT);
	ev_reader_free(r);
	lb_free(&b);
}

static void expect_header_error(const void *bytes, size_t len, int status,
				uint64_t offset, const char *needle,
				const char *absent)
{
	ev_reader *r = open_memory(bytes, len);
	ev_event ev;

	assert_int_equal(ev_reader_read_header(r), status);
	assert_null(ev_reader_header(r));
	assert_int_equal(ev_reader_diag(r)->status, status);
	assert_int_equal(ev_reader_diag(r)->offset, offset);
	if (needle)
		assert_non_null(strstr(ev_reader_diag(r)->message, needle));
	if (absent)
		assert_null(strstr(ev_reader_diag(r)->message, absent));
	assert_int_equal(ev_reader_next(r, &ev), status);
	assert_int_equal(ev_reader_read_header(r), status);
	ev_reader_free(r);
}

static void test_bad_magic(void **state)
{
	(void)state;
	static const char text[] = "hello, this is a text file\n";
	log_builder b;

	expect_header_error(text, sizeof text - 1, EV_EFORMAT, 0,
			    "not a GHC eventlog", NULL);
	expect_header_error("HDRBhetb", 8, EV_EFORMAT, 0, "not a GHC eventlog",
			    NULL);
	/* A wrong magic further in is a format error but not "not a log". */
	lb_standard_header(&b);
	lb_data_end(&b);
	memcpy(b.bytes + 8, "etb!", 4);
	expect_header_error(b.bytes, b.len, EV_EFORMAT, 8, "etb!",
			    "not a GHC eventlog");
	lb_free(&b);

	lb_standard_header(&b);
	lb_data_end(&b);
	memcpy(b.bytes + b.header_end - 4, "data", 4);
	expect_header_error(b.bytes, b.len, EV_EFORMAT, b.header_end - 4,
			    "data begin", "not a GHC eventlog");
	lb_free(&b);
}

/* A log compressed with a tool evtool does not read is named by that
 * tool, with the command that undoes it: the magic numbers of zstd (RFC
 * 8878: 0xFD2FB528, little-endian), xz (FD 37 7A 58 5A 00), bzip2 ("BZh"
 * and the block size digit) and lz4 (frame magic 0x184D2204,
 * little-endian), each before a real header. Four bytes tell; "BZh0" is
 * no bzip2 block size, so only the usual message. */
static void test_foreign_compression(void **state)
{
	static const struct {
		const char *magic;
		size_t len;
		const char *message;
	} cases[] = {
		{ "\x28\xb5\x2f\xfd", 4, "zstd-compressed data, not a GHC "
		  "eventlog: decompress it first, 'zstd -dc FILE" },
		{ "\xfd" "7zXZ\0", 6, "xz-compressed data" },
		{ "BZh9", 4, "bzip2-compressed data" },
		{ "BZh1", 4, "'bzip2 -dc FILE" },
		{ "\x04\x22\x4d\x18", 4, "lz4-compressed data" },
	};
	log_builder b;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		lb_standard_header(&b);
		lb_data_end(&b);
		memcpy(b.bytes, cases[i].magic, cases[i].len);
		expect_header_error(b.bytes, b.len, EV_EFORMAT, 0,
				    cases[i].message, "hdrb");
		lb_free(&b);
	}
	lb_standard_header(&b);
	lb_data_end(&b);
	memcpy(b.bytes, "BZh0", 4);
	expect_header_error(b.bytes, b.len, EV_EFORMAT, 0,
			    "not a GHC eventlog", "compressed");
	lb_free(&b);
}

/* Input shorter than the 4-byte magic that cannot start "hdrb" is not an
 * eventlog whatever follows: saying "truncated" (wait for more) is wrong.
 * ev_reader_next_session already checks a partial magic this way. */
static int header_status(const void *bytes, size_t len, char *message,
			 size_t cap)
{
	ev_reader *r = open_memory(bytes, len);
	int rc = ev_reader_read_header(r);

	snprintf(message, cap, "%s", ev_reader_diag(r)->message);
	ev_reader_free(r);
	return rc;
}

static void test_short_input_not_an_eventlog(void **state)
{
	(void)state;
	char one[320], three[320];
	int rc_one = header_status("x", 1, one, sizeof one);
	int rc_three = header_status("hi\n", 3, three, sizeof three);

	assert_int_equal(rc_one, EV_EFORMAT);
	assert_non_null(strstr(one, "not a GHC eventlog"));
	assert_int_equal(rc_three, EV_EFORMAT);
	assert_non_null(strstr(three, "not a GHC eventlog"));
}

/* A proper prefix of "hdrb" may still become a log. */
static void test_short_input_prefix_of_magic(void **state)
{
	(void)state;

	expect_header_error("h", 1, EV_ETRUNCATED, 0, "inside the header", NULL);
	expect_header_error("hdr", 3, EV_ETRUNCATED, 0, "inside the header",
			    NULL);
}

/* An input with no byte at all is no eventlog: EV_EFORMAT with a reason
 * of its own, that every command maps to one message; but the reader is
 * not failed, so that a follower may call again. */
static void test_empty_input(void **state)
{
	ev_reader *r;
	ev_event ev;

	(void)state;
	expect_header_error("", 0, EV_EFORMAT, 0, "empty", NULL);
	r = open_memory("", 0);
	assert_int_equal(ev_reader_read_header(r), EV_EFORMAT);
	assert_int_equal(ev_reader_diag(r)->reason, EV_REASON_EMPTY_INPUT);
	assert_int_equal(ev_reader_next(r, &ev), EV_EFORMAT);
	assert_int_equal(ev_reader_diag(r)->reason, EV_REASON_EMPTY_INPUT);
	ev_reader_free(r);
	/* One byte is not empty: a header cut short. */
	r = open_memory("h", 1);
	assert_int_equal(ev_reader_read_header(r), EV_ETRUNCATED);
	assert_int_equal(ev_reader_diag(r)->reason, EV_REASON_NONE);
	ev_reader_free(r);
}

static void test_implausible_lengths(void **state)
{
	(void)state;
	log_builder b;

	/* desc_len of almost 4 GiB: a format error at once, not a wait for
	 * more input nor a huge allocation. */
	lb_init(&b);
	lb_type(&b, EV_RUN_THREAD, 4, "Run thread");
	size_t entry = b.len;
	lb_type(&b, EV_USER_MSG, VAR, "User message");
	lb_end_header(&b);
	lb_data_end(&b);
	set_u32(b.bytes + entry + 8, 0xfffffff0u);
	expect_header_error(b.bytes, b.len, EV_EFORMAT, entry, "description",
			    NULL);

	/* Through a file, where the reader's window could grow. */
	char *dir = ts_temp_dir();
	assert_non_null(dir);
	char *path = ts_path(dir, "huge-desc.eventlog");
	assert_true(ts_write_file(path, b.bytes, b.len, "wb"));
	ev_reader *r = NULL;
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_EFORMAT);
	assert_int_equal(ev_reader_diag(r)->offset, entry);
	ev_reader_free(r);

	/* The same for the extra length. */
	set_u32(b.bytes + entry + 8, 12);
	set_u32(b.bytes + entry + 12 + 12, 0x80000000u);
	expect_header_error(b.bytes, b.len, EV_EFORMAT, entry, "extra", NULL);
	assert_true(ts_write_file(path, b.bytes, b.len, "wb"));
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_EFORMAT);
	ev_reader_free(r);
	ts_remove_dir(dir);
	free(path);
	free(dir);
	lb_free(&b);
}

static void test_extra_bytes_are_skipped(void **state)
{
	(void)state;
	log_builder b;

	/* GHC writes extra_len 0, but readers must skip what is there. */
	lb_init(&b);
	lb_put(&b, "etb\0", 4);
	lb_u16(&b, EV_RUN_THREAD);
	lb_u16(&b, 4);
	lb_u32(&b, 3);
	lb_put(&b, "Run", 3);
	lb_u32(&b, 5);
	lb_put(&b, "ete\0!", 5); /* extra bytes that look like magic */
	lb_put(&b, "ete\0", 4);
	lb_end_header(&b);
	lb_event(&b, EV_RUN_THREAD, 1, tid1, 4);
	lb_data_end(&b);
	read_built(&b, EV_END);

	ev_reader *r = open_memory(b.bytes, b.len);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	const ev_type_decl *t = ev_header_find(ev_reader_header(r),
					       EV_RUN_THREAD);
	assert_non_null(t);
	assert_int_equal(t->extra_len, 5);
	assert_memory_equal(t->extra, "ete\0!", 5);
	ev_reader_free(r);
	lb_free(&b);
}

static void test_duplicate_declaration(void **state)
{
	(void)state;
	log_builder b;

	lb_init(&b);
	lb_type(&b, EV_RUN_THREAD, 4, "Run thread");
	size_t second = b.len;
	lb_type(&b, EV_RUN_THREAD, 4, "Run thread");
	lb_end_header(&b);
	lb_data_end(&b);
	expect_header_error(b.bytes, b.len, EV_EFORMAT, second,
			    "declared twice", NULL);
	lb_free(&b);
}

static void test_open_missing_file(void **state)
{
	(void)state;
	ev_reader *r = (ev_reader *)&r;

	assert_int_equal(ev_reader_open_path(&r, "/nonexistent/x.eventlog", 0,
					     NULL),
			 EV_EIO);
	assert_null(r);
	ev_reader_free(NULL);
}

/* ------------------------------------------------------------------------
 * Real logs, and helpers to compare a reader with ts_walk
 * ---------------------------------------------------------------------- */

static uint8_t *load_testdata(const char *name, size_t *len)
{
	uint8_t *log = ts_load(EVTOOL_TESTDATA, name, len);

	assert_non_null(log);
	return log;
}

static void walk(const uint8_t *log, size_t len, ts_log *out)
{
	assert_true(ts_walk(log, len, out));
	assert_true(out->header_end > 0);
}

/* The event must be want[index], `shift` bytes further on in the stream. */
static void expect_walked(const ev_event *ev, const ts_log *want,
			  const uint8_t *log, uint64_t shift, size_t index)
{
	const ts_event *w = &want->events[index];

	assert_int_equal(ev->offset, w->offset + shift);
	assert_int_equal(ev->type, w->type);
	assert_int_equal(ev->time, w->time);
	assert_int_equal(ev->size, w->size);
	assert_int_equal(ev->cap, w->cap);
	assert_int_equal(ev->index, index);
	if (w->size)
		assert_memory_equal(ev->payload, ts_payload(log, w), w->size);
}

/* Reads until the reader stops, checking each event against the walk
 * from *next on; returns the status that stopped it. */
static int drain(ev_reader *r, const ts_log *want, const uint8_t *log,
		 uint64_t shift, size_t *next)
{
	ev_event ev;
	int rc;

	while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
		assert_true(*next < want->count);
		expect_walked(&ev, want, log, shift, *next);
		(*next)++;
	}
	return rc;
}

/* Offset past the first n events (the header end when n is 0). */
static uint64_t end_of(const ts_log *l, size_t n)
{
	return n ? l->events[n - 1].offset + l->events[n - 1].wire
		 : l->header_end;
}

struct real_check {
	size_t logs;
	size_t complete;
	size_t events;
};

static void check_real_log(const char *path, void *ctx)
{
	struct real_check *check = ctx;
	size_t len = 0, next = 0;
	uint8_t *log = ts_read_file(path, &len);
	ts_log want;
	ev_reader *r = NULL;

	assert_non_null(log);
	walk(log, len, &want);
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	int rc = drain(r, &want, log, 0, &next);
	assert_int_equal(next, want.count);
	if (want.complete) {
		assert_int_equal(rc, EV_END);
		assert_int_equal(want.end, len);
		assert_int_equal(ev_reader_offset(r), len);
		check->complete++;
	} else {
		assert_int_equal(rc, EV_ETRUNCATED);
		assert_int_equal(ev_reader_offset(r), end_of(&want, want.count));
	}
	ev_reader_free(r);

	/* From memory (parsed in place) the same. */
	r = open_memory(log, len);
	next = 0;
	assert_int_equal(drain(r, &want, log, 0, &next), rc);
	assert_int_equal(next, want.count);
	ev_reader_free(r);

	/* testdata/README.md: threads-n1 has 3,501 events. */
	if (strstr(path, "/threads-n1.eventlog"))
		assert_int_equal(want.count, 3501);
	check->logs++;
	check->events += want.count;
	ts_log_free(&want);
	free(log);
}

static void test_real_testdata_logs(void **state)
{
	(void)state;
	struct real_check check = { 0, 0, 0 };

	assert_int_equal(ts_for_each_log(EVTOOL_TESTDATA, check_real_log,
					 &check),
			 26);
	assert_int_equal(check.complete, 25);
	assert_true(check.events > 25000);
}

static void test_real_corpus_logs(void **state)
{
	(void)state;
	struct real_check check = { 0, 0, 0 };

	if (ts_for_each_log(EVTOOL_CORPUS, check_real_log, &check) == 0)
		skip();
	assert_true(check.complete + 1 <= check.logs);
}

static void test_truncated_testdata_log(void **state)
{
	(void)state;
	size_t len;
	uint8_t *log = load_testdata("killed-sigkill.eventlog", &len);
	ev_reader *r = open_memory(log, len);
	ev_event ev;

	/* Header only: "datb" and then nothing. */
	assert_int_equal(len, 2688);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	assert_int_equal(ev_reader_offset(r), 2688);
	assert_int_equal(ev_reader_next(r, &ev), EV_ETRUNCATED);
	assert_int_equal(ev_reader_offset(r), 2688);
	assert_non_null(strstr(ev_reader_diag(r)->message, "data-end"));
	ev_reader_free(r);
	free(log);
}

static void test_truncated_corpus_log(void **state)
{
	(void)state;
	size_t len, next = 0;
	uint8_t *log = ts_load(EVTOOL_CORPUS, "testlog-part.eventlog", &len);
	ev_reader *r;
	ts_log want;

	if (!log)
		skip();
	walk(log, len, &want);
	assert_false(want.complete);
	r = open_memory(log, len);
	assert_int_equal(drain(r, &want, log, 0, &next), EV_ETRUNCATED);
	assert_int_equal(next, want.count);
	assert_true(want.count > 700);
	/* It ends 3 bytes into an event. */
	assert_int_equal(ev_reader_offset(r), len - 3);
	assert_int_equal(ev_reader_diag(r)->offset, len - 3);
	assert_non_null(strstr(ev_reader_diag(r)->message, "inside an event"));
	ev_reader_free(r);
	ts_log_free(&want);
	free(log);
}

static uint32_t be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void test_ghc612_log(void **state)
{
	(void)state;
	size_t len;
	uint8_t *log = ts_load(EVTOOL_CORPUS, "queens-ghc-6.12.1.eventlog", &len);
	ev_reader *r;
	ev_event ev;
	int rc;
	size_t n = 0, creates = 0, thread_events = 0;
	uint32_t seen_tids = 0;

	if (!log)
		skip();
	r = open_memory(log, len);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	assert_int_equal(evi_header_quirks(ev_reader_header(r)),
			 EVI_QUIRK_GHC612);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
		if (n++ == 0) {
			/* STARTUP, declared 0 bytes, carries n_caps = 4,
			 * right after "datb" and outside any block. */
			assert_int_equal(ev.type, EV_STARTUP);
			assert_int_equal(ev.offset, 607);
			assert_int_equal(ev.size, 2);
			assert_int_equal(ev.payload[0] << 8 | ev.payload[1], 4);
			assert_int_equal(ev.cap, EV_NO_CAP);
			continue;
		}
		switch (ev.type) {
		case EV_CREATE_THREAD:
		case EV_RUN_THREAD:
		case EV_THREAD_RUNNABLE:
		case EV_CREATE_SPARK_THREAD:
			assert_int_equal(ev.size, 4);
			break;
		case EV_STOP_THREAD:
		case EV_MIGRATE_THREAD:
		case EV_STEAL_SPARK:
		case EV_THREAD_WAKEUP:
			assert_int_equal(ev.size, 6);
			break;
		default:
			continue;
		}
		/* The 4-byte thread ids are the program's threads 1..15. */
		uint32_t tid = be32_at(ev.payload);
		assert_true(tid >= 1 && tid <= 15);
		assert_int_not_equal(ev.cap, EV_NO_CAP);
		thread_events++;
		if (ev.type == EV_CREATE_THREAD) {
			creates++;
			assert_false(seen_tids & (1u << tid));
			seen_tids |= 1u << tid;
		}
	}
	assert_int_equal(rc, EV_END);
	assert_int_equal(n, 492);
	assert_int_equal(creates, 15);
	assert_int_equal(seen_tids, 0xfffeu);
	assert_true(thread_events > 300);
	ev_reader_free(r);
	free(log);
}

/* ------------------------------------------------------------------------
 * Truncation at every length
 * ---------------------------------------------------------------------- */

static void check_every_prefix(const uint8_t *log, size_t len)
{
	ts_log want;

	walk(log, len, &want);
	assert_true(want.complete);
	for (size_t cut = 0; cut <= len; cut++) {
		ev_reader *r = open_memory(log, cut);
		size_t next = 0;
		int rc = ev_reader_read_header(r);

		if (cut < want.header_end) {
			/* No byte at all: no eventlog (test_empty_input). */
			int cut_rc = cut == 0 ? EV_EFORMAT : EV_ETRUNCATED;
			assert_int_equal(rc, cut_rc);
			assert_null(ev_reader_header(r));
			assert_int_equal(ev_reader_offset(r), 0);
			ev_event ev;
			assert_int_equal(ev_reader_next(r, &ev), cut_rc);
			ev_reader_free(r);
			continue;
		}
		assert_int_equal(rc, EV_OK);
		rc = drain(r, &want, log, 0, &next);
		assert_int_equal(next, ts_complete_within(&want, cut));
		if (cut == len) {
			assert_int_equal(rc, EV_END);
			assert_int_equal(ev_reader_offset(r), len);
		} else {
			assert_int_equal(rc, EV_ETRUNCATED);
			assert_int_equal(ev_reader_offset(r), end_of(&want, next));
			assert_int_equal(ev_reader_diag(r)->status, EV_ETRUNCATED);
			assert_int_equal(ev_reader_diag(r)->offset,
					 end_of(&want, next));
			assert_int_equal(ev_reader_diag(r)->event_index, next);
			/* Asking again changes nothing. */
			ev_event ev;
			assert_int_equal(ev_reader_next(r, &ev), EV_ETRUNCATED);
			assert_int_equal(ev_reader_offset(r), end_of(&want, next));
		}
		ev_reader_free(r);
	}
	ts_log_free(&want);
}

static void test_every_prefix_testdata(void **state)
{
	(void)state;
	size_t len;
	uint8_t *log = load_testdata("user-n1.eventlog", &len);

	check_every_prefix(log, len);
	free(log);
}

static void test_every_prefix_corpus(void **state)
{
	(void)state;
	/* GHC 9.5 (last block covers the data end) and GHC 6.12 (header
	 * quirk, STARTUP outside blocks). */
	static const char *const names[] = { "ticky-json.eventlog",
					     "queens-ghc-6.12.1.eventlog" };
	size_t done = 0;

	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		size_t len;
		uint8_t *log = ts_load(EVTOOL_CORPUS, names[i], &len);
		if (!log)
			continue;
		check_every_prefix(log, len);
		free(log);
		done++;
	}
	if (!done)
		skip();
}

/* ------------------------------------------------------------------------
 * Following a growing input
 * ---------------------------------------------------------------------- */

static int compare_sizes(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* Cut points for appending a log in pieces: tiny pieces, a cut inside
 * the header, exactly at its end, inside events, and the last bytes. */
static size_t make_cuts(const ts_log *want, size_t len, size_t *cuts,
			size_t max)
{
	size_t n = 0;
	size_t h = want->header_end;

	cuts[n++] = 1;
	cuts[n++] = 8;
	cuts[n++] = 1008;
	cuts[n++] = h - 3;
	cuts[n++] = h;
	cuts[n++] = h + 5;                      /* inside the first event */
	cuts[n++] = want->events[3].offset + 1; /* one byte of an event */
	cuts[n++] = want->events[3].offset + 11;
	for (size_t at = h + 700; at < len && n + 3 < max; at += 1499)
		cuts[n++] = at;
	cuts[n++] = len - 2; /* all but the data end */
	cuts[n++] = len - 1; /* half of it */
	cuts[n++] = len;
	qsort(cuts, n, sizeof *cuts, compare_sizes);
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		if (cuts[i] <= len && (kept == 0 || cuts[i] != cuts[kept - 1]))
			cuts[kept++] = cuts[i];
	return kept;
}

/* After the input has grown to `cut` bytes: what the reader must say. */
static void expect_progress(ev_reader *r, const ts_log *want,
			    const uint8_t *log, size_t len, size_t cut,
			    int *header_done, size_t *next)
{
	if (!*header_done) {
		int rc = ev_reader_read_header(r);
		if (cut < want->header_end) {
			assert_int_equal(rc, EV_ETRUNCATED);
			assert_null(ev_reader_header(r));
			assert_int_equal(ev_reader_offset(r), 0);
			return;
		}
		assert_int_equal(rc, EV_OK);
		*header_done = 1;
	}
	int rc = drain(r, want, log, 0, next);
	assert_int_equal(*next, ts_complete_within(want, cut));
	if (cut == len) {
		assert_int_equal(rc, EV_END);
		assert_int_equal(*next, want->count);
	} else {
		assert_int_equal(rc, EV_ETRUNCATED);
		assert_int_equal(ev_reader_offset(r), end_of(want, *next));
	}
}

static void follow_file(const char *name)
{
	size_t len, cuts[256], n_cuts, next = 0, prev = 0;
	uint8_t *log = load_testdata(name, &len);
	ts_log want;
	char *dir = ts_temp_dir();
	char *path = ts_path(dir, "growing.eventlog");
	ev_reader *r = NULL;
	int header_done = 0;

	walk(log, len, &want);
	n_cuts = make_cuts(&want, len, cuts, ARRAY_LEN(cuts));
	assert_true(ts_write_file(path, "", 0, "wb"));
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	/* Nothing there yet: empty, but the reader waits for more. */
	assert_int_equal(ev_reader_read_header(r), EV_EFORMAT);
	assert_int_equal(ev_reader_diag(r)->reason, EV_REASON_EMPTY_INPUT);
	for (size_t i = 0; i < n_cuts; i++) {
		assert_true(ts_write_file(path, log + prev, cuts[i] - prev,
					  "ab"));
		prev = cuts[i];
		expect_progress(r, &want, log, len, cuts[i], &header_done,
				&next);
	}
	assert_int_equal(next, want.count);
	assert_int_equal(ev_reader_offset(r), len);
	assert_int_equal(ev_reader_next_session(r), EV_END);
	ev_reader_free(r);
	ts_remove_dir(dir);
	free(path);
	free(dir);
	ts_log_free(&want);
	free(log);
}

static void test_follow_growing_file(void **state)
{
	(void)state;
	follow_file("user-n1.eventlog");
	follow_file("threads-n2.eventlog");
}

static void write_all(int fd, const uint8_t *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		assert_true(w > 0);
		p += w;
		n -= (size_t)w;
	}
}

/* A blocking pipe: a read only returns when bytes are there, so the test
 * asks for exactly the events the written bytes complete; the last piece
 * and the end of the pipe give the data end. */
static void test_pipe_in_pieces(void **state)
{
	(void)state;
	size_t len, cuts[64], n_cuts, next = 0, prev = 0;
	uint8_t *log = load_testdata("user-n1.eventlog", &len);
	ts_log want;
	int fds[2];
	ev_reader *r = NULL;
	ev_event ev;
	int header_done = 0;

	walk(log, len, &want);
	assert_true(len < 65536); /* fits the pipe buffer */
	n_cuts = make_cuts(&want, len, cuts, ARRAY_LEN(cuts));
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(ev_reader_open_fd(&r, fds[0], "pipe", 0, NULL), EV_OK);
	for (size_t i = 0; i < n_cuts; i++) {
		write_all(fds[1], log + prev, cuts[i] - prev);
		prev = cuts[i];
		if (cuts[i] < want.header_end)
			continue;
		if (!header_done) {
			assert_int_equal(ev_reader_read_header(r), EV_OK);
			header_done = 1;
		}
		for (size_t k = ts_complete_within(&want, cuts[i]); next < k;
		     next++) {
			assert_int_equal(ev_reader_next(r, &ev), EV_OK);
			expect_walked(&ev, &want, log, 0, next);
		}
	}
	assert_int_equal(ev_reader_next(r, &ev), EV_END);
	assert_int_equal(ev_reader_offset(r), len);
	assert_string_equal(ev_reader_name(r), "pipe");
	close(fds[1]);
	assert_int_equal(ev_reader_next_session(r), EV_END);
	ev_reader_free(r);
	/* The reader leaves the caller's descriptor open. */
	assert_int_equal(fcntl(fds[0], F_GETFD), 0);
	close(fds[0]);

	/* A pipe closed in the middle of an event: truncated, with every
	 * event before the cut. */
	size_t cut = want.events[50].offset + 7;
	assert_int_equal(pipe(fds), 0);
	write_all(fds[1], log, cut);
	close(fds[1]);
	assert_int_equal(ev_reader_open_fd(&r, fds[0], "pipe", 0, NULL), EV_OK);
	next = 0;
	assert_int_equal(drain(r, &want, log, 0, &next), EV_ETRUNCATED);
	assert_int_equal(next, 50);
	assert_int_equal(ev_reader_offset(r), want.events[50].offset);
	ev_reader_free(r);
	close(fds[0]);
	ts_log_free(&want);
	free(log);
}

/* A read function that gives a log a few bytes at a time, then "none
 * now" once (a growing input), then the end or a failure. */
typedef struct piece_feed {
	const uint8_t *log;
	size_t len;
	size_t at;
	size_t piece;
	size_t stop_at; /* gives nothing past this until `resumed` */
	int resumed;
	int fail;       /* the status returned at the end, EV_END if 0 */
} piece_feed;

static int feed_pieces(void *ctx, void *dst, size_t cap, size_t *got)
{
	piece_feed *f = ctx;
	size_t limit = f->resumed ? f->len : f->stop_at, n = limit - f->at;

	*got = 0;
	if (f->at == f->len)
		return f->fail ? f->fail : EV_END;
	if (n > f->piece)
		n = f->piece;
	if (n > cap)
		n = cap;
	memcpy(dst, f->log + f->at, n);
	f->at += n;
	*got = n;
	return EV_OK;
}

/* ev_reader_open_fn: every event of a real log, given 7 bytes at a time,
 * with a pause inside an event; then the same log cut short by a failing
 * read function, whose status the reader returns. */
static void test_read_function(void **state)
{
	(void)state;
	size_t len, next = 0;
	uint8_t *log = load_testdata("threads-n2.eventlog", &len);
	ts_log want;
	ev_reader *r = NULL;

	walk(log, len, &want);
	piece_feed f = { log, len, 0, 7, want.events[100].offset + 5, 0, 0 };
	assert_int_equal(ev_reader_open_fn(&r, feed_pieces, &f, "fed", 0, NULL),
			 EV_OK);
	assert_int_equal(drain(r, &want, log, 0, &next), EV_ETRUNCATED);
	assert_int_equal(next, 100);
	f.resumed = 1;
	assert_int_equal(drain(r, &want, log, 0, &next), EV_END);
	assert_int_equal(next, want.count);
	assert_int_equal(ev_reader_offset(r), len);
	assert_string_equal(ev_reader_name(r), "fed");
	ev_reader_free(r);

	/* A failure after the first 100 events' bytes and a little more. */
	piece_feed bad = { log, want.events[100].offset + 5, 0, 4096, 0, 1,
			   EV_EIO };
	assert_int_equal(ev_reader_open_fn(&r, feed_pieces, &bad, "bad", 0,
					   NULL),
			 EV_OK);
	next = 0;
	assert_int_equal(drain(r, &want, log, 0, &next), EV_EIO);
	assert_int_equal(next, 100);
	assert_non_null(strstr(ev_reader_diag(r)->message, "reading failed"));
	ev_reader_free(r);
	assert_int_equal(ev_reader_open_fn(&r, NULL, NULL, "none", 0, NULL),
			 EV_EINVAL);
	assert_null(r);
	ts_log_free(&want);
	free(log);
}

/* A non-blocking pipe: a read with nothing there fails with EAGAIN, which
 * means "no bytes now", like the end of a growing file: the reader must
 * say EV_ETRUNCATED and continue when more bytes have been written. */
static void test_nonblocking_pipe_follow(void **state)
{
	(void)state;
	size_t len, cuts[64], n_cuts, next = 0, prev = 0;
	uint8_t *log = load_testdata("user-n1.eventlog", &len);
	ts_log want;
	int fds[2];
	ev_reader *r = NULL;
	int header_done = 0, rc = EV_OK, want_rc = EV_OK;
	size_t cut = 0, want_next = 0;
	char message[320] = "";

	walk(log, len, &want);
	n_cuts = make_cuts(&want, len, cuts, ARRAY_LEN(cuts));
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(fcntl(fds[0], F_SETFL, O_NONBLOCK), 0);
	assert_int_equal(ev_reader_open_fd(&r, fds[0], "pipe", 0, NULL), EV_OK);
	/* The same steps as expect_progress(), stopping at the first
	 * difference so that the test can clean up before failing. */
	for (size_t i = 0; i < n_cuts; i++) {
		cut = cuts[i];
		write_all(fds[1], log + prev, cut - prev);
		prev = cut;
		rc = header_done ? EV_OK : ev_reader_read_header(r);
		if (rc == EV_OK) {
			header_done = 1;
			rc = drain(r, &want, log, 0, &next);
		}
		want_rc = cut == len ? EV_END : EV_ETRUNCATED;
		want_next = ts_complete_within(&want, cut);
		if (rc != want_rc || next != want_next)
			break;
	}
	snprintf(message, sizeof message, "%s", ev_reader_diag(r)->message);
	ev_reader_free(r);
	close(fds[0]);
	close(fds[1]);
	ts_log_free(&want);
	free(log);
	if (rc != want_rc)
		print_error("after %zu bytes: status %d (%s), diag \"%s\"\n", cut,
			    rc, ev_strerror(rc), message);
	assert_int_equal(rc, want_rc);
	assert_int_equal(next, want_next);
}

/* ------------------------------------------------------------------------
 * gzip
 * ---------------------------------------------------------------------- */

/* One gzip member (deflate with the gzip wrapper: windowBits 15 + 16). */
static uint8_t *gzip_level(const uint8_t *data, size_t len, int level,
			   size_t *out_len)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	assert_int_equal(deflateInit2(&z, level, Z_DEFLATED, 31, 8,
				      Z_DEFAULT_STRATEGY),
			 Z_OK);
	size_t cap = deflateBound(&z, (uLong)len) + 32;
	uint8_t *out = malloc(cap);
	assert_non_null(out);
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	*out_len = z.total_out;
	deflateEnd(&z);
	return out;
}

static uint8_t *gzip(const uint8_t *data, size_t len, size_t *out_len)
{
	return gzip_level(data, len, 6, out_len);
}

/* Inflates as much of `gz` as zlib can; returns the bytes produced and
 * zlib's last status. */
static size_t gunzip(const uint8_t *gz, size_t len, uint8_t *out, size_t cap,
		     int *zrc)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	assert_int_equal(inflateInit2(&z, 31), Z_OK);
	z.next_in = (Bytef *)gz;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	*zrc = inflate(&z, Z_NO_FLUSH);
	size_t n = z.total_out;
	inflateEnd(&z);
	return n;
}

static void test_gzip_memory_and_file(void **state)
{
	(void)state;
	size_t len, gz_len, next = 0;
	uint8_t *log = load_testdata("threads-n2.eventlog", &len);
	uint8_t *gz = gzip(log, len, &gz_len);
	ts_log want;
	ev_reader *r;

	walk(log, len, &want);
	assert_true(gz_len < len / 2);
	r = open_memory(gz, gz_len);
	assert_true(ev_reader_is_gzip(r));
	assert_int_equal(drain(r, &want, log, 0, &next), EV_END);
	assert_int_equal(next, want.count);
	/* Offsets count decompressed bytes. */
	assert_int_equal(ev_reader_offset(r), len);
	assert_int_equal(ev_reader_input_bytes(r), gz_len);
	assert_int_equal(ev_reader_next_session(r), EV_END);
	ev_reader_free(r);

	char *dir = ts_temp_dir();
	char *path = ts_path(dir, "log.eventlog.gz");
	assert_true(ts_write_file(path, gz, gz_len, "wb"));
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	next = 0;
	assert_int_equal(drain(r, &want, log, 0, &next), EV_END);
	assert_int_equal(next, want.count);
	assert_true(ev_reader_is_gzip(r));
	ev_reader_free(r);

	/* EV_READER_RAW: the gzip bytes are not an eventlog. */
	assert_int_equal(ev_reader_open_path(&r, path, EV_READER_RAW,
					     NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_EFORMAT);
	assert_non_null(strstr(ev_reader_diag(r)->message, "not a GHC eventlog"));
	assert_false(ev_reader_is_gzip(r));
	ev_reader_free(r);

	/* A plain log is not gzip. */
	r = open_memory(log, len);
	assert_false(ev_reader_is_gzip(r));
	ev_reader_free(r);

	ts_remove_dir(dir);
	free(path);
	free(dir);
	ts_log_free(&want);
	free(gz);
	free(log);
}

static void test_gzip_two_members(void **state)
{
	(void)state;
	size_t len;
	uint8_t *log = load_testdata("user-n1.eventlog", &len);
	ts_log want;

	walk(log, len, &want);
	/* Split inside the header, inside an event, at an event boundary
	 * and one byte before the end. */
	size_t splits[] = { 100, want.events[10].offset + 5,
			    want.events[20].offset, len - 1 };
	for (size_t i = 0; i < ARRAY_LEN(splits); i++) {
		size_t a_len, b_len, next = 0;
		uint8_t *a = gzip(log, splits[i], &a_len);
		uint8_t *b = gzip(log + splits[i], len - splits[i], &b_len);
		uint8_t *both = malloc(a_len + b_len);
		assert_non_null(both);
		memcpy(both, a, a_len);
		memcpy(both + a_len, b, b_len);
		ev_reader *r = open_memory(both, a_len + b_len);
		assert_int_equal(drain(r, &want, log, 0, &next), EV_END);
		assert_int_equal(next, want.count);
		assert_int_equal(ev_reader_next_session(r), EV_END);
		ev_reader_free(r);
		free(both);
		free(a);
		free(b);
	}
	ts_log_free(&want);
	free(log);
}

static void test_gzip_cut_short(void **state)
{
	(void)state;
	size_t len, gz_len;
	uint8_t *log = load_testdata("threads-n1.eventlog", &len);
	uint8_t *gz = gzip(log, len, &gz_len);
	uint8_t *out = malloc(len);
	ts_log want;

	assert_non_null(out);
	walk(log, len, &want);
	/* Cuts inside the gzip header and inside the compressed data. */
	size_t cuts[] = { 5, 20, gz_len / 3, gz_len / 2, gz_len * 9 / 10 };
	for (size_t i = 0; i < ARRAY_LEN(cuts); i++) {
		int zrc;
		/* What zlib itself can inflate from the cut stream. */
		size_t have = gunzip(gz, cuts[i], out, len, &zrc);
		assert_true(zrc == Z_OK || zrc == Z_BUF_ERROR);
		assert_memory_equal(out, log, have);

		ev_reader *r = open_memory(gz, cuts[i]);
		size_t next = 0;
		int rc = ev_reader_read_header(r);
		if (have < want.header_end) {
			assert_int_equal(rc, EV_ETRUNCATED);
		} else {
			assert_int_equal(rc, EV_OK);
			rc = drain(r, &want, log, 0, &next);
			assert_int_equal(next, ts_complete_within(&want, have));
			assert_int_equal(ev_reader_offset(r), end_of(&want, next));
		}
		assert_int_equal(rc, EV_ETRUNCATED);
		assert_non_null(strstr(ev_reader_diag(r)->message,
				       "gzip stream is cut short"));
		ev_reader_free(r);
	}
	ts_log_free(&want);
	free(out);
	free(gz);
	free(log);
}

/* A growing .gz file is followed like a plain one. */
static void test_gzip_follow_growing_file(void **state)
{
	(void)state;
	size_t len, gz_len, next = 0, prev = 0;
	uint8_t *log = load_testdata("threads-n1.eventlog", &len);
	uint8_t *gz = gzip(log, len, &gz_len);
	ts_log want;
	char *dir = ts_temp_dir();
	char *path = ts_path(dir, "growing.eventlog.gz");
	ev_reader *r = NULL;
	ev_event ev;

	walk(log, len, &want);
	assert_true(ts_write_file(path, gz, 1, "wb"));
	prev = 1;
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	assert_int_equal(ev_reader_next(r, &ev), EV_ETRUNCATED);
	size_t cuts[] = { 2, 11, 500, gz_len / 2, gz_len * 3 / 4, gz_len };
	for (size_t i = 0; i < ARRAY_LEN(cuts); i++) {
		assert_true(ts_write_file(path, gz + prev, cuts[i] - prev,
					  "ab"));
		prev = cuts[i];
		int rc = ev_reader_header(r) ? EV_OK : ev_reader_read_header(r);
		if (rc == EV_OK)
			rc = drain(r, &want, log, 0, &next);
		assert_int_equal(rc, cuts[i] == gz_len ? EV_END : EV_ETRUNCATED);
	}
	assert_int_equal(next, want.count);
	assert_true(ev_reader_is_gzip(r));
	ev_reader_free(r);
	ts_remove_dir(dir);
	free(path);
	free(dir);
	ts_log_free(&want);
	free(gz);
	free(log);
}

/* A gzip file large enough to be inflated ahead in a thread (8 MiB
 * stored: copies of a log one after the other, sessions to the reader,
 * stored uncompressed), as one member (zlib streams it) and as one
 * member per copy (each inflated at once with libdeflate); then with a
 * byte of copy 100's stored data damaged: the copies before it are read,
 * and the damage is reported. */
static void test_gzip_large_inflated_ahead(void **state)
{
	(void)state;
	enum { COPIES = 130 };
	size_t len, one_len, whole_len, members_len = 0;
	uint8_t *log = load_testdata("threads-n2.eventlog", &len);
	uint8_t *copies = malloc(COPIES * len);
	uint8_t *one = gzip_level(log, len, 0, &one_len);
	uint8_t *members = malloc(COPIES * one_len);
	uint8_t *whole;
	char *dir = ts_temp_dir();
	char *path = ts_path(dir, "large.eventlog.gz");
	ts_log want;

	assert_non_null(copies);
	assert_non_null(members);
	walk(log, len, &want);
	for (size_t i = 0; i < COPIES; i++) {
		memcpy(copies + i * len, log, len);
		memcpy(members + members_len, one, one_len);
		members_len += one_len;
	}
	whole = gzip_level(copies, COPIES * len, 0, &whole_len);
	assert_true(members_len > 8u * 1024u * 1024u);
	for (int damaged = 0; damaged < 3; damaged++) {
		const uint8_t *gz = damaged == 0 ? whole : members;
		size_t gz_len = damaged == 0 ? whole_len : members_len;
		size_t sessions = 0, next = 0;
		ev_reader *r;
		int rc;
		uint8_t *copy = malloc(gz_len);
		assert_non_null(copy);
		memcpy(copy, gz, gz_len);
		/* In the middle of copy 100's stored data. */
		if (damaged == 2)
			copy[100 * one_len + one_len / 2] ^= 0x01;
		assert_true(ts_write_file(path, copy, gz_len, "wb"));
		assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
		do {
			next = 0;
			rc = ev_reader_read_header(r);
			if (rc == EV_OK)
				rc = drain(r, &want, log, sessions * len,
					   &next);
			if (rc != EV_END)
				break;
			assert_int_equal(next, want.count);
			sessions++;
		} while ((rc = ev_reader_next_session(r)) == EV_OK);
		assert_true(ev_reader_is_gzip(r));
		if (damaged == 2) {
			/* A log's end reads on for the check of its member,
			 * into what was inflated ahead (up to a 1 MiB block):
			 * the sessions there fail with the damage after them. */
			assert_int_equal(rc, EV_EFORMAT);
			assert_true(sessions <= 100);
			assert_true(sessions >= 100 - (1u << 20) / len - 1);
			assert_non_null(strstr(ev_reader_diag(r)->message,
					       "gzip data is corrupt"));
		} else {
			assert_int_equal(rc, EV_END);
			assert_int_equal(sessions, COPIES);
		}
		ev_reader_free(r);
		free(copy);
	}
	ts_remove_dir(dir);
	free(path);
	free(dir);
	ts_log_free(&want);
	free(whole);
	free(members);
	free(one);
	free(copies);
	free(log);
}

/* A gzip member whose header is longer than the stored buffer (a file
 * name of 300,000 bytes, FNAME) reads like any other. */
/* Reads every session of `r`; returns the status that stopped it, with
 * the sessions and events read. */
static int read_sessions(ev_reader *r, size_t *sessions, uint64_t *events)
{
	ev_event ev;
	int rc;

	*sessions = 0;
	*events = 0;
	do {
		rc = ev_reader_read_header(r);
		while (rc == EV_OK && (rc = ev_reader_next(r, &ev)) == EV_OK)
			(*events)++;
		if (rc != EV_END)
			return rc;
		(*sessions)++;
	} while ((rc = ev_reader_next_session(r)) == EV_OK);
	return rc;
}

/* One large gzip member (a file of 8 MB or more is inflated ahead in a
 * thread, with ISA-L when evtool is built with it), whole, damaged at
 * four places and cut at two: the file gives what memory gives (zlib,
 * in the caller's thread): the same events, status, message and offset. */
static void test_gzip_large_member_like_memory(void **state)
{
	(void)state;
	enum { COPIES = 600 };
	size_t len, gz_len;
	uint8_t *log = load_testdata("threads-n2.eventlog", &len);
	uint8_t *copies = malloc(COPIES * len);
	char *dir = ts_temp_dir();
	char *path = ts_path(dir, "large.eventlog.gz");

	assert_non_null(copies);
	for (size_t i = 0; i < COPIES; i++)
		memcpy(copies + i * len, log, len);
	uint8_t *gz = gzip_level(copies, COPIES * len, 1, &gz_len);
	assert_true(gz_len > 8u * 1024u * 1024u);
	for (int k = 0; k < 7; k++) {
		size_t n = k < 5 ? gz_len : gz_len * (size_t)(k - 4) / 3;
		uint8_t *copy = malloc(gz_len);
		size_t file_sessions, mem_sessions;
		uint64_t file_events, mem_events;
		ev_diag file_diag;
		ev_reader *r;
		int file_rc, mem_rc;

		assert_non_null(copy);
		memcpy(copy, gz, gz_len);
		if (k >= 1 && k <= 4)
			copy[gz_len * (size_t)k / 5] ^= 0xff;
		assert_true(ts_write_file(path, copy, n, "wb"));
		assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
		file_rc = read_sessions(r, &file_sessions, &file_events);
		file_diag = *ev_reader_diag(r);
		ev_reader_free(r);
		r = open_memory(copy, n);
		mem_rc = read_sessions(r, &mem_sessions, &mem_events);
		assert_int_equal(file_rc, mem_rc);
		assert_int_equal(file_sessions, mem_sessions);
		assert_int_equal(file_events, mem_events);
		if (k == 0)
			assert_int_equal(file_sessions, COPIES);
		else
			assert_int_not_equal(file_rc, EV_END);
		if (file_rc != EV_END) {
			assert_string_equal(file_diag.message,
					    ev_reader_diag(r)->message);
			assert_int_equal(file_diag.offset,
					 ev_reader_diag(r)->offset);
		}
		ev_reader_free(r);
		free(copy);
	}
	ts_remove_dir(dir);
	free(path);
	free(dir);
	free(gz);
	free(copies);
	free(log);
}

static void test_gzip_long_name(void **state)
{
	(void)state;
	size_t len, gz_len, next = 0;
	const size_t name = 300000;
	uint8_t *log = load_testdata("user-n1.eventlog", &len);
	uint8_t *gz = gzip(log, len, &gz_len);
	uint8_t *named = malloc(gz_len + name + 1);
	ts_log want;
	ev_reader *r;

	assert_non_null(named);
	walk(log, len, &want);
	/* zlib's header is the 10 fixed bytes: set FNAME, put the name. */
	memcpy(named, gz, 10);
	named[3] |= 0x08;
	memset(named + 10, 'x', name);
	named[10 + name] = 0;
	memcpy(named + 11 + name, gz + 10, gz_len - 10);
	r = open_memory(named, gz_len + name + 1);
	assert_int_equal(drain(r, &want, log, 0, &next), EV_END);
	assert_int_equal(next, want.count);
	ev_reader_free(r);
	ts_log_free(&want);
	free(named);
	free(gz);
	free(log);
}

/* evtool's own archive of a large log (copies of a log, sessions to the
 * reader): its members are inflated whole with libdeflate, ahead in a
 * thread; every session reads back. */
static void test_gzip_archive_inflated_ahead(void **state)
{
	(void)state;
	enum { COPIES = 700 };
	size_t len, gz_len, sessions = 0;
	uint8_t *log = load_testdata("threads-n2.eventlog", &len);
	uint8_t *copies = malloc(COPIES * len);
	ev_archive_options o = EV_ARCHIVE_OPTIONS_INIT;
	evi_archive_writer *w;
	ev_sink *sink;
	const uint8_t *gz;
	char *dir = ts_temp_dir();
	char *path = ts_path(dir, "large.eventlog.gz");
	ev_reader *r;
	ts_log want;
	int rc;

	assert_non_null(copies);
	walk(log, len, &want);
	for (size_t i = 0; i < COPIES; i++)
		memcpy(copies + i * len, log, len);
	o.level = 1;
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(evi_archive_writer_open(&w, sink,
						XXH3_64bits(copies,
							    COPIES * len),
						&o, NULL),
			 EV_OK);
	assert_int_equal(evi_archive_writer_write(w, copies, COPIES * len),
			 EV_OK);
	assert_int_equal(evi_archive_writer_finish(w), EV_OK);
	evi_archive_writer_free(w);
	gz = ev_sink_memory(sink, &gz_len);
	assert_true(gz_len >= 8u * 1024u * 1024u);
	assert_true(ts_write_file(path, gz, gz_len, "wb"));
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	do {
		size_t next = 0;
		rc = ev_reader_read_header(r);
		if (rc == EV_OK)
			rc = drain(r, &want, log, sessions * len, &next);
		if (rc != EV_END)
			break;
		assert_int_equal(next, want.count);
		sessions++;
	} while ((rc = ev_reader_next_session(r)) == EV_OK);
	assert_int_equal(rc, EV_END);
	assert_int_equal(sessions, COPIES);
	ev_reader_free(r);
	ev_sink_free(sink);
	ts_remove_dir(dir);
	free(path);
	free(dir);
	ts_log_free(&want);
	free(copies);
	free(log);
}

/* Reads `gz` as far as the reader goes; returns the final status and
 * the number of events read. */
static int read_corrupt(const uint8_t *gz, size_t gz_len, size_t *events,
			char *message, size_t cap)
{
	ev_reader *r = open_memory(gz, gz_len);
	ev_event ev;
	int rc = ev_reader_read_header(r);

	*events = 0;
	while (rc == EV_OK && (rc = ev_reader_next(r, &ev)) == EV_OK)
		(*events)++;
	if (message)
		snprintf(message, cap, "%s", ev_reader_diag(r)->message);
	ev_reader_free(r);
	return rc;
}

static void test_gzip_corrupt(void **state)
{
	(void)state;
	size_t len, gz_len, events;
	uint8_t *log = load_testdata("user-n1.eventlog", &len);
	uint8_t *gz = gzip(log, len, &gz_len);
	uint8_t *bad = malloc(gz_len);
	uint8_t *out = malloc(len + 1024);
	int zrc;

	assert_non_null(bad);
	assert_non_null(out);

	/* The compression method byte (RFC 1952: CM must be 8): zlib rejects
	 * the member before any output. */
	memcpy(bad, gz, gz_len);
	bad[2] = 9;
	assert_int_equal(read_corrupt(bad, gz_len, &events, NULL, 0), EV_EFORMAT);
	assert_int_equal(events, 0);

	/* A byte in the middle of the compressed data: zlib finds an invalid
	 * code or distance, or at the latest a wrong CRC-32. */
	memcpy(bad, gz, gz_len);
	bad[gz_len / 2] ^= 0x55;
	gunzip(bad, gz_len, out, len + 1024, &zrc);
	assert_int_equal(zrc, Z_DATA_ERROR);
	assert_int_equal(read_corrupt(bad, gz_len, &events, NULL, 0), EV_EFORMAT);

	free(out);
	free(bad);
	free(gz);
	free(log);
}

/* Reads every session of `data` until the reader stops; returns the
 * last status (EV_END for a whole log), the diagnostic in `d`. */
static int read_all(const uint8_t *data, size_t len, ev_diag *d)
{
	ev_reader *r = open_memory(data, len);
	ev_event ev;
	int rc = ev_reader_read_header(r);

	while (rc == EV_OK) {
		rc = ev_reader_next(r, &ev);
		if (rc == EV_END)
			rc = ev_reader_next_session(r);
	}
	*d = *ev_reader_diag(r);
	ev_reader_free(r);
	return rc;
}

/* The smallest event type id the log's header does not declare. */
static uint16_t undeclared_type(const uint8_t *log, size_t len)
{
	ev_reader *r = open_memory(log, len);
	uint16_t id = 0;

	assert_int_equal(ev_reader_read_header(r), EV_OK);
	while (ev_header_find(ev_reader_header(r), id))
		id++;
	ev_reader_free(r);
	return id;
}

/* ev_diag.reason says what was wrong where a caller acts on it by kind
 * (validate picks its check by it), for damage done to real logs: an
 * event whose type the header does not declare, bytes after the data
 * end, another compressor's magic in place of "hdrb", and a gzip log
 * (killed-blocks) with a bad compression method byte (RFC 1952: CM must
 * be 8) or a bad CRC-32 in its trailer. A damaged header magic and a cut
 * log are failures the status says all of: EV_REASON_NONE. */
static void test_failure_reasons(void **state)
{
	size_t len, gz_len, at;
	uint8_t *log = load_testdata("user-n1.eventlog", &len);
	uint8_t *gz = load_testdata("killed-blocks.eventlog.gz", &gz_len);
	uint8_t *bad = malloc((len > gz_len ? len : gz_len) + 8);
	ts_log want;
	ev_diag d;

	(void)state;
	assert_non_null(bad);
	walk(log, len, &want);
	assert_int_equal(read_all(log, len, &d), EV_END);
	assert_int_equal(d.reason, EV_REASON_NONE);

	at = want.events[want.count / 2].offset;
	memcpy(bad, log, len);
	ev_store16(bad + at, undeclared_type(log, len));
	assert_int_equal(read_all(bad, len, &d), EV_EFORMAT);
	assert_int_equal(d.reason, EV_REASON_UNDECLARED_TYPE);
	assert_int_equal(d.origin, EV_ORIGIN_INPUT);
	assert_int_equal(d.offset, at);

	memcpy(bad, log, len);
	memcpy(bad + len, "garbage!", 8);
	assert_int_equal(read_all(bad, len + 8, &d), EV_EFORMAT);
	assert_int_equal(d.reason, EV_REASON_TRAILING_DATA);
	assert_int_equal(d.offset, len);

	memcpy(bad, log, len);
	memcpy(bad, "\x28\xb5\x2f\xfd", 4); /* zstd */
	assert_int_equal(read_all(bad, len, &d), EV_EFORMAT);
	assert_int_equal(d.reason, EV_REASON_COMPRESSION);

	bad[0] = 'x'; /* "xdrb" */
	memcpy(bad + 1, log + 1, 3);
	assert_int_equal(read_all(bad, len, &d), EV_EFORMAT);
	assert_int_equal(d.reason, EV_REASON_NONE);
	assert_int_equal(read_all(log, at, &d), EV_ETRUNCATED);
	assert_int_equal(d.reason, EV_REASON_NONE);

	/* The killed run's log is cut short, its gzip stream whole. */
	assert_int_equal(read_all(gz, gz_len, &d), EV_ETRUNCATED);
	assert_int_equal(d.reason, EV_REASON_NONE);
	memcpy(bad, gz, gz_len);
	bad[2] = 9;
	assert_int_equal(read_all(bad, gz_len, &d), EV_EFORMAT);
	assert_int_equal(d.reason, EV_REASON_COMPRESSION);
	assert_non_null(strstr(d.message, "gzip"));
	memcpy(bad, gz, gz_len);
	bad[gz_len - 8] ^= 0x01;
	assert_int_equal(read_all(bad, gz_len, &d), EV_EFORMAT);
	assert_int_equal(d.reason, EV_REASON_COMPRESSION);
	assert_non_null(strstr(d.message, "incorrect data check"));

	ts_log_free(&want);
	free(bad);
	free(gz);
	free(log);
}

static uint8_t *find_bytes(uint8_t *hay, size_t hay_len, const uint8_t *needle,
			   size_t n)
{
	for (size_t i = 0; i + n <= hay_len; i++)
		if (memcmp(hay + i, needle, n) == 0)
			return hay + i;
	return NULL;
}

/* Corruption that only the gzip trailer's CRC-32 reveals. zlib inflates
 * every byte and then returns Z_DATA_ERROR ("incorrect data check"): the
 * log's bytes cannot be trusted, so the read must fail with EV_EFORMAT,
 * not end with EV_END as if the log were good. */
static void test_gzip_crc_mismatch(void **state)
{
	(void)state;
	size_t len, gz_len, events, text_at = 0;
	uint8_t *log = load_testdata("user-n1.eventlog", &len);
	uint8_t *out = malloc(len + 1024);
	uint8_t *gz;
	ts_log want;
	int zrc;

	assert_non_null(out);
	walk(log, len, &want);

	/* Stored blocks (level 0) hold the log's bytes as they are: change
	 * one letter of the first USER_MSG text. */
	gz = gzip_level(log, len, 0, &gz_len);
	for (size_t i = 0; i < want.count && !text_at; i++)
		if (want.events[i].type == EV_USER_MSG && want.events[i].size > 0)
			text_at = want.events[i].offset + 12;
	assert_true(text_at > 0);
	uint8_t *hit = find_bytes(gz, gz_len, log + text_at - 12, 24);
	assert_non_null(hit);
	hit[12] ^= 0x20;
	/* zlib inflates all of it, one byte different, and then fails. */
	assert_int_equal(gunzip(gz, gz_len, out, len + 1024, &zrc), len);
	assert_int_equal(zrc, Z_DATA_ERROR);
	assert_int_not_equal(memcmp(out, log, len), 0);
	char message[320];
	int rc = read_corrupt(gz, gz_len, &events, message, sizeof message);
	free(gz);
	ts_log_free(&want);
	free(out);
	free(log);
	if (rc != EV_EFORMAT)
		print_error("status %d (%s) after %zu events; diag \"%s\"\n", rc,
			    ev_strerror(rc), events, message);
	assert_int_equal(rc, EV_EFORMAT);
}

/* Every single-byte change after the 10-byte gzip header, the trailer
 * included, judged by zlib itself: when zlib reports the stream corrupt
 * (Z_DATA_ERROR: bad code, distance, CRC-32 or length) the reader must
 * end in EV_EFORMAT; when zlib waits for more input (a changed length
 * made the stream look longer) EV_ETRUNCATED, or EV_EFORMAT if the
 * changed output fails to parse first, or EV_END when zlib has already
 * given the whole log (the member's end is what was changed); when zlib
 * inflates the very same log (a change in padding bits), EV_END. */
static void test_gzip_every_byte_changed(void **state)
{
	(void)state;
	size_t len, gz_len, events;
	uint8_t *log = load_testdata("user-n1.eventlog", &len);
	uint8_t *gz = gzip(log, len, &gz_len);
	uint8_t *out = malloc(len + 65536);
	size_t corrupt = 0, wrong = 0, first_wrong = 0;

	assert_non_null(out);
	for (size_t i = 10; i < gz_len; i++) {
		int zrc, rc;
		gz[i] ^= 0x55;
		size_t have = gunzip(gz, gz_len, out, len + 65536, &zrc);
		rc = read_corrupt(gz, gz_len, &events, NULL, 0);
		gz[i] ^= 0x55;
		int ok;
		if (zrc == Z_STREAM_END) {
			ok = have == len && memcmp(out, log, len) == 0 &&
			     rc == EV_END;
		} else if (zrc == Z_DATA_ERROR) {
			corrupt++;
			ok = rc == EV_EFORMAT;
		} else {
			/* The member is unfinished. If zlib already gave the
			 * whole log, data end included, the log itself is
			 * complete (like a .gz cut inside its trailer). */
			ok = rc == EV_ETRUNCATED || rc == EV_EFORMAT ||
			     (rc == EV_END && have >= len &&
			      memcmp(out, log, len) == 0);
		}
		if (!ok && wrong++ == 0)
			first_wrong = i;
	}
	if (wrong)
		print_error("%zu of %zu changed bytes end in a status that "
			    "contradicts zlib (first at stored offset %zu of "
			    "%zu)\n",
			    wrong, gz_len - 10, first_wrong, gz_len);
	size_t changed = gz_len - 10;
	free(out);
	free(gz);
	free(log);
	assert_true(corrupt > changed / 2);
	assert_int_equal(wrong, 0);
}

/* ------------------------------------------------------------------------
 * Sessions
 * ---------------------------------------------------------------------- */

/* What ev_reader_feed hands a consumer (consumer.h). */
typedef struct feed_log {
	unsigned begins, ends, finishes;
	size_t events, markers, stop_at; /* stop_at: EV_EIO at that event */
	int finish_status; /* what finish was given */
	int finish_with;   /* not 0: what finish returns instead */
	uint64_t len;      /* not 0: the bytes of each session */
} feed_log;

static int feed_begin(void *self, const ev_session *s)
{
	unsigned session = s->index;
	const ev_header *h = s->header;
	feed_log *f = self;

	assert_non_null(h);
	assert_int_equal(session, f->begins);
	assert_int_equal(f->begins, f->ends);
	assert_int_equal(s->end, 0);
	if (f->len) /* where its header starts */
		assert_int_equal(s->offset, session * f->len);
	f->begins++;
	return EV_OK;
}

static int feed_event(void *self, const ev_event *ev)
{
	feed_log *f = self;

	assert_int_equal(f->begins, f->ends + 1); /* inside a session */
	f->events++;
	f->markers += ev->type == EV_BLOCK_MARKER;
	return f->events == f->stop_at ? EV_EIO : EV_OK;
}

static int feed_end(void *self, const ev_session *s)
{
	unsigned session = s->index;
	feed_log *f = self;

	assert_int_equal(session, f->ends);
	assert_int_equal(f->finishes, 0);
	if (f->len) { /* its header, and past its data end */
		assert_int_equal(s->offset, session * f->len);
		assert_int_equal(s->end, (session + 1) * f->len);
	}
	f->ends++;
	return EV_OK;
}

static int feed_finish(void *self, int status)
{
	feed_log *f = self;

	f->finishes++;
	f->finish_status = status;
	return f->finish_with ? f->finish_with : status;
}

/* Two sessions in file order: begin, the events (markers only when
 * asked), end, each once per session with where it starts and ends, then finish once with the status;
 * a consumer's failure stops the reader and is handed to finish; a cut
 * log ends without the session's end; what finish returns is returned. */
static void test_feed(void **state)
{
	(void)state;
	size_t len, markers = 0;
	uint8_t *log = load_testdata("merge-b.eventlog", &len);
	uint8_t *twice = malloc(2 * len);
	ev_consumer c = { feed_begin, feed_event, feed_end, feed_finish, 0 };
	feed_log f = { 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	ts_log want;
	ev_reader *r;

	assert_non_null(twice);
	memcpy(twice, log, len);
	memcpy(twice + len, log, len);
	walk(log, len, &want);
	for (size_t i = 0; i < want.count; i++)
		markers += want.events[i].type == EV_BLOCK_MARKER;
	assert_true(markers > 0 && markers < want.count);

	f.len = len;
	r = open_memory(twice, 2 * len);
	assert_int_equal(ev_reader_feed(r, &c, &f), EV_END);
	assert_int_equal(f.begins, 2);
	assert_int_equal(f.ends, 2);
	assert_int_equal(f.finishes, 1);
	assert_int_equal(f.finish_status, EV_END);
	assert_int_equal(f.events, 2 * (want.count - markers));
	assert_int_equal(f.markers, 0);
	ev_reader_free(r);

	c.flags = EV_CONSUME_MARKERS;
	memset(&f, 0, sizeof f);
	r = open_memory(twice, 2 * len);
	assert_int_equal(ev_reader_feed(r, &c, &f), EV_END);
	assert_int_equal(f.events, 2 * want.count);
	assert_int_equal(f.markers, 2 * markers);
	ev_reader_free(r);

	memset(&f, 0, sizeof f);
	f.stop_at = want.count + 3; /* in the second session */
	r = open_memory(twice, 2 * len);
	assert_int_equal(ev_reader_feed(r, &c, &f), EV_EIO);
	assert_int_equal(f.events, want.count + 3);
	assert_int_equal(f.begins, 2);
	assert_int_equal(f.ends, 1);
	assert_int_equal(f.finishes, 1);
	assert_int_equal(f.finish_status, EV_EIO);
	ev_reader_free(r);

	memset(&f, 0, sizeof f);
	r = open_memory(twice, len + len / 2);
	assert_int_equal(ev_reader_feed(r, &c, &f), EV_ETRUNCATED);
	assert_int_equal(f.begins, 2);
	assert_int_equal(f.ends, 1);
	assert_int_equal(f.finish_status, EV_ETRUNCATED);
	assert_true(f.events > want.count && f.events < 2 * want.count);
	ev_reader_free(r);

	/* Finish's own failure is the feed's. */
	memset(&f, 0, sizeof f);
	f.finish_with = EV_ENOMEM;
	r = open_memory(twice, 2 * len);
	assert_int_equal(ev_reader_feed(r, &c, &f), EV_ENOMEM);
	assert_int_equal(f.finish_status, EV_END);
	assert_int_equal(f.finishes, 1);
	ev_reader_free(r);
	ts_log_free(&want);
	free(twice);
	free(log);
}

static void test_two_sessions(void **state)
{
	(void)state;
	size_t len, next = 0;
	uint8_t *log = load_testdata("merge-b.eventlog", &len);
	uint8_t *twice = malloc(2 * len);
	ts_log want;
	ev_reader *r;
	ev_event ev;

	assert_non_null(twice);
	memcpy(twice, log, len);
	memcpy(twice + len, log, len);
	walk(log, len, &want);

	r = open_memory(twice, 2 * len);
	assert_int_equal(ev_reader_next_session(r), EV_EINVAL);
	assert_int_equal(drain(r, &want, log, 0, &next), EV_END);
	assert_int_equal(next, want.count);
	assert_int_equal(ev_reader_session(r), 0);
	assert_int_equal(evi_reader_block_count(r), 3);
	assert_int_equal(ev_reader_next_session(r), EV_OK);
	assert_int_equal(ev_reader_session(r), 1);
	assert_non_null(ev_reader_header(r));
	assert_int_equal(ev_reader_offset(r), len + want.header_end);
	assert_int_equal(evi_reader_block_count(r), 0);
	next = 0;
	assert_int_equal(drain(r, &want, log, len, &next), EV_END);
	assert_int_equal(next, want.count);
	assert_int_equal(ev_reader_offset(r), 2 * len);
	assert_int_equal(ev_reader_next(r, &ev), EV_END);
	assert_int_equal(ev_reader_next_session(r), EV_END);
	assert_int_equal(ev_reader_next(r, &ev), EV_END);
	assert_int_equal(ev_reader_session(r), 1);
	ev_reader_free(r);

	/* The same through a file. */
	char *dir = ts_temp_dir();
	char *path = ts_path(dir, "twice.eventlog");
	assert_true(ts_write_file(path, twice, 2 * len, "wb"));
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	next = 0;
	assert_int_equal(drain(r, &want, log, 0, &next), EV_END);
	assert_int_equal(ev_reader_next_session(r), EV_OK);
	next = 0;
	assert_int_equal(drain(r, &want, log, len, &next), EV_END);
	assert_int_equal(next, want.count);
	assert_int_equal(ev_reader_next_session(r), EV_END);
	ev_reader_free(r);
	ts_remove_dir(dir);
	free(path);
	free(dir);

	ts_log_free(&want);
	free(twice);
	free(log);
}

static void expect_after_end(const uint8_t *log, size_t len,
			     const void *tail, size_t tail_len, int want_rc,
			     uint64_t diag_offset)
{
	uint8_t *bytes = malloc(len + tail_len);
	ev_reader *r;
	ev_event ev;
	int rc;

	assert_non_null(bytes);
	memcpy(bytes, log, len);
	memcpy(bytes + len, tail, tail_len);
	r = open_memory(bytes, len + tail_len);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK)
		;
	assert_int_equal(rc, EV_END);
	assert_int_equal(ev_reader_offset(r), len);
	assert_int_equal(ev_reader_next_session(r), want_rc);
	if (want_rc < 0) {
		assert_int_equal(ev_reader_diag(r)->status, want_rc);
		assert_int_equal(ev_reader_diag(r)->offset, diag_offset);
	}
	ev_reader_free(r);
	free(bytes);
}

static void test_after_data_end(void **state)
{
	(void)state;
	size_t len;
	uint8_t *log = load_testdata("merge-a.eventlog", &len);

	expect_after_end(log, len, "", 0, EV_END, 0);
	expect_after_end(log, len, "garbage!", 8, EV_EFORMAT, len);
	expect_after_end(log, len, "\0", 1, EV_EFORMAT, len);
	expect_after_end(log, len, "hx", 2, EV_EFORMAT, len);
	expect_after_end(log, len, "h", 1, EV_ETRUNCATED, len);
	expect_after_end(log, len, "hd", 2, EV_ETRUNCATED, len);
	expect_after_end(log, len, "hdr", 3, EV_ETRUNCATED, len);
	expect_after_end(log, len, "hdrbhetb", 8, EV_ETRUNCATED, len);
	/* A second header cut after its first types. */
	expect_after_end(log, len, log, 200, EV_ETRUNCATED, len);
	/* A second header that goes wrong after "hdrb". */
	expect_after_end(log, len, "hdrbXXXX", 8, EV_EFORMAT, len + 4);
	free(log);
}

/* ------------------------------------------------------------------------
 * Digest
 * ---------------------------------------------------------------------- */

static void test_digest(void **state)
{
	(void)state;
	size_t len, gz_len;
	uint8_t *log = load_testdata("gc-n2.eventlog", &len);
	uint8_t *gz = gzip(log, len, &gz_len);
	char *path = ts_path(EVTOOL_TESTDATA, "gc-n2.eventlog");
	ev_reader *r;
	ev_event ev;
	uint64_t digest = 0;

	/* Straight away. */
	assert_int_equal(ev_reader_open_path(&r, path, EV_READER_DIGEST,
					     NULL), EV_OK);
	assert_int_equal(ev_reader_digest(r, &digest), EV_OK);
	assert_int_equal(digest, XXH3_64bits(log, len));
	assert_int_equal(ev_reader_next(r, &ev), EV_END);
	ev_reader_free(r);

	/* After reading part of the log. */
	digest = 0;
	assert_int_equal(ev_reader_open_path(&r, path, EV_READER_DIGEST,
					     NULL), EV_OK);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(ev_reader_next(r, &ev), EV_OK);
	assert_int_equal(ev_reader_digest(r, &digest), EV_OK);
	assert_int_equal(digest, XXH3_64bits(log, len));
	ev_reader_free(r);

	/* After reading all of it. */
	digest = 0;
	assert_int_equal(ev_reader_open_path(&r, path, EV_READER_DIGEST,
					     NULL), EV_OK);
	while (ev_reader_next(r, &ev) == EV_OK)
		;
	assert_int_equal(ev_reader_digest(r, &digest), EV_OK);
	assert_int_equal(digest, XXH3_64bits(log, len));
	ev_reader_free(r);

	/* From memory. */
	digest = 0;
	assert_int_equal(ev_reader_open_memory(&r, log, len, "m",
					       EV_READER_DIGEST, NULL),
			 EV_OK);
	assert_int_equal(ev_reader_next(r, &ev), EV_OK);
	assert_int_equal(ev_reader_digest(r, &digest), EV_OK);
	assert_int_equal(digest, XXH3_64bits(log, len));
	ev_reader_free(r);

	/* Of gzip input: the stored (compressed) bytes. */
	digest = 0;
	assert_int_equal(ev_reader_open_memory(&r, gz, gz_len, "gz",
					       EV_READER_DIGEST, NULL),
			 EV_OK);
	for (int i = 0; i < 10; i++)
		assert_int_equal(ev_reader_next(r, &ev), EV_OK);
	assert_int_equal(ev_reader_digest(r, &digest), EV_OK);
	assert_int_equal(digest, XXH3_64bits(gz, gz_len));
	assert_int_not_equal(digest, XXH3_64bits(log, len));
	ev_reader_free(r);

	/* Without EV_READER_DIGEST there is none. */
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	assert_int_equal(ev_reader_digest(r, &digest), EV_EINVAL);
	ev_reader_free(r);

	free(path);
	free(gz);
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_built_events_and_caps),
		cmocka_unit_test(test_block_sizes_and_count),
		cmocka_unit_test(test_last_block_covers_data_end),
		cmocka_unit_test(test_events_without_blocks),
		cmocka_unit_test(test_empty_log),
		cmocka_unit_test(test_declared_sizes_rule),
		cmocka_unit_test(test_undeclared_type_mid_stream),
		cmocka_unit_test(test_bad_magic),
		cmocka_unit_test(test_foreign_compression),
		cmocka_unit_test(test_short_input_not_an_eventlog),
		cmocka_unit_test(test_short_input_prefix_of_magic),
		cmocka_unit_test(test_empty_input),
		cmocka_unit_test(test_implausible_lengths),
		cmocka_unit_test(test_extra_bytes_are_skipped),
		cmocka_unit_test(test_duplicate_declaration),
		cmocka_unit_test(test_open_missing_file),
		cmocka_unit_test(test_real_testdata_logs),
		cmocka_unit_test(test_real_corpus_logs),
		cmocka_unit_test(test_truncated_testdata_log),
		cmocka_unit_test(test_truncated_corpus_log),
		cmocka_unit_test(test_ghc612_log),
		cmocka_unit_test(test_every_prefix_testdata),
		cmocka_unit_test(test_every_prefix_corpus),
		cmocka_unit_test(test_follow_growing_file),
		cmocka_unit_test(test_pipe_in_pieces),
		cmocka_unit_test(test_read_function),
		cmocka_unit_test(test_nonblocking_pipe_follow),
		cmocka_unit_test(test_gzip_memory_and_file),
		cmocka_unit_test(test_gzip_two_members),
		cmocka_unit_test(test_gzip_cut_short),
		cmocka_unit_test(test_gzip_follow_growing_file),
		cmocka_unit_test(test_gzip_large_inflated_ahead),
		cmocka_unit_test(test_gzip_archive_inflated_ahead),
		cmocka_unit_test(test_gzip_large_member_like_memory),
		cmocka_unit_test(test_gzip_long_name),
		cmocka_unit_test(test_gzip_corrupt),
		cmocka_unit_test(test_gzip_crc_mismatch),
		cmocka_unit_test(test_failure_reasons),
		cmocka_unit_test(test_gzip_every_byte_changed),
		cmocka_unit_test(test_two_sessions),
		cmocka_unit_test(test_feed),
		cmocka_unit_test(test_after_data_end),
		cmocka_unit_test(test_digest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
