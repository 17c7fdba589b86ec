/*
 * Tests of evtool view's index (include/evtool/view.h) on the real GHC
 * logs of testdata/ and the corpus: its rows hold each capability's
 * mutator and GC time exactly as the stats accumulator counts them
 * (`evtool stats --caps`), whatever the budget forces the bucket width
 * to; a tile's spans add up to the whole; the block offsets lead back to
 * the first event of a time; memory stays within the budget.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "evtool/evtool.h"
#include "support.h"

/* Indexes the first session of `path` with a budget of `cells`; NULL for
 * a log of several sessions (the index reads the first), which the
 * callers skip. */
static ev_view_index *index_log(const char *path, size_t cells)
{
	ev_reader *r;
	ev_view_index *ix;
	int rc;

	assert_int_equal(ev_reader_open_path(&r, path, 0), EV_OK);
	assert_int_equal(ev_view_index_new(&ix, cells), EV_OK);
	rc = ev_view_index_read(ix, r);
	assert_true(rc == EV_END || rc == EV_ETRUNCATED);
	if (rc == EV_END && ev_reader_next_session(r) == EV_OK) {
		ev_view_index_free(ix);
		ix = NULL;
	}
	ev_reader_free(r);
	return ix;
}

static ev_stats *stats_of(const char *path)
{
	ev_reader *r;
	ev_stats *st;
	int rc;

	assert_int_equal(ev_reader_open_path(&r, path, 0), EV_OK);
	assert_int_equal(ev_stats_new(&st), EV_OK);
	rc = ev_reader_feed(r, ev_stats_consumer(), st);
	assert_true(rc == EV_END || rc == EV_ETRUNCATED);
	assert_int_equal(ev_stats_finish(st), EV_OK);
	ev_reader_free(r);
	return st;
}

/* The end of a range from 0 that covers every bucket and, cut into
 * `width` spans, cuts no bucket. */
static uint64_t aligned_end(const ev_view_index *ix, size_t width)
{
	uint64_t w = ev_view_bucket_ns(ix) * width;
	return (ev_view_end(ix) / w + 1) * w;
}

/* `cap`'s figures over [0, aligned end) in `width` spans, summed. */
static ev_view_cell whole(const ev_view_index *ix, uint16_t cap, size_t width)
{
	ev_view_cell *cells = calloc(width, sizeof *cells), sum = { 0 };

	assert_non_null(cells);
	assert_int_equal(ev_view_tile(ix, cap, 0, aligned_end(ix, width), width,
				      cells), EV_OK);
	for (size_t i = 0; i < width; i++) {
		sum.run_ns += cells[i].run_ns;
		sum.gc_ns += cells[i].gc_ns;
		sum.idle_ns += cells[i].idle_ns;
	}
	free(cells);
	return sum;
}

/* The heap's bytes allocated over the run and its largest live bytes
 * are the accumulator's; its largest size (HEAP_SIZE's) is at most the
 * accumulator's, which MEM_RETURN may raise. */
static void heap_agrees(const char *path, const ev_view_index *ix,
			const ev_stats *st)
{
	uint64_t allocated = 0, live = 0, mem = 0;
	ev_view_heap_cell cells[16], sum = { 0, 0, 0 };

	for (size_t i = 0; i < ev_stats_process_count(st); i++) {
		const ev_stats_process *p = ev_stats_process_at(st, i);
		allocated += p->allocated_bytes;
		live = p->max_live_bytes > live ? p->max_live_bytes : live;
		mem = p->max_mem_bytes > mem ? p->max_mem_bytes : mem;
	}
	assert_int_equal(ev_view_heap(ix, 0, aligned_end(ix, 16), 16, cells),
			 EV_OK);
	for (size_t i = 0; i < 16; i++) {
		sum.allocated_bytes += cells[i].allocated_bytes;
		if (cells[i].live_bytes > sum.live_bytes)
			sum.live_bytes = cells[i].live_bytes;
		if (cells[i].size_bytes > sum.size_bytes)
			sum.size_bytes = cells[i].size_bytes;
	}
	if (sum.allocated_bytes != allocated)
		fail_msg("%s: allocated %llu, stats %llu", path,
			 (unsigned long long)sum.allocated_bytes,
			 (unsigned long long)allocated);
	assert_int_equal(sum.live_bytes, live);
	assert_true(sum.size_bytes <= mem);
}

/* The sparks created and converted over the run, summed over the caps,
 * are the accumulator's. */
static void sparks_agree(const char *path, const ev_view_index *ix,
			 const ev_stats *st)
{
	uint64_t created = 0, converted = 0, got_created = 0, got_converted = 0;
	ev_view_spark_cell cells[16];

	for (size_t i = 0; i < ev_stats_process_count(st); i++) {
		created += ev_stats_process_at(st, i)->sparks.created;
		converted += ev_stats_process_at(st, i)->sparks.converted;
	}
	for (uint16_t cap = 0; cap < ev_view_cap_count(ix); cap++) {
		assert_int_equal(ev_view_sparks(ix, cap, 0, aligned_end(ix, 16),
						16, cells), EV_OK);
		for (size_t i = 0; i < 16; i++) {
			got_created += cells[i].created;
			got_converted += cells[i].converted;
		}
	}
	if (got_created != created || got_converted != converted)
		fail_msg("%s: sparks %llu created %llu converted, stats %llu %llu",
			 path, (unsigned long long)got_created,
			 (unsigned long long)got_converted,
			 (unsigned long long)created,
			 (unsigned long long)converted);
}

typedef struct counts {
	size_t logs, caps;
} counts;

/* Every capability's mutator and GC time equal the accumulator's, at the
 * default budget and at one that forces a coarse bucket width. */
static void agrees_with_stats(const char *path, void *ctx)
{
	counts *n = ctx;
	ev_view_index *fine = index_log(path, 0);
	ev_view_index *coarse = index_log(path, 4 * EV_VIEW_MIN_ROW);
	ev_stats *st;

	if (!fine) {
		ev_view_index_free(coarse);
		return;
	}
	st = stats_of(path);
	assert_true(ev_view_bucket_ns(coarse) >= ev_view_bucket_ns(fine));
	for (size_t i = 0; i < ev_stats_capability_count(st); i++) {
		const ev_stats_capability *c = ev_stats_capability_at(st, i);
		ev_view_cell a = whole(fine, c->cap, 1);
		ev_view_cell b = whole(coarse, c->cap, 1);
		/* Each span is a whole number of buckets: still exact. */
		ev_view_cell d = whole(fine, c->cap, 16);

		if (a.run_ns != c->mutator_ns || a.gc_ns != c->gc_ns)
			fail_msg("%s cap %u: index %llu/%llu ns, stats %llu/%llu",
				 path, c->cap, (unsigned long long)a.run_ns,
				 (unsigned long long)a.gc_ns,
				 (unsigned long long)c->mutator_ns,
				 (unsigned long long)c->gc_ns);
		assert_int_equal(b.run_ns, c->mutator_ns);
		assert_int_equal(b.gc_ns, c->gc_ns);
		assert_int_equal(d.run_ns, c->mutator_ns);
		assert_int_equal(d.gc_ns, c->gc_ns);
		/* Idle is the rest of the log's time. */
		assert_int_equal(a.run_ns + a.gc_ns + a.idle_ns,
				 ev_view_end(fine) - ev_view_start(fine));
		n->caps++;
	}
	heap_agrees(path, fine, st);
	heap_agrees(path, coarse, st);
	sparks_agree(path, fine, st);
	sparks_agree(path, coarse, st);
	n->logs++;
	ev_stats_free(st);
	ev_view_index_free(fine);
	ev_view_index_free(coarse);
}

static void test_caps_agree_with_stats(void **state)
{
	counts n = { 0, 0 };

	(void)state;
	assert_true(ts_for_each_log(EVTOOL_TESTDATA, agrees_with_stats, &n) >= 10);
	assert_true(n.logs >= 10);
	assert_true(n.caps >= 15);
}

static void test_corpus_agrees_with_stats(void **state)
{
	counts n = { 0, 0 };

	(void)state;
	if (ts_for_each_log(EVTOOL_CORPUS, agrees_with_stats, &n) == 0)
		skip();
	assert_true(n.logs > 0);
}

/* The first event of `cap` at or after `time` found by a reader started
 * at `at` (the whole log from its start when `at` is the data offset). */
static uint64_t first_at(int fd, const ev_view_index *ix, uint64_t at,
			 uint16_t cap, uint64_t time)
{
	ev_view_source src = { fd, ev_view_data_offset(ix), at, 0 };
	ev_reader *r;
	ev_event ev;
	uint64_t found = UINT64_MAX;

	assert_int_equal(ev_reader_open_fn(&r, ev_view_source_read, &src,
					   "log", EV_READER_RAW), EV_OK);
	while (ev_reader_next(r, &ev) == EV_OK)
		if (ev.type != EV_BLOCK_MARKER && ev.cap == cap &&
		    ev.time >= time) {
			found = at + (ev.offset - ev_view_data_offset(ix));
			break;
		}
	ev_reader_free(r);
	return found;
}

/* From the block the index names for a time, a reader meets the same
 * first event of that time as a reader of the whole log. */
static void blocks_lead_back(const char *path, void *ctx)
{
	counts *n = ctx;
	ev_view_index *ix = index_log(path, 4 * EV_VIEW_MIN_ROW);
	int fd;

	if (!ix)
		return;
	assert_true((fd = open(path, O_RDONLY)) >= 0);
	for (uint16_t cap = 0; cap < ev_view_cap_count(ix); cap++)
		for (unsigned k = 0; k <= 8; k++) {
			uint64_t t = ev_view_start(ix) +
				     (ev_view_end(ix) - ev_view_start(ix)) / 8 * k;
			uint64_t at = ev_view_block_at(ix, cap, t);
			uint64_t want = first_at(fd, ix, ev_view_data_offset(ix),
						 cap, t);

			assert_true(at >= ev_view_data_offset(ix));
			assert_int_equal(first_at(fd, ix, at, cap, t), want);
			n->caps++;
		}
	n->logs++;
	close(fd);
	ev_view_index_free(ix);
}

static void test_blocks_lead_back(void **state)
{
	counts n = { 0, 0 };

	(void)state;
	ts_for_each_log(EVTOOL_TESTDATA, blocks_lead_back, &n);
	assert_true(n.logs >= 10);
}

/* Many capabilities in a small budget: the rows shrink, memory stays
 * within it, the figures stay whole. */
static void test_memory_bounded(void **state)
{
	char *path = ts_path(EVTOOL_TESTDATA, "threads-n4.eventlog");
	ev_view_index *ix = index_log(path, EV_VIEW_MIN_ROW * 3);
	ev_view_index *big = index_log(path, 0);

	(void)state;
	assert_int_equal(ev_view_cap_count(ix), 4);
	/* 4 caps and the global row at the smallest row length. */
	assert_true(ev_view_memory(ix) < 5 * EV_VIEW_MIN_ROW * 64 + 65536);
	assert_true(ev_view_memory(big) <= (size_t)EV_VIEW_DEFAULT_CELLS * 72);
	for (uint16_t cap = 0; cap < 4; cap++) {
		assert_int_equal(whole(ix, cap, 1).run_ns,
				 whole(big, cap, 1).run_ns);
		assert_int_equal(whole(ix, cap, 1).gc_ns,
				 whole(big, cap, 1).gc_ns);
	}
	ev_view_index_free(ix);
	ev_view_index_free(big);
	free(path);
}

/* The user's markers and messages and the threads' labels are kept. */
static void test_texts(void **state)
{
	char *path = ts_path(EVTOOL_TESTDATA, "user-n1.eventlog");
	ev_view_index *ix = index_log(path, 0);
	size_t kinds[3] = { 0, 0, 0 };

	(void)state;
	for (size_t i = 0; i < ev_view_text_count(ix); i++) {
		const ev_view_text *t = ev_view_text_at(ix, i);
		assert_true(t->kind <= EV_VIEW_LABEL);
		assert_true(strlen(t->text) <= EV_VIEW_TEXT_MAX);
		kinds[t->kind]++;
	}
	assert_true(kinds[EV_VIEW_MARKER] > 0);
	assert_null(ev_view_text_at(ix, ev_view_text_count(ix)));
	ev_view_index_free(ix);
	free(path);
}

/* ---- exact tiles against a replay of the whole log ---- */

#define SPANS 7

typedef struct reference {
	uint64_t from, to;
	ev_view_cell cells[SPANS];
	int running, in_gc;
	uint32_t tid;
	uint64_t run_start, gc_start;
} reference;

static uint64_t ref_edge(const reference *f, size_t i)
{
	return f->from + (f->to - f->from) * i / SPANS;
}

static void ref_add(reference *f, uint64_t a, uint64_t b, int gc)
{
	for (size_t i = 0; i < SPANS; i++) {
		uint64_t lo = ref_edge(f, i), hi = ref_edge(f, i + 1);
		uint64_t x = a > lo ? a : lo, y = b < hi ? b : hi;
		if (y > x)
			*(gc ? &f->cells[i].gc_ns : &f->cells[i].run_ns) += y - x;
	}
}

/* `cap`'s runs and GCs clipped to [from, to) in SPANS spans, from every
 * event of the log (written from the rules, sharing no code with the
 * index); what is open at the end counts up to `to`. */
static void reference_of(const char *path, uint16_t cap, reference *f)
{
	ev_reader *r;
	ev_event ev;

	assert_int_equal(ev_reader_open_path(&r, path, 0), EV_OK);
	while (ev_reader_next(r, &ev) == EV_OK) {
		if (ev.cap != cap || ev.type == EV_BLOCK_MARKER)
			continue;
		if (ev.type == EV_RUN_THREAD) {
			f->running = 1;
			f->tid = ev_load32(ev.payload);
			f->run_start = ev.time;
		} else if (ev.type == EV_STOP_THREAD && f->running &&
			   f->tid == ev_load32(ev.payload)) {
			ref_add(f, f->run_start, ev.time, 0);
			f->running = 0;
		} else if (ev.type == EV_GC_START) {
			f->in_gc = 1;
			f->gc_start = ev.time;
		} else if (ev.type == EV_GC_END) {
			if (f->in_gc)
				ref_add(f, f->gc_start, ev.time, 1);
			f->in_gc = 0;
		}
	}
	if (f->running)
		ref_add(f, f->run_start, f->to, 0);
	if (f->in_gc)
		ref_add(f, f->gc_start, f->to, 1);
	ev_reader_free(r);
}

/* Checks ev_view_tile_exact over [from, to) of `cap` against the replay. */
static void exact_range(const char *path, const ev_view_index *ix, int fd,
			uint16_t cap, uint64_t from, uint64_t to)
{
	reference f;
	ev_view_cell got[SPANS];
	ev_view_source src = { fd, ev_view_data_offset(ix),
			       ev_view_block_at(ix, cap, from), 0 };
	ev_reader *r;

	memset(&f, 0, sizeof f);
	f.from = from;
	f.to = to;
	reference_of(path, cap, &f);
	assert_int_equal(ev_reader_open_fn(&r, ev_view_source_read, &src,
					   "log", EV_READER_RAW), EV_OK);
	assert_int_equal(ev_view_tile_exact(ix, r, cap, from, to, SPANS, got),
			 EV_OK);
	ev_reader_free(r);
	for (size_t i = 0; i < SPANS; i++)
		if (got[i].run_ns != f.cells[i].run_ns ||
		    got[i].gc_ns != f.cells[i].gc_ns)
			fail_msg("%s cap %u [%llu, %llu) span %zu: exact "
				 "%llu/%llu, replay %llu/%llu", path, cap,
				 (unsigned long long)from,
				 (unsigned long long)to, i,
				 (unsigned long long)got[i].run_ns,
				 (unsigned long long)got[i].gc_ns,
				 (unsigned long long)f.cells[i].run_ns,
				 (unsigned long long)f.cells[i].gc_ns);
}

/* The exact tiles of ranges of every size, at odd places and at bucket
 * starts (where a block's open run is most often still open), equal the
 * replay of the whole log. */
static void exact_agrees(const char *path, void *ctx)
{
	counts *n = ctx;
	ev_view_index *ix = index_log(path, 0);
	int fd;

	if (!ix || ev_view_end(ix) <= ev_view_start(ix)) {
		ev_view_index_free(ix);
		return;
	}
	assert_true((fd = open(path, O_RDONLY)) >= 0);
	for (uint16_t cap = 0; cap < ev_view_cap_count(ix); cap++) {
		uint64_t len = ev_view_end(ix) - ev_view_start(ix);
		uint64_t w = ev_view_bucket_ns(ix);
		for (unsigned k = 0; k < 6; k++) {
			uint64_t from = ev_view_start(ix) + len / 7 * k + 12345;
			exact_range(path, ix, fd, cap, from,
				    from + (len >> (2 * k)) + 777);
		}
		for (unsigned k = 0; k < 40; k++) {
			uint64_t from = (ev_view_start(ix) + len / 40 * k) / w * w;
			exact_range(path, ix, fd, cap, from, from + 5 * w);
		}
		n->caps++;
	}
	n->logs++;
	close(fd);
	ev_view_index_free(ix);
}

/* `name` of testdata re-blocked into blocks of at most `max` bytes, in
 * `dir`: many blocks, with runs and GCs open across their starts. */
static char *reblocked(const char *dir, const char *name, uint32_t max)
{
	char *in = ts_path(EVTOOL_TESTDATA, name), *out = ts_path(dir, name);
	ev_writer_options opts = EV_WRITER_OPTIONS_INIT;
	ev_reader *r;
	ev_sink *sink;
	ev_writer *w;
	ev_event ev;

	opts.mode = EV_WRITE_REBLOCK;
	opts.max_block_size = max;
	assert_int_equal(ev_reader_open_path(&r, in, 0), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	assert_int_equal(ev_sink_open_path(&sink, out), EV_OK);
	assert_int_equal(ev_writer_open(&w, sink, ev_reader_header(r), &opts),
			 EV_OK);
	while (ev_reader_next(r, &ev) == EV_OK)
		assert_int_equal(ev_writer_write(w, &ev), EV_OK);
	assert_int_equal(ev_writer_finish(w), EV_OK);
	assert_int_equal(ev_sink_commit(sink), EV_OK);
	ev_writer_free(w);
	ev_sink_free(sink);
	ev_reader_free(r);
	free(in);
	return out;
}

static void test_exact_tiles(void **state)
{
	static const char *const names[] = { "threads-n2.eventlog",
					      "gc-n2.eventlog",
					      "sparks-n2.eventlog" };
	counts n = { 0, 0 };
	char *dir = ts_temp_dir();

	(void)state;
	ts_for_each_log(EVTOOL_TESTDATA, exact_agrees, &n);
	assert_true(n.logs >= 10);
	ts_for_each_log(EVTOOL_CORPUS, exact_agrees, &n);
	/* Blocks of 600 bytes: what is open at a block's start matters. */
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char *path = reblocked(dir, names[i], 600);
		counts m = { 0, 0 };
		exact_agrees(path, &m);
		blocks_lead_back(path, &m);
		assert_int_equal(m.logs, 2);
		free(path);
	}
	ts_remove_dir(dir);
	free(dir);
}

/* Each thread's runs, run time, migrations and label are those of the
 * stats accumulator (`evtool stats --threads`). */
static void threads_agree(const char *path, void *ctx)
{
	counts *n = ctx;
	ev_view_index *ix = index_log(path, 0);
	ev_reader *r;
	ev_stats *st;

	if (!ix)
		return;
	assert_int_equal(ev_reader_open_path(&r, path, 0), EV_OK);
	assert_int_equal(ev_stats_new(&st), EV_OK);
	assert_int_equal(ev_stats_keep_threads(st), EV_OK);
	ev_reader_feed(r, ev_stats_consumer(), st);
	assert_int_equal(ev_stats_finish(st), EV_OK);
	for (size_t i = 0; i < ev_stats_thread_count(st); i++) {
		const ev_stats_thread *want = ev_stats_thread_at(st, i);
		const ev_view_thread *got = ev_view_thread_of(ix, want->tid);

		assert_non_null(got);
		if (got->runs != want->runs || got->run_ns != want->run_ns ||
		    got->migrations != want->migrations)
			fail_msg("%s thread %u: %llu runs %llu ns %llu migrations, "
				 "stats %llu %llu %llu", path, want->tid,
				 (unsigned long long)got->runs,
				 (unsigned long long)got->run_ns,
				 (unsigned long long)got->migrations,
				 (unsigned long long)want->runs,
				 (unsigned long long)want->run_ns,
				 (unsigned long long)want->migrations);
		if (want->label)
			assert_true(got->label &&
				    strncmp(got->label, want->label,
					    strlen(got->label)) == 0);
		if (want->stops_by_reason[EV_STATS_STOP_FINISHED])
			assert_true(got->finished_ns != UINT64_MAX);
		n->caps++;
	}
	assert_int_equal(ev_view_thread_count(ix), ev_stats_thread_count(st));
	n->logs++;
	ev_stats_free(st);
	ev_reader_free(r);
	ev_view_index_free(ix);
}

static void test_threads(void **state)
{
	counts n = { 0, 0 };

	(void)state;
	ts_for_each_log(EVTOOL_TESTDATA, threads_agree, &n);
	assert_true(n.logs >= 10);
	assert_true(n.caps >= 50);
	ts_for_each_log(EVTOOL_CORPUS, threads_agree, &n);
}

static void test_bad_arguments(void **state)
{
	ev_view_index *ix;
	ev_view_cell c;

	(void)state;
	assert_int_equal(ev_view_index_new(&ix, 0), EV_OK);
	assert_int_equal(ev_view_tile(ix, 0, 5, 5, 1, &c), EV_EINVAL);
	assert_int_equal(ev_view_tile(ix, 0, 0, 5, 0, &c), EV_EINVAL);
	/* An empty index answers idle nothing, run nothing. */
	assert_int_equal(ev_view_tile(ix, 7, 0, 5, 1, &c), EV_OK);
	assert_int_equal(c.run_ns + c.gc_ns + c.idle_ns, 0);
	ev_view_index_free(ix);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caps_agree_with_stats),
		cmocka_unit_test(test_corpus_agrees_with_stats),
		cmocka_unit_test(test_blocks_lead_back),
		cmocka_unit_test(test_memory_bounded),
		cmocka_unit_test(test_exact_tiles),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_texts),
		cmocka_unit_test(test_bad_arguments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
