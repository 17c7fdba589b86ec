/*
 * Resource limits: hostile logs must never make libevtool allocate
 * without bound or loop forever (issue 8, "Robustness").
 *
 * Each test builds a hostile log in memory, most of them as gzip whose
 * decompressed size is far larger than what the test holds (the same
 * independently deflated segment repeated, see gz_build), and runs it
 * through the reader, validate, truncate (ev_repair), filter, merge,
 * sort (ev_sorter, in the memory it is given, spilling to temporary
 * files), show (the sorter's visitor feeding ev_show, as cmd/show.c does),
 * export (the same visitor feeding an ev_exporter, as cmd/export.c does),
 * stats (ev_stats) and report (ev_report, its time buckets). The output
 * goes to /dev/null or is dropped, so
 * that only the library's own memory is measured.
 *
 * Memory is measured by counting: the test is linked with
 * -Wl,--wrap=malloc,... so every malloc, calloc, realloc and free made by
 * libevtool (and by the test) goes through the wrappers below, which keep
 * the live bytes (malloc_usable_size) and their peak. Counting, unlike
 * ru_maxrss, is exact under AddressSanitizer, whose quarantine keeps
 * freed memory resident. zlib's own allocations (about 40 KiB per
 * stream) are not counted.
 *
 * Time is bounded by ctest's timeout, never asserted: a timed check fails
 * on a loaded machine, and speed is the benchmarks' business (bench/).
 * The processor time of each run is printed for information. Growth that
 * is not linear (an array copied once per session, say) is caught
 * deterministically instead: the wrappers also add up every byte
 * allocated, and four times the input may allocate at most six times as
 * much.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <malloc.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "evtool/evtool.h"
#include "support.h"

/* ------------------------------------------------------------------------
 * Allocation counting (see the file comment)
 * ---------------------------------------------------------------------- */

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);

static int64_t live_bytes;
static int64_t peak_bytes;

static void count(int64_t delta)
{
	int64_t now = __atomic_add_fetch(&live_bytes, delta, __ATOMIC_RELAXED);
	int64_t peak = __atomic_load_n(&peak_bytes, __ATOMIC_RELAXED);

	while (now > peak &&
	       !__atomic_compare_exchange_n(&peak_bytes, &peak, now, 1,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/* Every byte ever allocated (a realloc counts its new size: it may copy). */
static int64_t allocated_bytes;

static void count_allocated(void *p)
{
	__atomic_add_fetch(&allocated_bytes, (int64_t)malloc_usable_size(p),
			   __ATOMIC_RELAXED);
}

void *__wrap_malloc(size_t n)
{
	void *p = __real_malloc(n);

	if (p) {
		count((int64_t)malloc_usable_size(p));
		count_allocated(p);
	}
	return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
	void *p = __real_calloc(n, size);

	if (p) {
		count((int64_t)malloc_usable_size(p));
		count_allocated(p);
	}
	return p;
}

void *__wrap_realloc(void *p, size_t n)
{
	size_t old = p ? malloc_usable_size(p) : 0;
	void *q = __real_realloc(p, n);

	if (q) {
		count((int64_t)malloc_usable_size(q) - (int64_t)old);
		count_allocated(q);
	} else if (n == 0)
		count(-(int64_t)old);
	return q;
}

void __wrap_free(void *p)
{
	/* Memory that libc allocated itself (strdup) is freed here without
	 * having been counted: live bytes can only be under-reported by the
	 * few names a handle keeps. */
	if (p)
		count(-(int64_t)malloc_usable_size(p));
	__real_free(p);
}

/* Starts measuring: the peak is taken relative to what is live now. */
static int64_t allocated_base;

static int64_t measure_start(void)
{
	int64_t now = __atomic_load_n(&live_bytes, __ATOMIC_RELAXED);

	allocated_base = __atomic_load_n(&allocated_bytes, __ATOMIC_RELAXED);
	__atomic_store_n(&peak_bytes, now, __ATOMIC_RELAXED);
	return now;
}

/* Bytes allocated since measure_start. */
static int64_t measure_allocated(void)
{
	return __atomic_load_n(&allocated_bytes, __ATOMIC_RELAXED) -
	       allocated_base;
}

static int64_t measure_peak(int64_t base)
{
	return __atomic_load_n(&peak_bytes, __ATOMIC_RELAXED) - base;
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#define KIB (1024)
#define MIB (1024 * 1024)

/* ------------------------------------------------------------------------
 * Building logs
 * ---------------------------------------------------------------------- */

typedef struct bytes {
	uint8_t *p;
	size_t n, cap;
} bytes;

static void put(bytes *b, const void *data, size_t len)
{
	if (b->n + len > b->cap) {
		b->cap = (b->n + len) * 2 + 256;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memcpy(b->p + b->n, data, len);
	b->n += len;
}

static void put16(bytes *b, uint16_t v)
{
	uint8_t x[2];

	ev_store16(x, v);
	put(b, x, 2);
}

static void put32(bytes *b, uint32_t v)
{
	uint8_t x[4];

	ev_store32(x, v);
	put(b, x, 4);
}

static void put64(bytes *b, uint64_t v)
{
	uint8_t x[8];

	ev_store64(x, v);
	put(b, x, 8);
}

static void put_magic(bytes *b, const char *m)
{
	put(b, m, 4);
}

/* One "etb\0 ... ete\0" declaration (doc/format.md section 1). */
static void put_type(bytes *b, uint16_t id, int size, const char *desc)
{
	put_magic(b, "etb\0");
	put16(b, id);
	put16(b, (uint16_t)size);
	put32(b, (uint32_t)strlen(desc));
	put(b, desc, strlen(desc));
	put32(b, 0);
	put_magic(b, "ete\0");
}

static void put_header_start(bytes *b)
{
	put_magic(b, "hdrb");
	put_magic(b, "hetb");
}

static void put_header_end(bytes *b)
{
	put_magic(b, "hete");
	put_magic(b, "hdre");
	put_magic(b, "datb");
}

/* A small header like GHC's: CREATE_THREAD, RUN_THREAD, GC_START,
 * BLOCK_MARKER, USER_MSG, CAPSET_CREATE. */
static void put_small_header(bytes *b)
{
	put_header_start(b);
	put_type(b, 0, 4, "Create thread");
	put_type(b, 1, 4, "Run thread");
	put_type(b, 9, 0, "Start GC");
	put_type(b, 18, 14, "Block marker");
	put_type(b, 19, -1, "User message");
	put_type(b, 25, 6, "Create capability set");
	put_header_end(b);
}

static void put_block_marker(bytes *b, uint64_t time, uint32_t size,
			     uint64_t end, uint16_t cap)
{
	put16(b, 18);
	put64(b, time);
	put32(b, size);
	put64(b, end);
	put16(b, cap);
}

static void put_user_msg(bytes *b, uint64_t time, uint16_t len, uint8_t fill)
{
	uint8_t chunk[256];

	memset(chunk, fill, sizeof chunk);
	put16(b, 19);
	put64(b, time);
	put16(b, len);
	for (uint32_t left = len; left > 0;) {
		uint32_t n = left < sizeof chunk ? left : sizeof chunk;

		put(b, chunk, n);
		left -= n;
	}
}

static void put_data_end(bytes *b)
{
	put16(b, 0xffff);
}

/* Deflates `len` bytes as raw deflate blocks that end on a byte boundary
 * without the final-block bit (Z_FULL_FLUSH), or with it (`last`). The
 * blocks refer to no earlier data, so copies of them can be concatenated
 * into one valid deflate stream. */
static void deflate_piece(bytes *out, const uint8_t *data, size_t len,
			  int last)
{
	z_stream z;
	uint8_t chunk[64 * 1024];
	int rc;

	memset(&z, 0, sizeof z);
	assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, -15, 9,
				      Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (Bytef *)(uintptr_t)data;
	z.avail_in = (uInt)len;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof chunk;
		rc = deflate(&z, last ? Z_FINISH : Z_FULL_FLUSH);
		assert_true(rc == Z_OK || rc == Z_STREAM_END ||
			    rc == Z_BUF_ERROR);
		put(out, chunk, sizeof chunk - z.avail_out);
	} while (z.avail_out == 0 || (last && rc != Z_STREAM_END));
	deflateEnd(&z);
}

/* A gzip member holding `head`, then `body` `repeat` times, then `tail`,
 * built without deflating more than one copy of `body`. */
static bytes gz_build(const bytes *head, const bytes *body, unsigned repeat,
		      const bytes *tail)
{
	static const uint8_t gzip_header[10] = { 0x1f, 0x8b, 8, 0, 0, 0,
						 0, 0, 0, 3 };
	bytes out = { 0 }, body_z = { 0 };
	uLong crc = crc32(0, head->p, (uInt)head->n);
	uLong body_crc = crc32(0, body->p, (uInt)body->n);
	uint64_t total = head->n + (uint64_t)body->n * repeat + tail->n;

	put(&out, gzip_header, sizeof gzip_header);
	deflate_piece(&out, head->p, head->n, 0);
	deflate_piece(&body_z, body->p, body->n, 0);
	for (unsigned i = 0; i < repeat; i++) {
		put(&out, body_z.p, body_z.n);
		crc = crc32_combine(crc, body_crc, (z_off_t)body->n);
	}
	deflate_piece(&out, tail->p, tail->n, 1);
	crc = crc32_combine(crc, crc32(0, tail->p, (uInt)tail->n),
			    (z_off_t)tail->n);
	{
		uint8_t trailer[8];

		for (int i = 0; i < 4; i++) {
			trailer[i] = (uint8_t)(crc >> (8 * i));
			trailer[4 + i] = (uint8_t)(total >> (8 * i));
		}
		put(&out, trailer, sizeof trailer);
	}
	free(body_z.p);
	return out;
}

/* ------------------------------------------------------------------------
 * Running the library over a log
 * ---------------------------------------------------------------------- */

typedef struct outcome {
	int status;         /* the last status of the run */
	uint64_t events;    /* events read, block markers included */
	unsigned sessions;  /* sessions that reached their data end */
	int64_t peak;       /* peak live bytes above the start */
	int64_t allocated;  /* bytes allocated in all, freed or not */
	double seconds;     /* processor time, for information */
} outcome;

static void report(const char *what, const char *tool, const outcome *o)
{
	printf("  %-22s %-9s status %2d, %9llu events, %5u sessions, "
	       "peak %6lld KiB, %.2f s\n", what, tool, o->status,
	       (unsigned long long)o->events, o->sessions,
	       (long long)(o->peak / KIB), o->seconds);
}

static outcome run_reader(const bytes *log)
{
	outcome o = { 0 };
	int64_t base = measure_start();
	double t0 = cpu_seconds();
	ev_reader *r;
	ev_event ev;
	int rc;

	assert_int_equal(ev_reader_open_memory(&r, log->p, log->n, "hostile",
					       0, NULL), EV_OK);
	for (;;) {
		while ((rc = ev_reader_next(r, &ev)) == EV_OK)
			o.events++;
		if (rc != EV_END)
			break;
		o.sessions++;
		if ((rc = ev_reader_next_session(r)) != EV_OK)
			break;
	}
	o.status = rc;
	ev_reader_free(r);
	o.peak = measure_peak(base);
	o.allocated = measure_allocated();
	o.seconds = cpu_seconds() - t0;
	return o;
}

static outcome run_validate(const bytes *log)
{
	ev_validate_options opts = EV_VALIDATE_OPTIONS_INIT;
	ev_validate_result res;
	outcome o = { 0 };
	int64_t base = measure_start();
	double t0 = cpu_seconds();
	ev_reader *r;

	assert_int_equal(ev_reader_open_memory(&r, log->p, log->n, "hostile",
					       0, NULL), EV_OK);
	o.status = ts_validate(r, &opts, NULL, NULL, &res);
	o.events = res.events;
	o.sessions = res.sessions;
	ev_reader_free(r);
	o.peak = measure_peak(base);
	o.allocated = measure_allocated();
	o.seconds = cpu_seconds() - t0;
	return o;
}

static ev_sink *null_sink(int *fd)
{
	ev_sink *s;

	*fd = open("/dev/null", O_WRONLY);
	assert_true(*fd >= 0);
	assert_int_equal(ev_sink_open_fd(&s, *fd, "/dev/null", NULL), EV_OK);
	return s;
}

static outcome run_repair(const bytes *log, unsigned flags)
{
	ev_repair_options opts = EV_REPAIR_OPTIONS_INIT;
	outcome o = { 0 };
	int64_t base = measure_start();
	double t0 = cpu_seconds();
	ev_input *r;
	ev_repair *rp;
	ev_sink *sink;
	int fd;

	opts.flags = flags;
	assert_int_equal(ev_input_memory(&r, log->p, log->n, "hostile", NULL),
			 EV_OK);
	sink = null_sink(&fd);
	assert_int_equal(ev_repair_new(&rp, &opts, NULL), EV_OK);
	o.status = ev_repair_run(rp, r, sink);
	o.events = ev_repair_result(rp)->events;
	o.sessions = ev_repair_result(rp)->sessions;
	ev_repair_free(rp);
	ev_sink_free(sink);
	close(fd);
	ev_input_free(r);
	o.peak = measure_peak(base);
	o.allocated = measure_allocated();
	o.seconds = cpu_seconds() - t0;
	return o;
}

/* The filter reads a file: the log goes to a temporary file first
 * (before measuring). `process` adds a process selector, which makes the
 * filter learn every session's capsets. */
static outcome run_filter(const bytes *log, int process)
{
	const ev_filter_stats *stats;
	outcome o = { 0 };
	char *dir = ts_temp_dir();
	char *path;
	ev_input *in;
	ev_filter *f;
	ev_sink *sink;
	int64_t base;
	double t0;
	int fd;

	assert_non_null(dir);
	path = ts_path(dir, "hostile.eventlog");
	assert_true(ts_write_file(path, log->p, log->n, "wb"));
	base = measure_start();
	t0 = cpu_seconds();
	assert_int_equal(ev_filter_new(&f, NULL, NULL), EV_OK);
	if (process)
		assert_int_equal(ev_filter_add(f, EV_FILTER_CAPSET, "0-3", 0),
				 EV_OK);
	else
		assert_int_equal(ev_filter_add(f, EV_FILTER_CLASS, "s,u", 0),
				 EV_OK);
	sink = null_sink(&fd);
	assert_int_equal(ev_input_open(&in, path, NULL), EV_OK);
	o.status = ev_filter_run(f, in, sink);
	stats = ev_filter_result(f);
	o.events = stats->events_read;
	o.sessions = stats->sessions;
	ev_input_free(in);
	ev_sink_free(sink);
	close(fd);
	ev_filter_free(f);
	o.peak = measure_peak(base);
	o.allocated = measure_allocated();
	o.seconds = cpu_seconds() - t0;
	ts_remove_dir(dir);
	free(path);
	free(dir);
	return o;
}

/* Merges the log with itself. */
static outcome run_merge(const bytes *log)
{
	ev_merge_options opts = EV_MERGE_OPTIONS_INIT;
	outcome o = { 0 };
	int64_t base = measure_start();
	double t0 = cpu_seconds();
	ev_merge *m;
	ev_sink *sink;
	int fd;

	opts.align = EV_MERGE_ALIGN_NONE;
	assert_int_equal(ev_merge_new(&m, &opts, NULL), EV_OK);
	assert_int_equal(ev_merge_add(m, ts_memory_input(log->p, log->n, "a")),
			 EV_OK);
	assert_int_equal(ev_merge_add(m, ts_memory_input(log->p, log->n, "b")),
			 EV_OK);
	sink = null_sink(&fd);
	o.status = ev_merge_plan(m);
	if (o.status == EV_OK)
		o.status = ev_merge_run(m, sink);
	o.events = ev_merge_events_written(m);
	ev_sink_free(sink);
	close(fd);
	ev_merge_free(m);
	o.peak = measure_peak(base);
	o.allocated = measure_allocated();
	o.seconds = cpu_seconds() - t0;
	return o;
}

/* ---- the sorter: sort, and show's text through it ---- */

/* The sorter's memory in these runs (the command's default is 32 MiB):
 * small, so that the hostile logs make it spill sorted runs to its
 * temporary files as well as merge in place. */
#define SORT_MEMORY (4 * MIB)

/* ev_sorter reads a path, like the filter: the log goes to a temporary
 * file first (before measuring), and the sorter's runs beside it. */
typedef struct temp_log {
	char *dir;
	char *path;
	ev_input *in; /* the file, opened */
} temp_log;

static temp_log temp_log_write(const bytes *log)
{
	temp_log t = { ts_temp_dir(), NULL, NULL };

	assert_non_null(t.dir);
	t.path = ts_path(t.dir, "hostile.eventlog");
	assert_true(ts_write_file(t.path, log->p, log->n, "wb"));
	assert_int_equal(ev_input_open(&t.in, t.path, NULL), EV_OK);
	return t;
}

static void temp_log_remove(temp_log *t)
{
	ev_input_free(t->in);
	ts_remove_dir(t->dir);
	free(t->path);
	free(t->dir);
}

static ev_sorter *new_sorter(const temp_log *t, ev_sort_method method)
{
	ev_sort_options opts = EV_SORT_OPTIONS_INIT;
	ev_sorter *s;

	opts.memory = SORT_MEMORY;
	opts.tmpdir = t->dir;
	opts.method = method;
	assert_int_equal(ev_sorter_new(&s, &opts, NULL), EV_OK);
	return s;
}

/* `evtool sort`: the sorted log to /dev/null. */
static outcome run_sort(const bytes *log, ev_sort_method method)
{
	temp_log t = temp_log_write(log);
	outcome o = { 0 };
	int64_t base = measure_start();
	double t0 = cpu_seconds();
	ev_sorter *s = new_sorter(&t, method);
	ev_sink *sink;
	int fd;

	sink = null_sink(&fd);
	o.status = ev_sorter_run(s, t.in, sink);
	o.events = ev_sorter_result(s)->events;
	o.sessions = ev_sorter_result(s)->sessions;
	ev_sorter_free(s);
	ev_sink_free(sink);
	close(fd);
	o.peak = measure_peak(base);
	o.allocated = measure_allocated();
	o.seconds = cpu_seconds() - t0;
	temp_log_remove(&t);
	return o;
}

/* `evtool show`, as cmd/show.c drives it: the sorter hands the events
 * (block markers too) in time order to the show writer (show.h), whose
 * text is written out, here counted and dropped. */
static int count_text(void *ctx, const char *text, size_t len)
{
	(void)text;
	*(uint64_t *)ctx += len;
	return EV_OK;
}

static outcome run_show_as(const bytes *log, ev_show_format format,
			   uint64_t *rendered)
{
	temp_log t = temp_log_write(log);
	uint64_t n = 0;
	outcome o = { 0 };
	int64_t base = measure_start();
	double t0 = cpu_seconds();
	ev_sorter *s = new_sorter(&t, EV_SORT_AUTO);
	ev_show_writer *w;

	if (ev_show_writer_new(&w, format, 0, count_text, &n, NULL) < 0)
		abort();
	o.status = ev_sorter_visit(s, t.in, ev_show_writer_consumer(), w);
	ev_show_writer_finish(w); /* a failed log's text too */
	ev_show_writer_free(w);
	o.events = ev_sorter_result(s)->events;
	o.sessions = ev_sorter_result(s)->sessions;
	ev_sorter_free(s);
	o.peak = measure_peak(base);
	o.allocated = measure_allocated();
	o.seconds = cpu_seconds() - t0;
	temp_log_remove(&t);
	if (rendered)
		*rendered = n;
	return o;
}

static outcome run_show(const bytes *log)
{
	return run_show_as(log, EV_SHOW_TEXT, NULL);
}

/* ---- export ---- */

/* `evtool export`: the sorter's visitor feeding an exporter whose output
 * goes to /dev/null. o.events is the number of records it wrote. */
static outcome run_export(const bytes *log, ev_export_format format)
{
	temp_log t = temp_log_write(log);
	ev_export_options eo = EV_EXPORT_OPTIONS_INIT;
	outcome o = { 0 };
	int64_t base = measure_start();
	double t0 = cpu_seconds();
	ev_sorter *s = new_sorter(&t, EV_SORT_AUTO);
	ev_exporter *x;
	int fd;
	ev_sink *sink = null_sink(&fd);

	eo.format = format;
	eo.tmpdir = t.dir;
	assert_int_equal(ev_exporter_new(&x, &eo, sink, NULL), EV_OK);
	/* The consumer's finish ends the output: its failure is returned. */
	o.status = ev_sorter_visit(s, t.in, ev_exporter_consumer(), x);
	o.events = ev_exporter_result(x)->records;
	o.sessions = ev_sorter_result(s)->sessions;
	ev_exporter_free(x);
	ev_sink_free(sink);
	close(fd);
	ev_sorter_free(s);
	o.peak = measure_peak(base);
	o.allocated = measure_allocated();
	o.seconds = cpu_seconds() - t0;
	temp_log_remove(&t);
	return o;
}

/* ---- stats ---- */

/* `evtool stats`: every event into the accumulator, then the summary;
 * with `threads`, every thread's figures kept too (stats --threads).
 * o.events is the number of processes found. */
static outcome run_stats_as(const bytes *log, int threads)
{
	outcome o = { 0 };
	int64_t base = measure_start();
	double t0 = cpu_seconds();
	ev_reader *r;
	ev_stats *st;

	assert_int_equal(ev_reader_open_memory(&r, log->p, log->n, "hostile",
					       0, NULL), EV_OK);
	assert_int_equal(ev_stats_new(&st, NULL), EV_OK);
	if (threads)
		assert_int_equal(ev_stats_keep_threads(st), EV_OK);
	/* The consumer's finish computes the summary: its failure is
	 * returned. */
	o.status = ev_reader_feed(r, ev_stats_consumer(), st);
	if (o.status == EV_END || o.status == EV_ETRUNCATED)
		o.events = ev_stats_process_count(st);
	ev_stats_free(st);
	ev_reader_free(r);
	o.peak = measure_peak(base);
	o.allocated = measure_allocated();
	o.seconds = cpu_seconds() - t0;
	return o;
}

/* `evtool report`: every event into the time buckets (and the report's
 * ev_stats). o.events is the number of processes found. */
static outcome run_report(const bytes *log)
{
	outcome o = { 0 };
	int64_t base = measure_start();
	double t0 = cpu_seconds();
	ev_reader *r;
	ev_report *rep;

	assert_int_equal(ev_reader_open_memory(&r, log->p, log->n, "hostile",
					       0, NULL), EV_OK);
	assert_int_equal(ev_report_new(&rep, NULL, NULL), EV_OK);
	o.status = ev_reader_feed(r, ev_report_consumer(), rep);
	if (o.status == EV_END || o.status == EV_ETRUNCATED)
		o.events = ev_report_process_count(rep);
	ev_report_free(rep);
	ev_reader_free(r);
	o.peak = measure_peak(base);
	o.allocated = measure_allocated();
	o.seconds = cpu_seconds() - t0;
	return o;
}

/* A report's buckets at most (report.h's limits, 1024 buckets): 1024
 * capabilities of 24-byte buckets, 256 processes of 56-byte ones, 257
 * heap-profile bands of 16-byte ones, 1000 markers of 257 bytes. */
#define REPORT_BOUND (48 * MIB)

static outcome run_stats(const bytes *log)
{
	return run_stats_as(log, 0);
}

/* The bound every streaming tool must keep whatever the input: a window
 * of input, one held-back block (EV_MAX_BLOCK_SIZE, twice that for
 * merge's split) and small tables. */
#define STREAM_BOUND (16 * MIB)

static void check_bounded(const char *what, const char *tool,
			  const outcome *o, int64_t bound)
{
	report(what, tool, o);
	assert_true(o->peak < bound);
}

/* Linear growth: four times the input may allocate at most six times as
 * much in all (fixed tables are the same for both; a doubling array
 * allocates four times as much for four times the elements). A copy of
 * a per-session array for every session, which made the filter take
 * 11 s under AddressSanitizer, allocated sixteen times as much. */
static void check_linear(const char *tool, const outcome *quarter,
			 const outcome *whole)
{
	printf("  %-32s %lld KiB allocated for a quarter, %lld KiB for all "
	       "(%.3f s, %.3f s)\n", tool,
	       (long long)(quarter->allocated / KIB),
	       (long long)(whole->allocated / KIB), quarter->seconds,
	       whole->seconds);
	assert_true(whole->allocated <= 6 * quarter->allocated + 64 * KIB);
}

/* ------------------------------------------------------------------------
 * Huge declared sizes in the header
 * ---------------------------------------------------------------------- */

static void test_header_huge_lengths(void **state)
{
	/* desc_len and extra_len of 4 GiB - 1: rejected without
	 * allocating them. */
	for (int which = 0; which < 2; which++) {
		bytes b = { 0 };
		outcome o;

		put_header_start(&b);
		put_magic(&b, "etb\0");
		put16(&b, 0);
		put16(&b, 4);
		if (which == 0) {
			put32(&b, 0xffffffffu);
		} else {
			put32(&b, 3);
			put(&b, "abc", 3);
			put32(&b, 0xffffffffu);
		}
		put(&b, "xxxxxxxxxxxxxxxxxxxxxxxx", 24);
		o = run_reader(&b);
		check_bounded("header length 4G", "reader", &o, 1 * MIB);
		assert_int_equal(o.status, EV_EFORMAT);
		o = run_validate(&b);
		check_bounded("header length 4G", "validate", &o,
			      STREAM_BOUND);
		o = run_repair(&b, EV_REPAIR_RESYNC);
		check_bounded("header length 4G", "truncate", &o,
			      STREAM_BOUND);
		assert_true(o.status < 0);
		free(b.p);
	}
	(void)state;
}

/* A header of descriptions just under the per-field limit, on and on:
 * the reader gives up at its header limit (8 MiB) with EV_ELIMIT. */
static void test_header_endless(void **state)
{
	bytes head = { 0 }, body = { 0 }, tail = { 0 }, gz;
	char *desc = malloc(60000 + 1);
	outcome o;

	memset(desc, 'd', 60000);
	desc[60000] = '\0';
	put_header_start(&head);
	/* The same id again and again would be a duplicate; 2000 ids of
	 * 60 KB are 120 MB of header. */
	for (unsigned id = 0; id < 2000; id++)
		put_type(&body, (uint16_t)(id + 300), 4, desc);
	gz = gz_build(&head, &body, 1, &tail);
	o = run_reader(&gz);
	check_bounded("header 120 MB", "reader", &o,
		      24 * MIB);
	assert_int_equal(o.status, EV_ELIMIT);
	o = run_validate(&gz);
	check_bounded("header 120 MB", "validate", &o,
		      24 * MIB);
	assert_true(o.status < 0 || o.events == 0);
	free(desc);
	free(head.p);
	free(body.p);
	free(tail.p);
	free(gz.p);
	(void)state;
}

/* Every id from 0 to 65534 declared (65535 is the data end), each fixed
 * size of 65534 bytes except a few real ones, and some events: parsing
 * and every tool stay linear. */
static void test_header_all_types(void **state)
{
	bytes b = { 0 };
	outcome o;

	put_header_start(&b);
	for (unsigned id = 0; id < 0xffff; id++) {
		int size = id == 18 ? 14 : id == 19 ? -1 : id == 25 ? 6
			 : id <= 1 ? 4 : (int)(id % 7 == 0 ? 0xfffe : id % 64);
		put_type(&b, (uint16_t)id, size, "t");
	}
	put_header_end(&b);
	put_block_marker(&b, 1000, 24 + 2 * 14, 3000, 0);
	put16(&b, 0);
	put64(&b, 1500);
	put32(&b, 1);
	put16(&b, 0);
	put64(&b, 1600);
	put32(&b, 2);
	put_user_msg(&b, 4000, 10, 'u');
	put16(&b, 705); /* declared 705 % 64 = 1 byte */
	put64(&b, 5000);
	put(&b, "\x01", 1);
	put_data_end(&b);

	o = run_reader(&b);
	check_bounded("65535 types", "reader", &o, 16 * MIB);
	assert_int_equal(o.status, EV_END);
	assert_int_equal(o.events, 5);
	o = run_validate(&b);
	check_bounded("65535 types", "validate", &o, 16 * MIB);
	assert_int_equal(o.status, EV_OK);
	o = run_repair(&b, 0);
	check_bounded("65535 types", "truncate", &o, 16 * MIB);
	assert_int_equal(o.status, EV_OK);
	o = run_filter(&b, 0);
	check_bounded("65535 types", "filter", &o, 24 * MIB);
	assert_int_equal(o.status, EV_OK);
	o = run_merge(&b);
	check_bounded("65535 types", "merge", &o, 32 * MIB);
	o = run_sort(&b, EV_SORT_AUTO);
	check_bounded("65535 types", "sort", &o, 24 * MIB);
	assert_int_equal(o.status, EV_OK);
	assert_int_equal(o.events, 4);
	o = run_show(&b);
	check_bounded("65535 types", "show", &o, 24 * MIB);
	assert_int_equal(o.status, EV_OK);
	o = run_stats(&b);
	check_bounded("65535 types", "stats", &o, 16 * MIB);
	assert_int_equal(o.status, EV_END);
	o = run_report(&b);
	check_bounded("65535 types", "report", &o, REPORT_BOUND);
	assert_int_equal(o.status, EV_END);
	free(b.p);
	(void)state;
}

/* ------------------------------------------------------------------------
 * Many empty blocks
 * ---------------------------------------------------------------------- */

/* 4 million empty blocks (24 bytes each, 96 MiB): linear time, constant
 * memory in every tool. */
static void test_many_empty_blocks(void **state)
{
	bytes head = { 0 }, body = { 0 }, tail = { 0 }, gz, quarter, sixteenth;
	const unsigned per_body = 4096, repeat = 1024;
	uint64_t input;
	outcome o, oq;

	put_small_header(&head);
	for (unsigned i = 0; i < per_body; i++)
		put_block_marker(&body, 1000, 24, 1000, (uint16_t)(i & 1));
	put_data_end(&tail);
	gz = gz_build(&head, &body, repeat, &tail);
	input = head.n + (uint64_t)body.n * repeat + tail.n;
	printf("  empty blocks: %llu bytes of log in %zu bytes of gzip\n",
	       (unsigned long long)input, gz.n);

	quarter = gz_build(&head, &body, repeat / 4, &tail);

	o = run_reader(&gz);
	check_bounded("4M empty blocks", "reader", &o, 2 * MIB);
	assert_int_equal(o.status, EV_END);
	assert_int_equal(o.events, (uint64_t)per_body * repeat);
	oq = run_reader(&quarter);
	check_linear("reader", &oq, &o);
	o = run_validate(&gz);
	check_bounded("4M empty blocks", "validate", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	oq = run_validate(&quarter);
	check_linear("validate", &oq, &o);
	o = run_repair(&gz, EV_REPAIR_RESYNC);
	check_bounded("4M empty blocks", "truncate", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	oq = run_repair(&quarter, EV_REPAIR_RESYNC);
	check_linear("truncate", &oq, &o);
	o = run_filter(&gz, 0);
	check_bounded("4M empty blocks", "filter", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	o = run_merge(&gz);
	check_bounded("4M empty blocks", "merge", &o,
		      2 * STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	o = run_stats(&gz);
	check_bounded("4M empty blocks", "stats", &o, 2 * MIB);
	assert_int_equal(o.status, EV_END);
	oq = run_stats(&quarter);
	check_linear("stats", &oq, &o);
	o = run_report(&gz);
	check_bounded("4M empty blocks", "report", &o, REPORT_BOUND);
	assert_int_equal(o.status, EV_END);
	oq = run_report(&quarter);
	check_linear("report", &oq, &o);
	/* sort re-blocks every block and show prints a line for each: a
	 * quarter of the blocks (show: a sixteenth, the slowest), against a
	 * quarter of that for growth, to keep the test to seconds under
	 * AddressSanitizer. */
	sixteenth = gz_build(&head, &body, repeat / 16, &tail);
	o = run_sort(&quarter, EV_SORT_AUTO);
	check_bounded("1M empty blocks", "sort", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	oq = run_sort(&sixteenth, EV_SORT_AUTO);
	check_linear("sort", &oq, &o);
	o = run_sort(&quarter, EV_SORT_EXTERNAL);
	check_bounded("1M empty blocks", "sort -x", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	oq = run_sort(&sixteenth, EV_SORT_EXTERNAL);
	check_linear("sort -x", &oq, &o);
	free(quarter.p);
	quarter = gz_build(&head, &body, repeat / 64, &tail);
	o = run_show(&sixteenth);
	check_bounded("256K empty blocks", "show", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	oq = run_show(&quarter);
	check_linear("show", &oq, &o);
	free(sixteenth.p);
	free(head.p);
	free(body.p);
	free(tail.p);
	free(gz.p);
	free(quarter.p);
	(void)state;
}

/* ------------------------------------------------------------------------
 * Enormous variable events; the gzip bomb
 * ---------------------------------------------------------------------- */

/* 1 GiB of USER_MSG events of 65535 bytes each (the largest payload),
 * in a block declaring 4 GiB, as a gzip stream of about a megabyte:
 * every tool streams it in bounded memory. */
static void test_gzip_bomb(void **state)
{
	bytes head = { 0 }, body = { 0 }, tail = { 0 }, gz;
	const unsigned per_body = 64, repeat = 256;
	uint64_t input;
	outcome o;

	put_small_header(&head);
	put_block_marker(&head, 1000, 0xffffffffu, 0xffffffffffffull, 0);
	for (unsigned i = 0; i < per_body; i++)
		put_user_msg(&body, 2000, 0xffff, 'A');
	put_data_end(&tail);
	gz = gz_build(&head, &body, repeat, &tail);
	input = head.n + (uint64_t)body.n * repeat + tail.n;
	printf("  gzip bomb: %llu bytes of log in %zu bytes of gzip\n",
	       (unsigned long long)input, gz.n);

	o = run_reader(&gz);
	check_bounded("gzip bomb 1 GiB", "reader", &o, 2 * MIB);
	assert_int_equal(o.status, EV_END);
	assert_int_equal(o.events, 1 + (uint64_t)per_body * repeat);
	free(gz.p);

	/* The other tools get a quarter of it (merge, which reads both
	 * inputs twice, an eighth), to keep the test to a few seconds. */
	gz = gz_build(&head, &body, repeat / 4, &tail);
	input = head.n + (uint64_t)body.n * (repeat / 4) + tail.n;
	o = run_validate(&gz);
	check_bounded("gzip bomb 256 MiB", "validate", &o,
		      STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	o = run_repair(&gz, 0);
	check_bounded("gzip bomb 256 MiB", "truncate", &o,
		      STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	assert_int_equal(o.events, (uint64_t)per_body * (repeat / 4));
	o = run_filter(&gz, 0);
	check_bounded("gzip bomb 256 MiB", "filter", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	free(gz.p);
	gz = gz_build(&head, &body, repeat / 8, &tail);
	input = head.n + (uint64_t)body.n * (repeat / 8) + tail.n;
	o = run_merge(&gz);
	check_bounded("gzip bomb 128 MiB", "merge", &o,
		      2 * STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	/* Both inputs' messages, and the capsets merge synthesises. */
	assert_true(o.events >= 2 * (uint64_t)per_body * (repeat / 8));
	o = run_stats(&gz);
	check_bounded("gzip bomb 128 MiB", "stats", &o, 2 * MIB);
	assert_int_equal(o.status, EV_END);
	o = run_report(&gz);
	check_bounded("gzip bomb 128 MiB", "report", &o, REPORT_BOUND);
	assert_int_equal(o.status, EV_END);
	free(gz.p);
	/* Sorting copies the log to its runs (and show renders it): a
	 * thirty-second, 32 MiB, is eight times the sorter's memory. */
	gz = gz_build(&head, &body, repeat / 32, &tail);
	o = run_sort(&gz, EV_SORT_AUTO);
	check_bounded("gzip bomb 32 MiB", "sort", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	assert_int_equal(o.events, (uint64_t)per_body * (repeat / 32));
	o = run_sort(&gz, EV_SORT_EXTERNAL);
	check_bounded("gzip bomb 32 MiB", "sort -x", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	assert_int_equal(o.events, (uint64_t)per_body * (repeat / 32));
	o = run_show(&gz);
	check_bounded("gzip bomb 32 MiB", "show", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	assert_int_equal(o.events, (uint64_t)per_body * (repeat / 32));
	o = run_export(&gz, EV_EXPORT_PERFETTO);
	check_bounded("gzip bomb 32 MiB", "export", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	free(head.p);
	free(body.p);
	free(tail.p);
	free(gz.p);
	(void)state;
}

/* Every declared type variable, every event 65535 bytes long, no blocks,
 * and the log cut inside the last event. */
static void test_enormous_variable_events(void **state)
{
	bytes head = { 0 }, body = { 0 }, tail = { 0 }, gz;
	const unsigned repeat = 8;
	outcome o;

	put_header_start(&head);
	for (unsigned id = 0; id < 256; id++)
		if (id != 18)
			put_type(&head, (uint16_t)id, -1, "variable");
	put_header_end(&head);
	for (unsigned id = 0; id < 256; id++) {
		if (id == 18)
			continue;
		put16(&body, (uint16_t)id);
		put64(&body, 100 + id);
		put16(&body, 0xffff);
		for (unsigned i = 0; i < 0xffff; i++) {
			uint8_t c = (uint8_t)(i % 251);
			put(&body, &c, 1);
		}
	}
	/* The cut: a header of an event and part of its payload. */
	put16(&tail, 19);
	put64(&tail, 1);
	put16(&tail, 0xffff);
	put(&tail, "partial", 7);
	gz = gz_build(&head, &body, repeat, &tail);

	o = run_reader(&gz);
	check_bounded("variable 65535 x 65K", "reader", &o, 2 * MIB);
	assert_int_equal(o.status, EV_ETRUNCATED);
	assert_int_equal(o.events, 255u * repeat);
	o = run_validate(&gz);
	check_bounded("variable 65535 x 65K", "validate", &o,
		      STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	o = run_repair(&gz, 0);
	check_bounded("variable 65535 x 65K", "truncate", &o,
		      STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	assert_int_equal(o.events, 255u * repeat);
	o = run_filter(&gz, 0);
	check_bounded("variable 65535 x 65K", "filter", &o,
		      STREAM_BOUND);
	o = run_merge(&gz);
	check_bounded("variable 65535 x 65K", "merge", &o,
		      2 * STREAM_BOUND);
	/* Statistics events (HEAP_INFO_GHC, GC_STATS_GHC...) of 65535
	 * bytes: summed up, or refused as input that exceeds a limit, in
	 * the same small memory either way. */
	o = run_stats(&gz);
	check_bounded("variable 65535 x 65K", "stats", &o, 2 * MIB);
	assert_true(o.status == EV_ETRUNCATED || o.status == EV_ELIMIT ||
		    o.status == EV_EFORMAT);
	o = run_report(&gz);
	check_bounded("variable 65535 x 65K", "report", &o, REPORT_BOUND);
	assert_true(o.status == EV_ETRUNCATED || o.status == EV_ELIMIT ||
		    o.status == EV_EFORMAT);
	free(gz.p);
	/* Sorted (and rendered) at a quarter of the length, 33 MB, eight
	 * times the sorter's memory. */
	gz = gz_build(&head, &body, repeat / 4, &tail);
	o = run_sort(&gz, EV_SORT_AUTO);
	check_bounded("variable 2 x 255 x 65K", "sort", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_ETRUNCATED);
	assert_int_equal(o.events, 255u * (repeat / 4));
	o = run_sort(&gz, EV_SORT_EXTERNAL);
	check_bounded("variable 2 x 255 x 65K", "sort -x", &o,
		      STREAM_BOUND);
	assert_int_equal(o.status, EV_ETRUNCATED);
	assert_int_equal(o.events, 255u * (repeat / 4));
	{
		uint64_t text, json;

		o = run_show_as(&gz, EV_SHOW_TEXT, &text);
		check_bounded("variable 2 x 255 x 65K", "show", &o,
			      STREAM_BOUND);
		assert_int_equal(o.status, EV_ETRUNCATED);
		assert_int_equal(o.events, 255u * (repeat / 4));
		o = run_show_as(&gz, EV_SHOW_NDJSON, &json);
		check_bounded("variable 2 x 255 x 65K", "show json", &o,
			      STREAM_BOUND);
		assert_int_equal(o.status, EV_ETRUNCATED);
		assert_int_equal(o.events, 255u * (repeat / 4));
		/* Every event was rendered, not skipped: ndjson writes
		 * each one's 65535 payload bytes at least as numbers or
		 * text. */
		printf("  show: %llu bytes of text, %llu of ndjson\n",
		       (unsigned long long)text, (unsigned long long)json);
		assert_true(json > 255ull * (repeat / 4) * 65535);
	}
	free(head.p);
	free(body.p);
	free(tail.p);
	free(gz.p);
	(void)state;
}

/* ------------------------------------------------------------------------
 * Many sessions
 * ---------------------------------------------------------------------- */

/* 10000 tiny sessions one after the other (a restarted eventlog, many
 * times over): linear time; memory per session is released when the
 * next one starts, except for the few facts a filter keeps per session. */
static bytes sessions_log(unsigned sessions)
{
	bytes b = { 0 };

	for (unsigned s = 0; s < sessions; s++) {
		put_small_header(&b);
		put_block_marker(&b, 10, 24 + 14 + 14, 20, 0);
		put16(&b, 0);
		put64(&b, 11);
		put32(&b, s + 1);
		put16(&b, 1);
		put64(&b, 12);
		put32(&b, s + 1);
		put_data_end(&b);
	}
	return b;
}

static void test_many_sessions(void **state)
{
	const unsigned sessions = 10000;
	bytes b = sessions_log(sessions), q = sessions_log(sessions / 4);
	outcome o, oq;

	o = run_reader(&b);
	check_bounded("10000 sessions", "reader", &o, 1 * MIB);
	assert_int_equal(o.status, EV_END);
	assert_int_equal(o.sessions, sessions);
	assert_int_equal(o.events, 3u * sessions);
	oq = run_reader(&q);
	check_linear("reader", &oq, &o);
	o = run_validate(&b);
	check_bounded("10000 sessions", "validate", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	assert_int_equal(o.sessions, sessions);
	oq = run_validate(&q);
	check_linear("validate", &oq, &o);
	o = run_repair(&b, 0);
	check_bounded("10000 sessions", "truncate", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	assert_int_equal(o.sessions, sessions);
	oq = run_repair(&q, 0);
	check_linear("truncate", &oq, &o);
	o = run_filter(&b, 0);
	check_bounded("10000 sessions", "filter", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	assert_int_equal(o.sessions, sessions);
	oq = run_filter(&q, 0);
	check_linear("filter", &oq, &o);
	o = run_filter(&b, 1);
	check_bounded("10000 sessions", "filter -p", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	oq = run_filter(&q, 1);
	check_linear("filter -p", &oq, &o);
	o = run_merge(&b);
	check_bounded("10000 sessions", "merge", &o, STREAM_BOUND);
	oq = run_merge(&q);
	check_linear("merge", &oq, &o);
	/* The sorter sets up its buffers for every session: a quarter of
	 * the sessions (against a sixteenth) keeps sort and show to seconds
	 * under AddressSanitizer. */
	{
		bytes s16 = sessions_log(sessions / 16);

		o = run_sort(&q, EV_SORT_AUTO);
		check_bounded("2500 sessions", "sort", &o, STREAM_BOUND);
		assert_int_equal(o.status, EV_OK);
		assert_int_equal(o.sessions, sessions / 4);
		assert_int_equal(o.events, 2u * (sessions / 4));
		oq = run_sort(&s16, EV_SORT_AUTO);
		check_linear("sort", &oq, &o);
		o = run_show(&q);
		check_bounded("2500 sessions", "show", &o, STREAM_BOUND);
		assert_int_equal(o.status, EV_OK);
		assert_int_equal(o.sessions, sessions / 4);
		oq = run_show(&s16);
		check_linear("show", &oq, &o);
		o = run_export(&q, EV_EXPORT_PERFETTO);
		check_bounded("2500 sessions", "export", &o, STREAM_BOUND);
		assert_int_equal(o.status, EV_OK);
		oq = run_export(&s16, EV_EXPORT_PERFETTO);
		check_linear("export", &oq, &o);
		free(s16.p);
	}
	o = run_stats(&b);
	check_bounded("10000 sessions", "stats", &o, 1 * MIB);
	assert_int_equal(o.status, EV_END);
	oq = run_stats(&q);
	check_linear("stats", &oq, &o);
	o = run_report(&b);
	check_bounded("10000 sessions", "report", &o, REPORT_BOUND);
	assert_int_equal(o.status, EV_END);
	oq = run_report(&q);
	check_linear("report", &oq, &o);
	/* A thread per session: --threads keeps each one (about 230 bytes),
	 * linear up to EV_STATS_MAX_THREADS. */
	o = run_stats_as(&b, 1);
	check_bounded("10000 sessions", "stats --threads", &o, STREAM_BOUND);
	oq = run_stats_as(&q, 1);
	check_linear("stats --threads", &oq, &o);
	free(b.p);
	free(q.p);
	(void)state;
}

/* ------------------------------------------------------------------------
 * Many distinct identifiers
 * ---------------------------------------------------------------------- */

static bytes capset_log(unsigned capsets)
{
	bytes b = { 0 };

	put_small_header(&b);
	for (unsigned i = 0; i < capsets; i++) {
		put16(&b, 25);
		put64(&b, 100 + i);
		put32(&b, i);
		put16(&b, 2);
	}
	put_data_end(&b);
	return b;
}

/* 60000 CAPSET_CREATE events with distinct ids in one session: the
 * tools that track capsets (validate, filter by process, merge) must not
 * go quadratic; past EVI_FILTER_MAX_CAPSETS (65536) a filter by process
 * stops with EV_ELIMIT instead of growing on. */
static void test_many_capsets(void **state)
{
	bytes b = capset_log(60000);
	outcome o;

	o = run_reader(&b);
	check_bounded("60000 capsets", "reader", &o, 1 * MIB);
	o = run_validate(&b);
	check_bounded("60000 capsets", "validate", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	o = run_filter(&b, 1);
	check_bounded("60000 capsets", "filter -p", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	o = run_merge(&b);
	check_bounded("60000 capsets", "merge", &o, STREAM_BOUND);
	o = run_export(&b, EV_EXPORT_PERFETTO);
	check_bounded("60000 capsets", "export", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	/* Past EV_REPORT_MAX_PROCESSES a report stops with EV_ELIMIT. */
	o = run_report(&b);
	check_bounded("60000 capsets", "report", &o, REPORT_BOUND);
	assert_int_equal(o.status, EV_ELIMIT);
	free(b.p);

	b = capset_log(200000);
	o = run_filter(&b, 1);
	check_bounded("200000 capsets", "filter -p", &o, STREAM_BOUND);
	assert_int_equal(o.status, EV_ELIMIT);
	o = run_merge(&b);
	check_bounded("200000 capsets", "merge", &o, STREAM_BOUND);
	free(b.p);
	(void)state;
}

/* ------------------------------------------------------------------------
 * Many labelled threads
 * ---------------------------------------------------------------------- */

/* `threads` THREAD_LABEL events of distinct threads that never finish,
 * each label `len` bytes. */
static bytes label_log(unsigned threads, uint16_t len)
{
	bytes b = { 0 };
	uint8_t text[256];

	memset(text, 'x', sizeof text);
	put_header_start(&b);
	put_type(&b, 44, -1, "Thread label");
	put_header_end(&b);
	for (unsigned i = 0; i < threads; i++) {
		put16(&b, 44);
		put64(&b, 100 + i);
		put16(&b, (uint16_t)(4 + len));
		put32(&b, i + 1);
		put(&b, text, len);
	}
	put_data_end(&b);
	return b;
}

/* 100000 labelled threads alive at once: export keeps at most
 * EV_EXPORT_MAX_LABELS labels (of at most 255 bytes each), so its
 * memory stays bounded, and grows linearly in all. */
static void test_many_labels(void **state)
{
	bytes b = label_log(100000, 250), q = label_log(25000, 250);
	outcome o, oq;

	o = run_export(&b, EV_EXPORT_PERFETTO);
	check_bounded("100000 labels", "export", &o, 2 * STREAM_BOUND);
	assert_int_equal(o.status, EV_OK);
	oq = run_export(&q, EV_EXPORT_PERFETTO);
	check_linear("export", &oq, &o);
	free(b.p);
	free(q.p);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_huge_lengths),
		cmocka_unit_test(test_header_endless),
		cmocka_unit_test(test_header_all_types),
		cmocka_unit_test(test_many_empty_blocks),
		cmocka_unit_test(test_gzip_bomb),
		cmocka_unit_test(test_enormous_variable_events),
		cmocka_unit_test(test_many_sessions),
		cmocka_unit_test(test_many_capsets),
		cmocka_unit_test(test_many_labels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
