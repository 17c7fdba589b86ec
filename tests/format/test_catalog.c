/* Unit tests for the event-type catalogue (lib/format/catalog.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evtool/catalog.h"
#include "evtool/reader.h"
#include "internal.h"
#include "support.h"

#ifndef EVTOOL_TESTDATA
#define EVTOOL_TESTDATA "testdata"
#endif
#ifndef EVTOOL_CORPUS
#define EVTOOL_CORPUS "../shared/corpus"
#endif

#define VAR EV_SIZE_VARIABLE
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------------
 * The table itself
 * ---------------------------------------------------------------------- */

static void test_ids_ascend_and_are_unique(void **state)
{
	(void)state;
	size_t n = ev_catalog_count();

	assert_true(n >= 100);
	for (size_t i = 1; i < n; i++)
		assert_true(ev_catalog_at(i - 1)->id < ev_catalog_at(i)->id);
	assert_null(ev_catalog_at(n));
	assert_null(ev_catalog_at((size_t)-1));
}

static int is_upper_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_'))
			return 0;
	return 1;
}

static void lower_copy(char *dst, const char *src, size_t cap)
{
	size_t i = 0;
	for (; src[i] && i + 1 < cap; i++)
		dst[i] = (src[i] >= 'A' && src[i] <= 'Z') ?
				 (char)(src[i] - 'A' + 'a') : src[i];
	dst[i] = '\0';
}

static void test_every_entry_round_trips(void **state)
{
	(void)state;
	char lower[64];

	for (size_t i = 0; i < ev_catalog_count(); i++) {
		const ev_type_info *t = ev_catalog_at(i);

		assert_ptr_equal(ev_catalog_find(t->id), t);
		assert_ptr_equal(evi_catalog_by_name(t->name), t);
		lower_copy(lower, t->name, sizeof lower);
		assert_ptr_equal(evi_catalog_by_name(lower), t);
		assert_true(is_upper_name(t->name));
		assert_int_not_equal(strncmp(t->name, "EVENT_", 6), 0);
		assert_non_null(t->desc);
		assert_true(strlen(t->desc) > 0);
		/* One class each, and a named one. */
		assert_non_null(ev_class_name(t->cls));
		assert_int_equal(ev_type_class(t->id), t->cls);
		assert_true(t->n_sizes >= 1 && t->n_sizes <= EV_MAX_KNOWN_SIZES);
		for (size_t k = 0; k < t->n_sizes; k++) {
			if (t->sizes[k] == VAR)
				assert_int_equal(t->n_sizes, 1);
			else
				assert_true(t->sizes[k] >= 0);
			assert_true(evi_catalog_size_known(t, t->sizes[k]));
		}
	}
}

/* Every constant of enum ev_type_id is in the catalogue under its name. */
#define ID(n) { EV_##n, #n }
static const struct {
	uint16_t id;
	const char *name;
} header_ids[] = {
	ID(CREATE_THREAD), ID(RUN_THREAD), ID(STOP_THREAD),
	ID(THREAD_RUNNABLE), ID(MIGRATE_THREAD), ID(RUN_SPARK),
	ID(STEAL_SPARK), ID(SHUTDOWN), ID(THREAD_WAKEUP), ID(GC_START),
	ID(GC_END), ID(REQUEST_SEQ_GC), ID(REQUEST_PAR_GC),
	ID(CREATE_SPARK_THREAD), ID(LOG_MSG), ID(STARTUP), ID(BLOCK_MARKER),
	ID(USER_MSG), ID(GC_IDLE), ID(GC_WORK), ID(GC_DONE),
	ID(CAPSET_CREATE), ID(CAPSET_DELETE), ID(CAPSET_ASSIGN_CAP),
	ID(CAPSET_REMOVE_CAP), ID(RTS_IDENTIFIER), ID(PROGRAM_ARGS),
	ID(PROGRAM_ENV), ID(OSPROCESS_PID), ID(OSPROCESS_PPID),
	ID(SPARK_COUNTERS), ID(SPARK_CREATE), ID(SPARK_DUD),
	ID(SPARK_OVERFLOW), ID(SPARK_RUN), ID(SPARK_STEAL), ID(SPARK_FIZZLE),
	ID(SPARK_GC), ID(INTERN_STRING), ID(WALL_CLOCK_TIME),
	ID(THREAD_LABEL), ID(CAP_CREATE), ID(CAP_DELETE), ID(CAP_DISABLE),
	ID(CAP_ENABLE), ID(HEAP_ALLOCATED), ID(HEAP_SIZE), ID(HEAP_LIVE),
	ID(HEAP_INFO_GHC), ID(GC_STATS_GHC), ID(GC_GLOBAL_SYNC),
	ID(TASK_CREATE), ID(TASK_MIGRATE), ID(TASK_DELETE), ID(USER_MARKER),
	ID(HACK_BUG_T9003), ID(MEM_RETURN), ID(BLOCKS_SIZE),
	ID(HEAP_PROF_BEGIN), ID(HEAP_PROF_COST_CENTRE),
	ID(HEAP_PROF_SAMPLE_BEGIN), ID(HEAP_PROF_SAMPLE_COST_CENTRE),
	ID(HEAP_PROF_SAMPLE_STRING), ID(HEAP_PROF_SAMPLE_END),
	ID(HEAP_BIO_PROF_SAMPLE_BEGIN), ID(PROF_SAMPLE_COST_CENTRE),
	ID(PROF_BEGIN), ID(IPE), ID(USER_BINARY_MSG), ID(CONC_MARK_BEGIN),
	ID(CONC_MARK_END), ID(CONC_SYNC_BEGIN), ID(CONC_SYNC_END),
	ID(CONC_SWEEP_BEGIN), ID(CONC_SWEEP_END), ID(CONC_UPD_REM_SET_FLUSH),
	ID(NONMOVING_HEAP_CENSUS), ID(NONMOVING_PRUNED_SEGMENTS),
	ID(TICKY_COUNTER_DEF), ID(TICKY_COUNTER_SAMPLE),
	ID(TICKY_COUNTER_BEGIN_SAMPLE),
};
#undef ID

static void test_header_enum_is_catalogued(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(header_ids); i++) {
		const ev_type_info *t = ev_catalog_find(header_ids[i].id);
		assert_non_null(t);
		assert_string_equal(t->name, header_ids[i].name);
	}
}

static void test_unknown_ids_and_names(void **state)
{
	(void)state;
	/* 13 and 14 were withdrawn before any release wrote them; 209 and
	 * 213 up are unassigned; ids >= 256 are never known. */
	static const uint16_t unknown[] = { 13, 14, 70, 89, 92, 114, 139,
					    143, 159, 170, 180, 182, 199, 209,
					    213, 255, 256, 1000, 0xfffe,
					    0xffff };
	for (size_t i = 0; i < ARRAY_LEN(unknown); i++) {
		assert_null(ev_catalog_find(unknown[i]));
		assert_int_equal(ev_type_class(unknown[i]), EV_CLASS_OTHER);
	}
	assert_null(evi_catalog_by_name("NO_SUCH_EVENT"));
	assert_null(evi_catalog_by_name("CREATE_THREADS"));
	assert_null(evi_catalog_by_name("CREATE_THREA"));
	assert_null(evi_catalog_by_name(""));
	assert_null(evi_catalog_by_name(NULL));
}

struct expected_type {
	uint16_t id;
	const char *name;
	ev_class cls;
	const char *desc;
	uint8_t n_sizes;
	int16_t sizes[EV_MAX_KNOWN_SIZES];
};

static const struct expected_type expected_types[] = {
	{ 0, "CREATE_THREAD", EV_CLASS_SCHEDULER, "Create thread", 1, { 4 } },
	{ 2, "STOP_THREAD", EV_CLASS_SCHEDULER, "Stop thread", 2, { 6, 10 } },
	{ 4, "MIGRATE_THREAD", EV_CLASS_SCHEDULER, "Migrate thread", 1, { 6 } },
	{ 5, "RUN_SPARK", EV_CLASS_OTHER, "Run spark", 1, { 4 } },
	{ 6, "STEAL_SPARK", EV_CLASS_OTHER, "Steal spark", 1, { 6 } },
	{ 7, "SHUTDOWN", EV_CLASS_OTHER, "Shutdown", 1, { 0 } },
	{ 8, "THREAD_WAKEUP", EV_CLASS_SCHEDULER, "Wakeup thread", 1, { 6 } },
	{ 10, "GC_END", EV_CLASS_GC, "Finished GC", 1, { 0 } },
	{ 15, "CREATE_SPARK_THREAD", EV_CLASS_SPARKS_FULL,
	  "Create spark thread", 1, { 4 } },
	{ 16, "LOG_MSG", EV_CLASS_DEBUG, "Log message", 1, { VAR } },
	{ 17, "STARTUP", EV_CLASS_META, "Startup", 1, { 2 } },
	{ 18, "BLOCK_MARKER", EV_CLASS_BLOCK, "Block marker", 1, { 14 } },
	{ 19, "USER_MSG", EV_CLASS_USER, "User message", 1, { VAR } },
	{ 27, "CAPSET_ASSIGN_CAP", EV_CLASS_CAP,
	  "Add capability to capability set", 1, { 6 } },
	{ 29, "RTS_IDENTIFIER", EV_CLASS_META, "RTS name and version", 1,
	  { VAR } },
	{ 34, "SPARK_COUNTERS", EV_CLASS_SPARKS_SAMPLED, "Spark counters", 1,
	  { 56 } },
	{ 39, "SPARK_STEAL", EV_CLASS_SPARKS_FULL, "Spark steal", 1, { 2 } },
	{ 42, "INTERN_STRING", EV_CLASS_DEBUG, "Intern string", 1, { VAR } },
	{ 43, "WALL_CLOCK_TIME", EV_CLASS_META, "Wall clock time", 1, { 16 } },
	{ 44, "THREAD_LABEL", EV_CLASS_SCHEDULER, "Thread label", 1, { VAR } },
	{ 45, "CAP_CREATE", EV_CLASS_CAP, "Create capability", 1, { 2 } },
	{ 50, "HEAP_SIZE", EV_CLASS_GC,
	  "Current heap size (number of allocated mblocks)", 1, { 12 } },
	{ 52, "HEAP_INFO_GHC", EV_CLASS_GC, "Heap static parameters", 1,
	  { 38 } },
	{ 53, "GC_STATS_GHC", EV_CLASS_GC, "GC statistics", 2, { 50, 58 } },
	{ 55, "TASK_CREATE", EV_CLASS_SCHEDULER, "Task create", 1, { 18 } },
	{ 56, "TASK_MIGRATE", EV_CLASS_SCHEDULER, "Task migrate", 1, { 12 } },
	{ 58, "USER_MARKER", EV_CLASS_USER, "User marker", 1, { VAR } },
	{ 59, "HACK_BUG_T9003", EV_CLASS_DEBUG, "Empty event for bug #9003", 1,
	  { 0 } },
	{ 64, "ASSIGN_THREAD_TO_PROCESS", EV_CLASS_OTHER,
	  "Assign thread to process", 1, { 8 } },
	{ 90, "MEM_RETURN", EV_CLASS_GC,
	  "The RTS attempted to return heap memory to the OS", 1, { 16 } },
	{ 91, "BLOCKS_SIZE", EV_CLASS_GC,
	  "Report the size of the heap in blocks", 1, { 12 } },
	{ 100, "MER_START_PAR_CONJUNCTION", EV_CLASS_OTHER,
	  "Start a parallel conjunction", 1, { 12 } },
	{ 140, "PERF_NAME", EV_CLASS_OTHER, "perf event name", 1, { VAR } },
	{ 141, "PERF_COUNTER", EV_CLASS_OTHER, "perf event counter", 1,
	  { 20 } },
	{ 142, "PERF_TRACEPOINT", EV_CLASS_OTHER, "perf event tracepoint", 1,
	  { 12 } },
	{ 160, "HEAP_PROF_BEGIN", EV_CLASS_HEAP_PROF, "Start of heap profile",
	  1, { VAR } },
	{ 161, "HEAP_PROF_COST_CENTRE", EV_CLASS_HEAP_PROF,
	  "Cost-centre definition", 1, { VAR } },
	{ 166, "HEAP_BIO_PROF_SAMPLE_BEGIN", EV_CLASS_HEAP_PROF,
	  "Start of heap profile (biographical) sample", 1, { 16 } },
	{ 167, "PROF_SAMPLE_COST_CENTRE", EV_CLASS_TIME_PROF,
	  "Time profile cost-centre stack", 1, { VAR } },
	{ 168, "PROF_BEGIN", EV_CLASS_TIME_PROF, "Start of a time profile", 1,
	  { 8 } },
	{ 169, "IPE", EV_CLASS_HEAP_PROF, "An IPE entry", 1, { VAR } },
	{ 181, "USER_BINARY_MSG", EV_CLASS_USER, "User binary message", 1,
	  { VAR } },
	{ 201, "CONC_MARK_END", EV_CLASS_NONMOVING_GC,
	  "End concurrent mark phase", 1, { 4 } },
	{ 206, "CONC_UPD_REM_SET_FLUSH", EV_CLASS_NONMOVING_GC,
	  "Update remembered set flushed", 1, { 2 } },
	{ 207, "NONMOVING_HEAP_CENSUS", EV_CLASS_NONMOVING,
	  "Nonmoving heap census", 2, { 13, 14 } },
	{ 208, "NONMOVING_PRUNED_SEGMENTS", EV_CLASS_NONMOVING,
	  "Report the amount of segments pruned and remaining on the free "
	  "list.", 1, { 8 } },
	{ 210, "TICKY_COUNTER_DEF", EV_CLASS_TICKY,
	  "Ticky-ticky entry counter definition", 1, { VAR } },
	{ 211, "TICKY_COUNTER_SAMPLE", EV_CLASS_TICKY,
	  "Ticky-ticky entry counter sample", 1, { 32 } },
	{ 212, "TICKY_COUNTER_BEGIN_SAMPLE", EV_CLASS_TICKY,
	  "Ticky-ticky entry counter begin sample", 1, { 0 } },
};

static void test_selected_entries_exact(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(expected_types); i++) {
		const struct expected_type *e = &expected_types[i];
		const ev_type_info *t = ev_catalog_find(e->id);

		assert_non_null(t);
		assert_int_equal(t->id, e->id);
		assert_string_equal(t->name, e->name);
		assert_int_equal(t->cls, e->cls);
		assert_string_equal(t->desc, e->desc);
		assert_int_equal(t->n_sizes, e->n_sizes);
		for (size_t k = 0; k < e->n_sizes; k++)
			assert_int_equal(t->sizes[k], e->sizes[k]);
	}
}

static void test_size_known(void **state)
{
	(void)state;
	const ev_type_info *stop = ev_catalog_find(EV_STOP_THREAD);
	const ev_type_info *stats = ev_catalog_find(EV_GC_STATS_GHC);
	const ev_type_info *census = ev_catalog_find(EV_NONMOVING_HEAP_CENSUS);
	const ev_type_info *log = ev_catalog_find(EV_LOG_MSG);

	assert_true(evi_catalog_size_known(stop, 6));
	assert_true(evi_catalog_size_known(stop, 10));
	assert_false(evi_catalog_size_known(stop, 8));
	assert_false(evi_catalog_size_known(stop, 0));
	assert_false(evi_catalog_size_known(stop, VAR));
	assert_true(evi_catalog_size_known(stats, 50));
	assert_true(evi_catalog_size_known(stats, 58));
	assert_false(evi_catalog_size_known(stats, 54));
	assert_true(evi_catalog_size_known(census, 13));
	assert_true(evi_catalog_size_known(census, 14));
	assert_false(evi_catalog_size_known(census, 15));
	assert_true(evi_catalog_size_known(log, VAR));
	assert_false(evi_catalog_size_known(log, 0));
	assert_false(evi_catalog_size_known(NULL, 4));
}

/* doc/format.md section 5's class column, with the splits of "prof" and "nm". */
static const struct {
	uint16_t first, last;
	ev_class cls;
} class_ranges[] = {
	{ 0, 4, EV_CLASS_SCHEDULER },	  { 5, 7, EV_CLASS_OTHER },
	{ 8, 8, EV_CLASS_SCHEDULER },	  { 9, 12, EV_CLASS_GC },
	{ 15, 15, EV_CLASS_SPARKS_FULL }, { 16, 16, EV_CLASS_DEBUG },
	{ 17, 17, EV_CLASS_META },	  { 18, 18, EV_CLASS_BLOCK },
	{ 19, 19, EV_CLASS_USER },	  { 20, 22, EV_CLASS_GC },
	{ 25, 28, EV_CLASS_CAP },	  { 29, 33, EV_CLASS_META },
	{ 34, 34, EV_CLASS_SPARKS_SAMPLED },
	{ 35, 41, EV_CLASS_SPARKS_FULL }, { 42, 42, EV_CLASS_DEBUG },
	{ 43, 43, EV_CLASS_META },	  { 44, 44, EV_CLASS_SCHEDULER },
	{ 45, 48, EV_CLASS_CAP },	  { 49, 54, EV_CLASS_GC },
	{ 55, 57, EV_CLASS_SCHEDULER },	  { 58, 58, EV_CLASS_USER },
	{ 59, 59, EV_CLASS_DEBUG },	  { 60, 69, EV_CLASS_OTHER },
	{ 90, 91, EV_CLASS_GC },	  { 100, 113, EV_CLASS_OTHER },
	{ 140, 142, EV_CLASS_OTHER },	  { 160, 166, EV_CLASS_HEAP_PROF },
	{ 167, 168, EV_CLASS_TIME_PROF }, { 169, 169, EV_CLASS_HEAP_PROF },
	{ 181, 181, EV_CLASS_USER },	  { 200, 206, EV_CLASS_NONMOVING_GC },
	{ 207, 208, EV_CLASS_NONMOVING }, { 210, 212, EV_CLASS_TICKY },
};

static void test_classes_follow_format(void **state)
{
	(void)state;
	size_t covered = 0;

	for (size_t i = 0; i < ARRAY_LEN(class_ranges); i++) {
		for (unsigned id = class_ranges[i].first;
		     id <= class_ranges[i].last; id++) {
			const ev_type_info *t = ev_catalog_find((uint16_t)id);
			assert_non_null(t);
			assert_int_equal(t->cls, class_ranges[i].cls);
			assert_int_equal(ev_type_class((uint16_t)id),
					 class_ranges[i].cls);
			covered++;
		}
	}
	/* Only Eden's 23 and 24 lie outside doc/format.md's table. */
	assert_int_equal(covered + 2, ev_catalog_count());
	assert_int_equal(ev_type_class(23), EV_CLASS_OTHER);
	assert_int_equal(ev_type_class(24), EV_CLASS_OTHER);
}

/* ------------------------------------------------------------------------
 * Class names
 * ---------------------------------------------------------------------- */

static const struct {
	ev_class cls;
	const char *name;
} class_names[] = {
	{ EV_CLASS_SCHEDULER, "scheduler" },
	{ EV_CLASS_GC, "gc" },
	{ EV_CLASS_SPARKS_SAMPLED, "sparks-sampled" },
	{ EV_CLASS_SPARKS_FULL, "sparks-full" },
	{ EV_CLASS_USER, "user" },
	{ EV_CLASS_NONMOVING, "nonmoving" },
	{ EV_CLASS_TICKY, "ticky" },
	{ EV_CLASS_META, "meta" },
	{ EV_CLASS_CAP, "cap" },
	{ EV_CLASS_HEAP_PROF, "heap-profile" },
	{ EV_CLASS_TIME_PROF, "time-profile" },
	{ EV_CLASS_NONMOVING_GC, "nonmoving-gc" },
	{ EV_CLASS_BLOCK, "block" },
	{ EV_CLASS_DEBUG, "debug" },
	{ EV_CLASS_OTHER, "other" },
};

static void upper_copy(char *dst, const char *src, size_t cap)
{
	size_t i = 0;
	for (; src[i] && i + 1 < cap; i++)
		dst[i] = (src[i] >= 'a' && src[i] <= 'z') ?
				 (char)(src[i] - 'a' + 'A') : src[i];
	dst[i] = '\0';
}

static void test_class_names_both_ways(void **state)
{
	(void)state;
	char upper[32];

	for (size_t i = 0; i < ARRAY_LEN(class_names); i++) {
		assert_string_equal(ev_class_name(class_names[i].cls),
				    class_names[i].name);
		assert_int_equal(evi_class_from_name(class_names[i].name),
				 class_names[i].cls);
		upper_copy(upper, class_names[i].name, sizeof upper);
		assert_int_equal(evi_class_from_name(upper),
				 class_names[i].cls);
	}
	/* Every bit below EV_CLASS_COUNT has a name, one per class listed;
	 * anything but one such bit has none. */
	assert_int_equal(EV_CLASS_COUNT, ARRAY_LEN(class_names));
	for (unsigned bit = 0; bit < EV_CLASS_COUNT; bit++)
		assert_non_null(ev_class_name((ev_class)(1u << bit)));
	assert_null(ev_class_name(EV_CLASS_NONE));
	assert_null(ev_class_name((ev_class)(1u << EV_CLASS_COUNT)));
	assert_null(ev_class_name(EV_CLASS_GC | EV_CLASS_USER));
}

static void test_class_letters(void **state)
{
	(void)state;
	assert_int_equal(evi_class_from_name("s"), EV_CLASS_SCHEDULER);
	assert_int_equal(evi_class_from_name("g"), EV_CLASS_GC);
	assert_int_equal(evi_class_from_name("p"), EV_CLASS_SPARKS_SAMPLED);
	assert_int_equal(evi_class_from_name("f"), EV_CLASS_SPARKS_FULL);
	assert_int_equal(evi_class_from_name("u"), EV_CLASS_USER);
	assert_int_equal(evi_class_from_name("n"), EV_CLASS_NONMOVING);
	assert_int_equal(evi_class_from_name("T"), EV_CLASS_TICKY);
	/* Letters are case-sensitive, as the RTS flags are. */
	assert_int_equal(evi_class_from_name("t"), EV_CLASS_NONE);
	assert_int_equal(evi_class_from_name("S"), EV_CLASS_NONE);
	assert_int_equal(evi_class_from_name("G"), EV_CLASS_NONE);
	assert_int_equal(evi_class_from_name("x"), EV_CLASS_NONE);
}

static void test_class_from_other_names(void **state)
{
	(void)state;
	assert_int_equal(evi_class_from_name("sparks"),
			 EV_CLASS_SPARKS_SAMPLED | EV_CLASS_SPARKS_FULL);
	assert_int_equal(evi_class_from_name("Sparks"),
			 EV_CLASS_SPARKS_SAMPLED | EV_CLASS_SPARKS_FULL);
	assert_int_equal(evi_class_from_name(""), EV_CLASS_NONE);
	assert_int_equal(evi_class_from_name(NULL), EV_CLASS_NONE);
	assert_int_equal(evi_class_from_name("sched"), EV_CLASS_NONE);
	assert_int_equal(evi_class_from_name("schedulers"), EV_CLASS_NONE);
	assert_int_equal(evi_class_from_name("gc "), EV_CLASS_NONE);
	assert_int_equal(evi_class_from_name("heap_profile"), EV_CLASS_NONE);
	assert_int_equal(evi_class_from_name("sg"), EV_CLASS_NONE);
}

/* ------------------------------------------------------------------------
 * Identifier fields
 * ---------------------------------------------------------------------- */

#define MAX_REFS 300

static void assert_ref(const evi_ref *ref, ev_ref_kind kind, unsigned offset,
		       unsigned width)
{
	assert_int_equal(ref->kind, kind);
	assert_int_equal(ref->offset, offset);
	assert_int_equal(ref->width, width);
}

static void test_refs_thread_only(void **state)
{
	(void)state;
	static const uint16_t types[] = { EV_CREATE_THREAD, EV_RUN_THREAD,
					  EV_THREAD_RUNNABLE,
					  EV_CREATE_SPARK_THREAD,
					  EV_THREAD_LABEL };
	/* thread 0x01020304 then (for THREAD_LABEL) text */
	const uint8_t payload[] = { 1, 2, 3, 4, 'm', 'a', 'i', 'n' };
	evi_ref refs[4];

	for (size_t i = 0; i < ARRAY_LEN(types); i++) {
		size_t size = types[i] == EV_THREAD_LABEL ? 8 : 4;
		assert_int_equal(evi_payload_refs(types[i], payload, size,
						 refs, 4), 1);
		assert_ref(&refs[0], EV_REF_THREAD, 0, 4);
		assert_int_equal(evi_ref_load(payload, &refs[0]), 0x01020304);
	}
}

static void test_refs_stop_thread(void **state)
{
	(void)state;
	/* tid 7, status 8 (blocked on black hole), owner tid 9 */
	const uint8_t blackhole[] = { 0, 0, 0, 7, 0, 8, 0, 0, 0, 9 };
	/* tid 7, status 7 (blocked on MVar), info 9 is not a thread */
	const uint8_t mvar[] = { 0, 0, 0, 7, 0, 7, 0, 0, 0, 9 };
	/* status 0x0108: only the low byte is 8 */
	const uint8_t wide[] = { 0, 0, 0, 7, 1, 8, 0, 0, 0, 9 };
	evi_ref refs[4];

	assert_int_equal(evi_payload_refs(EV_STOP_THREAD, blackhole, 10, refs,
					 4), 2);
	assert_ref(&refs[0], EV_REF_THREAD, 0, 4);
	assert_ref(&refs[1], EV_REF_THREAD, 6, 4);
	assert_int_equal(evi_ref_load(blackhole, &refs[0]), 7);
	assert_int_equal(evi_ref_load(blackhole, &refs[1]), 9);

	assert_int_equal(evi_payload_refs(EV_STOP_THREAD, mvar, 10, refs, 4),
			 1);
	assert_ref(&refs[0], EV_REF_THREAD, 0, 4);
	assert_int_equal(evi_payload_refs(EV_STOP_THREAD, wide, 10, refs, 4),
			 1);

	/* The 6-byte layout of GHC before ~7.2 has no info field. */
	assert_int_equal(evi_payload_refs(EV_STOP_THREAD, blackhole, 6, refs,
					 4), 1);
	/* Cut inside the info field, inside the status, inside the thread. */
	assert_int_equal(evi_payload_refs(EV_STOP_THREAD, blackhole, 9, refs,
					 4), 1);
	assert_int_equal(evi_payload_refs(EV_STOP_THREAD, blackhole, 5, refs,
					 4), 1);
	assert_int_equal(evi_payload_refs(EV_STOP_THREAD, blackhole, 3, refs,
					 4), 0);
}

static void test_refs_thread_and_cap(void **state)
{
	(void)state;
	/* Padded to 8 bytes: evi_ref_load is inline, and the compiler sees
	 * its 8-byte branch. The refs are asked of the first 6. */
	const uint8_t payload[8] = { 0, 0, 0, 42, 0, 3 };
	evi_ref refs[4];

	assert_int_equal(evi_payload_refs(EV_MIGRATE_THREAD, payload, 6, refs,
					 4), 2);
	assert_ref(&refs[0], EV_REF_THREAD, 0, 4);
	assert_ref(&refs[1], EV_REF_CAP, 4, 2);
	assert_int_equal(evi_ref_load(payload, &refs[1]), 3);
	assert_int_equal(evi_payload_refs(EV_THREAD_WAKEUP, payload, 6, refs,
					 4), 2);
	assert_ref(&refs[0], EV_REF_THREAD, 0, 4);
	assert_ref(&refs[1], EV_REF_CAP, 4, 2);
	assert_int_equal(evi_payload_refs(EV_THREAD_WAKEUP, payload, 5, refs,
					 4), 1);
}

static void test_refs_cap_only(void **state)
{
	(void)state;
	static const uint16_t types[] = { EV_SPARK_STEAL, EV_CAP_CREATE,
					  EV_CAP_DELETE, EV_CAP_DISABLE,
					  EV_CAP_ENABLE,
					  EV_CONC_UPD_REM_SET_FLUSH };
	const uint8_t payload[8] = { 0x12, 0x34 }; /* 2 used, see above */
	evi_ref refs[4];

	for (size_t i = 0; i < ARRAY_LEN(types); i++) {
		assert_int_equal(evi_payload_refs(types[i], payload, 2, refs,
						 4), 1);
		assert_ref(&refs[0], EV_REF_CAP, 0, 2);
		assert_int_equal(evi_ref_load(payload, &refs[0]), 0x1234);
		assert_int_equal(evi_payload_refs(types[i], payload, 1, refs,
						 4), 0);
	}
}

static void test_refs_capset(void **state)
{
	(void)state;
	/* doc/format.md section 6: capset at offset 0. */
	static const uint16_t types[] = {
		EV_CAPSET_CREATE, EV_CAPSET_DELETE, EV_RTS_IDENTIFIER,
		EV_PROGRAM_ARGS, EV_PROGRAM_ENV, EV_OSPROCESS_PID,
		EV_OSPROCESS_PPID, EV_WALL_CLOCK_TIME, EV_HEAP_ALLOCATED,
		EV_HEAP_SIZE, EV_HEAP_LIVE, EV_HEAP_INFO_GHC, EV_GC_STATS_GHC,
		EV_MEM_RETURN, EV_BLOCKS_SIZE
	};
	uint8_t payload[58] = { 0, 0, 0, 1 };
	evi_ref refs[4];

	for (size_t i = 0; i < ARRAY_LEN(types); i++) {
		/* Nothing else in these payloads (pid, type, sizes) is an
		 * identifier. */
		assert_int_equal(evi_payload_refs(types[i], payload,
						 sizeof payload, refs, 4), 1);
		assert_ref(&refs[0], EV_REF_CAPSET, 0, 4);
		assert_int_equal(evi_ref_load(payload, &refs[0]), 1);
		assert_int_equal(evi_payload_refs(types[i], payload, 3, refs,
						 4), 0);
	}

	/* CAPSET_ASSIGN_CAP / REMOVE_CAP: capset u32, cap u16. */
	const uint8_t assign[8] = { 0, 0, 0, 2, 0, 5 }; /* 6 used */
	for (uint16_t t = EV_CAPSET_ASSIGN_CAP; t <= EV_CAPSET_REMOVE_CAP;
	     t++) {
		assert_int_equal(evi_payload_refs(t, assign, 6, refs, 4), 2);
		assert_ref(&refs[0], EV_REF_CAPSET, 0, 4);
		assert_ref(&refs[1], EV_REF_CAP, 4, 2);
		assert_int_equal(evi_ref_load(assign, &refs[0]), 2);
		assert_int_equal(evi_ref_load(assign, &refs[1]), 5);
	}
}

static void test_refs_tasks(void **state)
{
	(void)state;
	/* task 0x00007f0000001000, cap 1, kernel tid 0x1234 */
	const uint8_t create[] = { 0, 0, 0x7f, 0, 0, 0, 0x10, 0, 0, 1,
				   0, 0, 0, 0, 0, 0, 0x12, 0x34 };
	/* task ..., cap 1, new cap 2 */
	const uint8_t migrate[] = { 0, 0, 0x7f, 0, 0, 0, 0x10, 0, 0, 1, 0, 2 };
	evi_ref refs[4];

	/* The kernel thread id is the OS's, not an identifier to remap. */
	assert_int_equal(evi_payload_refs(EV_TASK_CREATE, create, 18, refs, 4),
			 2);
	assert_ref(&refs[0], EV_REF_TASK, 0, 8);
	assert_ref(&refs[1], EV_REF_CAP, 8, 2);
	assert_int_equal(evi_ref_load(create, &refs[0]), 0x00007f0000001000ull);
	assert_int_equal(evi_ref_load(create, &refs[1]), 1);

	assert_int_equal(evi_payload_refs(EV_TASK_MIGRATE, migrate, 12, refs,
					 4), 3);
	assert_ref(&refs[0], EV_REF_TASK, 0, 8);
	assert_ref(&refs[1], EV_REF_CAP, 8, 2);
	assert_ref(&refs[2], EV_REF_CAP, 10, 2);
	assert_int_equal(evi_ref_load(migrate, &refs[1]), 1);
	assert_int_equal(evi_ref_load(migrate, &refs[2]), 2);
	assert_int_equal(evi_payload_refs(EV_TASK_MIGRATE, migrate, 11, refs,
					 4), 2);

	assert_int_equal(evi_payload_refs(EV_TASK_DELETE, migrate, 8, refs, 4),
			 1);
	assert_ref(&refs[0], EV_REF_TASK, 0, 8);
	assert_int_equal(evi_payload_refs(EV_TASK_DELETE, migrate, 7, refs, 4),
			 0);
}

/* HEAP_PROF_SAMPLE_COST_CENTRE: profile 1, residency 0x100, depth 3,
 * cost centres 0x11, 0x22, 0x33. */
static const uint8_t heap_sample[] = {
	1,
	0, 0, 0, 0, 0, 0, 1, 0,
	3,
	0, 0, 0, 0x11,
	0, 0, 0, 0x22,
	0, 0, 0, 0x33,
};

static void test_refs_heap_sample_cost_centre(void **state)
{
	(void)state;
	evi_ref refs[8];

	assert_int_equal(sizeof heap_sample, 22);
	assert_int_equal(evi_payload_refs(EV_HEAP_PROF_SAMPLE_COST_CENTRE,
					 heap_sample, 22, refs, 8), 4);
	assert_ref(&refs[0], EV_REF_HEAP_PROFILE, 0, 1);
	assert_ref(&refs[1], EV_REF_COST_CENTRE, 10, 4);
	assert_ref(&refs[2], EV_REF_COST_CENTRE, 14, 4);
	assert_ref(&refs[3], EV_REF_COST_CENTRE, 18, 4);
	assert_int_equal(evi_ref_load(heap_sample, &refs[0]), 1);
	assert_int_equal(evi_ref_load(heap_sample, &refs[1]), 0x11);
	assert_int_equal(evi_ref_load(heap_sample, &refs[2]), 0x22);
	assert_int_equal(evi_ref_load(heap_sample, &refs[3]), 0x33);
}

static void test_refs_heap_sample_cut_short(void **state)
{
	(void)state;
	evi_ref refs[8];

	/* The third id needs bytes 18..21; 21 bytes hold only two. */
	assert_int_equal(evi_payload_refs(EV_HEAP_PROF_SAMPLE_COST_CENTRE,
					 heap_sample, 21, refs, 8), 3);
	assert_ref(&refs[2], EV_REF_COST_CENTRE, 14, 4);
	assert_int_equal(evi_payload_refs(EV_HEAP_PROF_SAMPLE_COST_CENTRE,
					 heap_sample, 18, refs, 8), 3);
	assert_int_equal(evi_payload_refs(EV_HEAP_PROF_SAMPLE_COST_CENTRE,
					 heap_sample, 13, refs, 8), 1);
	/* No depth byte: only the profile id. */
	assert_int_equal(evi_payload_refs(EV_HEAP_PROF_SAMPLE_COST_CENTRE,
					 heap_sample, 9, refs, 8), 1);
	assert_ref(&refs[0], EV_REF_HEAP_PROFILE, 0, 1);
	assert_int_equal(evi_payload_refs(EV_HEAP_PROF_SAMPLE_COST_CENTRE,
					 heap_sample, 0, refs, 8), 0);
}

static void test_refs_prof_sample_cost_centre(void **state)
{
	(void)state;
	/* cap 2 as u32, ticks 5, depth 2, cost centres 0x0a0b0c0d, 7 */
	const uint8_t payload[] = {
		0, 0, 0, 2,
		0, 0, 0, 0, 0, 0, 0, 5,
		2,
		0x0a, 0x0b, 0x0c, 0x0d,
		0, 0, 0, 7,
	};
	evi_ref refs[4];

	assert_int_equal(evi_payload_refs(EV_PROF_SAMPLE_COST_CENTRE, payload,
					 sizeof payload, refs, 4), 3);
	assert_ref(&refs[0], EV_REF_CAP, 0, 4);
	assert_ref(&refs[1], EV_REF_COST_CENTRE, 13, 4);
	assert_ref(&refs[2], EV_REF_COST_CENTRE, 17, 4);
	assert_int_equal(evi_ref_load(payload, &refs[0]), 2);
	assert_int_equal(evi_ref_load(payload, &refs[1]), 0x0a0b0c0d);
	assert_int_equal(evi_ref_load(payload, &refs[2]), 7);
	assert_int_equal(evi_payload_refs(EV_PROF_SAMPLE_COST_CENTRE, payload,
					 20, refs, 4), 2);
}

static void test_refs_profiles_and_counters(void **state)
{
	(void)state;
	const uint8_t payload[32] = { 3, 0, 0, 0, 0, 0, 0, 9 };
	evi_ref refs[4];

	assert_int_equal(evi_payload_refs(EV_HEAP_PROF_BEGIN, payload, 32, refs,
					 4), 1);
	assert_ref(&refs[0], EV_REF_HEAP_PROFILE, 0, 1);
	assert_int_equal(evi_payload_refs(EV_HEAP_PROF_SAMPLE_STRING, payload,
					 12, refs, 4), 1);
	assert_ref(&refs[0], EV_REF_HEAP_PROFILE, 0, 1);
	assert_int_equal(evi_ref_load(payload, &refs[0]), 3);

	assert_int_equal(evi_payload_refs(EV_HEAP_PROF_COST_CENTRE, payload, 9,
					 refs, 4), 1);
	assert_ref(&refs[0], EV_REF_COST_CENTRE, 0, 4);
	assert_int_equal(evi_ref_load(payload, &refs[0]), 0x03000000);

	assert_int_equal(evi_payload_refs(EV_TICKY_COUNTER_DEF, payload, 20,
					 refs, 4), 1);
	assert_ref(&refs[0], EV_REF_TICKY_COUNTER, 0, 8);
	assert_int_equal(evi_ref_load(payload, &refs[0]), 0x0300000000000009ull);
	assert_int_equal(evi_payload_refs(EV_TICKY_COUNTER_SAMPLE, payload, 32,
					 refs, 4), 1);
	assert_ref(&refs[0], EV_REF_TICKY_COUNTER, 0, 8);
}

static void test_refs_none(void **state)
{
	(void)state;
	static const uint16_t types[] = {
		EV_GC_START, EV_RUN_SPARK, EV_STEAL_SPARK, EV_STARTUP,
		EV_BLOCK_MARKER, EV_USER_MSG, EV_LOG_MSG, EV_SPARK_COUNTERS,
		EV_HEAP_PROF_SAMPLE_BEGIN, EV_PROF_BEGIN, EV_IPE,
		EV_CONC_MARK_END, EV_NONMOVING_HEAP_CENSUS, 213, 0xffff
	};
	const uint8_t payload[64] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	evi_ref refs[4];

	for (size_t i = 0; i < ARRAY_LEN(types); i++)
		assert_int_equal(evi_payload_refs(types[i], payload,
						 sizeof payload, refs, 4), 0);
}

static void test_refs_count_beyond_max(void **state)
{
	(void)state;
	const uint8_t migrate[12] = { 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 2 };
	evi_ref refs[3];
	const evi_ref untouched = { EV_REF_HEAP_PROFILE, 999, 7 };

	refs[1] = untouched;
	refs[2] = untouched;
	assert_int_equal(evi_payload_refs(EV_TASK_MIGRATE, migrate, 12, refs, 1),
			 3);
	assert_ref(&refs[0], EV_REF_TASK, 0, 8);
	assert_ref(&refs[1], untouched.kind, untouched.offset, untouched.width);
	assert_ref(&refs[2], untouched.kind, untouched.offset, untouched.width);
	assert_int_equal(evi_payload_refs(EV_TASK_MIGRATE, migrate, 12, NULL, 0),
			 3);
	assert_int_equal(evi_payload_refs(EV_HEAP_PROF_SAMPLE_COST_CENTRE,
					 heap_sample, 22, NULL, 0), 4);
}

/* For every type and every size up to 64, with payloads that make the
 * conditional fields apply (status 8, a stack depth of 200), each ref lies
 * inside the payload, and reading stays inside it: the payload sits at
 * the very end of a malloc'd block for the sanitizer build to check. */
static void test_refs_never_past_size(void **state)
{
	(void)state;
	evi_ref refs[MAX_REFS];

	for (unsigned type = 0; type <= 256; type++) {
		for (size_t size = 0; size <= 64; size++) {
			uint8_t *payload = malloc(size ? size : 1);
			assert_non_null(payload);
			memset(payload, 0, size);
			if (size > 5)
				payload[5] = 8;	  /* STOP_THREAD status */
			if (size > 9)
				payload[9] = 200; /* 163 depth */
			if (size > 12)
				payload[12] = 200; /* 167 depth */
			size_t n = evi_payload_refs((uint16_t)type, payload,
						   size, refs, MAX_REFS);
			assert_true(n <= MAX_REFS);
			for (size_t i = 0; i < n; i++)
				assert_true((size_t)refs[i].offset +
						    refs[i].width <= size);
			free(payload);
		}
	}
}

/* ------------------------------------------------------------------------
 * Reading and writing fields
 * ---------------------------------------------------------------------- */

static void test_ref_get_set_widths(void **state)
{
	(void)state;
	static const struct {
		uint8_t width;
		uint64_t value;
		uint8_t bytes[8];
	} cases[] = {
		{ 1, 0xab, { 0xab } },
		{ 2, 0xbeef, { 0xbe, 0xef } },
		{ 4, 0xdeadbeef, { 0xde, 0xad, 0xbe, 0xef } },
		{ 8, 0x0102030405060708ull, { 1, 2, 3, 4, 5, 6, 7, 8 } },
	};

	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		uint8_t buf[16];
		const evi_ref ref = { EV_REF_CAP, 3, cases[i].width };

		memset(buf, 0x5a, sizeof buf);
		evi_ref_store(buf, &ref, cases[i].value);
		assert_memory_equal(buf + 3, cases[i].bytes, cases[i].width);
		/* Neighbours untouched. */
		for (size_t k = 0; k < sizeof buf; k++)
			if (k < 3 || k >= 3u + cases[i].width)
				assert_int_equal(buf[k], 0x5a);
		assert_int_equal(evi_ref_load(buf, &ref), cases[i].value);
	}
}

static void test_ref_set_truncates(void **state)
{
	(void)state;
	uint8_t buf[8] = { 0 };
	const evi_ref narrow = { EV_REF_CAP, 0, 2 };
	const evi_ref byte = { EV_REF_HEAP_PROFILE, 7, 1 };

	evi_ref_store(buf, &narrow, 0x123456789ull);
	assert_int_equal(buf[0], 0x67);
	assert_int_equal(buf[1], 0x89);
	assert_int_equal(buf[2], 0);
	assert_int_equal(evi_ref_load(buf, &narrow), 0x6789);
	evi_ref_store(buf, &byte, 0x1ff);
	assert_int_equal(evi_ref_load(buf, &byte), 0xff);
}

static void test_ref_round_trip_through_payload(void **state)
{
	(void)state;
	/* Renumber both caps of a TASK_MIGRATE the way a merge would. */
	uint8_t migrate[12] = { 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 2 };
	const uint8_t want[12] = { 0, 0, 0, 0, 0, 0, 0, 1, 0, 5, 0, 6 };
	evi_ref refs[4];
	size_t n = evi_payload_refs(EV_TASK_MIGRATE, migrate, 12, refs, 4);

	for (size_t i = 0; i < n; i++)
		if (refs[i].kind == EV_REF_CAP)
			evi_ref_store(migrate, &refs[i],
				   evi_ref_load(migrate, &refs[i]) + 4);
	assert_memory_equal(migrate, want, sizeof want);
}

/* ------------------------------------------------------------------------
 * Real headers (doc/format.md section 1), from the optional corpus
 * ---------------------------------------------------------------------- */

struct corpus_check {
	size_t logs;
	size_t types;
};

/* Calls fn(id, size, desc, desc_len) for each event type the header at
 * the start of `log` declares; returns 0 if the header is malformed. */
static int walk_header(const uint8_t *log, size_t len,
		       void (*fn)(uint16_t, int16_t, const uint8_t *, uint32_t,
				  const char *, void *),
		       const char *path, void *ctx)
{
	size_t pos = 8; /* "hdrb" "hetb" */

	while (pos + 4 <= len && ev_load32(log + pos) == 0x65746200u) {
		if (pos + 12 > len)
			return 0;
		uint16_t id = ev_load16(log + pos + 4);
		int16_t size = (int16_t)ev_load16(log + pos + 6);
		uint32_t desc_len = ev_load32(log + pos + 8);
		pos += 12;
		if (desc_len > len - pos || len - pos - desc_len < 8)
			return 0;
		fn(id, size, log + pos, desc_len, path, ctx);
		pos += desc_len;
		uint32_t extra_len = ev_load32(log + pos);
		if (extra_len > len - pos - 4)
			return 0;
		pos += 4 + extra_len + 4; /* extra, "ete\0" */
	}
	return pos + 4 <= len && ev_load32(log + pos) == 0x68657465u;
}

static void check_declared_type(uint16_t id, int16_t size,
				const uint8_t *desc, uint32_t desc_len,
				const char *path, void *ctx)
{
	struct corpus_check *check = ctx;
	const ev_type_info *t = ev_catalog_find(id);

	(void)desc;
	(void)desc_len;
	assert_non_null(t);
	check->types++;
	/* GHC 6.12 declared wrong sizes (doc/format.md section 4); the header
	 * module corrects them, the catalogue keeps the written ones. */
	if (!strstr(path, "ghc-6.12"))
		assert_true(evi_catalog_size_known(t, size));
}

static void check_log(const char *path, void *ctx)
{
	struct corpus_check *check = ctx;
	size_t len = 0;
	uint8_t *log = ts_read_file(path, &len);

	assert_non_null(log);
	assert_true(walk_header(log, len, check_declared_type, path, ctx));
	check->logs++;
	free(log);
}

static void test_corpus_headers_are_known(void **state)
{
	(void)state;
	struct corpus_check check = { 0, 0 };

	if (ts_for_each_log(EVTOOL_CORPUS, check_log, &check) == 0)
		skip();
	assert_true(check.types > 0);
}

/* The newest corpus log (ticky-json, GHC 9.5) uses the recent wording. */
static void check_description(uint16_t id, int16_t size, const uint8_t *desc,
			      uint32_t desc_len, const char *path, void *ctx)
{
	const ev_type_info *t = ev_catalog_find(id);

	(void)size;
	(void)path;
	(void)ctx;
	assert_non_null(t);
	assert_int_equal(strlen(t->desc), desc_len);
	assert_memory_equal(t->desc, desc, desc_len);
}

static void test_descriptions_match_recent_ghc(void **state)
{
	(void)state;
	size_t len = 0;
	uint8_t *log = ts_load(EVTOOL_CORPUS, "ticky-json.eventlog", &len);

	if (!log)
		skip();
	assert_true(walk_header(log, len, check_description, "", NULL));
	free(log);
}

/* A declaration is GHC's event of its id when its shape is GHC's, as
 * ghc-events picks a parser; another program's reuse of the id is not. */
static void test_header_type_info_shapes(void **state)
{
	static const struct {
		uint16_t id;
		int32_t size;
		const char *desc;
		int ghcs;
	} decls[] = {
		{ 38, -1, "Register an id->string mapping", 0 }, /* Mercury */
		{ 39, 2, "Spark steal", 1 },
		{ 39 + 1, 0, "another wording", 1 }, /* the description is not
							 compared, as ghc-events */
		{ 2, 6, "Stop thread", 1 },  /* GHC < 7.2's form */
		{ 1, 2, "Run thread", 0 },   /* shorter than every form */
		{ 19, 4, "User message", 0 }, /* GHC writes it variable */
		{ 53, 66, "GC statistics", 1 }, /* a newer, longer form */
		{ 250, 3, "Something new", 0 }, /* no GHC event */
	};
	ev_header *h;

	(void)state;
	assert_int_equal(evi_header_new(&h, NULL), EV_OK);
	for (size_t i = 0; i < sizeof decls / sizeof decls[0]; i++)
		assert_int_equal(evi_header_add(h, decls[i].id, decls[i].size,
					       decls[i].desc,
					       (uint32_t)strlen(decls[i].desc),
					       NULL, 0), EV_OK);
	for (size_t i = 0; i < sizeof decls / sizeof decls[0]; i++) {
		const ev_type_info *t = ev_header_type_info(h, decls[i].id);
		if (decls[i].ghcs)
			assert_ptr_equal(t, ev_catalog_find(decls[i].id));
		else
			assert_null(t);
	}
	/* Not declared: nothing says otherwise. */
	assert_ptr_equal(ev_header_type_info(h, EV_CREATE_THREAD),
			 ev_catalog_find(EV_CREATE_THREAD));
	assert_ptr_equal(ev_header_type_info(NULL, EV_CREATE_THREAD),
			 ev_catalog_find(EV_CREATE_THREAD));
	evi_header_free(h);
}

/* In every real GHC log, every declared GHC id is GHC's event. */
static void check_real_header(const char *path, void *ctx)
{
	ev_reader *r;
	const ev_header *h;

	(void)ctx;
	assert_int_equal(ev_reader_open_path(&r, path, 0, NULL), EV_OK);
	assert_int_equal(ev_reader_read_header(r), EV_OK);
	h = ev_reader_header(r);
	for (size_t i = 0; i < ev_header_count(h); i++) {
		uint16_t id = ev_header_at(h, i)->id;
		if (ev_catalog_find(id) && !ev_header_type_info(h, id))
			fail_msg("%s: type %u is not taken as GHC's", path, id);
	}
	ev_reader_free(r);
}

static void test_real_headers_are_ghcs(void **state)
{
	(void)state;
	assert_true(ts_for_each_log(EVTOOL_TESTDATA, check_real_header,
				    NULL) > 0);
	ts_for_each_log(EVTOOL_CORPUS, check_real_header, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids_ascend_and_are_unique),
		cmocka_unit_test(test_every_entry_round_trips),
		cmocka_unit_test(test_header_enum_is_catalogued),
		cmocka_unit_test(test_unknown_ids_and_names),
		cmocka_unit_test(test_selected_entries_exact),
		cmocka_unit_test(test_size_known),
		cmocka_unit_test(test_classes_follow_format),
		cmocka_unit_test(test_class_names_both_ways),
		cmocka_unit_test(test_class_letters),
		cmocka_unit_test(test_class_from_other_names),
		cmocka_unit_test(test_refs_thread_only),
		cmocka_unit_test(test_refs_stop_thread),
		cmocka_unit_test(test_refs_thread_and_cap),
		cmocka_unit_test(test_refs_cap_only),
		cmocka_unit_test(test_refs_capset),
		cmocka_unit_test(test_refs_tasks),
		cmocka_unit_test(test_refs_heap_sample_cost_centre),
		cmocka_unit_test(test_refs_heap_sample_cut_short),
		cmocka_unit_test(test_refs_prof_sample_cost_centre),
		cmocka_unit_test(test_refs_profiles_and_counters),
		cmocka_unit_test(test_refs_none),
		cmocka_unit_test(test_refs_count_beyond_max),
		cmocka_unit_test(test_refs_never_past_size),
		cmocka_unit_test(test_ref_get_set_widths),
		cmocka_unit_test(test_ref_set_truncates),
		cmocka_unit_test(test_ref_round_trip_through_payload),
		cmocka_unit_test(test_corpus_headers_are_known),
		cmocka_unit_test(test_descriptions_match_recent_ghc),
		cmocka_unit_test(test_header_type_info_shapes),
		cmocka_unit_test(test_real_headers_are_ghcs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
