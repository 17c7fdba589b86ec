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
#include "internal.h"
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
	double rp, prof; /* a profiled RTS's retainer and heap censuses */
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
	else if (strncmp(line, "  RP ", 5) == 0)
		s->rp = elapsed_of(line);
	else if (strncmp(line, "  PROF ", 7) == 0)
		s->prof = elapsed_of(line);
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
		assert_int_equal(ev_reader_open_memory(&r, data, len, "mem", 0,
						       NULL),
				 EV_OK);
	else
		assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	assert_int_equal(ev_stats_new(&st, NULL), EV_OK);
	assert_int_equal(ev_stats_keep_threads(st), EV_OK);
	assert_int_equal(ev_reader_feed(r, ev_stats_consumer(), st), want_status);
	ev_reader_free(r);
	return st;
}

/* Stats of the log at `path` in time order, as the sorter hands its
 * events over (`evtool sort | evtool stats`): each GC_END before the
 * GC_GLOBAL_SYNC and GC_STATS_GHC stamped after it. */
static ev_stats *sorted_stats_of(const char *path)
{
	ev_sorter *sorter = NULL;
	ev_input *in = NULL;
	ev_stats *st = NULL;

	assert_int_equal(ev_sorter_new(&sorter, NULL, NULL), EV_OK);
	assert_int_equal(ev_input_open(&in, path, NULL), EV_OK);
	assert_int_equal(ev_stats_new(&st, NULL), EV_OK);
	assert_int_equal(ev_sorter_visit(sorter, in, ev_stats_consumer(), st),
			 EV_OK);
	ev_input_free(in);
	ev_sorter_free(sorter);
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
	/* A profiled RTS censuses the heap inside its collections (-h) and
	 * prints that time apart, as RP and PROF, taking it off GC time
	 * (rts/Stats.c stat_exitReport); its Gen lines keep it. The pauses
	 * hold it: GC + RP + PROF, three rounded values. */
	double tol_gc = rts->rp + rts->prof > 0 ? 3 * TOL_MS_DIGITS
						: TOL_MS_DIGITS;

	assert_true(fabs(secs(p->gc_elapsed_ns) -
			 (rts->gc + rts->rp + rts->prof)) <= tol_gc);
	assert_true(fabs(secs(p->elapsed_ns) - rts->total) <= TOL_TOTAL);
	assert_true(fabs(secs(p->mut_elapsed_ns) - rts_mut) <=
		    TOL_TOTAL + 4 * TOL_MS_DIGITS);
	assert_true(fabs(p->productivity * (double)p->elapsed_ns -
			 (double)p->mut_elapsed_ns) < 1.0);
	assert_true(fabs(p->alloc_rate * secs(p->mut_elapsed_ns) -
			 (double)p->allocated_bytes) < 1.0);
}

/* The log's figures against its +RTS -s text, its events in file order
 * or, `sorted`, in time order: the same either way. */
static void check_against_rts(const char *name, int sorted)
{
	char log[256], text[256];
	rts_summary rts;
	ev_stats *st;
	const ev_stats_process *p;

	snprintf(log, sizeof log, "%s/%s.eventlog", EVTOOL_TESTDATA, name);
	snprintf(text, sizeof text, "%s/%s.rts-s.txt", EVTOOL_TESTDATA, name);
	parse_rts_summary(text, &rts);
	st = sorted ? sorted_stats_of(log) : stats_of(log, NULL, 0, EV_END);
	assert_int_equal(ev_stats_process_count(st), 1);
	p = ev_stats_process_at(st, 0);
	assert_int_equal(p->untimed_collections, 0);

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

/* The log's metadata only: what +RTS -l writes when its event classes
 * are all turned off (-l-au keeps user events only, -l-g drops the
 * GC's): no scheduler or GC events on the capabilities. */
static ev_stats *metadata_stats_of(const char *path)
{
	ev_reader *r = NULL;
	ev_stats *st = NULL;
	ev_event ev;
	int rc;

	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	assert_int_equal(ev_stats_new(&st, NULL), EV_OK);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK)
		if (evi_type_is_metadata(ev.type))
			assert_int_equal(ev_stats_add(st, &ev), EV_OK);
	assert_int_equal(rc, EV_END);
	assert_int_equal(ev_stats_finish(st), EV_OK);
	ev_reader_free(r);
	return st;
}

/* Without the GC's events, the figures made of GC time are unknown. */
static void no_gc_figures(const ev_stats *st)
{
	static const char *const names[] = { "gc-time", "mut-time",
					     "productivity", "alloc-rate" };
	double v;

	for (size_t i = 0; i < ARRAY_LEN(names); i++)
		assert_int_equal(ev_stats_figure_value(st, 0,
			(size_t)ev_stats_figure_find(names[i]), &v), EV_END);
}

/* A run logged with some event classes only still lasted from the RTS's
 * start to its exit, which its CAPSET_DELETE marks: its total is the
 * RTS's; GC time, MUT, productivity and the allocation rate are not
 * known. Fails at 2fcf228, whose total ended at the capabilities' last
 * event that is not metadata (0 s when there is none), and whose GC time
 * was 0 and productivity 100%. */
static void test_class_selection_total(void **state)
{
	static const char *const names[] = {
		"gc-n2", "heap-n1", "nonmoving-n2", "sparks-n2", "threads-n1",
		"threads-n2", "threads-n4", "user-n1", "merge-a",
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		char log[256], text[256];
		rts_summary rts;
		ev_stats *st;

		snprintf(log, sizeof log, "%s/%s.eventlog", EVTOOL_TESTDATA,
			 names[i]);
		snprintf(text, sizeof text, "%s/%s.rts-s.txt", EVTOOL_TESTDATA,
			 names[i]);
		parse_rts_summary(text, &rts);
		st = metadata_stats_of(log);
		assert_int_equal(ev_stats_process_count(st), 1);
		assert_true(fabs(secs(ev_stats_process_at(st, 0)->elapsed_ns) -
				 rts.total) <= TOL_TOTAL);
		no_gc_figures(st);
		ev_stats_free(st);
	}
}

static void test_real_logs_match_rts(void **state)
{
	(void)state;
	/* Every testdata log with a +RTS -s text (killed-sigkill's is empty:
	 * the RTS writes it at exit). */
	static const char *const names[] = {
		"gc-n2", "heap-n1", "nonmoving-n2", "sparks-n2", "threads-n1",
		"threads-n2", "threads-n4", "user-n1", "merge-a", "merge-b",
		"merge-c", "hpt-n1", "prof-n2",
	};
	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		check_against_rts(names[i], 0);
		check_against_rts(names[i], 1);
	}
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

	assert_int_equal(evi_header_add(h, id, size, desc,
				       (uint32_t)strlen(desc), NULL, 0),
			 EV_OK);
}

static void crafted_open(crafted *c)
{
	ev_writer_options opts = EV_WRITER_OPTIONS_INIT;

	opts.mode = EV_WRITE_REBLOCK;
	assert_int_equal(evi_header_new(&c->header, NULL), EV_OK);
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
	add_type(c->header, EV_HEAP_SIZE, 12);
	add_type(c->header, EV_RUN_THREAD, 4);
	add_type(c->header, EV_STOP_THREAD, 10);
	add_type(c->header, EV_MIGRATE_THREAD, 6);
	add_type(c->header, EV_THREAD_LABEL, -1);
	assert_int_equal(ev_sink_open_memory(&c->sink, NULL), EV_OK);
	assert_int_equal(ev_writer_open(&c->writer, c->sink, c->header, &opts,
					NULL),
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
	evi_header_free(c->header);
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

/* Time order puts GC_END before the GC_STATS_GHC stamped after it: the
 * collection is the same, paired with its own GC_START and GC_END. */
static void test_gc_end_before_its_stats(void **state)
{
	(void)state;
	crafted c;
	ev_stats *st;
	const ev_stats_process *p;
	uint8_t minor[58] = { 0 }, major[58] = { 0 };

	ev_store16(major + 4, 1);
	crafted_open(&c);
	put(&c, EV_GC_START, 0, 1000, NULL, 0);
	put(&c, EV_GC_END, 0, 3000, NULL, 0);
	put(&c, EV_GC_STATS_GHC, 0, 3010, minor, sizeof minor);
	put(&c, EV_GC_START, 0, 10000, NULL, 0);
	put(&c, EV_GC_END, 0, 15000, NULL, 0);
	put(&c, EV_GC_STATS_GHC, 0, 15010, major, sizeof major);
	put_process_last(&c, 1);
	st = crafted_stats(&c);
	p = ev_stats_process_at(st, 0);
	assert_int_equal(p->collections, 2);
	assert_int_equal(p->untimed_collections, 0);
	assert_int_equal(p->gens[0].elapsed_ns, 2000);
	assert_int_equal(p->gens[1].elapsed_ns, 5000);
	assert_int_equal(p->gc_elapsed_ns, 7000);
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

	assert_int_equal(ev_stats_new(&st, NULL), EV_OK);
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

	assert_int_equal(ev_merge_new(&m, NULL, NULL), EV_OK);
	assert_int_equal(ev_merge_add(m, ts_input(a)), EV_OK);
	assert_int_equal(ev_merge_add(m, ts_input(b)), EV_OK);
	assert_int_equal(ev_merge_plan(m), EV_OK);
	assert_int_equal(ev_sink_open_memory(&sink, NULL), EV_OK);
	assert_int_equal(ev_merge_run(m, sink), EV_OK);
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

/* GHC 7.8.2's STOP_THREAD numbering (ghc-events mkStopStatus782): it
 * inserted BlockedOnMVarRead at 8, so its codes from 8 up are one higher
 * than the usual ones, and its 15 means nothing. */
static const unsigned ghc782_status[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 20, 8, 9, 10, 11, 12, 13, 0, 14, 15, 16, 17
};

/* Makes `log` read like GHC 7.8.2's (ghc-events' test: USER_MARKER is
 * declared, HACK_BUG_T9003 is not) by giving the declaration of id 59 an
 * id no GHC uses; no event of id 59 is in the log. */
static void declare_as_ghc782(uint8_t *log, size_t len)
{
	static const uint8_t decl59[] = { 'e', 't', 'b', 0, 0, 59 };
	size_t at = 0;

	while (at + sizeof decl59 <= len &&
	       memcmp(log + at, decl59, sizeof decl59) != 0)
		at++;
	assert_true(at + sizeof decl59 <= len);
	ev_store16(log + at + 4, 0x7ff0);
}

/* sparks-n2 has threads blocked on black holes (status 8): read as a
 * GHC 7.8.2 log, every stop counts under the status its code has in
 * that numbering, 8 becoming BlockedOnMVarRead (20). */
static void test_ghc782_stop_status(void **state)
{
	(void)state;
	char *path = ts_path(EVTOOL_TESTDATA, "sparks-n2.eventlog");
	size_t len;
	uint8_t *log = ts_read_file(path, &len);
	uint64_t want[EV_STATS_STOP_REASONS] = { 0 };
	const ev_stats_thread *usual, *shifted;
	ev_stats *st, *st782;

	assert_non_null(log);
	st = stats_of(NULL, log, len, EV_END);
	declare_as_ghc782(log, len);
	st782 = stats_of(NULL, log, len, EV_END);
	usual = ev_stats_thread_total(st);
	shifted = ev_stats_thread_total(st782);
	assert_true(usual->stops_by_reason[8] > 0);
	for (unsigned code = 0; code < EV_STATS_STOP_REASONS; code++)
		want[code < ARRAY_LEN(ghc782_status) ? ghc782_status[code]
						      : 0] +=
			usual->stops_by_reason[code];
	assert_int_equal(shifted->stops, usual->stops);
	for (unsigned r = 0; r < EV_STATS_STOP_REASONS; r++)
		assert_int_equal(shifted->stops_by_reason[r], want[r]);
	assert_int_equal(shifted->stops_by_reason[20],
			 usual->stops_by_reason[8]);
	ev_stats_free(st);
	ev_stats_free(st782);
	free(log);
	free(path);
}

/* ---- threads, capabilities, pauses, figures and conditions
 * (include/evtool/stats_analysis.h) ---- */

/* threads-n1, the MVar ping-pong: the stops counted by an independent
 * walk of the log (support.c), which its README gives as 1,120 of 1,157
 * "blocked on an MVar" (status 7). */
static void test_threads_real_log(void **state)
{
	(void)state;
	char *path = ts_path(EVTOOL_TESTDATA, "threads-n1.eventlog");
	size_t len, labelled = 0;
	uint8_t *log = ts_read_file(path, &len);
	uint64_t runs = 0, stops = 0, on_mvar = 0, sum_runs = 0;
	ts_log walked;
	ev_stats *st;
	const ev_stats_thread *total;

	assert_non_null(log);
	assert_true(ts_walk(log, len, &walked));
	for (size_t i = 0; i < walked.count; i++) {
		const ts_event *e = &walked.events[i];
		runs += e->type == EV_RUN_THREAD;
		if (e->type == EV_STOP_THREAD) {
			stops++;
			on_mvar += ev_load16(ts_payload(log, e) + 4) == 7;
		}
	}
	assert_int_equal(stops, 1157);
	assert_int_equal(on_mvar, 1120);
	st = stats_of(path, NULL, 0, EV_END);
	total = ev_stats_thread_total(st);
	assert_int_equal(total->runs, runs);
	assert_int_equal(total->stops, stops);
	assert_int_equal(total->stops_by_reason[7], on_mvar);
	assert_string_equal(ev_stats_stop_reason_name(7), "blocked on an MVar");
	assert_null(ev_stats_thread_others(st));
	for (size_t i = 0; i < ev_stats_thread_count(st); i++) {
		const ev_stats_thread *t = ev_stats_thread_at(st, i);
		sum_runs += t->runs;
		labelled += t->label != NULL;
	}
	assert_int_equal(sum_runs, runs);
	assert_int_equal(labelled, 8); /* README: 8 THREAD_LABELs */
	ts_log_free(&walked);
	ev_stats_free(st);
	free(log);
	free(path);
}

static void put_thread_event(crafted *c, uint16_t type, uint16_t cap,
			     uint64_t time, uint32_t tid, uint16_t arg)
{
	uint8_t p[10] = { 0 };

	ev_store32(p, tid);
	ev_store16(p + 4, arg);
	put(c, type, cap, time, p, type == EV_RUN_THREAD ? 4
				 : type == EV_STOP_THREAD ? 10 : 6);
}

static void put_label(crafted *c, uint16_t cap, uint64_t time, uint32_t tid,
		      const char *label)
{
	uint8_t p[64];

	ev_store32(p, tid);
	memcpy(p + 4, label, strlen(label));
	put(c, EV_THREAD_LABEL, cap, time, p, (uint32_t)(4 + strlen(label)));
}

/* Runs end at the stop of the same thread on the same cap; a run open at
 * the end lasts to its cap's last event; migrations count out of the cap
 * that posts them and into the one they name; the last label wins. */
static void test_threads_and_caps(void **state)
{
	(void)state;
	crafted c;
	ev_stats *st;
	const ev_stats_thread *t1, *t2;
	const ev_stats_capability *c0, *c1;

	crafted_open(&c);
	put_label(&c, 0, 10, 1, "first");
	put_thread_event(&c, EV_RUN_THREAD, 0, 100, 1, 0);
	put_thread_event(&c, EV_MIGRATE_THREAD, 0, 150, 2, 1);
	put_thread_event(&c, EV_STOP_THREAD, 0, 400, 1, 7);
	put_thread_event(&c, EV_RUN_THREAD, 0, 500, 1, 0);
	put_thread_event(&c, EV_STOP_THREAD, 0, 550, 1, 99); /* unknown */
	put_label(&c, 0, 600, 1, "worker");
	put_gc(&c, 0, 1000, 1200, (gc_spec){ 0, 1, 64, 0, 0 });
	put_thread_event(&c, EV_RUN_THREAD, 1, 300, 2, 0);
	put_thread_event(&c, EV_STOP_THREAD, 1, 700, 2, 3);
	put_thread_event(&c, EV_RUN_THREAD, 1, 800, 2, 0);
	put_heap(&c, EV_HEAP_ALLOCATED, 1, 2000, 10); /* cap 1's last */
	put_process_last(&c, 2);
	st = crafted_stats(&c);

	assert_int_equal(ev_stats_thread_count(st), 2);
	t1 = ev_stats_thread_at(st, 0);
	t2 = ev_stats_thread_at(st, 1);
	assert_int_equal(t1->tid, 1);
	assert_string_equal(t1->label, "worker");
	assert_int_equal(t1->runs, 2);
	assert_int_equal(t1->run_ns, 300 + 50);
	assert_int_equal(t1->stops, 2);
	assert_int_equal(t1->stops_by_reason[7], 1);
	assert_int_equal(t1->stops_by_reason[0], 1);
	assert_int_equal(t2->tid, 2);
	assert_null(t2->label);
	assert_int_equal(t2->migrations, 1);
	assert_int_equal(t2->run_ns, 400 + (2000 - 800));
	assert_int_equal(ev_stats_thread_total(st)->run_ns, 350 + 1600);
	assert_int_equal(ev_stats_thread_total(st)->runs, 4);

	assert_int_equal(ev_stats_capability_count(st), 2);
	c0 = ev_stats_capability_at(st, 0);
	c1 = ev_stats_capability_at(st, 1);
	assert_int_equal(c0->mutator_ns, 350);
	assert_int_equal(c0->gc_ns, 200);
	assert_int_equal(c0->migrations_out, 1);
	assert_int_equal(c1->migrations_in, 1);
	assert_int_equal(c1->mutator_ns, 1600);
	assert_true(c0->have_process);
	/* Both span the process: time 0 to its last event, cap 1's 2000. */
	assert_int_equal(c0->span_ns, 2000);
	assert_int_equal(c0->idle_ns, 2000 - 350 - 200);
	assert_int_equal(c1->idle_ns, 2000 - 1600);
	ev_stats_free(st);
}

/* Past EV_STATS_MAX_THREADS threads the rest are summed into "others";
 * the total counts them all. */
static void test_thread_bound(void **state)
{
	(void)state;
	const uint32_t n = EV_STATS_MAX_THREADS + 3;
	crafted c;
	ev_stats *st;

	crafted_open(&c);
	for (uint32_t tid = 1; tid <= n; tid++) {
		put_thread_event(&c, EV_RUN_THREAD, 0, 10 * tid, tid, 0);
		put_thread_event(&c, EV_STOP_THREAD, 0, 10 * tid + 2, tid, 5);
	}
	st = crafted_stats(&c);
	assert_int_equal(ev_stats_thread_count(st), EV_STATS_MAX_THREADS);
	assert_non_null(ev_stats_thread_others(st));
	assert_int_equal(ev_stats_thread_others(st)->runs, 3);
	assert_int_equal(ev_stats_thread_others(st)->run_ns, 3 * 2);
	assert_int_equal(ev_stats_thread_total(st)->runs, n);
	assert_int_equal(ev_stats_thread_total(st)->stops_by_reason[5], n);
	ev_stats_free(st);
}

/* Without ev_stats_keep_threads only the total is kept; asking after
 * the first scheduler event is refused. */
static void test_threads_not_kept(void **state)
{
	(void)state;
	uint8_t p[4] = { 0, 0, 0, 9 };
	ev_event ev = { .type = EV_RUN_THREAD, .cap = 0, .time = 5,
			.payload = p, .size = sizeof p };
	ev_stats *st;

	assert_int_equal(ev_stats_new(&st, NULL), EV_OK);
	assert_int_equal(ev_stats_add(st, &ev), EV_OK);
	assert_int_equal(ev_stats_keep_threads(st), EV_EINVAL);
	assert_int_equal(ev_stats_finish(st), EV_OK);
	assert_int_equal(ev_stats_thread_count(st), 0);
	assert_null(ev_stats_thread_others(st));
	assert_int_equal(ev_stats_thread_total(st)->runs, 1);
	ev_stats_free(st);
}

/* 300 pauses of 1..300 us, generation 1 for every third: percentiles by
 * nearest rank, exact among the 10 longest, within 1/32 above the exact
 * value elsewhere; the longest sorted, ties by start time. */
static void test_pause_distribution(void **state)
{
	(void)state;
	crafted c;
	ev_stats *st;
	const ev_stats_pauses *all, *g1;
	uint64_t q, t = 1000;

	crafted_open(&c);
	for (uint64_t i = 1; i <= 300; i++) {
		/* In a shuffled order: 7 is coprime with 300. */
		uint64_t us = (i * 7) % 300 + 1;
		put_gc(&c, 0, t, t + us * 1000,
		       (gc_spec){ us % 3 == 0, 1, 8, 0, 0 });
		t += us * 1000 + 5000;
	}
	put_gc(&c, 0, t, t + 300000, (gc_spec){ 0, 1, 8, 0, 0 }); /* a tie */
	put_process_last(&c, 1);
	st = crafted_stats(&c);

	all = ev_stats_pauses_at(st, 0, EV_STATS_ALL_GENS);
	assert_non_null(all);
	assert_int_equal(all->count, 301);
	assert_int_equal(all->min_ns, 1000);
	assert_int_equal(all->max_ns, 300000);
	assert_int_equal(all->total_ns, 300 * 301 / 2 * 1000 + 300000);
	/* Sorted: 1, 2, ..., 300, 300 us. Rank ceil(0.5 * 301) = 151. */
	assert_true(all->p50_ns >= 151000 && all->p50_ns <= 151000 + 151000 / 32);
	assert_true(all->p90_ns >= 271000 && all->p90_ns <= 271000 + 271000 / 32);
	assert_int_equal(all->p99_ns, 298000); /* rank 298: among the longest */
	assert_int_equal(all->n_longest, EV_STATS_LONGEST_PAUSES);
	assert_int_equal(all->longest[0].duration_ns, 300000);
	assert_int_equal(all->longest[1].duration_ns, 300000);
	assert_true(all->longest[0].start_ns < all->longest[1].start_ns);
	assert_int_equal(all->longest[9].duration_ns, 292000);
	assert_int_equal(ev_stats_pause_quantile(st, 0, EV_STATS_ALL_GENS, 1.0,
						 &q), EV_OK);
	assert_int_equal(q, 300000);
	assert_int_equal(ev_stats_pause_quantile(st, 0, EV_STATS_ALL_GENS, 0.0,
						 &q), EV_EINVAL);
	g1 = ev_stats_pauses_at(st, 0, 1);
	assert_non_null(g1);
	assert_int_equal(g1->count, 100); /* 3, 6, ..., 300 us */
	assert_int_equal(g1->min_ns, 3000);
	assert_int_equal(g1->longest[0].gen, 1);
	assert_int_equal(ev_stats_pauses_at(st, 0, 0)->count, 201);
	assert_null(ev_stats_pauses_at(st, 0, 2));
	assert_null(ev_stats_pauses_at(st, 1, EV_STATS_ALL_GENS));
	ev_stats_free(st);
}

/* The figures are the summary's values under their names. */
static void test_figures(void **state)
{
	(void)state;
	char *path = ts_path(EVTOOL_TESTDATA, "gc-n2.eventlog");
	ev_stats *st = stats_of(path, NULL, 0, EV_END);
	const ev_stats_process *p = ev_stats_process_at(st, 0);
	uint64_t max_pause = 0;
	double v;

	for (unsigned g = 0; g < p->n_gens; g++)
		if (p->gens[g].max_pause_ns > max_pause)
			max_pause = p->gens[g].max_pause_ns;
	assert_int_equal(ev_stats_figure_value(
				 st, 0, (size_t)ev_stats_figure_find("gc-time"),
				 &v), EV_OK);
	assert_true(v == (double)p->gc_elapsed_ns);
	assert_int_equal(ev_stats_figure_value(
				 st, 0, (size_t)ev_stats_figure_find("max_pause"),
				 &v), EV_OK);
	assert_true(v == (double)max_pause);
	assert_int_equal(ev_stats_figure_value(
				 st, 0, (size_t)ev_stats_figure_find(
						"major-collections"), &v), EV_OK);
	assert_true(v == (double)p->gens[1].collections);
	assert_int_equal(ev_stats_figure_find("no-such-figure"), -1);
	assert_int_equal(ev_stats_figure_value(st, 1, 0, &v), EV_EINVAL);
	for (size_t i = 0; i < ev_stats_figure_count(); i++)
		assert_non_null(ev_stats_figure_at(i)->help);
	ev_stats_free(st);
	free(path);
}

static ev_stats_condition condition(const char *text)
{
	ev_stats_condition c;
	ev_diag why;

	assert_int_equal(ev_stats_condition_parse(text, &c, &why), EV_OK);
	return c;
}

static void test_conditions(void **state)
{
	(void)state;
	ev_stats_condition c;
	ev_diag why;

	c = condition("max-pause>50ms");
	assert_int_equal(c.op, EV_STATS_GT);
	assert_false(c.relative);
	assert_true(c.value == 50e6);
	assert_int_equal(ev_stats_condition_holds(&c, 50e6, 0, 0), 0);
	assert_int_equal(ev_stats_condition_holds(&c, 50e6 + 1, 0, 0), 1);
	c = condition("gc-time >= +10%");
	assert_int_equal(c.op, EV_STATS_GE);
	assert_true(c.relative);
	assert_int_equal(ev_stats_condition_holds(&c, 110, 1, 100), 1);
	assert_int_equal(ev_stats_condition_holds(&c, 109, 1, 100), 0);
	assert_int_equal(ev_stats_condition_holds(&c, 109, 0, 0), EV_EINVAL);
	c = condition("productivity<-5%");
	assert_int_equal(ev_stats_condition_holds(&c, 0.94, 1, 1.0), 1);
	c = condition("productivity<=90%");
	assert_true(fabs(c.value - 0.9) < 1e-12);
	c = condition("max_live<2MiB");
	assert_true(c.value == 2.0 * 1024 * 1024);
	c = condition("alloc-rate>1.5GB/s");
	assert_true(c.value == 1.5e9);
	c = condition("collections>=351");
	assert_true(c.value == 351);
	c = condition("max-pause>50"); /* a bare time is in ns, as everywhere */
	assert_true(c.value == 50);
	assert_int_equal(ev_stats_condition_parse("max-pause>50 parsecs", &c,
						  &why), EV_EINVAL);
	assert_int_equal(why.status, EV_EINVAL);
	assert_int_equal(why.origin, EV_ORIGIN_OPTIONS);
	assert_non_null(strstr(why.message, "a time (ns, or with a unit"));
	assert_int_equal(ev_stats_condition_parse("pause>1ms", &c, &why),
			 EV_EINVAL);
	assert_non_null(strstr(why.message, "no figure named 'pause'"));
	assert_int_equal(ev_stats_condition_parse("gc-time=1ms", &c, NULL),
			 EV_EINVAL);
	assert_int_equal(ev_stats_condition_parse("collections>1KiB", &c,
						  NULL), EV_EINVAL);
	assert_int_equal(ev_stats_condition_parse("gc-time>@1ms", &c, NULL),
			 EV_EINVAL);
}

/* The running totals, before ev_stats_finish. */
static void test_now(void **state)
{
	(void)state;
	ev_stats *st;
	ev_stats_now now;
	uint8_t p[12] = { 0 };
	ev_event ev = { .cap = 0, .payload = p, .size = sizeof p };
	static const struct { uint16_t type, cap; uint64_t time, bytes; } in[] = {
		{ EV_HEAP_ALLOCATED, 0, 10, 100 }, { EV_HEAP_ALLOCATED, 1, 20, 50 },
		{ EV_HEAP_ALLOCATED, 0, 30, 300 }, { EV_HEAP_LIVE, 0, 40, 7 },
		{ EV_HEAP_SIZE, 0, 50, 4096 }, { EV_HEAP_LIVE, 1, 60, 5 },
	};

	assert_int_equal(ev_stats_new(&st, NULL), EV_OK);
	for (size_t i = 0; i < ARRAY_LEN(in); i++) {
		ev.type = in[i].type;
		ev.cap = in[i].cap;
		ev.time = in[i].time;
		ev_store64(p + 4, in[i].bytes);
		assert_int_equal(ev_stats_add(st, &ev), EV_OK);
	}
	ev_stats_live_totals(st, &now);
	assert_int_equal(now.time_ns, 60);
	assert_int_equal(now.allocated_bytes, 350);
	assert_int_equal(now.live_bytes, 5);
	assert_int_equal(now.heap_bytes, 4096);
	assert_int_equal(now.collections, 0);
	ev_stats_free(st);
}

/* Live figures (ev_stats_live_*), taken every 64 events while real logs
 * are read: running totals never go down, and after the last event they
 * are the finish's figures, field by field, for every capability too. */
static void check_live_monotone(const ev_stats_process *now,
				const ev_stats_process *before)
{
	assert_true(now->allocated_bytes >= before->allocated_bytes);
	assert_true(now->collections >= before->collections);
	assert_true(now->gc_elapsed_ns >= before->gc_elapsed_ns);
	assert_true(now->elapsed_ns >= before->elapsed_ns);
	assert_true(now->sparks.converted >= before->sparks.converted);
}

static void check_live_log(const char *name)
{
	char *path = ts_path(EVTOOL_TESTDATA, name);
	ev_stats_process live = { 0 }, before = { 0 };
	ev_stats_capability caps[64], cap;
	size_t n_caps = 0, checks = 0;
	ev_session first = { 0, NULL, 0, 0 };
	ev_stats *st;
	ev_reader *r;
	ev_event ev;
	int rc;

	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	assert_int_equal(ev_stats_new(&st, NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	first.header = ev_reader_header(r);
	assert_int_equal(ev_stats_consumer()->begin(st, &first), EV_OK);
	for (uint64_t i = 0; (rc = ev_reader_next(r, &ev)) == EV_OK; i++) {
		assert_int_equal(ev_stats_add(st, &ev), EV_OK);
		if (i % 64 || ev_stats_live_process_count(st) != 1)
			continue;
		assert_int_equal(ev_stats_live_process_at(st, 0, &live), EV_OK);
		check_live_monotone(&live, &before);
		before = live;
		checks++;
	}
	assert_int_equal(rc, EV_END);
	assert_true(checks > 2);
	assert_int_equal(ev_stats_live_process_at(st, 0, &live), EV_OK);
	for (size_t c = 0; c < ev_stats_live_cap_limit(st); c++)
		if (ev_stats_live_capability_at(st, c, &cap) == EV_OK)
			caps[n_caps++] = cap;
	assert_int_equal(ev_stats_finish(st), EV_OK);
	assert_int_equal(ev_stats_live_process_count(st), 0);
	assert_int_equal(ev_stats_live_process_at(st, 0, &before), EV_EINVAL);
	before = *ev_stats_process_at(st, 0);
	assert_int_equal(live.allocated_bytes, before.allocated_bytes);
	assert_int_equal(live.collections, before.collections);
	assert_int_equal(live.gc_elapsed_ns, before.gc_elapsed_ns);
	assert_int_equal(live.mut_elapsed_ns, before.mut_elapsed_ns);
	assert_int_equal(live.max_mem_bytes, before.max_mem_bytes);
	assert_int_equal(live.n_gens, before.n_gens);
	assert_memory_equal(&live.sparks, &before.sparks, sizeof live.sparks);
	assert_int_equal(n_caps, ev_stats_capability_count(st));
	for (size_t c = 0; c < n_caps; c++) {
		assert_int_equal(caps[c].gc_ns, ev_stats_capability_at(st, c)->gc_ns);
		assert_true(caps[c].mutator_ns <=
			    ev_stats_capability_at(st, c)->mutator_ns);
	}
	ev_stats_free(st);
	ev_reader_free(r);
	free(path);
}

/* A GHC 9.0 log's global buffer (capsets, pid) comes at its end: the
 * first third of threads-n2 has none. Live, it is one process already,
 * capset 0, as ev_stats_finish makes it: the same allocation. */
static void test_live_without_processes(void **state)
{
	char *path = ts_path(EVTOOL_TESTDATA, "threads-n2.eventlog");
	size_t len;
	uint8_t *log = ts_read_file(path, &len);
	ev_stats_process live;
	ev_stats *st;
	ev_reader *r;
	ev_event ev;
	int rc;

	(void)state;
	assert_non_null(log);
	assert_int_equal(ev_reader_open_memory(&r, log, len / 3, "third", 0,
					       NULL),
			 EV_OK);
	assert_int_equal(ev_stats_new(&st, NULL), EV_OK);
	assert_int_equal(ev_stats_live_process_count(st), 0);
	while ((rc = ev_reader_next(r, &ev)) == EV_OK)
		assert_int_equal(ev_stats_add(st, &ev), EV_OK);
	assert_int_equal(rc, EV_ETRUNCATED);
	assert_int_equal(ev_stats_live_process_count(st), 1);
	assert_int_equal(ev_stats_live_process_at(st, 0, &live), EV_OK);
	assert_int_equal(live.capset, 0);
	assert_false(live.have_pid);
	assert_int_equal(ev_stats_live_process_at(st, 1, &live), EV_EINVAL);
	assert_int_equal(ev_stats_finish(st), EV_OK);
	assert_int_equal(ev_stats_process_count(st), 1);
	assert_int_equal(live.allocated_bytes,
			 ev_stats_process_at(st, 0)->allocated_bytes);
	assert_int_equal(live.elapsed_ns, ev_stats_process_at(st, 0)->elapsed_ns);
	ev_stats_free(st);
	ev_reader_free(r);
	free(log);
	free(path);
}

static void test_live(void **state)
{
	(void)state;
	check_live_log("gc-n2.eventlog");
	check_live_log("sparks-n2.eventlog");
	check_live_log("threads-n4.eventlog");
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
		cmocka_unit_test(test_gc_end_before_its_stats),
		cmocka_unit_test(test_short_event_is_an_error),
		cmocka_unit_test(test_merged_processes),
		cmocka_unit_test(test_threads_real_log),
		cmocka_unit_test(test_ghc782_stop_status),
		cmocka_unit_test(test_threads_and_caps),
		cmocka_unit_test(test_thread_bound),
		cmocka_unit_test(test_threads_not_kept),
		cmocka_unit_test(test_pause_distribution),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_class_selection_total),
		cmocka_unit_test(test_conditions),
		cmocka_unit_test(test_now),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_live_without_processes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
