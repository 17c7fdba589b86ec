/*
 * The catalogue of known GHC event types (doc/format.md sections 5 and 6).
 *
 * Names, payload sizes and descriptions follow GHC's
 * rts/include/rts/EventLogFormat.h and rts/gen_event_types.py (recent
 * wording, as GHC 9.5+ headers carry it). The Eden, Mercury and perf ranges
 * follow ghc-events' names and sizes, which is where readers meet them; no
 * GHC header describes Eden or Mercury events, so those descriptions are
 * evtool's own.
 */
#include "evtool/catalog.h"

#include <assert.h>

#include "internal.h"

/* Shorthand for the size columns of the list below. */
#define VAR EV_SIZE_VARIABLE

/*
 * Every known event type, one line each, ascending by id:
 *
 *	X(id, NAME, class, description, size, ...)
 *
 * where the sizes are every fixed payload size some writer used, or VAR.
 * The list is expanded twice, into the table and into the id index, so the
 * two cannot disagree.
 */
#define EV_CATALOG_LIST(X) \
	X(0, CREATE_THREAD, SCHEDULER, "Create thread", 4) \
	X(1, RUN_THREAD, SCHEDULER, "Run thread", 4) \
	/* 6 bytes (no info field) before GHC ~7.2 */ \
	X(2, STOP_THREAD, SCHEDULER, "Stop thread", 6, 10) \
	X(3, THREAD_RUNNABLE, SCHEDULER, "Thread runnable", 4) \
	X(4, MIGRATE_THREAD, SCHEDULER, "Migrate thread", 6) \
	/* 5, 6, 7: deprecated, written by GHC 6.12 to ~7.0 */ \
	X(5, RUN_SPARK, OTHER, "Run spark", 4) \
	X(6, STEAL_SPARK, OTHER, "Steal spark", 6) \
	X(7, SHUTDOWN, OTHER, "Shutdown", 0) \
	X(8, THREAD_WAKEUP, SCHEDULER, "Wakeup thread", 6) \
	X(9, GC_START, GC, "Starting GC", 0) \
	X(10, GC_END, GC, "Finished GC", 0) \
	X(11, REQUEST_SEQ_GC, GC, "Request sequential GC", 0) \
	X(12, REQUEST_PAR_GC, GC, "Request parallel GC", 0) \
	X(15, CREATE_SPARK_THREAD, SPARKS_FULL, "Create spark thread", 4) \
	X(16, LOG_MSG, DEBUG, "Log message", VAR) \
	/* GHC 6.12 declared STARTUP with size 0 but wrote 2 bytes */ \
	X(17, STARTUP, META, "Startup", 2) \
	X(18, BLOCK_MARKER, BLOCK, "Block marker", 14) \
	X(19, USER_MSG, USER, "User message", VAR) \
	X(20, GC_IDLE, GC, "GC idle", 0) \
	X(21, GC_WORK, GC, "GC working", 0) \
	X(22, GC_DONE, GC, "GC done", 0) \
	/* 23, 24: Eden's older forms of RTS_IDENTIFIER and PROGRAM_ARGS */ \
	X(23, VERSION, OTHER, "Version", VAR) \
	X(24, PROGRAM_INVOCATION, OTHER, "Program invocation", VAR) \
	X(25, CAPSET_CREATE, CAP, "Create capability set", 6) \
	X(26, CAPSET_DELETE, CAP, "Delete capability set", 4) \
	X(27, CAPSET_ASSIGN_CAP, CAP, "Add capability to capability set", 6) \
	X(28, CAPSET_REMOVE_CAP, CAP, \
	  "Remove capability from capability set", 6) \
	X(29, RTS_IDENTIFIER, META, "RTS name and version", VAR) \
	X(30, PROGRAM_ARGS, META, "Program arguments", VAR) \
	X(31, PROGRAM_ENV, META, "Program environment variables", VAR) \
	X(32, OSPROCESS_PID, META, "Process ID", 8) \
	X(33, OSPROCESS_PPID, META, "Parent process ID", 8) \
	X(34, SPARK_COUNTERS, SPARKS_SAMPLED, "Spark counters", 56) \
	X(35, SPARK_CREATE, SPARKS_FULL, "Spark create", 0) \
	X(36, SPARK_DUD, SPARKS_FULL, "Spark dud", 0) \
	X(37, SPARK_OVERFLOW, SPARKS_FULL, "Spark overflow", 0) \
	X(38, SPARK_RUN, SPARKS_FULL, "Spark run", 0) \
	X(39, SPARK_STEAL, SPARKS_FULL, "Spark steal", 2) \
	X(40, SPARK_FIZZLE, SPARKS_FULL, "Spark fizzle", 0) \
	X(41, SPARK_GC, SPARKS_FULL, "Spark GC", 0) \
	X(42, INTERN_STRING, DEBUG, "Intern string", VAR) \
	X(43, WALL_CLOCK_TIME, META, "Wall clock time", 16) \
	X(44, THREAD_LABEL, SCHEDULER, "Thread label", VAR) \
	X(45, CAP_CREATE, CAP, "Create capability", 2) \
	X(46, CAP_DELETE, CAP, "Delete capability", 2) \
	X(47, CAP_DISABLE, CAP, "Disable capability", 2) \
	X(48, CAP_ENABLE, CAP, "Enable capability", 2) \
	X(49, HEAP_ALLOCATED, GC, "Total heap memory ever allocated", 12) \
	X(50, HEAP_SIZE, GC, \
	  "Current heap size (number of allocated mblocks)", 12) \
	X(51, HEAP_LIVE, GC, "Current heap live data", 12) \
	X(52, HEAP_INFO_GHC, GC, "Heap static parameters", 38) \
	/* 50 bytes (no par_balanced_copied) before GHC 8.4 */ \
	X(53, GC_STATS_GHC, GC, "GC statistics", 50, 58) \
	X(54, GC_GLOBAL_SYNC, GC, "Synchronise stop-the-world GC", 0) \
	X(55, TASK_CREATE, SCHEDULER, "Task create", 18) \
	X(56, TASK_MIGRATE, SCHEDULER, "Task migrate", 12) \
	X(57, TASK_DELETE, SCHEDULER, "Task delete", 8) \
	X(58, USER_MARKER, USER, "User marker", VAR) \
	X(59, HACK_BUG_T9003, DEBUG, "Empty event for bug #9003", 0) \
	/* 60-69: Eden's parallel RTS; 4-byte thread ids */ \
	X(60, EDEN_START_RECEIVE, OTHER, "Start receiving messages", 0) \
	X(61, EDEN_END_RECEIVE, OTHER, "End receiving messages", 0) \
	X(62, CREATE_PROCESS, OTHER, "Create process", 4) \
	X(63, KILL_PROCESS, OTHER, "Kill process", 4) \
	X(64, ASSIGN_THREAD_TO_PROCESS, OTHER, \
	  "Assign thread to process", 8) \
	X(65, CREATE_MACHINE, OTHER, "Create machine", 10) \
	X(66, KILL_MACHINE, OTHER, "Kill machine", 2) \
	X(67, SEND_MESSAGE, OTHER, "Send message", 19) \
	X(68, RECEIVE_MESSAGE, OTHER, "Receive message", 23) \
	X(69, SEND_RECEIVE_LOCAL_MESSAGE, OTHER, \
	  "Send and receive local message", 17) \
	X(90, MEM_RETURN, GC, \
	  "The RTS attempted to return heap memory to the OS", 16) \
	X(91, BLOCKS_SIZE, GC, "Report the size of the heap in blocks", 12) \
	/* 100-113: Mercury's runtime (ids 100-139 are reserved for it) */ \
	X(100, MER_START_PAR_CONJUNCTION, OTHER, \
	  "Start a parallel conjunction", 12) \
	X(101, MER_STOP_PAR_CONJUNCTION, OTHER, \
	  "Stop a parallel conjunction", 8) \
	X(102, MER_STOP_PAR_CONJUNCT, OTHER, "Stop a parallel conjunct", 8) \
	X(103, MER_CREATE_SPARK, OTHER, "Create a spark", 12) \
	X(104, MER_FUT_CREATE, OTHER, "Create a future", 12) \
	X(105, MER_FUT_WAIT_NOSUSPEND, OTHER, \
	  "Wait on a future without suspending", 8) \
	X(106, MER_FUT_WAIT_SUSPENDED, OTHER, \
	  "Wait on a future by suspending", 8) \
	X(107, MER_FUT_SIGNAL, OTHER, "Signal a future", 8) \
	X(108, MER_LOOKING_FOR_GLOBAL_CONTEXT, OTHER, \
	  "Looking for a global context", 0) \
	X(109, MER_WORK_STEALING, OTHER, "Work stealing", 0) \
	X(110, MER_RELEASE_CONTEXT, OTHER, "Release a context", 4) \
	X(111, MER_ENGINE_SLEEPING, OTHER, "Engine sleeping", 0) \
	X(112, MER_LOOKING_FOR_LOCAL_SPARK, OTHER, \
	  "Looking for a local spark", 0) \
	X(113, MER_CALLING_MAIN, OTHER, "Calling main", 0) \
	/* 140-142: Linux perf samples converted by ghc-events-perf */ \
	X(140, PERF_NAME, OTHER, "perf event name", VAR) \
	X(141, PERF_COUNTER, OTHER, "perf event counter", 20) \
	X(142, PERF_TRACEPOINT, OTHER, "perf event tracepoint", 12) \
	X(160, HEAP_PROF_BEGIN, HEAP_PROF, "Start of heap profile", VAR) \
	X(161, HEAP_PROF_COST_CENTRE, HEAP_PROF, "Cost-centre definition", \
	  VAR) \
	X(162, HEAP_PROF_SAMPLE_BEGIN, HEAP_PROF, \
	  "Start of heap profile sample", 8) \
	X(163, HEAP_PROF_SAMPLE_COST_CENTRE, HEAP_PROF, \
	  "Heap profile cost-centre sample", VAR) \
	X(164, HEAP_PROF_SAMPLE_STRING, HEAP_PROF, \
	  "Heap profile string sample", VAR) \
	X(165, HEAP_PROF_SAMPLE_END, HEAP_PROF, "End of heap profile sample", \
	  8) \
	X(166, HEAP_BIO_PROF_SAMPLE_BEGIN, HEAP_PROF, \
	  "Start of heap profile (biographical) sample", 16) \
	X(167, PROF_SAMPLE_COST_CENTRE, TIME_PROF, \
	  "Time profile cost-centre stack", VAR) \
	X(168, PROF_BEGIN, TIME_PROF, "Start of a time profile", 8) \
	X(169, IPE, HEAP_PROF, "An IPE entry", VAR) \
	X(181, USER_BINARY_MSG, USER, "User binary message", VAR) \
	X(200, CONC_MARK_BEGIN, NONMOVING_GC, "Begin concurrent mark phase", \
	  0) \
	X(201, CONC_MARK_END, NONMOVING_GC, "End concurrent mark phase", 4) \
	X(202, CONC_SYNC_BEGIN, NONMOVING_GC, \
	  "Begin concurrent GC synchronisation", 0) \
	X(203, CONC_SYNC_END, NONMOVING_GC, \
	  "End concurrent mark synchronisation", 0) \
	X(204, CONC_SWEEP_BEGIN, NONMOVING_GC, \
	  "Begin concurrent sweep phase", 0) \
	X(205, CONC_SWEEP_END, NONMOVING_GC, "End concurrent sweep phase", 0) \
	X(206, CONC_UPD_REM_SET_FLUSH, NONMOVING_GC, \
	  "Update remembered set flushed", 2) \
	/* 13 bytes (u8 log2 block size) before GHC 9.10 */ \
	X(207, NONMOVING_HEAP_CENSUS, NONMOVING, "Nonmoving heap census", \
	  13, 14) \
	X(208, NONMOVING_PRUNED_SEGMENTS, NONMOVING, \
	  "Report the amount of segments pruned and remaining on the free list.", \
	  8) \
	X(210, TICKY_COUNTER_DEF, TICKY, \
	  "Ticky-ticky entry counter definition", VAR) \
	X(211, TICKY_COUNTER_SAMPLE, TICKY, \
	  "Ticky-ticky entry counter sample", 32) \
	X(212, TICKY_COUNTER_BEGIN_SAMPLE, TICKY, \
	  "Ticky-ticky entry counter begin sample", 0)

/* Position of each entry in the table, for the id index. */
#define EV_CATALOG_POSITION(id, name, cls, desc, ...) CATALOG_POS_##name,
enum { EV_CATALOG_LIST(EV_CATALOG_POSITION) CATALOG_COUNT };

#define EV_CATALOG_ENTRY(id_, name_, cls_, desc_, ...) { \
	.id = (id_), \
	.name = #name_, \
	.cls = EV_CLASS_##cls_, \
	.n_sizes = (uint8_t)(sizeof((const int16_t[]){ __VA_ARGS__ }) / \
			     sizeof(int16_t)), \
	.sizes = { __VA_ARGS__ }, \
	.desc = (desc_) \
},
static const ev_type_info catalog[CATALOG_COUNT] = {
	EV_CATALOG_LIST(EV_CATALOG_ENTRY)
};

/*
 * Every id GHC, Eden, Mercury or perf use is below 256, so a 256-slot
 * index built by the compiler makes lookups O(1) with no initialisation to
 * race on (an id of 256 or more in the list would not compile). A slot
 * holds position + 1, 0 when the id is unknown.
 */
#define CATALOG_INDEX_SIZE 256
_Static_assert(CATALOG_COUNT < 256, "index slots are uint8_t");

#define EV_CATALOG_SLOT(id_, name_, cls, desc, ...) \
	[id_] = CATALOG_POS_##name_ + 1,
static const uint8_t catalog_index[CATALOG_INDEX_SIZE] = {
	EV_CATALOG_LIST(EV_CATALOG_SLOT)
};

const ev_type_info *ev_catalog_find(uint16_t id)
{
	if (id >= CATALOG_INDEX_SIZE || catalog_index[id] == 0)
		return NULL;
	return &catalog[catalog_index[id] - 1];
}

/* ASCII only: names are ASCII, and the C locale must not matter. */
static int ascii_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int equal_ignoring_case(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (ascii_lower((unsigned char)*a) !=
		    ascii_lower((unsigned char)*b))
			return 0;
	return *a == *b;
}

const ev_type_info *evi_catalog_by_name(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < CATALOG_COUNT; i++)
		if (equal_ignoring_case(catalog[i].name, name))
			return &catalog[i];
	return NULL;
}

size_t ev_catalog_count(void)
{
	return CATALOG_COUNT;
}

const ev_type_info *ev_catalog_at(size_t i)
{
	return i < CATALOG_COUNT ? &catalog[i] : NULL;
}

const ev_type_info *ev_header_type_info(const ev_header *h, uint16_t id)
{
	const ev_type_decl *decl = h ? ev_header_find(h, id) : NULL;
	const ev_type_info *info = ev_catalog_find(id);
	int variable;

	if (!decl || !info)
		return info; /* nothing in the header says otherwise */
	variable = decl->wire_size == EV_SIZE_VARIABLE;
	for (size_t i = 0; i < info->n_sizes; i++) {
		int32_t size = info->sizes[i];
		int fits = size != EV_SIZE_VARIABLE && size <= decl->wire_size;
		if (variable ? size == EV_SIZE_VARIABLE : fits)
			return info;
	}
	return NULL;
}

int evi_catalog_size_known(const ev_type_info *info, int size)
{
	if (!info)
		return 0;
	for (size_t i = 0; i < info->n_sizes; i++)
		if (info->sizes[i] == size)
			return 1;
	return 0;
}

ev_class ev_type_class(uint16_t id)
{
	const ev_type_info *info = ev_catalog_find(id);
	return info ? info->cls : EV_CLASS_OTHER;
}

_Static_assert(EV_CLASS_OTHER == 1u << (EV_CLASS_COUNT - 1),
	       "EV_CLASS_COUNT counts the classes");

/* ------------------------------------------------------------------------
 * Classes
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

#define N_CLASS_NAMES (sizeof class_names / sizeof class_names[0])

/* The RTS `-l` flag letters. Case matters: `-lT` is ticky, and there is
 * no `-lt`. */
static const struct {
	char letter;
	ev_class cls;
} class_letters[] = {
	{ 's', EV_CLASS_SCHEDULER },
	{ 'g', EV_CLASS_GC },
	{ 'p', EV_CLASS_SPARKS_SAMPLED },
	{ 'f', EV_CLASS_SPARKS_FULL },
	{ 'u', EV_CLASS_USER },
	{ 'n', EV_CLASS_NONMOVING },
	{ 'T', EV_CLASS_TICKY },
};

#define N_CLASS_LETTERS (sizeof class_letters / sizeof class_letters[0])

const char *ev_class_name(ev_class cls)
{
	for (size_t i = 0; i < N_CLASS_NAMES; i++)
		if (class_names[i].cls == cls)
			return class_names[i].name;
	return NULL;
}

ev_class evi_class_from_name(const char *name)
{
	if (!name || !*name)
		return EV_CLASS_NONE;
	if (name[1] == '\0')
		for (size_t i = 0; i < N_CLASS_LETTERS; i++)
			if (class_letters[i].letter == name[0])
				return class_letters[i].cls;
	/* "sparks" names both spark classes: users rarely care whether the
	 * events came from -lp or -lf, and ev_class is a bit set. */
	if (equal_ignoring_case(name, "sparks"))
		return EV_CLASS_SPARKS_SAMPLED | EV_CLASS_SPARKS_FULL;
	for (size_t i = 0; i < N_CLASS_NAMES; i++)
		if (equal_ignoring_case(class_names[i].name, name))
			return class_names[i].cls;
	return EV_CLASS_NONE;
}

/* ------------------------------------------------------------------------
 * Identifier fields (doc/format.md section 6)
 * ---------------------------------------------------------------------- */

/* Field widths on the wire. */
#define CAP_WIDTH 2
#define CAPSET_WIDTH 4
#define THREAD_WIDTH 4
#define TASK_WIDTH 8
#define COST_CENTRE_WIDTH 4
#define TICKY_COUNTER_WIDTH 8
#define HEAP_PROFILE_WIDTH 1
/* PROF_SAMPLE_COST_CENTRE (167) writes its cap as a u32. */
#define PROF_SAMPLE_CAP_WIDTH 4

/* STOP_THREAD (2): u32 thread, u16 status, u32 info. The info field names
 * the owner of the black hole the thread blocked on, for that status only. */
#define STOP_THREAD_STATUS_OFFSET 4
#define STOP_THREAD_INFO_OFFSET 6
#define STOP_BLOCKED_ON_BLACK_HOLE 8

/* Where the cost-centre stack depth (u8) sits: after profile id u8 and
 * residency u64 in 163, after cap u32 and ticks u64 in 167. The u32 ids
 * follow it. */
#define HEAP_SAMPLE_DEPTH_OFFSET 9
#define PROF_SAMPLE_DEPTH_OFFSET 12

/* Collects refs: counts all that fit in the payload, stores the first max. */
struct ref_sink {
	evi_ref *out;
	size_t max;
	size_t count;
	size_t size;
};

static void add_ref(struct ref_sink *sink, ev_ref_kind kind, size_t offset,
		    uint8_t width)
{
	/* Shorter payloads are older layouts or cut data: a field that is not
	 * wholly there is not a field. */
	if (offset > sink->size || width > sink->size - offset)
		return;
	if (sink->count < sink->max) {
		evi_ref *ref = &sink->out[sink->count];
		ref->kind = kind;
		ref->offset = (uint16_t)offset;
		ref->width = width;
	}
	sink->count++;
}

static void add_stop_thread_refs(struct ref_sink *sink,
				 const uint8_t *payload)
{
	add_ref(sink, EV_REF_THREAD, 0, THREAD_WIDTH);
	if (sink->size < STOP_THREAD_STATUS_OFFSET + 2)
		return;
	if (ev_load16(payload + STOP_THREAD_STATUS_OFFSET) ==
	    STOP_BLOCKED_ON_BLACK_HOLE)
		add_ref(sink, EV_REF_THREAD, STOP_THREAD_INFO_OFFSET,
			THREAD_WIDTH);
}

/* A u8 depth at depth_offset, then that many u32 cost-centre ids. */
static void add_cost_centre_stack(struct ref_sink *sink,
				  const uint8_t *payload, size_t depth_offset)
{
	if (depth_offset >= sink->size)
		return;
	unsigned depth = payload[depth_offset];
	for (unsigned i = 0; i < depth; i++)
		add_ref(sink, EV_REF_COST_CENTRE,
			depth_offset + 1 + (size_t)i * COST_CENTRE_WIDTH,
			COST_CENTRE_WIDTH);
}

size_t evi_payload_refs(uint16_t type, const uint8_t *payload, size_t size,
		       evi_ref *out, size_t max)
{
	struct ref_sink sink = { .out = out, .max = out ? max : 0,
				 .size = size };

	switch (type) {
	case EV_CREATE_THREAD:
	case EV_RUN_THREAD:
	case EV_THREAD_RUNNABLE:
	case EV_CREATE_SPARK_THREAD:
	case EV_THREAD_LABEL:
		add_ref(&sink, EV_REF_THREAD, 0, THREAD_WIDTH);
		break;
	case EV_STOP_THREAD:
		add_stop_thread_refs(&sink, payload);
		break;
	case EV_MIGRATE_THREAD:
	case EV_THREAD_WAKEUP:
		add_ref(&sink, EV_REF_THREAD, 0, THREAD_WIDTH);
		add_ref(&sink, EV_REF_CAP, 4, CAP_WIDTH);
		break;
	case EV_SPARK_STEAL:
	case EV_CAP_CREATE:
	case EV_CAP_DELETE:
	case EV_CAP_DISABLE:
	case EV_CAP_ENABLE:
	case EV_CONC_UPD_REM_SET_FLUSH:
		add_ref(&sink, EV_REF_CAP, 0, CAP_WIDTH);
		break;
	case EV_CAPSET_ASSIGN_CAP:
	case EV_CAPSET_REMOVE_CAP:
		add_ref(&sink, EV_REF_CAPSET, 0, CAPSET_WIDTH);
		add_ref(&sink, EV_REF_CAP, 4, CAP_WIDTH);
		break;
	case EV_CAPSET_CREATE:
	case EV_CAPSET_DELETE:
	case EV_RTS_IDENTIFIER:
	case EV_PROGRAM_ARGS:
	case EV_PROGRAM_ENV:
	case EV_OSPROCESS_PID:
	case EV_OSPROCESS_PPID:
	case EV_WALL_CLOCK_TIME:
	case EV_HEAP_ALLOCATED:
	case EV_HEAP_SIZE:
	case EV_HEAP_LIVE:
	case EV_HEAP_INFO_GHC:
	case EV_GC_STATS_GHC:
	case EV_MEM_RETURN:
	case EV_BLOCKS_SIZE:
		add_ref(&sink, EV_REF_CAPSET, 0, CAPSET_WIDTH);
		break;
	case EV_TASK_CREATE:
		/* The kernel thread id at offset 10 is the OS's, not GHC's. */
		add_ref(&sink, EV_REF_TASK, 0, TASK_WIDTH);
		add_ref(&sink, EV_REF_CAP, 8, CAP_WIDTH);
		break;
	case EV_TASK_MIGRATE:
		add_ref(&sink, EV_REF_TASK, 0, TASK_WIDTH);
		add_ref(&sink, EV_REF_CAP, 8, CAP_WIDTH);
		add_ref(&sink, EV_REF_CAP, 10, CAP_WIDTH);
		break;
	case EV_TASK_DELETE:
		add_ref(&sink, EV_REF_TASK, 0, TASK_WIDTH);
		break;
	case EV_HEAP_PROF_BEGIN:
	case EV_HEAP_PROF_SAMPLE_STRING:
		add_ref(&sink, EV_REF_HEAP_PROFILE, 0, HEAP_PROFILE_WIDTH);
		break;
	case EV_HEAP_PROF_COST_CENTRE:
		add_ref(&sink, EV_REF_COST_CENTRE, 0, COST_CENTRE_WIDTH);
		break;
	case EV_HEAP_PROF_SAMPLE_COST_CENTRE:
		add_ref(&sink, EV_REF_HEAP_PROFILE, 0, HEAP_PROFILE_WIDTH);
		add_cost_centre_stack(&sink, payload,
				      HEAP_SAMPLE_DEPTH_OFFSET);
		break;
	case EV_PROF_SAMPLE_COST_CENTRE:
		add_ref(&sink, EV_REF_CAP, 0, PROF_SAMPLE_CAP_WIDTH);
		add_cost_centre_stack(&sink, payload,
				      PROF_SAMPLE_DEPTH_OFFSET);
		break;
	case EV_TICKY_COUNTER_DEF:
	case EV_TICKY_COUNTER_SAMPLE:
		add_ref(&sink, EV_REF_TICKY_COUNTER, 0, TICKY_COUNTER_WIDTH);
		break;
	default:
		break;
	}
	return sink.count;
}
