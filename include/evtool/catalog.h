/*
 * evtool: the catalogue of known GHC event types.
 *
 * This is the one place that knows event ids, their names, classes, the
 * payload sizes GHC versions used, and which payload fields name a
 * capability, capset, thread, task, cost centre, ticky counter or heap
 * profile. Everything else asks the catalogue.
 */
#ifndef EVTOOL_CATALOG_H
#define EVTOOL_CATALOG_H

#include "common.h"
#include "header.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Event type ids, as in GHC's rts/include/rts/EventLogFormat.h. */
enum ev_type_id {
	EV_CREATE_THREAD = 0,
	EV_RUN_THREAD = 1,
	EV_STOP_THREAD = 2,
	EV_THREAD_RUNNABLE = 3,
	EV_MIGRATE_THREAD = 4,
	EV_RUN_SPARK = 5,
	EV_STEAL_SPARK = 6,
	EV_SHUTDOWN = 7,
	EV_THREAD_WAKEUP = 8,
	EV_GC_START = 9,
	EV_GC_END = 10,
	EV_REQUEST_SEQ_GC = 11,
	EV_REQUEST_PAR_GC = 12,
	EV_CREATE_SPARK_THREAD = 15,
	EV_LOG_MSG = 16,
	EV_STARTUP = 17,
	EV_BLOCK_MARKER = 18,
	EV_USER_MSG = 19,
	EV_GC_IDLE = 20,
	EV_GC_WORK = 21,
	EV_GC_DONE = 22,
	EV_CAPSET_CREATE = 25,
	EV_CAPSET_DELETE = 26,
	EV_CAPSET_ASSIGN_CAP = 27,
	EV_CAPSET_REMOVE_CAP = 28,
	EV_RTS_IDENTIFIER = 29,
	EV_PROGRAM_ARGS = 30,
	EV_PROGRAM_ENV = 31,
	EV_OSPROCESS_PID = 32,
	EV_OSPROCESS_PPID = 33,
	EV_SPARK_COUNTERS = 34,
	EV_SPARK_CREATE = 35,
	EV_SPARK_DUD = 36,
	EV_SPARK_OVERFLOW = 37,
	EV_SPARK_RUN = 38,
	EV_SPARK_STEAL = 39,
	EV_SPARK_FIZZLE = 40,
	EV_SPARK_GC = 41,
	EV_INTERN_STRING = 42,
	EV_WALL_CLOCK_TIME = 43,
	EV_THREAD_LABEL = 44,
	EV_CAP_CREATE = 45,
	EV_CAP_DELETE = 46,
	EV_CAP_DISABLE = 47,
	EV_CAP_ENABLE = 48,
	EV_HEAP_ALLOCATED = 49,
	EV_HEAP_SIZE = 50,
	EV_HEAP_LIVE = 51,
	EV_HEAP_INFO_GHC = 52,
	EV_GC_STATS_GHC = 53,
	EV_GC_GLOBAL_SYNC = 54,
	EV_TASK_CREATE = 55,
	EV_TASK_MIGRATE = 56,
	EV_TASK_DELETE = 57,
	EV_USER_MARKER = 58,
	EV_HACK_BUG_T9003 = 59,
	EV_MEM_RETURN = 90,
	EV_BLOCKS_SIZE = 91,
	EV_PERF_NAME = 140,       /**< 140-142: Linux perf, via ghc-events-perf */
	EV_PERF_COUNTER = 141,
	EV_PERF_TRACEPOINT = 142,
	EV_HEAP_PROF_BEGIN = 160,
	EV_HEAP_PROF_COST_CENTRE = 161,
	EV_HEAP_PROF_SAMPLE_BEGIN = 162,
	EV_HEAP_PROF_SAMPLE_COST_CENTRE = 163,
	EV_HEAP_PROF_SAMPLE_STRING = 164,
	EV_HEAP_PROF_SAMPLE_END = 165,
	EV_HEAP_BIO_PROF_SAMPLE_BEGIN = 166,
	EV_PROF_SAMPLE_COST_CENTRE = 167,
	EV_PROF_BEGIN = 168,
	EV_IPE = 169,
	EV_USER_BINARY_MSG = 181,
	EV_CONC_MARK_BEGIN = 200,
	EV_CONC_MARK_END = 201,
	EV_CONC_SYNC_BEGIN = 202,
	EV_CONC_SYNC_END = 203,
	EV_CONC_SWEEP_BEGIN = 204,
	EV_CONC_SWEEP_END = 205,
	EV_CONC_UPD_REM_SET_FLUSH = 206,
	EV_NONMOVING_HEAP_CENSUS = 207,
	EV_NONMOVING_PRUNED_SEGMENTS = 208,
	EV_TICKY_COUNTER_DEF = 210,
	EV_TICKY_COUNTER_SAMPLE = 211,
	EV_TICKY_COUNTER_BEGIN_SAMPLE = 212
};

/**
 * Event classes. The first seven follow the RTS `-l` flags (s g p f u n T);
 * the rest group events that are on whenever the eventlog is (meta, cap) or
 * that come from profiling and the nonmoving collector. One bit each, so
 * that selections can be sets.
 */
typedef enum ev_class {
	EV_CLASS_NONE = 0,
	EV_CLASS_SCHEDULER = 1u << 0,      /**< 's' */
	EV_CLASS_GC = 1u << 1,             /**< 'g': GC and heap statistics */
	EV_CLASS_SPARKS_SAMPLED = 1u << 2, /**< 'p' */
	EV_CLASS_SPARKS_FULL = 1u << 3,    /**< 'f' */
	EV_CLASS_USER = 1u << 4,           /**< 'u' */
	EV_CLASS_NONMOVING = 1u << 5,      /**< 'n': nonmoving census */
	EV_CLASS_TICKY = 1u << 6,          /**< 'T' */
	EV_CLASS_META = 1u << 7,           /**< process identity, always on */
	EV_CLASS_CAP = 1u << 8,            /**< capability/capset bookkeeping */
	EV_CLASS_HEAP_PROF = 1u << 9,      /**< heap profiling (-h), IPE */
	EV_CLASS_TIME_PROF = 1u << 10,     /**< time profiling (-p) */
	EV_CLASS_NONMOVING_GC = 1u << 11,  /**< concurrent mark/sweep phases */
	EV_CLASS_BLOCK = 1u << 12,         /**< block markers (structural) */
	EV_CLASS_DEBUG = 1u << 13,         /**< LOG_MSG and debug-only events */
	EV_CLASS_OTHER = 1u << 14          /**< deprecated, Eden, Mercury, perf */
} ev_class;

/** Number of classes: bits 0 (EV_CLASS_SCHEDULER) to EV_CLASS_COUNT - 1
 *  (EV_CLASS_OTHER), `(ev_class)(1u << bit)` for each. */
#define EV_CLASS_COUNT 15u

/** Capset types: the "capset_type" field of CAPSET_CREATE (25). */
typedef enum ev_capset_type {
	EV_CAPSET_CUSTOM = 1,
	EV_CAPSET_OS_PROCESS = 2,   /**< one per OS process (pid, args) */
	EV_CAPSET_CLOCK_DOMAIN = 3  /**< caps sharing one clock */
} ev_capset_type;

/** Kinds of identifiers that payload fields can name. */
typedef enum ev_ref_kind {
	EV_REF_CAP,
	EV_REF_CAPSET,
	EV_REF_THREAD,
	EV_REF_TASK,
	EV_REF_COST_CENTRE,
	EV_REF_TICKY_COUNTER,
	EV_REF_HEAP_PROFILE
} ev_ref_kind;

/** The most payload sizes any one type had across GHC versions. */
#define EV_MAX_KNOWN_SIZES 3

/** What the catalogue knows about one event type. */
typedef struct ev_type_info {
	uint16_t id;
	const char *name;        /**< upper-case GHC name, e.g. "CREATE_THREAD" */
	ev_class cls;
	uint8_t n_sizes;         /**< entries used in sizes[] */
	int16_t sizes[EV_MAX_KNOWN_SIZES]; /**< known sizes, or EV_SIZE_VARIABLE */
	const char *desc;        /**< GHC's header description (recent wording) */
} ev_type_info;

/** The entry for `id`, or NULL when the catalogue does not know it. */
EV_API const ev_type_info *ev_catalog_find(uint16_t id);

/**
 * The entry for event type `id` as the header `h` declares it: the GHC
 * event of that id (ev_catalog_find) unless `h` declares `id` with
 * another meaning, then NULL.
 * The shape is what ghc-events matches to pick a parser (it ignores the
 * description): a variable size for a type GHC writes with a variable
 * size; a fixed size for one GHC writes fixed, at least the smallest size
 * a GHC version used (the size actually written, under the GHC 6.12
 * quirk). Another program reusing an id (Mercury's runtime declares its
 * variable-size "Register an id->string mapping" under ids GHC gives
 * fixed-size events) gets NULL: its events are of an unknown type, shown
 * by the header's description.
 */
EV_API const ev_type_info *ev_header_type_info(const ev_header *h,
					       uint16_t id);

/** Number of catalogue entries; entries are in ascending id order. */
EV_API size_t ev_catalog_count(void);

/** Entry `i` (0 <= i < ev_catalog_count()), or NULL out of range. */
EV_API const ev_type_info *ev_catalog_at(size_t i);

/** Lower-case class name ("scheduler", "gc", ...); NULL if not one bit. */
EV_API const char *ev_class_name(ev_class cls);

/** The class of event type `id`; EV_CLASS_OTHER when unknown. */
EV_API ev_class ev_type_class(uint16_t id);

/** How one payload field is encoded (doc/format.md section 5). */
typedef enum ev_field_kind {
	EV_FIELD_U8,
	EV_FIELD_U16,
	EV_FIELD_U32,
	EV_FIELD_U64,
	EV_FIELD_TEXT,     /**< UTF-8 text to the end of the payload */
	EV_FIELD_TEXT_NUL, /**< UTF-8 text up to a NUL (or the payload end) */
	EV_FIELD_STRINGS,  /**< NUL-separated strings to the end of the payload */
	EV_FIELD_U32_LIST, /**< u32 values, as many as the field before says */
	EV_FIELD_BYTES     /**< raw bytes to the end of the payload */
} ev_field_kind;

/** One named payload field. */
typedef struct ev_field {
	const char *name; /**< lower-case, e.g. "thread", "capset" */
	ev_field_kind kind;
} ev_field;

/**
 * The fields of one payload form of a type, in wire order. A type whose
 * payload grew over GHC versions (STOP_THREAD 6 -> 10, GC_STATS_GHC
 * 50 -> 58, NONMOVING_HEAP_CENSUS 13 -> 14) has one layout per form. Text
 * and list fields, and fields after them, are present only as far as the
 * payload goes (TICKY_COUNTER_DEF's info table and JSON came later).
 */
typedef struct ev_layout {
	uint16_t id;
	uint16_t min_size; /**< bytes the fixed-width fields before any text need */
	uint8_t n_fields;
	const ev_field *fields;
} ev_layout;

#ifdef __cplusplus
}
#endif

#endif
