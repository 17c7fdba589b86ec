/* Unit tests for the parallel front end's block finder and cursor
 * (lib/format/blocks.c, blocks.h).
 *
 * On every testdata and corpus log, the cursor walking the blocks the
 * finder found hands out exactly the events ev_reader_next does (type,
 * time, size, payload bytes, offset, capability), block by block, and a
 * pass of evi_blocks_run on 3 workers visits every block once; the scan
 * (evi_blocks_scan_*) on 2 workers hands every block back once, in file
 * order, with the file's bytes, and its digest is the sequential
 * reader's. Logs the
 * sequential path must read (gzip, a cut copy, a marker whose size is
 * damaged, bytes after the data end) are not taken, and a block holding
 * an event across its end is refused by the cursor. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <fcntl.h>
#include <stdatomic.h>
#include <unistd.h>

#include "blocks.h"
#include "evtool/catalog.h"
#include "evtool/reader.h"
#include "internal.h"
#include "support.h"

/* The blocks of the log at `path`, found through a reader over it. */
static int open_blocks(const char *path, evi_blocks **b, ev_reader **r)
{
	assert_int_equal(ev_reader_open_path(r, path, 0, NULL), EV_OK);
	return evi_blocks_open(b, *r);
}

/* The events of `b`, block by block, against a sequential reader. */
static void same_events(const char *path, const evi_blocks *b)
{
	ev_reader *seq;
	ev_event want, got;
	size_t events = 0;
	int rc;

	assert_int_equal(ev_reader_open_path(&seq, path, 0, NULL), EV_OK);
	for (size_t i = 0; i < b->n; i++) {
		evi_block_cursor c;

		evi_block_cursor_init(&c, b, i);
		while ((rc = evi_block_next(&c, &got)) == 1) {
			assert_int_equal(ev_reader_next(seq, &want), EV_OK);
			assert_int_equal(got.type, want.type);
			assert_int_equal(got.time, want.time);
			assert_int_equal(got.size, want.size);
			assert_int_equal(got.offset, want.offset);
			assert_int_equal(got.cap, want.cap);
			assert_memory_equal(got.payload, want.payload,
					    got.size);
			events++;
		}
		assert_int_equal(rc, 0);
	}
	assert_int_equal(ev_reader_next(seq, &want), EV_END);
	assert_int_equal(ev_reader_offset(seq), b->data_end + 2);
	assert_int_equal(evi_reader_block_count(seq), b->n);
	assert_true(events > 0);
	ev_reader_free(seq);
}

typedef struct visits {
	atomic_uint *seen;
	unsigned threads;
	const evi_blocks *b; /* the scan's */
} visits;

static int visit(void *ctx, size_t block, unsigned worker)
{
	visits *v = ctx;

	assert_true(worker < v->threads);
	atomic_fetch_add(&v->seen[block], 1);
	return EV_OK;
}

static void each_block_once(const evi_blocks *b)
{
	visits v = { calloc(b->n, sizeof *v.seen), 3, NULL };

	assert_int_equal(evi_blocks_run(b, 3, visit, &v, NULL, NULL), EV_OK);
	for (size_t i = 0; i < b->n; i++)
		assert_int_equal(v.seen[i], 1);
	free(v.seen);
}

/* The scan's work: each block's bytes in its chunk are the file's. */
static int scan_visit(void *ctx, const evi_chunk *chunk, size_t block,
		      unsigned worker)
{
	visits *v = ctx;
	const evi_blocks *b = v->b;
	uint64_t at = b->spans[block].offset - chunk->offset;

	assert_true(worker < v->threads);
	assert_true(at + b->spans[block].size <= chunk->len);
	assert_memory_equal(chunk->data + at, b->map + b->spans[block].offset,
			    b->spans[block].size);
	atomic_fetch_add(&v->seen[block], 1);
	return EV_OK;
}

/* The scan of `path`'s blocks: each block once, the chunks back in file
 * order, the digest as ev_reader_digest gives it. */
static void scan_in_order(const char *path)
{
	ev_reader *r, *seq;
	evi_blocks *b;
	evi_blocks_scan *s;
	const evi_chunk *chunk;
	visits v = { NULL, 2, NULL };
	uint64_t want, got;
	size_t next = 0;
	int rc;

	assert_int_equal(ev_reader_open_path(&r, path, EV_READER_DIGEST, NULL),
			 EV_OK);
	assert_int_equal(evi_blocks_open(&b, r), EV_OK);
	v.seen = calloc(b->n, sizeof *v.seen);
	v.b = b;
	assert_int_equal(evi_blocks_scan_open(&s, b, 2, scan_visit, &v), EV_OK);
	while ((rc = evi_blocks_scan_next(s, &chunk)) == 1) {
		assert_int_equal(chunk->first, next);
		assert_false(chunk->refused);
		assert_true(chunk->n > 0);
		assert_true(chunk->slot < evi_blocks_scan_slots(s));
		next += chunk->n;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(next, b->n);
	for (size_t i = 0; i < b->n; i++)
		assert_int_equal(v.seen[i], 1);
	assert_int_equal(evi_blocks_scan_digest(s, &got), EV_OK);
	assert_int_equal(ev_reader_open_path(&seq, path, EV_READER_DIGEST,
					     NULL),
			 EV_OK);
	assert_int_equal(ev_reader_digest(seq, &want), EV_OK);
	assert_int_equal(got, want);
	ev_reader_free(seq);
	evi_blocks_scan_free(s);
	free(v.seen);
	evi_blocks_free(b);
	ev_reader_free(r);
}

static void check_log(const char *path, void *ctx)
{
	evi_blocks *b;
	ev_reader *r;
	size_t *taken = ctx;

	if (open_blocks(path, &b, &r) != EV_OK) {
		ev_reader_free(r);
		return; /* a log of several sessions, or with no blocks */
	}
	(*taken)++;
	same_events(path, b);
	each_block_once(b);
	scan_in_order(path);
	/* The reader is left unread, for the sequential path. */
	assert_int_equal(ev_reader_offset(r), 0);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	evi_blocks_free(b);
	ev_reader_free(r);
}

static void test_testdata_logs(void **state)
{
	size_t taken = 0, logs;

	(void)state;
	logs = ts_for_each_log(EVTOOL_TESTDATA, check_log, &taken);
	/* testdata/README.md: killed-sigkill is the one cut log. */
	assert_int_equal(taken, logs - 1);
}

static void test_corpus_logs(void **state)
{
	size_t taken = 0;

	(void)state;
	if (ts_for_each_log(EVTOOL_CORPUS, check_log, &taken) == 0)
		skip();
	assert_true(taken > 0);
}

/* ---- logs the sequential path reads ---- */

/* `log` with `edit` applied, written to a temporary file: does the
 * finder take it? */
static int taken_after(const uint8_t *log, size_t len,
		       void (*edit)(uint8_t *copy, size_t *len,
				    const evi_blocks *b),
		       const evi_blocks *b)
{
	char *dir = ts_temp_dir(), *path = ts_path(dir, "x.eventlog");
	uint8_t *copy = malloc(len + 16);
	evi_blocks *found;
	ev_reader *r;
	int rc;

	memcpy(copy, log, len);
	edit(copy, &len, b);
	assert_true(ts_write_file(path, copy, len, "wb"));
	rc = open_blocks(path, &found, &r);
	evi_blocks_free(found);
	ev_reader_free(r);
	ts_remove_dir(dir);
	free(path);
	free(dir);
	free(copy);
	return rc == EV_OK;
}

static void cut(uint8_t *copy, size_t *len, const evi_blocks *b)
{
	(void)copy;
	*len = b->spans[b->n / 2].offset + 100;
}

static void marker_size(uint8_t *copy, size_t *len, const evi_blocks *b)
{
	(void)len;
	/* One byte more: the next marker is not where this one says. */
	uint8_t *size = copy + b->spans[1].offset + 10;
	size[3]++;
}

static void trailing(uint8_t *copy, size_t *len, const evi_blocks *b)
{
	(void)b;
	copy[(*len)++] = 0;
}

static void gzip_magic(uint8_t *copy, size_t *len, const evi_blocks *b)
{
	(void)len;
	(void)b;
	copy[0] = 0x1f;
	copy[1] = 0x8b;
}

static void test_sequential_logs(void **state)
{
	char *path = ts_path(EVTOOL_TESTDATA, "threads-n2.eventlog");
	size_t len;
	uint8_t *log = ts_read_file(path, &len);
	evi_blocks *b;
	ev_reader *r;

	(void)state;
	assert_non_null(log);
	assert_int_equal(open_blocks(path, &b, &r), EV_OK);
	assert_true(b->n > 2);
	assert_false(taken_after(log, len, cut, b));
	assert_false(taken_after(log, len, marker_size, b));
	assert_false(taken_after(log, len, trailing, b));
	assert_false(taken_after(log, len, gzip_magic, b));
	evi_blocks_free(b);
	ev_reader_free(r);
	/* A pipe is not mapped. */
	assert_int_equal(ev_reader_open_fd(&r, STDIN_FILENO, "<stdin>", 0,
					   NULL),
			 EV_OK);
	if (lseek(STDIN_FILENO, 0, SEEK_CUR) < 0) {
		assert_int_equal(evi_blocks_open(&b, r), EV_END);
		assert_null(b);
	}
	ev_reader_free(r);
	free(log);
	free(path);
}

/* An event that crosses its block's end: the cursor refuses the block
 * (the sequential reader reads on into the next). */
static void test_crossing_event(void **state)
{
	char *path = ts_path(EVTOOL_TESTDATA, "threads-n2.eventlog");
	evi_blocks *b;
	ev_reader *r;
	evi_block_cursor c;
	ev_event ev;
	int rc;

	(void)state;
	assert_int_equal(open_blocks(path, &b, &r), EV_OK);
	b->spans[0].size -= 1; /* its last event now crosses the end */
	evi_block_cursor_init(&c, b, 0);
	while ((rc = evi_block_next(&c, &ev)) == 1)
		;
	assert_int_equal(rc, -1);
	evi_blocks_free(b);
	ev_reader_free(r);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_testdata_logs),
		cmocka_unit_test(test_corpus_logs),
		cmocka_unit_test(test_sequential_logs),
		cmocka_unit_test(test_crossing_event),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
