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
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "evtool/evtool.h"
#include "internal.h"
#include "support.h"
#include "view_internal.h"

/* Indexes the first session of `path` with a budget of `cells`; NULL for
 * a log of several sessions (the index reads the first), which the
 * callers skip. */
static ev_view_index *index_log(const char *path, size_t cells)
{
	ev_reader *r;
	ev_view_index *ix;
	int rc;

	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	assert_int_equal(ev_view_index_new(&ix, cells, NULL), EV_OK);
	rc = ev_view_index_read(ix, r);
	assert_true(rc == EV_END || rc == EV_ETRUNCATED);
	if (rc == EV_ETRUNCATED) /* a file that will not grow: it ends */
		ev_view_index_finish(ix);
	if (rc == EV_END && ev_reader_next_session(r) == EV_OK) {
		ev_view_index_free(ix);
		ix = NULL;
	}
	ev_reader_free(r);
	return ix;
}

/* The accumulator of `path`, finished, keeping its threads and (kinds
 * != 0) its spans. */
static ev_stats *stats_kept(const char *path, int threads, unsigned spans)
{
	ev_reader *r;
	ev_stats *st;
	int rc;

	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	assert_int_equal(ev_stats_new(&st, NULL), EV_OK);
	if (threads)
		assert_int_equal(ev_stats_keep_threads(st), EV_OK);
	if (spans)
		assert_int_equal(ev_stats_keep_spans(st, spans), EV_OK);
	/* the consumer's finish completes the figures */
	rc = ev_reader_feed(r, ev_stats_consumer(), st);
	assert_true(rc == EV_END || rc == EV_ETRUNCATED);
	ev_reader_free(r);
	return st;
}

static ev_stats *stats_of(const char *path)
{
	ev_reader *r;
	ev_stats *st;
	int rc;

	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	assert_int_equal(ev_stats_new(&st, NULL), EV_OK);
	rc = ev_reader_feed(r, ev_stats_consumer(), st);
	assert_true(rc == EV_END || rc == EV_ETRUNCATED);
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

/* Each process's heap apart (ev_view_heap_of, by its capset): its bytes
 * allocated and largest live bytes are the accumulator's for it. */
static void procs_heap_agree(const char *path, const ev_view_index *ix,
			     const ev_stats *st)
{
	for (size_t i = 0; i < ev_stats_process_count(st); i++) {
		const ev_stats_process *p = ev_stats_process_at(st, i);
		ev_view_heap_cell cells[4], sum = { 0, 0, 0 };

		if (!p->have_heap || !p->allocated_bytes)
			continue;
		assert_int_equal(ev_view_heap_of(ix, p->capset, 0,
						 aligned_end(ix, 4), 4, cells),
				 EV_OK);
		for (size_t k = 0; k < 4; k++) {
			sum.allocated_bytes += cells[k].allocated_bytes;
			if (cells[k].live_bytes > sum.live_bytes)
				sum.live_bytes = cells[k].live_bytes;
		}
		if (sum.allocated_bytes != p->allocated_bytes ||
		    sum.live_bytes != p->max_live_bytes)
			fail_msg("%s capset %u: allocated %llu live %llu, stats "
				 "%llu %llu", path, p->capset,
				 (unsigned long long)sum.allocated_bytes,
				 (unsigned long long)sum.live_bytes,
				 (unsigned long long)p->allocated_bytes,
				 (unsigned long long)p->max_live_bytes);
	}
	assert_int_equal(ev_view_heap_of(ix, UINT32_MAX - 1, 0, 1, 1, NULL),
			 EV_EINVAL);
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
	procs_heap_agree(path, ix, st);
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

/* Whether two sets of pauses have the same figures and longest pauses. */
static int same_pauses(const ev_stats_pauses *a, const ev_stats_pauses *b)
{
	if (a->count != b->count || a->total_ns != b->total_ns ||
	    a->min_ns != b->min_ns || a->max_ns != b->max_ns ||
	    a->p50_ns != b->p50_ns || a->p90_ns != b->p90_ns ||
	    a->p99_ns != b->p99_ns || a->n_longest != b->n_longest)
		return 0;
	for (size_t i = 0; i < a->n_longest; i++) {
		const ev_stats_pause *x = &a->longest[i], *y = &b->longest[i];
		if (x->start_ns != y->start_ns ||
		    x->duration_ns != y->duration_ns || x->gen != y->gen ||
		    x->cap != y->cap)
			return 0;
	}
	return 1;
}

/* `cap`'s HEAP_ALLOCATED totals in [from, to) from its events. */
static void alloc_exact(const ev_view_index *ix, int fd, uint16_t cap,
			uint64_t from, uint64_t to, ev_view_alloc *a)
{
	ev_view_source src = { fd, ev_view_data_offset(ix),
			       ev_view_block_at(ix, cap, from), 0 };
	ev_reader *r;

	assert_int_equal(ev_reader_open_fn(&r, ev_view_source_read, &src,
					   "log", EV_READER_RAW, NULL), EV_OK);
	assert_int_equal(ev_view_alloc_exact(ix, r, cap, from, to, a), EV_OK);
	ev_reader_free(r);
}

/* At random ranges, each cap's first and last HEAP_ALLOCATED totals kept
 * by the index are those of the buckets the range covers whole joined
 * with the events of the parts that cut one (what answers past
 * EV_VIEW_MAX_ALLOCS), and those of the events alone. */
static void allocs_agree(const char *path, const ev_view_index *ix)
{
	uint64_t w = ev_view_bucket_ns(ix), span = ev_view_end(ix) + 1;
	size_t caps = ev_view_cap_count(ix);
	ev_view_alloc kept[64];
	int fd = open(path, O_RDONLY);
	unsigned seed = 25;

	assert_true(fd >= 0);
	for (int k = 0; k < 8 && caps <= 64; k++) {
		uint64_t from = (uint64_t)rand_r(&seed) % span;
		uint64_t to = from + 1 + (uint64_t)rand_r(&seed) % (span - from);
		uint64_t a = (from + w - 1) / w * w, b = to / w * w;
		assert_int_equal(ev_view_alloc_kept(ix, from, to, kept, caps), 1);
		for (uint16_t cap = 0; cap < caps; cap++) {
			ev_view_alloc whole, part, all;
			alloc_exact(ix, fd, cap, from, to, &all);
			if (b > a) {
				memset(&whole, 0, sizeof whole);
				if (from < a)
					alloc_exact(ix, fd, cap, from, a, &whole);
				assert_int_equal(ev_view_alloc_whole(ix, cap, a, b,
								     &part), EV_OK);
				ev_view_alloc_join(&whole, &part);
				if (b < to) {
					alloc_exact(ix, fd, cap, b, to, &part);
					ev_view_alloc_join(&whole, &part);
				}
			} else {
				whole = all;
			}
			if (kept[cap].have != all.have ||
			    kept[cap].have != whole.have ||
			    (all.have && (kept[cap].first != all.first ||
					  kept[cap].last != all.last ||
					  whole.first != all.first ||
					  whole.last != all.last)))
				fail_msg("%s cap %u [%llu, %llu): kept %llu-%llu, "
					 "buckets %llu-%llu, events %llu-%llu",
					 path, cap, (unsigned long long)from,
					 (unsigned long long)to,
					 (unsigned long long)kept[cap].first,
					 (unsigned long long)kept[cap].last,
					 (unsigned long long)whole.first,
					 (unsigned long long)whole.last,
					 (unsigned long long)all.first,
					 (unsigned long long)all.last);
		}
	}
	close(fd);
}

/* A window of the whole run: each process's GC pauses (count, total,
 * min, max, percentiles, the longest) are the accumulator's, and the
 * capabilities' last HEAP_ALLOCATED totals add up to its bytes
 * allocated (a whole run counts them from 0), at the default budget and
 * at a coarse one (the buckets' first and last totals merged); the
 * totals of random ranges agree (allocs_agree). */
static void window_agrees(const char *path, void *ctx)
{
	counts *n = ctx;
	ev_view_index *ix[2] = { index_log(path, 0),
				 index_log(path, 4 * EV_VIEW_MIN_ROW) };
	ev_stats *st;
	uint64_t allocated = 0;

	if (!ix[0]) {
		ev_view_index_free(ix[1]);
		return;
	}
	st = stats_of(path);
	for (size_t i = 0; i < ev_stats_process_count(st); i++)
		allocated += ev_stats_process_at(st, i)->allocated_bytes;
	for (int k = 0; k < 2; k++) {
		uint64_t to = aligned_end(ix[k], 1), sum = 0;
		for (size_t i = 0; i < ev_stats_process_count(st); i++) {
			const ev_stats_pauses *want =
				ev_stats_pauses_at(st, i, EV_STATS_ALL_GENS);
			ev_stats_pauses got;
			int complete;
			assert_int_equal(ev_view_pauses(ix[k],
					 ev_stats_process_at(st, i)->capset, 0,
					 to, &got, &complete), EV_OK);
			assert_true(complete);
			if (!want) {
				assert_int_equal(got.count, 0);
				continue;
			}
			if (!same_pauses(&got, want))
				fail_msg("%s process %zu: %llu pauses, %llu ns; "
					 "stats %llu, %llu ns", path, i,
					 (unsigned long long)got.count,
					 (unsigned long long)got.total_ns,
					 (unsigned long long)want->count,
					 (unsigned long long)want->total_ns);
			n->caps += got.count > 1;
		}
		for (size_t cap = 0; cap < ev_view_cap_count(ix[k]); cap++) {
			ev_view_alloc a;
			assert_int_equal(ev_view_alloc_whole(ix[k], (uint16_t)cap,
							     0, to, &a), EV_OK);
			assert_false(a.have_work);
			sum += a.have ? a.last : 0;
		}
		if (sum != allocated)
			fail_msg("%s: %llu bytes allocated, stats %llu", path,
				 (unsigned long long)sum,
				 (unsigned long long)allocated);
	}
	allocs_agree(path, ix[0]);
	allocs_agree(path, ix[1]);
	n->logs++;
	ev_stats_free(st);
	ev_view_index_free(ix[0]);
	ev_view_index_free(ix[1]);
}

static void test_window(void **state)
{
	counts n = { 0, 0 };

	(void)state;
	assert_true(ts_for_each_log(EVTOOL_TESTDATA, window_agrees, &n) >= 10);
	ts_for_each_log(EVTOOL_CORPUS, window_agrees, &n);
	assert_true(n.logs >= 10);
	assert_true(n.caps >= 10); /* processes with several pauses */
}

/* Past their bounds: gc-n2's GC and HEAP_ALLOCATED events fed again and
 * again, each pass 2^26 ns later, until more than EV_VIEW_MAX_PAUSES
 * pauses and EV_VIEW_MAX_ALLOCS totals came. The first pass's pauses are
 * still stats' and complete; a range past the first dropped says it is
 * not; its totals come from the buckets, those of the first pass. */
typedef struct fed {
	ev_event *ev;
	uint8_t *bytes;
	size_t n, alloc, used, bytes_alloc;
} fed;

static void fed_events(const char *path, fed *f)
{
	ev_reader *r;
	ev_event ev;

	memset(f, 0, sizeof *f);
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	while (ev_reader_next(r, &ev) == EV_OK) {
		if (ev.type != EV_GC_START && ev.type != EV_GC_END &&
		    ev.type != EV_GC_STATS_GHC && ev.type != EV_HEAP_ALLOCATED)
			continue;
		if (f->n == f->alloc) {
			f->alloc = f->alloc ? 2 * f->alloc : 1024;
			assert_non_null(f->ev = realloc(f->ev, f->alloc *
							   sizeof *f->ev));
		}
		if (f->used + ev.size > f->bytes_alloc) {
			f->bytes_alloc = 2 * (f->used + ev.size);
			assert_non_null(f->bytes = realloc(f->bytes,
							   f->bytes_alloc));
		}
		if (ev.size) /* GC_START and GC_END have none */
			memcpy(f->bytes + f->used, ev.payload, ev.size);
		f->ev[f->n] = ev;
		f->ev[f->n].payload = (const uint8_t *)(uintptr_t)f->used;
		f->used += ev.size;
		f->n++;
	}
	ev_reader_free(r);
}

static void test_window_bounds(void **state)
{
	char *path = ts_path(EVTOOL_TESTDATA, "gc-n2.eventlog");
	const uint64_t pass_ns = (uint64_t)1 << 26;
	ev_stats *st = stats_of(path);
	const ev_stats_pauses *want = ev_stats_pauses_at(st, 0, EV_STATS_ALL_GENS);
	ev_view_index *ix;
	ev_stats_pauses got;
	ev_view_alloc first[2], last[2];
	uint64_t passes, k;
	int complete;
	fed f;

	(void)state;
	fed_events(path, &f);
	assert_true(want && want->count > 100);
	passes = EV_VIEW_MAX_PAUSES / want->count + 2;
	assert_int_equal(ev_view_index_new(&ix, 0, NULL), EV_OK);
	for (k = 0; k < passes; k++)
		for (size_t i = 0; i < f.n; i++) {
			ev_event ev = f.ev[i];
			ev.payload = f.bytes + (uintptr_t)ev.payload;
			ev.time += k * pass_ns;
			assert_int_equal(ev_view_index_add(ix, &ev), EV_OK);
		}
	ev_view_index_finish(ix);
	assert_int_equal(ev_view_pauses_dropped(ix),
			 passes * want->count - EV_VIEW_MAX_PAUSES);
	assert_int_equal(ev_view_pauses(ix, 0, 0, pass_ns, &got, &complete),
			 EV_OK);
	assert_true(complete);
	assert_true(same_pauses(&got, want));
	assert_int_equal(ev_view_pauses(ix, 0, 0, passes * pass_ns, &got,
					&complete), EV_OK);
	assert_false(complete);
	assert_int_equal(got.count, EV_VIEW_MAX_PAUSES);
	/* The totals: the first pass's kept; the last pass's past the bound,
	 * from the buckets, the same. */
	assert_int_equal(ev_view_alloc_kept(ix, 0, pass_ns, first, 2), 1);
	k = passes - 1;
	assert_int_equal(ev_view_alloc_kept(ix, k * pass_ns, passes * pass_ns,
					    last, 2), 0);
	assert_true(ev_view_bucket_ns(ix) <= pass_ns);
	for (uint16_t cap = 0; cap < 2; cap++) {
		assert_int_equal(ev_view_alloc_whole(ix, cap, k * pass_ns,
						     passes * pass_ns,
						     &last[cap]), EV_OK);
		assert_true(first[cap].have && last[cap].have);
		assert_int_equal(first[cap].first, last[cap].first);
		assert_int_equal(first[cap].last, last[cap].last);
	}
	ev_view_index_free(ix);
	ev_stats_free(st);
	free(f.ev);
	free(f.bytes);
	free(path);
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
					   "log", EV_READER_RAW, NULL), EV_OK);
	while (ev_reader_next(r, &ev) == EV_OK)
		if (ev.type != EV_BLOCK_MARKER && ev.cap == cap &&
		    ev.time >= time) {
			found = at + (ev.offset - ev_view_data_offset(ix));
			break;
		}
	ev_reader_free(r);
	return found;
}

/* `cap`'s events from the block at `at` on (type, time, size, payload),
 * folded into one number, and their count: read from the whole log, or
 * through an ev_view_cap_source (the others' blocks hopped over). */
static uint64_t cap_events_of(int fd, const ev_view_index *ix, uint64_t at,
			      uint16_t cap, int hop, uint64_t *count)
{
	ev_view_cap_source src = { { fd, ev_view_data_offset(ix), at, 0 },
				   cap, 0, 0 };
	ev_reader *r;
	ev_event ev;
	uint64_t sum = 0;

	*count = 0;
	assert_int_equal(ev_reader_open_fn(&r, hop ? ev_view_cap_source_read
						   : ev_view_source_read,
					   hop ? (void *)&src : (void *)&src.src,
					   "log", EV_READER_RAW, NULL), EV_OK);
	while (ev_reader_next(r, &ev) == EV_OK)
		if (ev.type != EV_BLOCK_MARKER && ev.cap == cap) {
			sum = sum * 1000003u + ev.type * 7919u + ev.time + ev.size;
			for (uint32_t i = 0; i < ev.size; i++)
				sum = sum * 31u + ev.payload[i];
			(*count)++;
		}
	ev_reader_free(r);
	return sum;
}

/* From the block the index names for a time, a reader meets the same
 * first event of that time as a reader of the whole log; a reader of the
 * capability's blocks only meets the same events. */
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

			uint64_t all, hopped;

			assert_true(at >= ev_view_data_offset(ix));
			assert_int_equal(first_at(fd, ix, at, cap, t), want);
			assert_int_equal(cap_events_of(fd, ix, at, cap, 0, &all),
					 cap_events_of(fd, ix, at, cap, 1, &hopped));
			assert_int_equal(all, hopped);
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
	/* A bucket is 168 bytes (with its GC phases, and the runs and GCs
	 * ending in it, for the window figures): the budget of cells bounds
	 * the bytes. */
	assert_true(ev_view_memory(ix) < 5 * EV_VIEW_MIN_ROW * 168 + 65536);
	assert_true(ev_view_memory(big) <= (size_t)EV_VIEW_DEFAULT_CELLS * 168);
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
	int phase;            /* ThreadScope's GC phase, -1: none */
	uint64_t phase_start;
} reference;

static uint64_t ref_edge(const reference *f, size_t i)
{
	return f->from + (f->to - f->from) * i / SPANS;
}

/* Adds [a, b) to each span's run (gc 0), GC (1) or GC phase (2 + the
 * phase) time. */
static void ref_add(reference *f, uint64_t a, uint64_t b, int gc)
{
	for (size_t i = 0; i < SPANS; i++) {
		uint64_t lo = ref_edge(f, i), hi = ref_edge(f, i + 1);
		uint64_t x = a > lo ? a : lo, y = b < hi ? b : hi;
		ev_view_cell *c = &f->cells[i];
		if (y > x)
			*(gc > 1 ? &c->gc_phase_ns[gc - 2]
			  : gc ? &c->gc_ns : &c->run_ns) += y - x;
	}
}

/* ThreadScope's GC phases (Events/EventDuration.hs: gcStart, gcWork,
 * gcIdle, gcDone): GC_START opens sync; GC_WORK, GC_IDLE and GC_DONE
 * each end the phase open (unless it is their own) and open theirs;
 * GC_END ends it; a RUN_THREAD, STOP_THREAD or SPARK_COUNTERS turns it
 * into sync from its start. */
static void ref_phase(reference *f, const ev_event *ev)
{
	int next;

	switch (ev->type) {
	case EV_GC_START:
		f->phase = EV_VIEW_GC_SYNC;
		f->phase_start = ev->time;
		return;
	case EV_RUN_THREAD:
	case EV_STOP_THREAD:
	case EV_SPARK_COUNTERS:
		if (f->phase >= 0)
			f->phase = EV_VIEW_GC_SYNC;
		return;
	case EV_GC_WORK: next = EV_VIEW_GC_WORK; break;
	case EV_GC_IDLE: next = EV_VIEW_GC_IDLE; break;
	case EV_GC_DONE: next = EV_VIEW_GC_DONE; break;
	case EV_GC_END: next = -1; break;
	default: return;
	}
	if (f->phase < 0 || f->phase == next)
		return;
	ref_add(f, f->phase_start, ev->time, 2 + f->phase);
	f->phase = next;
	f->phase_start = ev->time;
}

/* `cap`'s runs and GCs clipped to [from, to) in SPANS spans, from every
 * event of the log (written from the rules, sharing no code with the
 * index); what is open at the end counts up to `to`. */
static void reference_of(const char *path, uint16_t cap, reference *f)
{
	ev_reader *r;
	ev_event ev;

	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	while (ev_reader_next(r, &ev) == EV_OK) {
		if (ev.cap != cap || ev.type == EV_BLOCK_MARKER)
			continue;
		ref_phase(f, &ev);
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
	if (f->in_gc && f->phase >= 0)
		ref_add(f, f->phase_start, f->to, 2 + f->phase);
	ev_reader_free(r);
}

/* Whether `a`'s GC phases are those of `b`, and add up to its GC time. */
static int same_phases(const ev_view_cell *a, const ev_view_cell *b)
{
	uint64_t sum = 0;

	for (unsigned k = 0; k < EV_VIEW_GC_PHASES; k++) {
		if (a->gc_phase_ns[k] != b->gc_phase_ns[k])
			return 0;
		sum += a->gc_phase_ns[k];
	}
	return sum == a->gc_ns;
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
	f.phase = -1;
	reference_of(path, cap, &f);
	assert_int_equal(ev_reader_open_fn(&r, ev_view_source_read, &src,
					   "log", EV_READER_RAW, NULL), EV_OK);
	assert_int_equal(ev_view_tile_exact(ix, r, cap, from, to, SPANS, got),
			 EV_OK);
	ev_reader_free(r);
	for (size_t i = 0; i < SPANS; i++)
		if (got[i].run_ns != f.cells[i].run_ns ||
		    got[i].gc_ns != f.cells[i].gc_ns ||
		    !same_phases(&got[i], &f.cells[i]))
			fail_msg("%s cap %u [%llu, %llu) span %zu: exact "
				 "%llu/%llu, replay %llu/%llu (or GC phases)",
				 path, cap,
				 (unsigned long long)from,
				 (unsigned long long)to, i,
				 (unsigned long long)got[i].run_ns,
				 (unsigned long long)got[i].gc_ns,
				 (unsigned long long)f.cells[i].run_ns,
				 (unsigned long long)f.cells[i].gc_ns);
}

/* The index's GC phases over the whole run, in SPANS spans of whole
 * buckets, are the replay's: exact, and they add up to the GC time. */
static void index_phases_agree(const char *path, const ev_view_index *ix,
			       uint16_t cap)
{
	reference f;
	ev_view_cell got[SPANS];

	memset(&f, 0, sizeof f);
	f.to = aligned_end(ix, SPANS);
	f.phase = -1;
	reference_of(path, cap, &f);
	assert_int_equal(ev_view_tile(ix, cap, 0, f.to, SPANS, got), EV_OK);
	for (size_t i = 0; i < SPANS; i++)
		if (got[i].gc_ns != f.cells[i].gc_ns ||
		    !same_phases(&got[i], &f.cells[i]))
			fail_msg("%s cap %u span %zu: index GC %llu in phases "
				 "%llu %llu %llu %llu, replay %llu %llu %llu "
				 "%llu", path, cap, i,
				 (unsigned long long)got[i].gc_ns,
				 (unsigned long long)got[i].gc_phase_ns[0],
				 (unsigned long long)got[i].gc_phase_ns[1],
				 (unsigned long long)got[i].gc_phase_ns[2],
				 (unsigned long long)got[i].gc_phase_ns[3],
				 (unsigned long long)f.cells[i].gc_phase_ns[0],
				 (unsigned long long)f.cells[i].gc_phase_ns[1],
				 (unsigned long long)f.cells[i].gc_phase_ns[2],
				 (unsigned long long)f.cells[i].gc_phase_ns[3]);
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
		index_phases_agree(path, ix, cap);
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
	assert_int_equal(ev_reader_open_path(&r, in, 0, NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	assert_int_equal(ev_sink_open_path(&sink, out, NULL), EV_OK);
	assert_int_equal(ev_writer_open(&w, sink, ev_reader_header(r), &opts,
					NULL),
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
	int rc;

	if (!ix)
		return;
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	assert_int_equal(ev_stats_new(&st, NULL), EV_OK);
	assert_int_equal(ev_stats_keep_threads(st), EV_OK);
	rc = ev_reader_feed(r, ev_stats_consumer(), st); /* finished: cut or not */
	assert_true(rc == EV_END || rc == EV_ETRUNCATED);
	for (size_t i = 0; i < ev_stats_thread_count(st); i++) {
		const ev_stats_thread *want = ev_stats_thread_at(st, i);
		const ev_view_thread *got = ev_view_thread_find(ix, want->tid);

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

/* ---- thread rows against the thread events in time order ---- */

typedef struct tev {
	uint64_t time, seq;
	uint32_t tid;
	uint16_t type, status;
} tev;

static int tev_order(const void *a, const void *b)
{
	const tev *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

typedef struct tstate {
	int state; /* 0 none, 1 running, 2 runnable, 3 blocked */
	uint64_t since, runnable_ns, blocked_ns;
} tstate;

/* Every thread's runnable and blocked time, from its events sorted by
 * time (ties in file order), written from the rules without the index's
 * code: created, woken or made runnable, and stopped by overflow,
 * yielding or migrating is runnable; stopped otherwise is blocked (but
 * finished); running ends it. */
static tstate *states_of(const char *path, uint32_t *max_tid)
{
	ev_reader *r;
	ev_event ev;
	tev *evs = NULL;
	size_t n = 0, cap = 0;
	tstate *ts;
	unsigned quirks;

	*max_tid = 0;
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	quirks = evi_header_quirks(ev_reader_header(r));
	while (ev_reader_next(r, &ev) == EV_OK) {
		if (ev.cap == EV_NO_CAP || ev.size < 4 ||
		    !(ev.type <= EV_THREAD_RUNNABLE ||
		      ev.type == EV_THREAD_WAKEUP))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			assert_non_null(evs = realloc(evs, cap * sizeof *evs));
		}
		evs[n] = (tev){ ev.time, n, ev_load32(ev.payload), ev.type,
				ev.type == EV_STOP_THREAD ? ev_load16(ev.payload + 4)
							  : 0 };
		if (evs[n].tid > *max_tid)
			*max_tid = evs[n].tid;
		n++;
	}
	ev_reader_free(r);
	if (n)
		qsort(evs, n, sizeof *evs, tev_order);
	assert_non_null(ts = calloc(*max_tid + 1, sizeof *ts));
	for (size_t i = 0; i < n; i++) {
		tstate *t = &ts[evs[i].tid];
		int next;
		unsigned st = evs[i].status;

		if (quirks & EVI_QUIRK_GHC782) /* 7.8.2 inserted 8 */
			st = st == 8 ? 20 : st > 8 && st < 15 ? st - 1
			     : st >= 16 && st <= 19 ? st - 2 : st == 15 ? 0 : st;
		switch (evs[i].type) {
		case EV_CREATE_THREAD: next = t->state ? -1 : 2; break;
		case EV_RUN_THREAD: next = 1; break;
		case EV_STOP_THREAD:
			next = st == 5 ? 0 : (st >= 1 && st <= 3) || st == 17
						     ? 2 : 3;
			break;
		default: next = t->state == 3 ? 2 : -1; break;
		}
		if (next < 0)
			continue;
		if (t->state == 2)
			t->runnable_ns += evs[i].time - t->since;
		else if (t->state == 3)
			t->blocked_ns += evs[i].time - t->since;
		t->state = next;
		t->since = evs[i].time;
	}
	free(evs);
	return ts;
}

/* The thread rows over the whole run: running is stats --threads' run
 * time, runnable and blocked those of the thread's events in time order. */
static void thread_rows_agree(const char *path, void *ctx)
{
	counts *n = ctx;
	ev_view_index *ix = index_log(path, 0);
	ev_view_index *coarse = index_log(path, 4 * EV_VIEW_MIN_ROW);
	ev_stats *st;
	uint32_t max_tid;
	tstate *want;

	if (!ix) {
		ev_view_index_free(coarse);
		return;
	}
	st = stats_kept(path, 1, 0);
	want = states_of(path, &max_tid);
	for (size_t i = 0; i < ev_stats_thread_count(st); i++) {
		const ev_stats_thread *t = ev_stats_thread_at(st, i);
		uint64_t w = ev_view_thread_bucket_ns(ix);
		ev_view_thread_cell c[3], sum = { 0, 0, 0, 0 };

		if (i >= EV_VIEW_MAX_THREAD_ROWS)
			break;
		assert_int_equal(ev_view_thread_tile(ix, t->tid, 0,
						     (ev_view_end(ix) / (3 * w) + 1) * 3 * w,
						     3, c), EV_OK);
		for (int k = 0; k < 3; k++) {
			sum.run_ns += c[k].run_ns;
			sum.runnable_ns += c[k].runnable_ns;
			sum.blocked_ns += c[k].blocked_ns;
		}
		/* A small budget: coarse rows, and a heap of 64 events. */
		assert_int_equal(ev_view_thread_tile(coarse, t->tid, 0,
						     aligned_end(coarse, 1) * 2,
						     1, c), EV_OK);
		assert_int_equal(c[0].run_ns, t->run_ns);
		assert_true(ev_view_thread_bucket_ns(coarse) >= w);
		if (sum.run_ns != t->run_ns || t->tid > max_tid ||
		    sum.runnable_ns != want[t->tid].runnable_ns ||
		    sum.blocked_ns != want[t->tid].blocked_ns)
			fail_msg("%s thread %u: row %llu running %llu runnable "
				 "%llu blocked; stats %llu, events %llu %llu",
				 path, t->tid, (unsigned long long)sum.run_ns,
				 (unsigned long long)sum.runnable_ns,
				 (unsigned long long)sum.blocked_ns,
				 (unsigned long long)t->run_ns,
				 (unsigned long long)want[t->tid].runnable_ns,
				 (unsigned long long)want[t->tid].blocked_ns);
		n->caps++;
	}
	n->logs++;
	free(want);
	ev_stats_free(st);
	ev_view_index_free(ix);
	ev_view_index_free(coarse);
}

static void test_thread_rows(void **state)
{
	counts n = { 0, 0 };

	(void)state;
	ts_for_each_log(EVTOOL_TESTDATA, thread_rows_agree, &n);
	assert_true(n.logs >= 10);
	ts_for_each_log(EVTOOL_CORPUS, thread_rows_agree, &n);
}

/* A replay of the threads with rows over [from, to), given every cap's
 * events; NULL when none has a row. */
static ev_view_thread_replay *replay_of(const ev_view_index *ix, int fd,
					uint32_t *tids, size_t n,
					uint64_t from, uint64_t to)
{
	ev_view_thread_replay *rp;

	assert_int_equal(ev_view_thread_replay_new(&rp, ix, tids, n, from, to),
			 EV_OK);
	for (uint16_t cap = 0; cap < ev_view_cap_count(ix); cap++) {
		uint64_t start = ev_view_thread_replay_start(rp);
		ev_view_cap_source src = {
			{ fd, ev_view_data_offset(ix),
			  ev_view_block_at(ix, cap, start), 0 }, cap, 0, 0 };
		ev_reader *r;
		assert_int_equal(ev_reader_open_fn(&r, ev_view_cap_source_read,
						   &src, "log", EV_READER_RAW,
						   NULL), EV_OK);
		assert_int_equal(ev_view_thread_replay_read(rp, r, cap), EV_OK);
		ev_reader_free(r);
	}
	assert_int_equal(ev_view_thread_replay_finish(rp), EV_OK);
	return rp;
}

/* Over ranges of whole thread buckets (where the rows are exact) that
 * start anywhere in the run, each thread's replay, started from the
 * state its row keeps for the range's first bucket, gives the row's
 * running, runnable and blocked time, and its intervals add up to them. */
static void replay_agrees(const char *path, const ev_view_index *ix)
{
	size_t n = 0, rows = ev_view_thread_rows(ix);
	uint32_t *tids = calloc(rows ? rows : 1, sizeof *tids);
	uint64_t w = ev_view_thread_bucket_ns(ix);
	uint64_t first = ev_view_start(ix) / w, last = ev_view_end(ix) / w + 1;
	int fd = open(path, O_RDONLY);

	assert_non_null(tids);
	assert_true(fd >= 0);
	for (size_t i = 0; i < ev_view_thread_count(ix) && n < rows; i++) {
		const ev_view_thread *t = ev_view_thread_at(ix, i);
		ev_view_thread_cell c;
		if (ev_view_thread_tile(ix, t->tid, 0, w, 1, &c) == EV_OK)
			tids[n++] = t->tid;
	}
	for (unsigned k = 0; n && k < 12; k++) {
		uint64_t a = (first + (last - first) * k / 12) * w;
		uint64_t b = a + (1 + (last - first) / (k + 2)) * w;
		ev_view_thread_replay *rp = replay_of(ix, fd, tids, n, a, b);
		for (size_t t = 0; t < n; t++) {
			ev_view_thread_cell got, want;
			const ev_view_thread_interval *iv;
			size_t m = ev_view_thread_replay_intervals(rp, t, &iv);
			uint64_t sum[4] = { 0, 0, 0, 0 };
			for (size_t i = 0; i < m; i++)
				sum[iv[i].state] += iv[i].to - iv[i].from;
			assert_int_equal(ev_view_thread_replay_tile(rp, t, 1,
								    &got),
					 EV_OK);
			assert_int_equal(ev_view_thread_tile(ix, tids[t], a, b,
							     1, &want), EV_OK);
			if (got.run_ns != want.run_ns ||
			    got.runnable_ns != want.runnable_ns ||
			    got.blocked_ns != want.blocked_ns ||
			    sum[1] != got.run_ns || sum[2] != got.runnable_ns ||
			    sum[3] != got.blocked_ns)
				fail_msg("%s thread %u [%llu, %llu): replay "
					 "%llu %llu %llu, row %llu %llu %llu",
					 path, tids[t], (unsigned long long)a,
					 (unsigned long long)b,
					 (unsigned long long)got.run_ns,
					 (unsigned long long)got.runnable_ns,
					 (unsigned long long)got.blocked_ns,
					 (unsigned long long)want.run_ns,
					 (unsigned long long)want.runnable_ns,
					 (unsigned long long)want.blocked_ns);
		}
		ev_view_thread_replay_free(rp);
	}
	close(fd);
	free(tids);
}

static void thread_replay_agrees(const char *path, void *ctx)
{
	counts *n = ctx;
	ev_view_index *ix = index_log(path, 0);
	/* A smaller budget: wider thread buckets, more states in each (its
	 * queues, of as many events, still hold these logs' late ones). */
	ev_view_index *coarse = index_log(path, 256 * EV_VIEW_MIN_ROW);

	if (ix && ev_view_end(ix) > ev_view_start(ix)) {
		replay_agrees(path, ix);
		replay_agrees(path, coarse);
		n->logs++;
	}
	ev_view_index_free(ix);
	ev_view_index_free(coarse);
}

static void test_thread_replay(void **state)
{
	counts n = { 0, 0 };

	(void)state;
	ts_for_each_log(EVTOOL_TESTDATA, thread_replay_agrees, &n);
	assert_true(n.logs >= 10);
	ts_for_each_log(EVTOOL_CORPUS, thread_replay_agrees, &n);
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

/* The spans kept, per name, are those `stats --spans` measures: the
 * same count, total and first start. */
static void spans_agree(const char *path, void *ctx)
{
	counts *n = ctx;
	ev_view_index *ix = index_log(path, 0);
	ev_stats *st;
	ev_view_span s;

	if (!ix)
		return;
	st = stats_kept(path, 0, EV_STATS_SPANS_EVENTS);
	assert_int_equal(ev_view_span_name_count(ix), ev_stats_span_count(st));
	for (size_t k = 0; k < ev_stats_span_count(st); k++) {
		const ev_stats_span *want = ev_stats_span_at(st, k);
		uint64_t count = 0, total = 0, first = UINT64_MAX;

		assert_string_equal(ev_view_span_name(ix, k), want->name);
		for (size_t i = 0; i < ev_view_span_count(ix); i++) {
			assert_int_equal(ev_view_span_at(ix, i, &s), EV_OK);
			if (s.name_index != k)
				continue;
			assert_string_equal(s.name, want->name);
			count++;
			total += s.duration_ns;
			first = s.start_ns < first ? s.start_ns : first;
		}
		if (count != want->all.count || total != want->all.total_ns ||
		    (count && first != want->first_ns))
			fail_msg("%s span %s: %llu spans, %llu ns from %llu; "
				 "stats %llu, %llu ns from %llu", path,
				 want->name, (unsigned long long)count,
				 (unsigned long long)total,
				 (unsigned long long)first,
				 (unsigned long long)want->all.count,
				 (unsigned long long)want->all.total_ns,
				 (unsigned long long)want->first_ns);
		n->caps += count;
	}
	assert_int_equal(ev_view_span_at(ix, ev_view_span_count(ix), &s),
			 EV_EINVAL);
	n->logs++;
	ev_stats_free(st);
	ev_view_index_free(ix);
}

static void test_spans(void **state)
{
	counts n = { 0, 0 };

	(void)state;
	ts_for_each_log(EVTOOL_TESTDATA, spans_agree, &n);
	ts_for_each_log(EVTOOL_CORPUS, spans_agree, &n);
	assert_true(n.logs >= 10);
	assert_true(n.caps >= 30); /* spans-a and spans-b have 17 each */
}

/* The heap profile's bands: each band's peak over the samples and its
 * total / samples are `evtool stats --heap`'s peak and mean, band by
 * band (the logs hold fewer than EV_VIEW_MAX_SAMPLES samples and
 * EV_VIEW_MAX_BANDS bands: all kept). */
static void test_bands(void **state)
{
	static const char *const logs[] = { "prof-n2.eventlog",
					    "heapdiff-a-hy.eventlog",
					    "hpt-n1.eventlog" };
	(void)state;
	for (size_t l = 0; l < sizeof logs / sizeof *logs; l++) {
		char *path = ts_path(EVTOOL_TESTDATA, logs[l]);
		ev_view_index *ix = index_log(path, 0);
		ev_stats_heap_profile prof;
		ev_reader *r;
		ev_stats *st;

		assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
		assert_int_equal(ev_stats_new(&st, NULL), EV_OK);
		assert_int_equal(ev_stats_keep_bands(st), EV_OK);
		/* the consumer's finish completes the figures */
		assert_int_equal(ev_reader_feed(r, ev_stats_consumer(), st),
				 EV_END);
		ev_stats_profile(st, &prof);
		assert_true(prof.samples > 0);
		assert_int_equal(ev_view_samples_seen(ix), prof.samples);
		assert_int_equal(ev_view_sample_count(ix), prof.samples);
		assert_int_equal(ev_view_band_count(ix), ev_stats_band_count(st));
		for (size_t i = 0; i < ev_view_band_count(ix); i++) {
			const char *name = ev_view_band_name(ix, i);
			long k = ev_stats_band_find(st, name, strlen(name));
			uint64_t peak = 0;
			assert_true(k >= 0);
			for (size_t s = 0; s < ev_view_sample_count(ix); s++)
				if (ev_view_sample_bytes(ix, s, i) > peak)
					peak = ev_view_sample_bytes(ix, s, i);
			assert_int_equal(peak, ev_stats_band_at(st, (size_t)k)->peak_bytes);
			assert_int_equal(ev_view_band_total(ix, i) / prof.samples,
					 ev_stats_band_at(st, (size_t)k)->mean_bytes);
		}
		for (size_t s = 1; s < ev_view_sample_count(ix); s++)
			assert_true(ev_view_sample_time(ix, s) >=
				    ev_view_sample_time(ix, s - 1));
		ev_stats_free(st);
		ev_reader_free(r);
		ev_view_index_free(ix);
		free(path);
	}
}

/* Past EV_VIEW_MAX_SAMPLES samples, every other one is dropped: hpt-n1's
 * events given 200 times over, each time later by the log's span (4200
 * samples), keep 2100, evenly, in time order, and every band's total is
 * 200 times its own. */
static void test_bands_thinned(void **state)
{
	char *path = ts_path(EVTOOL_TESTDATA, "hpt-n1.eventlog");
	ev_view_index *once = index_log(path, 0), *ix;
	uint64_t span = ev_view_end(once) + 1, seen = ev_view_samples_seen(once);

	(void)state;
	assert_int_equal(ev_view_index_new(&ix, 0, NULL), EV_OK);
	for (unsigned pass = 0; pass < 200; pass++) {
		ev_reader *r;
		ev_event ev;
		assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
		if (pass == 0)
			assert_int_equal(ev_view_index_begin(ix, r), EV_OK);
		while (ev_reader_next(r, &ev) == EV_OK) {
			ev.time += pass * span;
			assert_int_equal(ev_view_index_add(ix, &ev), EV_OK);
		}
		ev_reader_free(r);
	}
	assert_int_equal(seen, 21);
	assert_int_equal(ev_view_samples_seen(ix), 200 * seen);
	assert_int_equal(ev_view_sample_count(ix), 100 * seen);
	for (size_t k = 0; k < ev_view_sample_count(ix); k++) {
		/* kept: samples 0, 2, 4 ... of 4200 */
		size_t n = 2 * k, pass = n / seen, i = n % seen;
		assert_int_equal(ev_view_sample_time(ix, k),
				 ev_view_sample_time(once, i) + pass * span);
		assert_int_equal(ev_view_sample_bytes(ix, k, 0),
				 ev_view_sample_bytes(once, i, 0));
	}
	for (size_t b = 0; b < ev_view_band_count(once); b++)
		assert_int_equal(ev_view_band_total(ix, b),
				 200 * ev_view_band_total(once, b));
	ev_view_index_free(ix);
	ev_view_index_free(once);
	free(path);
}

/* A cache file: the index saved and loaded again answers as before; for
 * another log state, a file cut anywhere, or a flipped byte anywhere, the
 * load gives no index (or one whose answers are merely wrong), never a
 * crash. */
/* `back` (a cache of `ix`) has `ix`'s spans, thread rows and heaps of
 * each process: the same answers over the whole run. */
static void same_rows(const ev_view_index *ix, const ev_view_index *back)
{
	uint64_t to = ev_view_end(ix) + 1;
	ev_view_thread_cell a[16], b[16];
	ev_view_heap_cell ha[16], hb[16];
	ev_view_span sa, sb;

	assert_int_equal(ev_view_span_count(back), ev_view_span_count(ix));
	assert_int_equal(ev_view_spans_dropped(back), ev_view_spans_dropped(ix));
	assert_int_equal(ev_view_span_name_count(back),
			 ev_view_span_name_count(ix));
	for (size_t i = 0; i < ev_view_span_name_count(ix); i++)
		assert_string_equal(ev_view_span_name(back, i),
				    ev_view_span_name(ix, i));
	for (size_t i = 0; i < ev_view_span_count(ix); i++) {
		assert_int_equal(ev_view_span_at(ix, i, &sa), EV_OK);
		assert_int_equal(ev_view_span_at(back, i, &sb), EV_OK);
		assert_int_equal(sb.start_ns, sa.start_ns);
		assert_int_equal(sb.duration_ns, sa.duration_ns);
		assert_int_equal(sb.tid, sa.tid);
		assert_int_equal(sb.cap, sa.cap);
		assert_int_equal(sb.name_index, sa.name_index);
		assert_string_equal(sb.name, sa.name);
	}
	assert_int_equal(ev_view_thread_rows(back), ev_view_thread_rows(ix));
	assert_int_equal(ev_view_thread_bucket_ns(back),
			 ev_view_thread_bucket_ns(ix));
	for (size_t i = 0; i < ev_view_thread_count(ix); i++) {
		uint32_t tid = ev_view_thread_at(ix, i)->tid;
		int rc = ev_view_thread_tile(ix, tid, 0, to, 16, a);
		assert_int_equal(ev_view_thread_tile(back, tid, 0, to, 16, b), rc);
		assert_memory_equal(a, b, sizeof a);
	}
	assert_int_equal(ev_view_heap_count(back), ev_view_heap_count(ix));
	for (size_t i = 0; i < ev_view_heap_count(ix); i++) {
		uint32_t capset = ev_view_heap_capset(ix, i);
		assert_int_equal(ev_view_heap_capset(back, i), capset);
		assert_int_equal(ev_view_heap_of(ix, capset, 0, to, 16, ha), EV_OK);
		assert_int_equal(ev_view_heap_of(back, capset, 0, to, 16, hb),
				 EV_OK);
		assert_memory_equal(ha, hb, sizeof ha);
	}
}

/* The spans, thread rows and process heaps of logs that have them, kept
 * by a cache (spans-a: spans; threads-n4: thread rows; every log with
 * heap events: one process's heap). */
static void test_cache_rows(void **state)
{
	static const char *const logs[] = { "spans-a.eventlog",
					    "threads-n4.eventlog",
					    "prof-n2.eventlog" };
	ev_view_log_id id = { 1, 2, 3 };
	size_t spans = 0, rows = 0, heaps = 0;

	(void)state;
	for (size_t l = 0; l < sizeof logs / sizeof *logs; l++) {
		char *path = ts_path(EVTOOL_TESTDATA, logs[l]);
		ev_view_index *ix = index_log(path, 0), *back;
		FILE *f = tmpfile();
		struct stat st;

		assert_non_null(f);
		assert_int_equal(ev_view_index_save(ix, fileno(f), &id), EV_OK);
		assert_int_equal(ev_view_index_load(&back, fileno(f), &id), EV_OK);
		assert_non_null(back);
		same_rows(ix, back);
		/* The thread buckets' start states too: the replays agree. */
		replay_agrees(path, back);
		ev_view_index_free(back);
		/* Cut anywhere (in the spans' names too): refused. */
		assert_int_equal(fstat(fileno(f), &st), 0);
		for (off_t cut = st.st_size - 1; cut > 0; cut -= cut / 37 + 1) {
			assert_int_equal(ftruncate(fileno(f), cut), 0);
			assert_int_equal(ev_view_index_load(&back, fileno(f), &id),
					 EV_OK);
			assert_null(back);
		}
		spans += ev_view_span_count(ix);
		rows += ev_view_thread_rows(ix);
		heaps += ev_view_heap_count(ix);
		ev_view_index_free(ix);
		fclose(f);
		free(path);
	}
	assert_true(spans > 0 && rows > 0 && heaps > 0);
}

static void test_cache(void **state)
{
	char *path = ts_path(EVTOOL_TESTDATA, "prof-n2.eventlog");
	ev_view_index *ix = index_log(path, 0), *back;
	ev_view_log_id id = { 170164, 7, 11 }, other = id;
	FILE *f = tmpfile();
	long size;
	char *bytes;

	(void)state;
	assert_non_null(f);
	assert_int_equal(ev_view_index_save(ix, fileno(f), &id), EV_OK);
	assert_int_equal(ev_view_index_load(&back, fileno(f), &id), EV_OK);
	assert_non_null(back);
	for (uint16_t cap = 0; cap < 2; cap++) {
		ev_view_cell a = whole(ix, cap, 16), b = whole(back, cap, 16);
		assert_int_equal(a.run_ns, b.run_ns);
		assert_int_equal(a.gc_ns, b.gc_ns);
		assert_int_equal(a.idle_ns, b.idle_ns);
		assert_int_equal(a.tid, b.tid);
		assert_memory_equal(a.gc_phase_ns, b.gc_phase_ns,
				    sizeof a.gc_phase_ns);
		assert_int_equal(ev_view_block_at(ix, cap, 500000000),
				 ev_view_block_at(back, cap, 500000000));
	}
	assert_int_equal(ev_view_text_count(back), ev_view_text_count(ix));
	assert_int_equal(ev_view_sample_count(back), ev_view_sample_count(ix));
	assert_string_equal(ev_view_band_name(back, 0), ev_view_band_name(ix, 0));
	assert_int_equal(ev_view_thread_count(back), ev_view_thread_count(ix));
	{
		ev_stats_pauses a, b;
		int complete;
		assert_int_equal(ev_view_pauses(ix, 0, 0, UINT64_MAX, &a,
						&complete), EV_OK);
		assert_int_equal(ev_view_pauses(back, 0, 0, UINT64_MAX, &b,
						&complete), EV_OK);
		assert_true(a.count > 1);
		assert_true(same_pauses(&a, &b));
	}
	ev_view_index_free(back);
	other.mtime_ns++;
	assert_int_equal(ev_view_index_load(&back, fileno(f), &other), EV_OK);
	assert_null(back);
	/* Cut, and flipped: read from memory copies of the file. */
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	assert_non_null(bytes = malloc((size_t)size));
	assert_int_equal(pread(fileno(f), bytes, (size_t)size, 0), size);
	for (long cut = 0; cut < size; cut += size / 97 + 1) {
		FILE *g = tmpfile();
		assert_int_equal(fwrite(bytes, 1, (size_t)cut, g), cut);
		fflush(g);
		assert_int_equal(ev_view_index_load(&back, fileno(g), &id), EV_OK);
		assert_null(back);
		fclose(g);
	}
	for (long at = 0; at < size; at += size / 61 + 1) {
		FILE *g = tmpfile();
		ev_view_cell c;
		bytes[at] ^= 0x5a;
		assert_int_equal(fwrite(bytes, 1, (size_t)size, g), size);
		fflush(g);
		bytes[at] ^= 0x5a;
		assert_int_equal(ev_view_index_load(&back, fileno(g), &id), EV_OK);
		if (back) {
			assert_int_equal(ev_view_tile(back, 0, 0, 1u << 30, 1, &c), EV_OK);
			(void)ev_view_block_at(back, 1, 1000);
			ev_view_index_free(back);
		}
		fclose(g);
	}
	free(bytes);
	fclose(f);
	ev_view_index_free(ix);
	free(path);
}

/* ---- the preview ---- */

static unsigned log2_of(uint64_t w)
{
	unsigned s = 0;

	while (((uint64_t)1 << s) < w)
		s++;
	return s;
}

/* The preview's run and GC time equal the index's summed to the coarser
 * of the two grids (spans of whole buckets of both: no proportion), for
 * every capability; the run and GC time compared, in n->caps. */
static void preview_agrees(const char *path, const ev_view_index *ix,
			   const ev_view_preview *pv, counts *n)
{
	unsigned si = log2_of(ev_view_bucket_ns(ix));
	unsigned sp = log2_of(ev_view_preview_bucket_ns(pv));
	unsigned s = si > sp ? si : sp;
	uint64_t reach = ev_view_end(ix) + 1;
	size_t width = (size_t)(((reach - 1) >> s) + 1);
	size_t caps = ev_view_cap_count(ix);
	ev_view_cell *a = calloc(width, sizeof *a), *b = calloc(width, sizeof *b);

	assert_non_null(a);
	assert_non_null(b);
	assert_true(ev_view_preview_cap_count(pv) <= caps);
	assert_int_equal(ev_view_preview_start(pv), ev_view_start(ix));
	assert_int_equal(ev_view_preview_end(pv), ev_view_end(ix));
	for (size_t cap = 0; cap < caps; cap++) {
		uint64_t sum = 0;
		assert_int_equal(ev_view_tile(ix, (uint16_t)cap, 0,
					      (uint64_t)width << s, width, a),
				 EV_OK);
		assert_int_equal(ev_view_preview_tile(pv, (uint16_t)cap, 0,
						      (uint64_t)width << s,
						      width, b),
				 EV_OK);
		for (size_t i = 0; i < width; i++) {
			if (a[i].run_ns != b[i].run_ns ||
			    a[i].gc_ns != b[i].gc_ns)
				fail_msg("%s cap %zu bucket %zu of 2^%u ns: index "
					 "run %llu gc %llu, preview run %llu gc "
					 "%llu", path, cap, i, s,
					 (unsigned long long)a[i].run_ns,
					 (unsigned long long)a[i].gc_ns,
					 (unsigned long long)b[i].run_ns,
					 (unsigned long long)b[i].gc_ns);
			sum += a[i].run_ns + a[i].gc_ns;
		}
		n->caps += sum > 0;
	}
	free(a);
	free(b);
}

/* How many chunk edges fell inside a run, and inside a GC. */
typedef struct edges {
	size_t logs, caps, in_run, in_gc;
} edges;

/* The preview made as the workers and the join make it, from `path`'s
 * events cut into chunks of `per_chunk` events, chunk i on worker
 * i % workers. */
static ev_view_preview *preview_chunked(const char *path, size_t per_chunk,
					unsigned workers, edges *e)
{
	ev_reader *r;
	ev_event ev;
	ev_view_preview *pv;
	view_pv_chunk c;
	uint64_t end = 0;
	size_t n_caps = 0, in_chunk = 0, chunk = 0;
	int rc;

	memset(&c, 0, sizeof c);
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
		end = ev.time > end ? ev.time : end;
		if (ev.cap != EV_NO_CAP && (size_t)ev.cap + 1 > n_caps)
			n_caps = (size_t)ev.cap + 1;
	}
	ev_reader_free(r);
	assert_int_equal(evi_view_preview_make(&pv, end, n_caps, n_caps,
					       workers), EV_OK);
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK) {
		assert_int_equal(evi_view_chunk_event(pv, &c,
						      (unsigned)(chunk % workers),
						      &ev), EV_OK);
		if (++in_chunk < per_chunk)
			continue;
		for (size_t i = 0; i < c.n; i++) {
			e->in_run += c.parts[i].n_stops > 0;
			e->in_gc += c.parts[i].gc_end_first;
		}
		assert_int_equal(evi_view_chunk_join(pv, &c), EV_OK);
		evi_view_chunk_reset(&c);
		in_chunk = 0;
		chunk++;
	}
	assert_int_equal(evi_view_chunk_join(pv, &c), EV_OK);
	assert_int_equal(evi_view_preview_done(pv), EV_OK);
	evi_view_chunk_free(&c);
	ev_reader_free(r);
	return pv;
}

static void preview_log(const char *path, void *ctx)
{
	static const size_t per_chunk[] = { 1, 7, 1000 };
	edges *e = ctx;
	ev_view_index *ix = index_log(path, 0);
	counts n = { 0, 0 };

	if (!ix)
		return; /* several sessions: the preview takes none */
	for (unsigned workers = 1; workers <= 3; workers++) {
		ev_reader *r;
		ev_view_preview *pv;

		assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
		int rc = ev_view_preview_new(&pv, r, workers);
		ev_reader_free(r);
		if (rc == EV_END) /* a log the blocks do not tile */
			continue;
		assert_int_equal(rc, EV_OK);
		preview_agrees(path, ix, pv, &n);
		ev_view_preview_free(pv);
		for (size_t k = 0; k < 3; k++) {
			pv = preview_chunked(path, per_chunk[k], workers, e);
			preview_agrees(path, ix, pv, &n);
			ev_view_preview_free(pv);
		}
	}
	e->caps += n.caps;
	e->logs++;
	ev_view_index_free(ix);
}

static void test_preview(void **state)
{
	edges e = { 0, 0, 0, 0 };

	(void)state;
	ts_for_each_log(EVTOOL_TESTDATA, preview_log, &e);
	assert_true(e.logs >= 10);
	assert_true(e.caps >= 15);
	/* The chunks' edges fell inside runs and GCs: the join replayed them. */
	assert_true(e.in_run > 100);
	assert_true(e.in_gc > 100);
}

static void test_corpus_preview(void **state)
{
	edges e = { 0, 0, 0, 0 };

	(void)state;
	if (ts_for_each_log(EVTOOL_CORPUS, preview_log, &e) == 0)
		skip();
	assert_true(e.logs > 0);
}

static void test_bad_arguments(void **state)
{
	ev_view_index *ix;
	ev_view_cell c;

	(void)state;
	assert_int_equal(ev_view_index_new(&ix, 0, NULL), EV_OK);
	assert_int_equal(ev_view_tile(ix, 0, 5, 5, 1, &c), EV_EINVAL);
	assert_int_equal(ev_view_tile(ix, 0, 0, 5, 0, &c), EV_EINVAL);
	/* An empty index answers idle nothing, run nothing. */
	assert_int_equal(ev_view_tile(ix, 7, 0, 5, 1, &c), EV_OK);
	assert_int_equal(c.run_ns + c.gc_ns + c.idle_ns, 0);
	/* Window figures: edges on the buckets' (1024 ns at first), since at
	 * or before the start. */
	assert_int_equal(ev_view_whole(ix, 0, 0, 1024, 2048, &c), EV_OK);
	assert_int_equal(c.run_ns + c.gc_ns, 0);
	assert_int_equal(ev_view_whole(ix, 0, 0, 1000, 2048, &c), EV_EINVAL);
	assert_int_equal(ev_view_whole(ix, 0, 2000, 1024, 2048, &c), EV_EINVAL);
	assert_int_equal(ev_view_whole(ix, 0, 0, 2048, 2048, &c), EV_EINVAL);
	{
		ev_stats_pauses p;
		ev_view_alloc a;
		int complete;
		assert_int_equal(ev_view_pauses(ix, 0, 5, 5, &p, &complete),
				 EV_EINVAL);
		assert_int_equal(ev_view_pauses(ix, 0, 0, 5, &p, &complete),
				 EV_OK);
		assert_int_equal(p.count, 0);
		assert_int_equal(ev_view_alloc_whole(ix, 0, 1000, 2048, &a),
				 EV_EINVAL);
		assert_int_equal(ev_view_alloc_whole(ix, 0, 1024, 2048, &a),
				 EV_OK);
		assert_false(a.have);
	}
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
		cmocka_unit_test(test_spans),
		cmocka_unit_test(test_thread_rows),
		cmocka_unit_test(test_thread_replay),
		cmocka_unit_test(test_bands),
		cmocka_unit_test(test_bands_thinned),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_window_bounds),
		cmocka_unit_test(test_cache_rows),
		cmocka_unit_test(test_preview),
		cmocka_unit_test(test_corpus_preview),
		cmocka_unit_test(test_bad_arguments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
