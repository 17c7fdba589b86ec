/*
 * Tests of the +RTS -s accumulator (include/evtool/stats.h): on the real
 * GHC 9.0.2 logs against the RTS's own `+RTS -s` text of the same runs,
 * and on crafted logs for pauses, work balance, sparks, allocation and the
 * processes of a merged log.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evtool/evtool.h"
#include "support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the RTS's own summary, parsed from NAME.rts-s.txt ---- */

#define RTS_MAX_GENS 4

typedef struct rts_gen {
	uint64_t colls, par;
	double elapsed, avg, max; /* seconds, as printed */
} rts_gen;

typedef struct rts_summary {
	uint64_t allocated, copied, max_live, samples, max_slop, mem_mib;
	rts_gen gens[RTS_MAX_GENS];
	unsigned n_gens;
	int have_balance;
	double balance; /* percent */
	uint64_t sparks, converted, overflowed, dud, gcd, fizzled;
	double init, mut, gc, exit_time, total; /* elapsed seconds */
} rts_summary;

/* "22,861,472" -> 22861472 */
static uint64_t parse_commas(const char *s)
{
	uint64_t v = 0;

	for (; *s == ' '; s++)
		;
	for (; (*s >= '0' && *s <= '9') || *s == ','; s++)
		if (*s != ',')
			v = v * 10 + (uint64_t)(*s - '0');
	return v;
}

/* The elapsed seconds of "  MUT     time    0.013s  (  0.011s elapsed)". */
static double elapsed_of(const char *line)
{
	const char *paren = strchr(line, '(');

	assert_non_null(paren);
	return strtod(paren + 1, NULL);
}

static void parse_gen_line(rts_summary *s, const char *line)
{
	rts_gen *g;
	double cpu;
	unsigned n;

	assert_true(s->n_gens < RTS_MAX_GENS);
	g = &s->gens[s->n_gens];
	/* "  Gen  0       344 colls,   344 par    0.024s   0.018s     0.0001s    0.0049s" */
	n = (unsigned)sscanf(line, " Gen %*u %lu colls, %lu par %lfs %lfs %lfs %lfs",
			     &g->colls, &g->par, &cpu, &g->elapsed, &g->avg,
			     &g->max);
	assert_int_equal(n, 6);
	s->n_gens++;
}

static void parse_line(rts_summary *s, const char *line)
{
	if (strstr(line, "bytes allocated in the heap"))
		s->allocated = parse_commas(line);
	else if (strstr(line, "bytes copied during GC"))
		s->copied = parse_commas(line);
	else if (strstr(line, "bytes maximum residency")) {
		s->max_live = parse_commas(line);
		s->samples = strtoull(strchr(line, '(') + 1, NULL, 10);
	} else if (strstr(line, "bytes maximum slop"))
		s->max_slop = parse_commas(line);
	else if (strstr(line, "MiB total memory in use"))
		s->mem_mib = parse_commas(line);
	else if (strstr(line, " colls, "))
		parse_gen_line(s, line);
	else if (strstr(line, "Parallel GC work balance:")) {
		s->have_balance = 1;
		s->balance = strtod(strchr(line, ':') + 1, NULL);
	} else if (strstr(line, "SPARKS:"))
		assert_int_equal(sscanf(line, " SPARKS: %lu (%lu converted, %lu "
					"overflowed, %lu dud, %lu GC'd, %lu "
					"fizzled)", &s->sparks, &s->converted,
					&s->overflowed, &s->dud, &s->gcd,
					&s->fizzled), 6);
	else if (strncmp(line, "  INIT ", 7) == 0)
		s->init = elapsed_of(line);
	else if (strncmp(line, "  MUT ", 6) == 0)
		s->mut = elapsed_of(line);
	else if (strncmp(line, "  GC ", 5) == 0)
		s->gc = elapsed_of(line);
	else if (strncmp(line, "  EXIT ", 7) == 0)
		s->exit_time = elapsed_of(line);
	else if (strncmp(line, "  Total ", 8) == 0)
		s->total = elapsed_of(line);
}

static void parse_rts_summary(const char *path, rts_summary *s)
{
	FILE *f = fopen(path, "r");
	char line[512];

	assert_non_null(f);
	memset(s, 0, sizeof *s);
	while (fgets(line, sizeof line, f))
		parse_line(s, line);
	fclose(f);
	assert_true(s->n_gens > 0);
}

/* ---- running the accumulator ---- */

/* Stats of the log at `path` (or `len` bytes at `data`); one finish. */
static ev_stats *stats_of(const char *path, const void *data, size_t len,
			  int want_status)
{
	ev_reader *r = NULL;
	ev_stats *st = NULL;

	if (data)
		assert_int_equal(ev_reader_open_memory(&r, data, len, "mem", 0),
				 EV_OK);
	else
		assert_int_equal(ev_reader_open_path(&r, path, 0), EV_OK);
	assert_int_equal(ev_stats_new(&st), EV_OK);
	assert_int_equal(ev_stats_read(st, r), want_status);
	assert_int_equal(ev_stats_finish(st), EV_OK);
	ev_reader_free(r);
	return st;
}

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/*
 * Tolerances. A collection's pause is GC_END - GC_START of the cap that
 * led it, and the RTS stamps both events with the very clock readings it
 * adds up for +RTS -s (rts/Stats.c stat_startGC, stat_endGC: "the same
 * timestamp as used for stats"). So GC times agree to the nanosecond and
 * differ only by the RTS's rounding when it prints them: half a unit of
 * the last digit, 0.0005 s for "%.3f" and 0.00005 s for "%.4f".
 * The total is the last event, the HEAP_ALLOCATED that stat_exitReport
 * posts a few microseconds after its last clock reading: the same
 * rounding plus 0.1 ms.
 */
#define TOL_MS_DIGITS 0.0005
#define TOL_PAUSE_DIGITS 0.00005
#define TOL_TOTAL (TOL_MS_DIGITS + 0.0001)

static void check_gens(const ev_stats_process *p, const rts_summary *rts)
{
	assert_int_equal(p->n_gens, rts->n_gens);
	for (unsigned g = 0; g < rts->n_gens; g++) {
		const ev_stats_gen *ours = &p->gens[g];
		const rts_gen *want = &rts->gens[g];
		uint64_t avg = ours->collections
			? ours->elapsed_ns / ours->collections : 0;
		assert_int_equal(ours->collections, want->colls);
		assert_int_equal(ours->par_collections, want->par);
		assert_true(fabs(secs(ours->elapsed_ns) - want->elapsed) <=
			    TOL_MS_DIGITS);
		assert_true(fabs(secs(avg) - want->avg) <= TOL_PAUSE_DIGITS);
		assert_true(fabs(secs(ours->max_pause_ns) - want->max) <=
			    TOL_PAUSE_DIGITS);
	}
}

/* Figures that no event gives the RTS's way, checked by relationship:
 * - MUT: the RTS's MUT excludes INIT (up to the end of hs_init) and EXIT
 *   (from hs_exit), whose bounds no event marks, so the log's MUT is
 *   total - GC = the RTS's INIT + MUT + EXIT, each printed rounded.
 * - Productivity: the same MUT over the same total.
 * - Alloc rate: the RTS divides by MUT CPU time, which the log does not
 *   have; the log's rate is per elapsed MUT second. */
static void check_times(const ev_stats_process *p, const rts_summary *rts)
{
	double rts_mut = rts->init + rts->mut + rts->exit_time;

	assert_true(fabs(secs(p->gc_elapsed_ns) - rts->gc) <= TOL_MS_DIGITS);
	assert_true(fabs(secs(p->elapsed_ns) - rts->total) <= TOL_TOTAL);
	assert_true(fabs(secs(p->mut_elapsed_ns) - rts_mut) <=
		    TOL_TOTAL + 4 * TOL_MS_DIGITS);
	assert_true(fabs(p->productivity * (double)p->elapsed_ns -
			 (double)p->mut_elapsed_ns) < 1.0);
	assert_true(fabs(p->alloc_rate * secs(p->mut_elapsed_ns) -
			 (double)p->allocated_bytes) < 1.0);
}

static void check_against_rts(const char *name)
{
	char log[256], text[256];
	rts_summary rts;
	ev_stats *st;
	const ev_stats_process *p;

	snprintf(log, sizeof log, "%s/%s.eventlog", EVTOOL_TESTDATA, name);
	snprintf(text, sizeof text, "%s/%s.rts-s.txt", EVTOOL_TESTDATA, name);
	parse_rts_summary(text, &rts);
	st = stats_of(log, NULL, 0, EV_END);
	assert_int_equal(ev_stats_process_count(st), 1);
	p = ev_stats_process_at(st, 0);

	/* Counted by the RTS and posted as they are: exact. Allocation is
	 * exact too: stat_exitReport's calcTotalAllocated posts the final
	 * per-cap totals as HEAP_ALLOCATED before the log closes. */
	assert_int_equal(p->allocated_bytes, rts.allocated);
	assert_int_equal(p->copied_bytes, rts.copied);
	assert_int_equal(p->max_live_bytes, rts.max_live);
	assert_int_equal(p->live_samples, rts.samples);
	assert_int_equal(p->max_slop_bytes, rts.max_slop);
	/* The RTS's peak megablocks may exceed every HEAP_SIZE sample (they
	 * are taken at GCs); on these runs the peak is at a GC. */
	assert_int_equal(p->max_mem_bytes / (1024 * 1024), rts.mem_mib);
	check_gens(p, &rts);
	if (rts.have_balance)
		assert_true(fabs(p->work_balance * 100 - rts.balance) <= 0.005);
	else
		assert_true(!p->have_balance || p->par_copied_bytes == 0 ||
			    p->work_balance == 0);
	assert_true(p->have_sparks);
	assert_int_equal(p->sparks_total, rts.sparks);
	assert_int_equal(p->sparks.converted, rts.converted);
	assert_int_equal(p->sparks.overflowed, rts.overflowed);
	assert_int_equal(p->sparks.dud, rts.dud);
	assert_int_equal(p->sparks.gcd, rts.gcd);
	assert_int_equal(p->sparks.fizzled, rts.fizzled);
	check_times(p, &rts);
	ev_stats_free(st);
}

static void test_real_logs_match_rts(void **state)
{
	(void)state;
	/* Every testdata log with a +RTS -s text (killed-sigkill's is empty:
	 * the RTS writes it at exit). */
	static const char *const names[] = {
		"gc-n2", "heap-n1", "nonmoving-n2", "sparks-n2", "threads-n1",
		"threads-n2", "threads-n4", "user-n1", "merge-a", "merge-b",
		"merge-c",
	};
	for (size_t i = 0; i < ARRAY_LEN(names); i++)
		check_against_rts(names[i]);
}

/* A truncated prefix: the statistics of its complete events. */
static void test_truncated_prefix(void **state)
{
	(void)state;
	char *path = ts_path(EVTOOL_TESTDATA, "gc-n2.eventlog");
	size_t len;
	uint8_t *log = ts_read_file(path, &len);
	ev_stats *whole, *cut;
	const ev_stats_process *w, *c;

	assert_non_null(log);
	whole = stats_of(NULL, log, len, EV_END);
	cut = stats_of(NULL, log, len / 2, EV_ETRUNCATED);
	w = ev_stats_process_at(whole, 0);
	c = ev_stats_process_at(cut, 0);
	assert_non_null(c);
	assert_true(c->collections < w->collections);
	assert_true(c->copied_bytes < w->copied_bytes);
	ev_stats_free(whole);
	ev_stats_free(cut);
	free(log);
	free(path);
}

/* ---- crafted logs, built with the writer ---- */

typedef struct crafted {
	ev_header *header;
	ev_sink *sink;
	ev_writer *writer;
} crafted;

static void add_type(ev_header *h, uint16_t id, int32_t size)
{
	const char *desc = ev_catalog_find(id)->desc;

	assert_int_equal(ev_header_add(h, id, size, desc,
				       (uint32_t)strlen(desc), NULL, 0),
			 EV_OK);
}

static void crafted_open(crafted *c)
{
	ev_writer_options opts = EV_WRITER_OPTIONS_INIT;

	opts.mode = EV_WRITE_REBLOCK;
	assert_int_equal(ev_header_new(&c->header), EV_OK);
	add_type(c->header, EV_GC_START, 0);
	add_type(c->header, EV_GC_END, 0);
	add_type(c->header, EV_BLOCK_MARKER, 14);
	add_type(c->header, EV_CAPSET_CREATE, 6);
	add_type(c->header, EV_CAPSET_ASSIGN_CAP, 6);
	add_type(c->header, EV_SPARK_COUNTERS, 56);
	add_type(c->header, EV_HEAP_ALLOCATED, 12);
	add_type(c->header, EV_HEAP_LIVE, 12);
	add_type(c->header, EV_HEAP_INFO_GHC, 38);
	add_type(c->header, EV_GC_STATS_GHC, 58);
	assert_int_equal(ev_sink_open_memory(&c->sink), EV_OK);
	assert_int_equal(ev_writer_open(&c->writer, c->sink, c->header, &opts),
			 EV_OK);
}

static void put(crafted *c, uint16_t type, uint16_t cap, uint64_t time,
		const uint8_t *payload, uint32_t size)
{
	ev_event ev = { .type = type, .cap = cap, .time = time,
			.payload = payload, .size = size };

	assert_int_equal(ev_writer_write(c->writer, &ev), EV_OK);
}

static void put_capset(crafted *c, uint32_t capset, uint16_t type,
		       uint64_t time)
{
	uint8_t p[6];

	ev_store32(p, capset);
	ev_store16(p + 4, type);
	put(c, EV_CAPSET_CREATE, EV_NO_CAP, time, p, sizeof p);
}

static void put_assign(crafted *c, uint32_t capset, uint16_t cap,
		       uint64_t time)
{
	uint8_t p[6];

	ev_store32(p, capset);
	ev_store16(p + 4, cap);
	put(c, EV_CAPSET_ASSIGN_CAP, EV_NO_CAP, time, p, sizeof p);
}

static void put_heap(crafted *c, uint16_t type, uint16_t cap, uint64_t time,
		     uint64_t bytes)
{
	uint8_t p[12];

	ev_store32(p, 0);
	ev_store64(p + 4, bytes);
	put(c, type, cap, time, p, sizeof p);
}

static void put_heap_info(crafted *c, uint16_t gens)
{
	uint8_t p[38] = { 0 };

	ev_store16(p + 4, gens);
	ev_store64(p + 22, 1u << 20); /* mblock size */
	ev_store64(p + 30, 4096);     /* block size */
	put(c, EV_HEAP_INFO_GHC, EV_NO_CAP, 5, p, sizeof p);
}

typedef struct gc_spec {
	uint16_t gen;
	uint32_t threads;
	uint64_t copied, slop, balanced;
} gc_spec;

/* One collection led by `cap`, as GHC posts it: GC_START at `start`,
 * GC_STATS_GHC, then GC_END at `end` (stamped earlier than the stats). */
static void put_gc(crafted *c, uint16_t cap, uint64_t start, uint64_t end,
		   gc_spec s)
{
	uint8_t p[58] = { 0 };

	ev_store16(p + 4, s.gen);
	ev_store64(p + 6, s.copied);
	ev_store64(p + 14, s.slop);
	ev_store32(p + 30, s.threads);
	ev_store64(p + 42, s.copied);
	ev_store64(p + 50, s.balanced);
	put(c, EV_GC_START, cap, start, NULL, 0);
	put(c, EV_GC_STATS_GHC, cap, end + 10, p, sizeof p);
	put(c, EV_GC_END, cap, end, NULL, 0);
}

static void put_sparks(crafted *c, uint16_t cap, uint64_t time,
		       const uint64_t v[7])
{
	uint8_t p[56];

	for (unsigned i = 0; i < 7; i++)
		ev_store64(p + 8 * i, v[i]);
	put(c, EV_SPARK_COUNTERS, cap, time, p, sizeof p);
}

/* Finishes the log and returns its stats. */
static ev_stats *crafted_stats(crafted *c)
{
	size_t len;
	const uint8_t *log;
	ev_stats *st;

	assert_int_equal(ev_writer_finish(c->writer), EV_OK);
	log = ev_sink_memory(c->sink, &len);
	st = stats_of(NULL, log, len, EV_END);
	ev_writer_free(c->writer);
	ev_sink_free(c->sink);
	ev_header_free(c->header);
	return st;
}

/* Capsets and heap info come last, in the global block, as GHC <= 9.0
 * writes them: nothing may depend on seeing them first. */
static void put_process_last(crafted *c, unsigned caps)
{
	put_capset(c, 0, 2, 1);
	put_capset(c, 1, 3, 2);
	for (uint16_t cap = 0; cap < caps; cap++) {
		put_assign(c, 0, cap, 3);
		put_assign(c, 1, cap, 3);
	}
	put_heap_info(c, 2);
}

static void test_pauses_and_balance(void **state)
{
	(void)state;
	crafted c;
	ev_stats *st;
	const ev_stats_process *p;

	crafted_open(&c);
	/* Gen 0, 2 threads, half balanced; cap 1 helps (its own GC_START
	 * and GC_END, no stats: not a collection of its own). */
	put_gc(&c, 0, 1000, 3000, (gc_spec){ 0, 2, 1000, 999, 500 });
	put(&c, EV_GC_START, 1, 1100, NULL, 0);
	put(&c, EV_GC_END, 1, 2900, NULL, 0);
	/* A serial major GC: its slop and live count, its balance not. */
	put_gc(&c, 0, 10000, 15000, (gc_spec){ 1, 1, 3000, 77, 0 });
	put_heap(&c, EV_HEAP_LIVE, 0, 15020, 4000);
	/* Gen 0 again, perfectly balanced, larger slop (not major). */
	put_gc(&c, 0, 20000, 21000, (gc_spec){ 0, 2, 1000, 5000, 1000 });
	put_process_last(&c, 2);
	st = crafted_stats(&c);

	assert_int_equal(ev_stats_process_count(st), 1);
	p = ev_stats_process_at(st, 0);
	assert_int_equal(p->caps, 2);
	assert_int_equal(p->n_gens, 2);
	assert_int_equal(p->gens[0].collections, 2);
	assert_int_equal(p->gens[0].par_collections, 2);
	assert_int_equal(p->gens[0].elapsed_ns, 2000 + 1000);
	assert_int_equal(p->gens[0].max_pause_ns, 2000);
	assert_int_equal(p->gens[1].collections, 1);
	assert_int_equal(p->gens[1].par_collections, 0);
	assert_int_equal(p->gens[1].elapsed_ns, 5000);
	assert_int_equal(p->gc_elapsed_ns, 8000);
	assert_int_equal(p->untimed_collections, 0);
	assert_int_equal(p->copied_bytes, 5000);
	assert_int_equal(p->max_slop_bytes, 77);
	assert_int_equal(p->max_live_bytes, 4000);
	assert_int_equal(p->live_samples, 1);
	/* (500 + 1000) balanced of the 2000 bytes parallel GCs copied. */
	assert_true(p->have_balance);
	assert_true(fabs(p->work_balance - 0.75) < 1e-12);
	/* Time 0 is the RTS start; the last event is GC_STATS at 21010. */
	assert_int_equal(p->start_ns, 0);
	assert_int_equal(p->end_ns, 21010);
	assert_int_equal(p->mut_elapsed_ns, 21010 - 8000);
	ev_stats_free(st);
}

/* Serial collections only: balance 0, "serial". */
static void test_serial_balance(void **state)
{
	(void)state;
	crafted c;
	ev_stats *st;

	crafted_open(&c);
	put_gc(&c, 0, 100, 200, (gc_spec){ 0, 1, 64, 0, 0 });
	put_process_last(&c, 1);
	st = crafted_stats(&c);
	assert_int_equal(ev_stats_process_at(st, 0)->par_copied_bytes, 0);
	assert_true(ev_stats_process_at(st, 0)->work_balance == 0.0);
	ev_stats_free(st);
}

/* SPARK_COUNTERS and HEAP_ALLOCATED are running totals per cap: the last
 * of each cap counts, and caps add up. */
static void test_sparks_and_allocation(void **state)
{
	(void)state;
	static const uint64_t cap0_early[7] = { 10, 1, 2, 3, 4, 0, 9 };
	static const uint64_t cap0_last[7] = { 20, 1, 2, 5, 8, 6, 0 };
	static const uint64_t cap1_last[7] = { 7, 0, 0, 1, 2, 3, 1 };
	crafted c;
	ev_stats *st;
	const ev_stats_process *p;

	crafted_open(&c);
	put_sparks(&c, 0, 100, cap0_early);
	put_heap(&c, EV_HEAP_ALLOCATED, 0, 110, 100);
	put_sparks(&c, 1, 120, cap1_last);
	put_heap(&c, EV_HEAP_ALLOCATED, 1, 130, 50);
	put_sparks(&c, 0, 200, cap0_last);
	put_heap(&c, EV_HEAP_ALLOCATED, 0, 210, 300);
	put_process_last(&c, 2);
	st = crafted_stats(&c);

	p = ev_stats_process_at(st, 0);
	assert_true(p->have_sparks);
	assert_int_equal(p->sparks.created, 27);
	assert_int_equal(p->sparks.dud, 1);
	assert_int_equal(p->sparks.overflowed, 2);
	assert_int_equal(p->sparks.converted, 6);
	assert_int_equal(p->sparks.gcd, 10);
	assert_int_equal(p->sparks.fizzled, 9);
	/* +RTS -s counts created + dud + overflowed. */
	assert_int_equal(p->sparks_total, 30);
	assert_int_equal(p->allocated_bytes, 350);
	ev_stats_free(st);
}

/* A collection whose GC_START is missing (a log that starts mid-GC) is
 * counted but not timed. */
static void test_untimed_collection(void **state)
{
	(void)state;
	crafted c;
	ev_stats *st;
	uint8_t p[58] = { 0 };

	crafted_open(&c);
	put(&c, EV_GC_STATS_GHC, 0, 50, p, sizeof p);
	put(&c, EV_GC_END, 0, 40, NULL, 0);
	st = crafted_stats(&c);
	assert_int_equal(ev_stats_process_at(st, 0)->collections, 1);
	assert_int_equal(ev_stats_process_at(st, 0)->untimed_collections, 1);
	assert_int_equal(ev_stats_process_at(st, 0)->gc_elapsed_ns, 0);
	ev_stats_free(st);
}

/* A GC_STATS_GHC shorter than its fields is an error, not a guess. */
static void test_short_event_is_an_error(void **state)
{
	(void)state;
	ev_stats *st;
	uint8_t p[20] = { 0 };
	ev_event ev = { .type = EV_GC_STATS_GHC, .cap = 0, .time = 1,
			.payload = p, .size = sizeof p, .offset = 77 };

	assert_int_equal(ev_stats_new(&st), EV_OK);
	assert_int_equal(ev_stats_add(st, &ev), EV_EFORMAT);
	assert_int_equal(ev_stats_diag(st)->offset, 77);
	assert_non_null(strstr(ev_stats_diag(st)->message, "GC_STATS_GHC"));
	ev_stats_free(st);
}

/* ---- a merged log: one summary per process ---- */

static void expect_same(const ev_stats_process *merged,
			const ev_stats_process *alone)
{
	assert_int_equal(merged->pid, alone->pid);
	assert_int_equal(merged->caps, alone->caps);
	assert_int_equal(merged->allocated_bytes, alone->allocated_bytes);
	assert_int_equal(merged->copied_bytes, alone->copied_bytes);
	assert_int_equal(merged->max_live_bytes, alone->max_live_bytes);
	assert_int_equal(merged->max_slop_bytes, alone->max_slop_bytes);
	assert_int_equal(merged->max_mem_bytes, alone->max_mem_bytes);
	assert_int_equal(merged->n_gens, alone->n_gens);
	for (unsigned g = 0; g < alone->n_gens; g++)
		assert_memory_equal(&merged->gens[g], &alone->gens[g],
				    sizeof alone->gens[g]);
	assert_int_equal(merged->gc_elapsed_ns, alone->gc_elapsed_ns);
	assert_memory_equal(&merged->sparks, &alone->sparks,
			    sizeof alone->sparks);
	/* Shifted in time, and measured from its first event instead of
	 * its RTS's start (which a merged log no longer shows). */
	assert_true(merged->elapsed_ns <= alone->elapsed_ns);
	assert_true(alone->elapsed_ns - merged->elapsed_ns < 1000000);
}

static void test_merged_processes(void **state)
{
	(void)state;
	char *a = ts_path(EVTOOL_TESTDATA, "sparks-n2.eventlog");
	char *b = ts_path(EVTOOL_TESTDATA, "gc-n2.eventlog");
	ev_merge *m = NULL;
	ev_sink *sink = NULL;
	ev_stats *st, *sa, *sb;
	const uint8_t *log;
	size_t len;

	assert_int_equal(ev_merge_new(&m, NULL), EV_OK);
	assert_int_equal(ev_merge_add_path(m, a), EV_OK);
	assert_int_equal(ev_merge_add_path(m, b), EV_OK);
	assert_int_equal(ev_merge_plan(m), EV_OK);
	assert_int_equal(ev_sink_open_memory(&sink), EV_OK);
	assert_int_equal(ev_merge_write(m, sink), EV_OK);
	log = ev_sink_memory(sink, &len);
	st = stats_of(NULL, log, len, EV_END);
	sa = stats_of(a, NULL, 0, EV_END);
	sb = stats_of(b, NULL, 0, EV_END);

	/* The second input's capsets 0 and 1 became 2 and 3. */
	assert_int_equal(ev_stats_process_count(st), 2);
	assert_int_equal(ev_stats_unattributed_caps(st), 0);
	assert_int_equal(ev_stats_process_at(st, 0)->capset, 0);
	assert_int_equal(ev_stats_process_at(st, 1)->capset, 2);
	expect_same(ev_stats_process_at(st, 0), ev_stats_process_at(sa, 0));
	expect_same(ev_stats_process_at(st, 1), ev_stats_process_at(sb, 0));

	ev_stats_free(st);
	ev_stats_free(sa);
	ev_stats_free(sb);
	ev_sink_free(sink);
	ev_merge_free(m);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_logs_match_rts),
		cmocka_unit_test(test_truncated_prefix),
		cmocka_unit_test(test_pauses_and_balance),
		cmocka_unit_test(test_serial_balance),
		cmocka_unit_test(test_sparks_and_allocation),
		cmocka_unit_test(test_untimed_collection),
		cmocka_unit_test(test_short_event_is_an_error),
		cmocka_unit_test(test_merged_processes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
