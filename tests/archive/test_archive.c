/* Unit tests for gzip archives with a digest (lib/archive_*.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <xxhash.h>
#include <zlib.h>

#include "evtool/archive.h"
#include "evtool/reader.h"
#include "archive_internal.h"
#include "gzip.h"
#include "internal.h"
#include "support.h"

#ifndef EVTOOL_TESTDATA
#define EVTOOL_TESTDATA "testdata"
#endif
#ifndef EVTOOL_CORPUS
#define EVTOOL_CORPUS "../shared/corpus"
#endif

#define SMALL_CHUNK EV_ARCHIVE_MIN_CHUNK
/* The header the writer emits: 10 fixed bytes, XLEN, one 13-byte subfield. */
#define HEADER_SIZE 25u

/* ------------------------------------------------------------------------
 * Helpers
 * ---------------------------------------------------------------------- */

typedef struct config {
	int level;
	unsigned threads;
	uint32_t chunk;
} config;

/* Archives `len` bytes, written in pieces of `piece` bytes (0: at once). */
static uint8_t *archive_pieces(const uint8_t *log, size_t len,
			       const config *c, size_t piece, size_t *out_len)
{
	ev_archive_options o = EV_ARCHIVE_OPTIONS_INIT;
	evi_archive_writer *w;
	ev_sink *sink;
	const uint8_t *bytes;
	uint8_t *copy;

	o.level = c->level;
	o.threads = c->threads;
	o.chunk_size = c->chunk;
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(evi_archive_writer_open(&w, sink,
						XXH3_64bits(log, len), &o,
						NULL),
			 EV_OK);
	for (size_t at = 0; at < len;) {
		size_t n = piece && piece < len - at ? piece : len - at;
		assert_int_equal(evi_archive_writer_write(w, log + at, n),
				 EV_OK);
		at += n;
	}
	assert_int_equal(evi_archive_writer_finish(w), EV_OK);
	assert_int_equal(evi_archive_writer_bytes(w), len);
	evi_archive_writer_free(w);
	bytes = ev_sink_memory(sink, out_len);
	copy = malloc(*out_len);
	assert_non_null(copy);
	memcpy(copy, bytes, *out_len);
	ev_sink_free(sink);
	return copy;
}

static uint8_t *archive(const uint8_t *log, size_t len, const config *c,
			size_t *out_len)
{
	return archive_pieces(log, len, c, 0, out_len);
}

/* A temporary file holding `len` bytes, at its start. */
static FILE *temp_bytes(const uint8_t *gz, size_t len)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	assert_int_equal(fwrite(gz, 1, len, f), len);
	assert_int_equal(fflush(f), 0);
	rewind(f);
	return f;
}

/* ev_archive_check_fd over bytes in a temporary file. */
static int check_bytes(const uint8_t *gz, size_t len, ev_archive_stats *st,
		       ev_diag *d)
{
	FILE *f = temp_bytes(gz, len);
	int rc = ev_archive_check_fd(fileno(f), "test.gz", st, d);

	fclose(f);
	return rc;
}

/* Plain zlib, gzip wrapper (window bits 15 + 16), every member. */
static uint8_t *zlib_inflate(const uint8_t *gz, size_t len, size_t *out_len)
{
	size_t cap = 4 * len + 65536, used = 0;
	uint8_t *out = malloc(cap);
	z_stream z;
	int rc = Z_OK;

	memset(&z, 0, sizeof z);
	assert_int_equal(inflateInit2(&z, 31), Z_OK);
	z.next_in = (uint8_t *)gz;
	z.avail_in = (uInt)len;
	while (z.avail_in > 0 || rc != Z_STREAM_END) {
		if (rc == Z_STREAM_END)
			assert_int_equal(inflateReset(&z), Z_OK);
		if (used == cap) {
			cap *= 2;
			out = realloc(out, cap);
		}
		assert_non_null(out);
		z.next_out = out + used;
		z.avail_out = (uInt)(cap - used);
		rc = inflate(&z, Z_NO_FLUSH);
		used = cap - z.avail_out;
		assert_true(rc == Z_OK || rc == Z_STREAM_END);
	}
	inflateEnd(&z);
	*out_len = used;
	return out;
}

/* How the reader ends a log: EV_END when every session is complete. */
static int reader_verdict(const uint8_t *data, size_t len)
{
	ev_reader *r;
	ev_event ev;
	int rc;

	assert_int_equal(ev_reader_open_memory(&r, data, len, "t", 0,
					       NULL), EV_OK);
	for (;;) {
		while ((rc = ev_reader_next(r, &ev)) == EV_OK)
			;
		if (rc != EV_END || (rc = ev_reader_next_session(r)) != EV_OK)
			break;
	}
	ev_reader_free(r);
	return rc;
}

/* One member per chunk of the log, one for an empty log. */
static unsigned members_for(size_t len, uint32_t chunk)
{
	size_t size = chunk ? chunk : EV_ARCHIVE_DEFAULT_CHUNK;

	return len == 0 ? 1u : (unsigned)((len + size - 1) / size);
}

static void expect_intact(const uint8_t *gz, size_t gz_len,
			  const uint8_t *log, size_t len, uint32_t chunk)
{
	ev_archive_stats st;
	evi_gzip_header h;
	ev_diag d;
	uint64_t digest = XXH3_64bits(log, len);

	assert_int_equal(evi_gzip_parse_header(&h, gz, gz_len, NULL), EV_OK);
	assert_true(h.has_digest);
	assert_int_equal(h.kind, members_for(len, chunk) == 1
					 ? EV_ARCHIVE_KIND_WHOLE
					 : EV_ARCHIVE_KIND_FIRST);
	assert_int_equal(h.digest, digest);
	assert_int_equal(check_bytes(gz, gz_len, &st, &d), EV_OK);
	assert_int_equal(st.members, members_for(len, chunk));
	assert_int_equal(st.digests, 1);
	assert_int_equal(st.digested, st.members);
	assert_int_equal(st.stored_digest, digest);
	assert_int_equal(st.content_digest, digest);
	assert_int_equal(st.log_bytes, len);
	assert_int_equal(st.stored_bytes, gz_len);
}

/* ------------------------------------------------------------------------
 * Round trips on real logs
 * ---------------------------------------------------------------------- */

static const config configs[] = {
	{ 1, 1, 0 },           { 6, 1, 0 },           { 9, 1, 0 },
	{ 1, 1, SMALL_CHUNK }, { 6, 1, SMALL_CHUNK }, { 9, 1, SMALL_CHUNK },
	{ 1, 4, SMALL_CHUNK }, { 6, 2, SMALL_CHUNK }, { 6, 4, SMALL_CHUNK },
	{ 9, 3, SMALL_CHUNK }, { 6, 4, 0 },
};

typedef struct round_trip_count {
	size_t logs;
} round_trip_count;

static void round_trip_one(const char *path, void *ctx)
{
	size_t len, n = sizeof configs / sizeof configs[0];
	uint8_t *log = ts_read_file(path, &len);
	/* Single-thread archives by level and chunk size, to compare with. */
	uint8_t *single[2][10] = { { 0 } };
	size_t single_len[2][10] = { { 0 } };

	assert_non_null(log);
	((round_trip_count *)ctx)->logs++;
	for (size_t i = 0; i < n; i++) {
		const config *c = &configs[i];
		size_t gz_len, back_len;
		uint8_t *gz = archive(log, len, c, &gz_len);
		uint8_t *back = zlib_inflate(gz, gz_len, &back_len);

		expect_intact(gz, gz_len, log, len, c->chunk);
		/* Plain zlib restores the log byte for byte. */
		assert_int_equal(back_len, len);
		assert_memory_equal(back, log, len);
		/* evtool reads the archive as it reads the log. */
		assert_int_equal(reader_verdict(gz, gz_len),
				 reader_verdict(log, len));
		/* The thread count never changes the bytes. */
		int small = c->chunk == SMALL_CHUNK;
		uint8_t **ref = &single[small][c->level];
		size_t *ref_len = &single_len[small][c->level];
		if (c->threads == 1) {
			*ref = gz;
			*ref_len = gz_len;
			gz = NULL;
		} else {
			assert_non_null(*ref);
			assert_int_equal(gz_len, *ref_len);
			assert_memory_equal(gz, *ref, gz_len);
		}
		free(back);
		free(gz);
	}
	for (size_t i = 0; i < 10; i++) {
		free(single[0][i]);
		free(single[1][i]);
	}
	free(log);
}

static void test_round_trip_testdata(void **state)
{
	round_trip_count count = { 0 };

	(void)state;
	assert_true(ts_for_each_log(EVTOOL_TESTDATA, round_trip_one, &count) >=
		    10);
	assert_true(count.logs >= 10);
}

static void test_round_trip_corpus(void **state)
{
	round_trip_count count = { 0 };

	(void)state;
	if (ts_for_each_log(EVTOOL_CORPUS, round_trip_one, &count) == 0)
		skip();
}

/* ------------------------------------------------------------------------
 * Synthetic data: many chunks, odd write sizes
 * ---------------------------------------------------------------------- */

/* Compressible but not trivial: records with a counter and some noise. */
static uint8_t *synthetic(size_t len)
{
	uint8_t *p = malloc(len);
	uint32_t x = 12345;

	assert_non_null(p);
	for (size_t i = 0; i < len; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = (i % 24 < 12) ? (uint8_t)(i / 24) : (uint8_t)(x >> 27);
	}
	return p;
}

static void test_many_chunks_same_bytes_any_threads(void **state)
{
	size_t len = 3 * 1024 * 1024 + 12345, ref_len, gz_len, back_len;
	uint8_t *log = synthetic(len);
	config one = { 6, 1, SMALL_CHUNK };
	uint8_t *ref = archive(log, len, &one, &ref_len);
	static const unsigned threads[] = { 2, 3, 8, 17 };
	static const size_t pieces[] = { 1000003, 65536, 4093 };

	(void)state;
	expect_intact(ref, ref_len, log, len, SMALL_CHUNK);
	for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
		config c = { 6, threads[i], SMALL_CHUNK };
		uint8_t *gz = archive_pieces(log, len, &c,
					     pieces[i % 3], &gz_len);
		assert_int_equal(gz_len, ref_len);
		assert_memory_equal(gz, ref, ref_len);
		free(gz);
	}
	{
		uint8_t *back = zlib_inflate(ref, ref_len, &back_len);
		assert_int_equal(back_len, len);
		assert_memory_equal(back, log, len);
		free(back);
	}
	free(ref);
	free(log);
}

static uint8_t *plain_gzip_level(const uint8_t *log, size_t len, int level,
				 size_t *out_len);

typedef struct all_logs {
	uint8_t *bytes;
	size_t len;
} all_logs;

static void append_log(const char *path, void *ctx)
{
	all_logs *all = ctx;
	size_t len;
	uint8_t *log = ts_read_file(path, &len);

	assert_non_null(log);
	all->bytes = realloc(all->bytes, all->len + len);
	assert_non_null(all->bytes);
	memcpy(all->bytes + all->len, log, len);
	all->len += len;
	free(log);
}

/* The size promise of the levels: at every level N, the archive of real
 * logs (the testdata logs one after the other, more than one member of
 * the default chunk size) is no larger than `gzip -N`'s (zlib at level N
 * with gzip's memory level 8). Smaller chunks than the default lose more
 * of the window than the promise allows: at 256 KiB, level 8 came out
 * 0.5% larger than gzip's once testdata held more than 1.3 MB of logs. */
static void test_no_larger_than_gzip(void **state)
{
	all_logs all = { NULL, 0 };

	(void)state;
	assert_true(ts_for_each_log(EVTOOL_TESTDATA, append_log, &all) >= 10);
	assert_true(all.len > EV_ARCHIVE_DEFAULT_CHUNK);
	for (int level = 1; level <= 9; level++) {
		config c = { level, 2, 0 };
		size_t gz_len, plain_len;
		uint8_t *gz = archive(all.bytes, all.len, &c, &gz_len);
		uint8_t *plain = plain_gzip_level(all.bytes, all.len, level,
						  &plain_len);
		expect_intact(gz, gz_len, all.bytes, all.len, c.chunk);
		assert_true(gz_len <= plain_len);
		free(plain);
		free(gz);
	}
	free(all.bytes);
}

static void test_empty_log(void **state)
{
	config c = { 6, 2, 0 };
	size_t gz_len, back_len;
	uint8_t *gz = archive(NULL, 0, &c, &gz_len);
	uint8_t *back = zlib_inflate(gz, gz_len, &back_len);

	(void)state;
	expect_intact(gz, gz_len, (const uint8_t *)"", 0, 0);
	assert_int_equal(back_len, 0);
	free(back);
	free(gz);
}

/* ------------------------------------------------------------------------
 * The header
 * ---------------------------------------------------------------------- */

static void test_header_bytes(void **state)
{
	static const uint8_t log[] = "not a log, but bytes";
	uint64_t digest = XXH3_64bits(log, sizeof log);
	static const struct {
		int level;
		uint8_t xfl;
	} cases[] = { { 1, 4 }, { 6, 0 }, { 9, 2 } };

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		config c = { cases[i].level, 1, 0 };
		size_t len;
		uint8_t *gz = archive(log, sizeof log, &c, &len);
		uint8_t want[HEADER_SIZE] = {
			0x1f, 0x8b, 8, 0x04, 0, 0, 0, 0, cases[i].xfl, 3,
			13, 0, 'E', 'V', 9, 0, 1
		};
		ev_store64(want + 17, digest);
		assert_memory_equal(gz, want, HEADER_SIZE);
		/* Trailer: CRC-32 and length, little-endian. */
		assert_int_equal(gz[len - 8] | gz[len - 7] << 8 |
					 gz[len - 6] << 16 |
					 (uint32_t)gz[len - 5] << 24,
				 (uint32_t)crc32(0, log, sizeof log));
		assert_int_equal(gz[len - 4], sizeof log);
		free(gz);
	}
}

static void test_mtime_option(void **state)
{
	ev_archive_options o = EV_ARCHIVE_OPTIONS_INIT;
	evi_archive_writer *w;
	evi_gzip_header h;
	ev_sink *sink;
	const uint8_t *gz;
	size_t len;

	(void)state;
	o.mtime = 1700000000u;
	o.threads = 1;
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(evi_archive_writer_open(&w, sink, XXH3_64bits("", 0),
						&o, NULL), EV_OK);
	assert_int_equal(evi_archive_writer_finish(w), EV_OK);
	gz = ev_sink_memory(sink, &len);
	assert_int_equal(evi_gzip_parse_header(&h, gz, len, NULL), EV_OK);
	assert_int_equal(h.mtime, 1700000000u);
	assert_int_equal(h.size, HEADER_SIZE);
	evi_archive_writer_free(w);
	ev_sink_free(sink);
}

/* A header with every optional part: another subfield first, ours,
 * a name, a comment and a header CRC. */
static size_t full_header(uint8_t *h, uint64_t digest, int kind)
{
	static const uint8_t start[] = {
		0x1f, 0x8b, 8, 0x04 | 0x08 | 0x10 | 0x02, /* FEXTRA FNAME
							   * FCOMMENT FHCRC */
		0, 0, 0, 0, 0, 3,
		20, 0,                          /* XLEN: two subfields */
		'A', 'p', 3, 0, 'x', 'y', 'z',  /* someone else's */
		'E', 'V', 9, 0,                 /* ours: kind, digest */
	};
	static const char name_and_comment[] = "run.eventlog\0a comment";
	size_t n = sizeof start;
	uint32_t crc;

	memcpy(h, start, n);
	h[n++] = (uint8_t)kind;
	ev_store64(h + n, digest);
	n += 8;
	memcpy(h + n, name_and_comment, sizeof name_and_comment);
	n += sizeof name_and_comment;
	crc = (uint32_t)crc32(0, h, (uInt)n);
	h[n++] = (uint8_t)crc;
	h[n++] = (uint8_t)(crc >> 8);
	return n;
}

static void test_parse_header_optional_parts(void **state)
{
	uint8_t h[128];
	size_t n = full_header(h, 0x0123456789abcdefull, 1);
	evi_gzip_header out;
	ev_diag d;

	(void)state;
	assert_int_equal(evi_gzip_parse_header(&out, h, n, &d), EV_OK);
	assert_true(out.has_digest);
	assert_int_equal(out.digest, 0x0123456789abcdefull);
	assert_int_equal(out.size, n);
	/* Every shorter prefix asks for more bytes. */
	for (size_t cut = 0; cut < n; cut++)
		assert_int_equal(evi_gzip_parse_header(&out, h, cut, &d),
				 EV_ETRUNCATED);
	/* A damaged header is caught by its CRC. */
	h[30] ^= 0x20;
	assert_int_equal(evi_gzip_parse_header(&out, h, n, &d), EV_EFORMAT);
	assert_non_null(strstr(d.message, "CRC"));
	/* Every known kind parses; an unknown kind is an error at the kind
	 * byte (after 10 fixed bytes, XLEN, the 7-byte 'Ap' subfield and
	 * ours' 4). */
	for (int kind = EV_ARCHIVE_KIND_WHOLE; kind <= EV_ARCHIVE_KIND_LAST;
	     kind++) {
		n = full_header(h, 7, kind);
		assert_int_equal(evi_gzip_parse_header(&out, h, n, &d),
				 EV_OK);
		assert_int_equal(out.kind, kind);
		assert_int_equal(out.digest, 7);
	}
	n = full_header(h, 1, EV_ARCHIVE_KIND_LAST + 1);
	assert_int_equal(evi_gzip_parse_header(&out, h, n, &d), EV_EFORMAT);
	assert_non_null(strstr(d.message, "kind 5"));
	assert_int_equal(d.offset, 23);
	n = full_header(h, 1, 0);
	assert_int_equal(evi_gzip_parse_header(&out, h, n, &d), EV_EFORMAT);
	assert_non_null(strstr(d.message, "kind 0"));
}


static void test_parse_header_rejects(void **state)
{
	uint8_t h[HEADER_SIZE] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
	static const uint8_t log[] = "hdrbhetb";
	evi_gzip_header out;
	ev_diag d;

	(void)state;
	assert_int_equal(evi_gzip_parse_header(&out, h, 10, &d), EV_OK);
	assert_false(out.has_digest);
	assert_int_equal(out.size, 10);
	h[2] = 7;
	assert_int_equal(evi_gzip_parse_header(&out, h, 10, &d), EV_EFORMAT);
	assert_non_null(strstr(d.message, "method 7"));
	h[2] = 8;
	h[3] = 0x20;
	assert_int_equal(evi_gzip_parse_header(&out, h, 10, &d), EV_EFORMAT);
	assert_non_null(strstr(d.message, "reserved"));
	assert_int_equal(evi_gzip_parse_header(&out, log, 8, &d), EV_EFORMAT);
	assert_non_null(strstr(d.message, "uncompressed eventlog"));
	h[0] = 0x1f;
	h[1] = 0x00;
	assert_int_equal(evi_gzip_parse_header(&out, h, 1, &d),
			 EV_ETRUNCATED);
	assert_int_equal(evi_gzip_parse_header(&out, h, 2, &d), EV_EFORMAT);
}

/* ------------------------------------------------------------------------
 * Damage is detected
 * ---------------------------------------------------------------------- */

static uint8_t *archive_file(const char *name, const config *c,
			     size_t *gz_len, uint8_t **log, size_t *len)
{
	char *path = ts_path(EVTOOL_TESTDATA, name);

	*log = ts_read_file(path, len);
	free(path);
	assert_non_null(*log);
	return archive(*log, *len, c, gz_len);
}

/* ev_archive_test_fd over bytes in a temporary file. */
static int test_bytes(const uint8_t *gz, size_t len, ev_archive_test *t)
{
	FILE *f = temp_bytes(gz, len);
	int rc = ev_archive_test_fd(fileno(f), "test.gz", t);

	fclose(f);
	return rc;
}

/* --test in the library: an intact archive of a valid log (EV_END, the
 * counts of ev_archive_check_fd); of a log cut short, archived as it is
 * (the archive intact, the log's verdict EV_ETRUNCATED at the cut); an
 * archive with a flipped byte in its data (the gzip checks fail, as
 * ev_archive_check_fd says). */
static void test_archive_test_fd(void **state)
{
	(void)state;
	config c = { 6, 2, SMALL_CHUNK };
	size_t gz_len, len, cut_len;
	uint8_t *log, *cut;
	uint8_t *gz = archive_file("gc-n2.eventlog", &c, &gz_len, &log, &len);
	ev_archive_stats st;
	ev_archive_test t;
	ev_diag d;

	assert_int_equal(test_bytes(gz, gz_len, &t), EV_END);
	assert_int_equal(t.archive.status, EV_OK);
	assert_int_equal(t.log.status, EV_END);
	assert_int_equal(check_bytes(gz, gz_len, &st, &d), EV_OK);
	assert_int_equal(t.stats.members, st.members);
	assert_true(t.stats.members > 1);
	assert_int_equal(t.stats.log_bytes, len);
	assert_int_equal(t.stats.content_digest, XXH3_64bits(log, len));
	free(gz);

	cut_len = len - 1000;
	gz = archive(log, cut_len, &c, &gz_len);
	assert_int_equal(test_bytes(gz, gz_len, &t), EV_ETRUNCATED);
	assert_int_equal(t.archive.status, EV_OK);
	assert_int_equal(t.log.status, EV_ETRUNCATED);
	assert_true(t.log.offset > 0 && t.log.offset <= cut_len);
	assert_true(t.log.message[0] != '\0');
	assert_int_equal(t.stats.log_bytes, cut_len);
	free(gz);

	gz = archive(log, len, &c, &gz_len);
	cut = gz;
	cut[gz_len / 2] ^= 0x40;
	assert_true(test_bytes(gz, gz_len, &t) < 0);
	assert_true(t.archive.status < 0);
	assert_int_equal(check_bytes(gz, gz_len, &st, &d), t.archive.status);
	assert_string_equal(d.message, t.archive.message);
	free(gz);
	free(log);
}

/* Archiving a file in the library: the first pass checks and hashes the
 * log (a cut one only with `force`), the second compresses it into an
 * archive that checks out with the first pass's digest; a digest that
 * does not match the file is the input's failure (it changed). */
static void test_scan_and_compress(void **state)
{
	(void)state;
	size_t len, gz_len;
	char *path = ts_path(EVTOOL_TESTDATA, "gc-n2.eventlog");
	uint8_t *log = ts_read_file(path, &len);
	FILE *f = temp_bytes(log, len), *cut = temp_bytes(log, len - 1000);
	ev_archive_scan scan;
	ev_archive_stats st;
	ev_sink *sink;
	ev_diag d;
	const uint8_t *gz;

	assert_int_equal(ev_archive_scan_fd(fileno(f), "in", 0, NULL, NULL,
					    &scan), EV_END);
	assert_int_equal(scan.verdict.status, EV_END);
	assert_int_equal(scan.read.status, EV_OK);
	assert_int_equal(scan.log_bytes, len);
	assert_int_equal(scan.digest, XXH3_64bits(log, len));
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(ev_archive_compress_fd(fileno(f), sink, scan.digest,
						NULL, NULL, NULL, &d), EV_OK);
	gz = ev_sink_memory(sink, &gz_len);
	assert_int_equal(check_bytes(gz, gz_len, &st, &d), EV_OK);
	assert_int_equal(st.digests, st.members);
	assert_int_equal(st.content_digest, scan.digest);
	assert_int_equal(st.log_bytes, len);
	ev_sink_free(sink);

	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(ev_archive_compress_fd(fileno(f), sink,
						scan.digest ^ 1, NULL, NULL,
						NULL, &d), EV_EIO);
	assert_int_equal(d.origin, EV_ORIGIN_INPUT);
	assert_int_equal(d.offset, 0);
	ev_sink_free(sink);

	assert_int_equal(ev_archive_scan_fd(fileno(cut), "cut", 0, NULL, NULL,
					    &scan), EV_ETRUNCATED);
	assert_int_equal(scan.digest, 0);
	assert_true(scan.verdict.offset > 0);
	rewind(cut);
	assert_int_equal(ev_archive_scan_fd(fileno(cut), "cut", 1, NULL, NULL,
					    &scan), EV_ETRUNCATED);
	assert_int_equal(scan.read.status, EV_OK);
	assert_int_equal(scan.log_bytes, len - 1000);
	assert_int_equal(scan.digest, XXH3_64bits(log, len - 1000));
	fclose(cut);
	fclose(f);
	free(log);
	free(path);
}

/* Whether byte `at` is the MTIME, XFL or OS of one of our member
 * headers (bytes 4 to 9 of a header with our subfield), which nobody
 * checks. */
static int in_unchecked_field(const uint8_t *gz, size_t at)
{
	for (size_t k = 4; k <= 9 && k <= at; k++) {
		const uint8_t *h = gz + at - k;
		if (h[0] == 0x1f && h[1] == 0x8b && h[12] == 'E' &&
		    h[13] == 'V')
			return 1;
	}
	return 0;
}

/* Every byte of the archive flipped in turn: either the check fails, or
 * the flip was harmless (MTIME, XFL, OS of a member) and the content is
 * exactly the log. Never a wrong log that checks out. */
static void flip_every_byte(const char *name, size_t stride)
{
	config c = { 6, 2, SMALL_CHUNK };
	size_t gz_len, len, detected = 0, tried = 0, no_digest = 0;
	uint8_t *log;
	uint8_t *gz = archive_file(name, &c, &gz_len, &log, &len);
	uint64_t digest = XXH3_64bits(log, len);
	unsigned members = members_for(len, c.chunk);

	for (size_t at = 0; at < gz_len; at += at < HEADER_SIZE ? 1 : stride) {
		ev_archive_stats st;
		ev_diag d;
		int rc;
		gz[at] ^= 0xff;
		rc = check_bytes(gz, gz_len, &st, &d);
		gz[at] ^= 0xff;
		tried++;
		if (rc < 0) {
			assert_true(rc == EV_EFORMAT || rc == EV_ETRUNCATED);
			assert_true(d.message[0] != '\0');
			detected++;
			continue;
		}
		assert_int_equal(st.content_digest, digest);
		assert_int_equal(st.log_bytes, len);
		no_digest += st.digests == 0;
		/* Only header fields nobody checks can change silently, or
		 * the first header's subfield of a log in one member. */
		assert_true(in_unchecked_field(gz, at) ||
			    (members == 1 && at < HEADER_SIZE));
	}
	/* Unchecked: MTIME (4 bytes), XFL, OS of each member. Hiding the
	 * digest of a log in one member: the subfield's id, length or kind
	 * (5 bytes); then the CRC-32 and length still hold, and a caller
	 * warns that there is no digest. In a log of several members, the
	 * next member's kind says that the first was one of them. */
	assert_true(tried - detected <= 6 * members + 5);
	assert_true(no_digest <= 5);
	free(gz);
	free(log);
}

/* An 'E' 'V' subfield with a bad length or an unknown kind byte is a
 * damaged archive for the reader (what --test and --extract use), at the
 * offset of the bad field; it is not read as plain gzip. */
static void test_bad_digest_subfield(void **state)
{
	config c = { 6, 1, 0 };
	size_t gz_len, len;
	uint8_t *log;
	uint8_t *gz = archive_file("user-n1.eventlog", &c, &gz_len, &log,
				   &len);
	ev_archive_stats st;
	ev_diag d;

	(void)state;
	/* Our header: 10 fixed bytes, XLEN 13, 'E' 'V', length 9 at 14,
	 * kind 1 (a whole log) at 16, the digest. */
	assert_int_equal(gz[3], 0x04);
	assert_int_equal(gz[10] | gz[11] << 8, 13);
	assert_int_equal(gz[14], 9);
	assert_int_equal(gz[16], EV_ARCHIVE_KIND_WHOLE);
	assert_int_equal(check_bytes(gz, gz_len, &st, &d), EV_OK);
	assert_int_equal(st.digests, 1);

	gz[16] = 7;
	assert_int_equal(check_bytes(gz, gz_len, &st, &d), EV_EFORMAT);
	assert_non_null(strstr(d.message, "kind 7"));
	assert_int_equal(d.offset, 16);
	gz[16] = EV_ARCHIVE_KIND_WHOLE;

	gz[14] = 8; /* shorter: the digest's last byte is left over */
	assert_int_equal(check_bytes(gz, gz_len, &st, &d), EV_EFORMAT);
	assert_non_null(strstr(d.message, "declares 8 data bytes"));
	assert_int_equal(d.offset, 14);
	gz[14] = 10; /* longer than the extra field */
	assert_int_equal(check_bytes(gz, gz_len, &st, &d), EV_EFORMAT);
	assert_non_null(strstr(d.message, "declares 10 data bytes (9 "
				       "present)"));
	assert_int_equal(d.offset, 14);
	gz[14] = 9;
	assert_int_equal(check_bytes(gz, gz_len, &st, &d), EV_OK);
	free(gz);
	free(log);
}

static void test_flipped_byte_small(void **state)
{
	(void)state;
	flip_every_byte("user-n1.eventlog", 1);
}

static void test_flipped_byte_multichunk(void **state)
{
	(void)state;
	flip_every_byte("gc-n2.eventlog", 37);
}

static void test_flip_reports_offset_and_crc(void **state)
{
	config c = { 6, 1, 0 };
	size_t gz_len, len;
	uint8_t *log;
	uint8_t *gz = archive_file("threads-n2.eventlog", &c, &gz_len, &log,
				   &len);
	ev_archive_stats st;
	ev_diag d;
	int rc;

	(void)state;
	/* The digest itself damaged: CRC-32 fine, digest mismatch. */
	gz[20] ^= 0x01;
	assert_int_equal(check_bytes(gz, gz_len, &st, &d), EV_EFORMAT);
	assert_non_null(strstr(d.message, "xxh3-64 mismatch"));
	assert_int_equal(d.offset, 0);
	gz[20] ^= 0x01;
	/* The stored CRC damaged. */
	gz[gz_len - 6] ^= 0x10;
	assert_int_equal(check_bytes(gz, gz_len, &st, &d), EV_EFORMAT);
	assert_non_null(strstr(d.message, "CRC-32 mismatch"));
	assert_int_equal(d.offset, gz_len - 8);
	gz[gz_len - 6] ^= 0x10;
	/* The length damaged. */
	gz[gz_len - 3] ^= 0x01;
	assert_int_equal(check_bytes(gz, gz_len, &st, &d), EV_EFORMAT);
	assert_non_null(strstr(d.message, "length mismatch"));
	gz[gz_len - 3] ^= 0x01;
	/* Data damaged in the middle: found at or after the flip. */
	gz[gz_len / 2] ^= 0xff;
	rc = check_bytes(gz, gz_len, &st, &d);
	assert_int_equal(rc, EV_EFORMAT);
	assert_true(d.offset >= gz_len / 2 - 1);
	free(gz);
	free(log);
}

static void cut_everywhere(const char *name, size_t stride)
{
	config c = { 6, 2, SMALL_CHUNK };
	size_t gz_len, len;
	uint8_t *log;
	uint8_t *gz = archive_file(name, &c, &gz_len, &log, &len);
	ev_archive_stats st;
	ev_diag d;

	assert_int_equal(check_bytes(gz, 0, &st, &d), EV_EFORMAT);
	assert_non_null(strstr(d.message, "empty"));
	for (size_t cut = 1; cut < gz_len; cut += cut < 64 ? 1 : stride) {
		assert_int_equal(check_bytes(gz, cut, &st, &d), EV_ETRUNCATED);
		assert_non_null(strstr(d.message, "cut short"));
		assert_true(st.log_bytes <= len);
		assert_int_equal(d.offset, cut);
	}
	assert_int_equal(check_bytes(gz, gz_len, &st, &d), EV_OK);
	free(gz);
	free(log);
}

static void test_truncated_small(void **state)
{
	(void)state;
	cut_everywhere("user-n1.eventlog", 1);
}

static void test_truncated_multichunk(void **state)
{
	(void)state;
	cut_everywhere("threads-n4.eventlog", 11);
}

static void test_trailing_garbage(void **state)
{
	config c = { 6, 1, 0 };
	size_t gz_len, len;
	uint8_t *log;
	uint8_t *gz = archive_file("user-n1.eventlog", &c, &gz_len, &log, &len);
	uint8_t *more = malloc(gz_len + 3);
	ev_archive_stats st;
	ev_diag d;

	(void)state;
	memcpy(more, gz, gz_len);
	memcpy(more + gz_len, "\0\0x", 3);
	assert_int_equal(check_bytes(more, gz_len + 3, &st, &d), EV_EFORMAT);
	assert_non_null(strstr(d.message, "after the end of the gzip data"));
	assert_int_equal(d.offset, gz_len);
	/* The start of a second member, cut. */
	memcpy(more + gz_len, "\x1f\x8b\x08", 3);
	assert_int_equal(check_bytes(more, gz_len + 3, &st, &d), EV_ETRUNCATED);
	free(more);
	free(gz);
	free(log);
}

/* ------------------------------------------------------------------------
 * Plain gzip and several members
 * ---------------------------------------------------------------------- */

static uint8_t *plain_gzip_level(const uint8_t *log, size_t len, int level,
				 size_t *out_len)
{
	z_stream z;
	size_t cap = compressBound((uLong)len) + 64;
	uint8_t *out = malloc(cap);

	memset(&z, 0, sizeof z);
	assert_int_equal(deflateInit2(&z, level, Z_DEFLATED, 31, 8,
				      Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (uint8_t *)log;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	*out_len = cap - z.avail_out;
	deflateEnd(&z);
	return out;
}

static uint8_t *plain_gzip(const uint8_t *log, size_t len, size_t *out_len)
{
	return plain_gzip_level(log, len, 6, out_len);
}

static void test_plain_gzip_has_no_digest(void **state)
{
	size_t len, gz_len;
	char *path = ts_path(EVTOOL_TESTDATA, "sparks-n2.eventlog");
	uint8_t *log = ts_read_file(path, &len);
	uint8_t *gz = plain_gzip(log, len, &gz_len);
	evi_gzip_header h;
	ev_archive_stats st;
	ev_diag d;

	(void)state;
	assert_int_equal(evi_gzip_parse_header(&h, gz, gz_len, NULL), EV_OK);
	assert_false(h.has_digest);
	assert_int_equal(check_bytes(gz, gz_len, &st, &d), EV_OK);
	assert_int_equal(st.members, 1);
	assert_int_equal(st.digests, 0);
	assert_int_equal(st.log_bytes, len);
	assert_int_equal(st.content_digest, XXH3_64bits(log, len));
	/* Still checked: a damaged plain gzip fails. */
	gz[gz_len - 5] ^= 0x40;
	assert_int_equal(check_bytes(gz, gz_len, &st, &d), EV_EFORMAT);
	free(gz);
	free(log);
	free(path);
}

/* Where each member of an archive starts, found by reading it with zlib
 * (which knows nothing of our subfield); returns how many. */
static size_t member_starts(const uint8_t *gz, size_t len, size_t *starts,
			    size_t max)
{
	size_t n = 0, at = 0;

	while (at < len) {
		z_stream z;
		uint8_t sink[65536];
		int rc;
		assert_true(n < max);
		starts[n++] = at;
		memset(&z, 0, sizeof z);
		assert_int_equal(inflateInit2(&z, 31), Z_OK);
		z.next_in = (uint8_t *)gz + at;
		z.avail_in = (uInt)(len - at);
		do {
			z.next_out = sink;
			z.avail_out = sizeof sink;
			rc = inflate(&z, Z_NO_FLUSH);
		} while (rc == Z_OK);
		assert_int_equal(rc, Z_STREAM_END);
		at = len - z.avail_in;
		inflateEnd(&z);
	}
	return n;
}

/* A log in several members: cut at a member boundary, a member lost,
 * two swapped, or another log's member put in, are all found, though
 * every member is sound gzip. */
static void test_members_of_a_log(void **state)
{
	config c = { 6, 2, SMALL_CHUNK };
	size_t gz_len, len, other_len, starts[8], n;
	uint8_t *log, *other_log;
	uint8_t *gz = archive_file("gc-n2.eventlog", &c, &gz_len, &log, &len);
	uint8_t *other = archive_file("threads-n4.eventlog", &c, &other_len,
				      &other_log, &len);
	uint8_t *edit = malloc(gz_len + other_len);
	size_t m1, m2;
	ev_archive_stats st;
	ev_diag d;

	(void)state;
	n = member_starts(gz, gz_len, starts, 8);
	assert_int_equal(n, 3); /* 159,009 bytes in chunks of 64 KiB */
	assert_int_equal(gz[16], EV_ARCHIVE_KIND_FIRST);
	assert_int_equal(gz[starts[1] + 16], EV_ARCHIVE_KIND_MIDDLE);
	assert_int_equal(gz[starts[2] + 16], EV_ARCHIVE_KIND_LAST);
	m1 = starts[1] - starts[0];
	m2 = starts[2] - starts[1];
	/* Cut after a whole member: cut short, at the cut. */
	for (size_t i = 1; i < n; i++) {
		assert_int_equal(check_bytes(gz, starts[i], &st, &d),
				 EV_ETRUNCATED);
		assert_non_null(strstr(d.message, "cut short"));
		assert_int_equal(d.offset, starts[i]);
		assert_int_equal(st.members, i);
	}
	/* The middle member lost: the last one is out of place. */
	memcpy(edit, gz, m1);
	memcpy(edit + m1, gz + starts[2], gz_len - starts[2]);
	assert_int_equal(check_bytes(edit, gz_len - m2, &st, &d), EV_EFORMAT);
	assert_non_null(strstr(d.message, "xxh3-64 mismatch in gzip members "
				       "1-2"));
	/* The first two swapped. */
	memcpy(edit, gz + starts[1], m2);
	memcpy(edit + m2, gz, m1);
	memcpy(edit + m1 + m2, gz + starts[2], gz_len - starts[2]);
	assert_int_equal(check_bytes(edit, gz_len, &st, &d), EV_EFORMAT);
	assert_non_null(strstr(d.message, "gzip member 1 continues a log"));
	assert_int_equal(d.offset, 0);
	/* Another log's first member in the middle. */
	memcpy(edit, gz, m1);
	memcpy(edit + m1, other, other_len);
	assert_int_equal(check_bytes(edit, m1 + other_len, &st, &d),
			 EV_EFORMAT);
	assert_non_null(strstr(d.message, "gzip member 2 is not the next "
				       "member of the log that gzip member 1 "
				       "started"));
	assert_int_equal(d.offset, m1);
	/* Two whole archives one after the other: two logs. */
	memcpy(edit, gz, gz_len);
	memcpy(edit + gz_len, other, other_len);
	assert_int_equal(check_bytes(edit, gz_len + other_len, &st, &d),
			 EV_OK);
	assert_int_equal(st.digests, 2);
	assert_int_equal(st.digested, st.members);
	assert_true(st.members > n);
	free(edit);
	free(other);
	free(other_log);
	free(gz);
	free(log);
}

/* An archive large enough to be read ahead in a thread (8 MiB stored):
 * intact, damaged in the middle, cut short. */
static void test_large_read_ahead(void **state)
{
	size_t len = 20u * 1024u * 1024u, gz_len;
	uint8_t *log = synthetic(len);
	config c = { 1, 2, 0 };
	uint8_t *gz = archive(log, len, &c, &gz_len);
	ev_archive_stats st;
	ev_diag d;

	(void)state;
	assert_true(gz_len >= 8u * 1024u * 1024u);
	expect_intact(gz, gz_len, log, len, 0);
	gz[gz_len / 2] ^= 0x55;
	assert_int_equal(check_bytes(gz, gz_len, &st, &d), EV_EFORMAT);
	assert_true(d.offset >= gz_len / 2 - EV_ARCHIVE_DEFAULT_CHUNK);
	assert_true(st.log_bytes < len);
	gz[gz_len / 2] ^= 0x55;
	assert_int_equal(check_bytes(gz, gz_len - 1000, &st, &d),
			 EV_ETRUNCATED);
	assert_int_equal(d.offset, gz_len - 1000);
	free(gz);
	free(log);
}

/* ev_is_gzip: an archive and zlib's gzip start with the magic; a log,
 * a zlib stream without the gzip wrapper and a one-byte prefix do not. */
static void test_is_gzip(void **state)
{
	size_t len, gz_len;
	char *path = ts_path(EVTOOL_TESTDATA, "sparks-n2.eventlog");
	uint8_t *log = ts_read_file(path, &len);
	uint8_t *plain = plain_gzip(log, len, &gz_len);
	config c = { 6, 1, 0 };
	uint8_t *ours = archive(log, len, &c, &gz_len);
	uLongf z_len = compressBound((uLong)len);
	uint8_t *z = malloc(z_len);

	(void)state;
	assert_int_equal(compress(z, &z_len, log, (uLong)len), Z_OK);
	assert_true(ev_is_gzip(plain, 2));
	assert_true(ev_is_gzip(ours, gz_len));
	assert_false(ev_is_gzip(ours, 1));
	assert_false(ev_is_gzip(log, len));
	assert_false(ev_is_gzip(z, z_len));
	assert_false(ev_is_gzip(NULL, 0));
	free(z);
	free(ours);
	free(plain);
	free(log);
	free(path);
}

/* Concatenated archives: each log's digest covers its own members. */
static void test_several_members(void **state)
{
	config c = { 6, 2, 0 };
	size_t a_len, b_len, pa_len, pb_len, p_len, back_len;
	char *pa = ts_path(EVTOOL_TESTDATA, "merge-a.eventlog");
	char *pb = ts_path(EVTOOL_TESTDATA, "merge-b.eventlog");
	uint8_t *la = ts_read_file(pa, &pa_len);
	uint8_t *lb = ts_read_file(pb, &pb_len);
	uint8_t *a = archive(la, pa_len, &c, &a_len);
	uint8_t *b = archive(lb, pb_len, &c, &b_len);
	uint8_t *p = plain_gzip(lb, pb_len, &p_len);
	uint8_t *both = malloc(a_len + b_len + p_len);
	uint8_t *back, *whole = malloc(pa_len + 2 * pb_len);
	ev_archive_stats st;
	ev_diag d;

	(void)state;
	memcpy(both, a, a_len);
	memcpy(both + a_len, b, b_len);
	memcpy(both + a_len + b_len, p, p_len);
	memcpy(whole, la, pa_len);
	memcpy(whole + pa_len, lb, pb_len);
	memcpy(whole + pa_len + pb_len, lb, pb_len);
	assert_int_equal(check_bytes(both, a_len + b_len + p_len, &st, &d),
			 EV_OK);
	assert_int_equal(st.members, 3);
	assert_int_equal(st.digests, 2);
	assert_int_equal(st.digested, 2);
	assert_int_equal(st.stored_digest, XXH3_64bits(la, pa_len));
	assert_int_equal(st.content_digest,
			 XXH3_64bits(whole, pa_len + 2 * pb_len));
	back = zlib_inflate(both, a_len + b_len + p_len, &back_len);
	assert_int_equal(back_len, pa_len + 2 * pb_len);
	assert_memory_equal(back, whole, back_len);
	/* Damage in the second member's digest names that member. */
	both[a_len + 20] ^= 1;
	assert_int_equal(check_bytes(both, a_len + b_len + p_len, &st, &d),
			 EV_EFORMAT);
	assert_non_null(strstr(d.message, "member 2"));
	assert_int_equal(d.offset, a_len);
	free(back);
	free(whole);
	free(both);
	free(p);
	free(b);
	free(a);
	free(lb);
	free(la);
	free(pb);
	free(pa);
}

/* ------------------------------------------------------------------------
 * The reader hands out good bytes before the problem
 * ---------------------------------------------------------------------- */

static void test_reader_streams_then_fails(void **state)
{
	config c = { 6, 1, SMALL_CHUNK };
	size_t gz_len, len, total = 0, got;
	uint8_t *log;
	uint8_t *gz = archive_file("gc-n2.eventlog", &c, &gz_len, &log, &len);
	uint8_t buf[4096];
	ev_archive_reader *r;
	FILE *f = tmpfile();
	int rc;

	(void)state;
	assert_int_equal(fwrite(gz, 1, gz_len - 100, f), gz_len - 100);
	fflush(f);
	rewind(f);
	assert_int_equal(ev_archive_reader_open_fd(&r, fileno(f), "cut.gz",
						   NULL),
			 EV_OK);
	while ((rc = ev_archive_reader_read(r, buf, sizeof buf, &got)) ==
	       EV_OK) {
		assert_memory_equal(buf, log + total, got);
		total += got;
	}
	assert_int_equal(rc, EV_ETRUNCATED);
	assert_true(total > len / 2 && total < len);
	assert_int_equal(ev_archive_reader_result(r)->log_bytes, total);
	assert_int_equal(ev_archive_reader_read(r, buf, sizeof buf, &got),
			 EV_ETRUNCATED);
	assert_int_equal(ev_archive_reader_diag(r)->status, EV_ETRUNCATED);
	ev_archive_reader_free(r);
	fclose(f);
	free(gz);
	free(log);
}

/* ------------------------------------------------------------------------
 * Writer contract
 * ---------------------------------------------------------------------- */

static void test_digest_must_match(void **state)
{
	ev_archive_options o = EV_ARCHIVE_OPTIONS_INIT;
	evi_archive_writer *w;
	ev_sink *sink;

	(void)state;
	o.threads = 2;
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(evi_archive_writer_open(&w, sink, 42, &o, NULL), EV_OK);
	assert_int_equal(evi_archive_writer_write(w, "abc", 3), EV_OK);
	assert_int_equal(evi_archive_writer_finish(w), EV_EINVAL);
	assert_non_null(strstr(evi_archive_writer_diag(w)->message,
			       "input changed"));
	/* Failed and finished: later calls keep failing. */
	assert_int_equal(evi_archive_writer_write(w, "d", 1), EV_EINVAL);
	evi_archive_writer_free(w);
	ev_sink_free(sink);
}

static void test_bad_options(void **state)
{
	static const ev_archive_options bad[] = {
		{ EV_ARCHIVE_OPTIONS_VERSION, 10, 1, 0, 0 },
		{ EV_ARCHIVE_OPTIONS_VERSION, -1, 1, 0, 0 },
		{ EV_ARCHIVE_OPTIONS_VERSION, 6, EV_ARCHIVE_MAX_THREADS + 1, 0,
		  0 },
		{ EV_ARCHIVE_OPTIONS_VERSION, 6, 1, EV_ARCHIVE_MIN_CHUNK - 1,
		  0 },
		{ EV_ARCHIVE_OPTIONS_VERSION + 1, 6, 1, 0, 0 },
	};
	evi_archive_writer *w;
	ev_sink *sink;

	(void)state;
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(evi_archive_writer_open(&w, sink, 0, &bad[i],
							NULL),
				 EV_EINVAL);
		assert_null(w);
	}
	assert_int_equal(ev_sink_bytes(sink), 0);
	/* NULL options are the defaults. */
	assert_int_equal(evi_archive_writer_open(&w, sink, XXH3_64bits("", 0),
						NULL, NULL), EV_OK);
	assert_int_equal(evi_archive_writer_finish(w), EV_OK);
	evi_archive_writer_free(w);
	evi_archive_writer_free(NULL);
	ev_archive_reader_free(NULL);
	ev_sink_free(sink);
	assert_true(ev_archive_default_threads() >= 1 &&
		    ev_archive_default_threads() <= 8);
}

/* Freeing a writer in the middle stops its threads cleanly. */
static void test_free_unfinished(void **state)
{
	size_t len = 1024 * 1024;
	uint8_t *log = synthetic(len);
	ev_archive_options o = EV_ARCHIVE_OPTIONS_INIT;
	evi_archive_writer *w;
	ev_sink *sink;

	(void)state;
	o.threads = 4;
	o.chunk_size = SMALL_CHUNK;
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(evi_archive_writer_open(&w, sink, 0, &o, NULL), EV_OK);
	assert_int_equal(evi_archive_writer_write(w, log, len), EV_OK);
	evi_archive_writer_free(w);
	ev_sink_free(sink);
	free(log);
}

/* ------------------------------------------------------------------------
 * The archive sink: a producer that cannot hash its log first
 * ---------------------------------------------------------------------- */

/* Writes `len` bytes through an archive sink on a memory sink, in pieces
 * of `piece` bytes (some larger than the sink's buffer), and returns the
 * memory sink's bytes. */
static uint8_t *sink_archive(const uint8_t *log, size_t len, const config *c,
			     size_t piece, size_t *out_len)
{
	ev_archive_options o = EV_ARCHIVE_OPTIONS_INIT;
	ev_sink *target, *sink;
	const uint8_t *bytes;
	uint8_t *copy;

	o.level = c->level;
	o.threads = c->threads;
	o.chunk_size = c->chunk;
	assert_int_equal(ev_sink_open_memory(&target, NULL), EV_OK);
	assert_int_equal(ev_sink_open_archive(&sink, target, NULL, &o,
					      NULL), EV_OK);
	assert_null(ev_sink_temp_path(sink));
	for (size_t at = 0; at < len;) {
		size_t n = piece < len - at ? piece : len - at;
		assert_int_equal(ev_sink_write(sink, log + at, n), EV_OK);
		at += n;
	}
	assert_int_equal(ev_sink_bytes(sink), len);
	assert_int_equal(ev_sink_commit(sink), EV_OK);
	bytes = ev_sink_memory(target, out_len);
	copy = malloc(*out_len + 1);
	assert_non_null(copy);
	memcpy(copy, bytes, *out_len);
	ev_sink_free(sink); /* and the target */
	return copy;
}

/* The archive sink writes the bytes the writer writes when given the
 * digest beforehand, with one thread or several, in any pieces. */
static void test_archive_sink_same_bytes(void **state)
{
	static const size_t lengths[] = { 0, 1000, 3 * 1024 * 1024 + 12345 };
	static const size_t pieces[] = { 1, 4093, 1000003 };
	static const unsigned threads[] = { 1, 4 };

	(void)state;
	for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
		size_t len = lengths[l], ref_len, gz_len;
		uint8_t *log = synthetic(len ? len : 1);
		config c = { 6, 1, SMALL_CHUNK };
		uint8_t *ref = archive(log, len, &c, &ref_len);
		for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
			/* Bytes one by one on the small logs, pieces larger
			 * than the sink's buffer on the large one. */
			size_t piece = len > 100000 ? pieces[2 - t] : pieces[t];
			uint8_t *gz;
			c.threads = threads[t];
			gz = sink_archive(log, len, &c, piece, &gz_len);
			assert_int_equal(gz_len, ref_len);
			assert_memory_equal(gz, ref, ref_len);
			free(gz);
		}
		expect_intact(ref, ref_len, log, len, c.chunk);
		free(ref);
		free(log);
	}
}

/* A sink freed before its commit, one whose temporary folder is missing
 * and one with bad options leave nothing behind (the sanitizer build
 * checks the target is freed with it). */
static void test_archive_sink_failures(void **state)
{
	ev_archive_options bad = EV_ARCHIVE_OPTIONS_INIT;
	ev_sink *target, *sink;

	(void)state;
	assert_int_equal(ev_sink_open_memory(&target, NULL), EV_OK);
	assert_int_equal(ev_sink_open_archive(&sink, target, NULL, NULL, NULL),
			 EV_OK);
	assert_int_equal(ev_sink_write(sink, "hdrb", 4), EV_OK);
	ev_sink_free(sink);

	assert_int_equal(ev_sink_open_memory(&target, NULL), EV_OK);
	assert_int_equal(ev_sink_open_archive(&sink, target,
					      "/nonexistent/evtool", NULL,
					      NULL),
			 EV_EIO);

	bad.level = 10;
	assert_int_equal(ev_sink_open_memory(&target, NULL), EV_OK);
	assert_int_equal(ev_sink_open_archive(&sink, target, NULL, &bad, NULL),
			 EV_EINVAL);
}

/* Checks `len` bytes of `data` as a file and through a pipe. */
static void check_file_and_pipe(const char *path, const uint8_t *data,
				size_t len, int *rc, ev_archive_stats *stats,
				ev_diag *diag)
{
	int fd, fds[2];
	pid_t child;

	assert_true(ts_write_file(path, data, len, "wb"));
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	rc[0] = ev_archive_check_fd(fd, "in", &stats[0], &diag[0]);
	close(fd);
	assert_int_equal(pipe(fds), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		size_t at = 0;
		close(fds[0]);
		while (at < len) {
			ssize_t n = write(fds[1], data + at, len - at);
			if (n <= 0)
				_exit(1);
			at += (size_t)n;
		}
		_exit(0);
	}
	close(fds[1]);
	rc[1] = ev_archive_check_fd(fds[0], "in", &stats[1], &diag[1]);
	close(fds[0]);
	assert_int_equal(waitpid(child, NULL, 0), child);
}

/* One large gzip member, as gzip writes: a file of 8 MB or more is
 * inflated ahead in a thread (with ISA-L when evtool is built with it),
 * a pipe in the caller's thread with zlib. Whole, damaged at four places
 * and cut at two, both give the same verdict, message, offset and
 * counts. */
static void test_large_member_file_like_pipe(void **state)
{
	(void)state;
	enum { COPIES = 600 };
	size_t len, gz_len;
	uint8_t *log = ts_load(EVTOOL_TESTDATA, "threads-n2.eventlog", &len);
	uint8_t *copies = malloc(COPIES * len);
	char *dir = ts_temp_dir();
	char *path = ts_path(dir, "large.eventlog.gz");
	z_stream z;

	assert_non_null(log);

	assert_non_null(copies);
	for (size_t i = 0; i < COPIES; i++)
		memcpy(copies + i * len, log, len);
	memset(&z, 0, sizeof z);
	assert_int_equal(deflateInit2(&z, 1, Z_DEFLATED, 31, 8,
				      Z_DEFAULT_STRATEGY), Z_OK);
	uint8_t *gz = malloc(deflateBound(&z, (uLong)(COPIES * len)));
	assert_non_null(gz);
	z.next_in = copies;
	z.avail_in = (uInt)(COPIES * len);
	z.next_out = gz;
	z.avail_out = (uInt)deflateBound(&z, (uLong)(COPIES * len));
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	gz_len = z.total_out;
	deflateEnd(&z);
	assert_true(gz_len > 8u * 1024u * 1024u);
	for (int k = 0; k < 7; k++) {
		size_t n = k < 5 ? gz_len : gz_len * (size_t)(k - 4) / 3;
		uint8_t *copy = malloc(gz_len);
		ev_archive_stats stats[2];
		ev_diag diag[2];
		int rc[2];

		assert_non_null(copy);
		memcpy(copy, gz, gz_len);
		if (k >= 1 && k <= 4)
			copy[gz_len * (size_t)k / 5] ^= 0xff;
		check_file_and_pipe(path, copy, n, rc, stats, diag);
		assert_int_equal(rc[0], rc[1]);
		assert_int_equal(rc[0] == EV_OK, k == 0);
		assert_int_equal(stats[0].log_bytes, stats[1].log_bytes);
		assert_int_equal(stats[0].stored_bytes, stats[1].stored_bytes);
		assert_int_equal(stats[0].content_digest,
				 stats[1].content_digest);
		if (k == 0)
			assert_int_equal(stats[0].log_bytes, COPIES * len);
		if (rc[0] != EV_OK) {
			assert_string_equal(diag[0].message, diag[1].message);
			assert_int_equal(diag[0].offset, diag[1].offset);
		}
		free(copy);
	}
	ts_remove_dir(dir);
	free(path);
	free(dir);
	free(gz);
	free(copies);
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_testdata),
		cmocka_unit_test(test_round_trip_corpus),
		cmocka_unit_test(test_many_chunks_same_bytes_any_threads),
		cmocka_unit_test(test_no_larger_than_gzip),
		cmocka_unit_test(test_empty_log),
		cmocka_unit_test(test_large_member_file_like_pipe),
		cmocka_unit_test(test_header_bytes),
		cmocka_unit_test(test_mtime_option),
		cmocka_unit_test(test_parse_header_optional_parts),
		cmocka_unit_test(test_bad_digest_subfield),
		cmocka_unit_test(test_archive_test_fd),
		cmocka_unit_test(test_scan_and_compress),
		cmocka_unit_test(test_parse_header_rejects),
		cmocka_unit_test(test_flipped_byte_small),
		cmocka_unit_test(test_flipped_byte_multichunk),
		cmocka_unit_test(test_flip_reports_offset_and_crc),
		cmocka_unit_test(test_truncated_small),
		cmocka_unit_test(test_truncated_multichunk),
		cmocka_unit_test(test_trailing_garbage),
		cmocka_unit_test(test_plain_gzip_has_no_digest),
		cmocka_unit_test(test_is_gzip),
		cmocka_unit_test(test_several_members),
		cmocka_unit_test(test_members_of_a_log),
		cmocka_unit_test(test_large_read_ahead),
		cmocka_unit_test(test_reader_streams_then_fails),
		cmocka_unit_test(test_digest_must_match),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_free_unfinished),
		cmocka_unit_test(test_archive_sink_same_bytes),
		cmocka_unit_test(test_archive_sink_failures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
