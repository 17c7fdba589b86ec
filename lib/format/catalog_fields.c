/*
 * The catalogue's payload layouts (catalog.h, evi_catalog_layout): the
 * name and encoding of every field of every known event type, in wire
 * order, from GHC's rts/eventlog/EventLog.c and doc/format.md section 5. The
 * Eden, Mercury and perf layouts follow ghc-events' parsers, the only
 * reader that knows them.
 */
#include "evtool/catalog.h"
#include "internal.h"

#define U8 EV_FIELD_U8
#define U16 EV_FIELD_U16
#define U32 EV_FIELD_U32
#define U64 EV_FIELD_U64
#define TEXT EV_FIELD_TEXT
#define TEXT_NUL EV_FIELD_TEXT_NUL
#define STRINGS EV_FIELD_STRINGS
#define U32_LIST EV_FIELD_U32_LIST
#define BYTES EV_FIELD_BYTES

/* Field lists shared by several types. */
static const ev_field f_none[] = { { NULL, U8 } };
static const ev_field f_thread[] = { { "thread", U32 } };
static const ev_field f_cap[] = { { "cap", U16 } };
static const ev_field f_capset[] = { { "capset", U32 } };
static const ev_field f_capset_cap[] = { { "capset", U32 }, { "cap", U16 } };
static const ev_field f_capset_bytes[] = { { "capset", U32 },
					   { "bytes", U64 } };
static const ev_field f_message[] = { { "message", TEXT } };
static const ev_field f_task[] = { { "task", U64 } };
static const ev_field f_era[] = { { "era", U64 } };
static const ev_field f_process[] = { { "process", U32 } };
static const ev_field f_dyn_id[] = { { "dyn_id", U64 } };
static const ev_field f_future[] = { { "future", U64 } };

static const ev_field f_stop_old[] = { { "thread", U32 }, { "status", U16 } };
static const ev_field f_stop[] = { { "thread", U32 }, { "status", U16 },
				   { "info", U32 } };
static const ev_field f_migrate[] = { { "thread", U32 }, { "new_cap", U16 } };
static const ev_field f_steal_spark[] = { { "thread", U32 },
					  { "victim_cap", U16 } };
static const ev_field f_wakeup[] = { { "thread", U32 }, { "other_cap", U16 } };
static const ev_field f_spark_thread[] = { { "spark_thread", U32 } };
static const ev_field f_startup[] = { { "n_caps", U16 } };
static const ev_field f_block[] = { { "size", U32 }, { "end_time", U64 },
				    { "cap", U16 } };
static const ev_field f_version[] = { { "version", TEXT } };
static const ev_field f_invocation[] = { { "command_line", TEXT } };
static const ev_field f_capset_create[] = { { "capset", U32 },
					    { "capset_type", U16 } };
static const ev_field f_rts_id[] = { { "capset", U32 },
				     { "rts_id", TEXT } };
static const ev_field f_args[] = { { "capset", U32 }, { "args", STRINGS } };
static const ev_field f_env[] = { { "capset", U32 }, { "env", STRINGS } };
static const ev_field f_pid[] = { { "capset", U32 }, { "pid", U32 } };
static const ev_field f_ppid[] = { { "capset", U32 }, { "ppid", U32 } };
static const ev_field f_spark_counters[] = {
	{ "created", U64 }, { "dud", U64 }, { "overflowed", U64 },
	{ "converted", U64 }, { "gcd", U64 }, { "fizzled", U64 },
	{ "remaining", U64 }
};
static const ev_field f_spark_steal[] = { { "victim_cap", U16 } };
static const ev_field f_wall_clock[] = { { "capset", U32 }, { "sec", U64 },
					 { "nsec", U32 } };
static const ev_field f_thread_label[] = { { "thread", U32 },
					   { "label", TEXT } };
static const ev_field f_heap_info[] = {
	{ "capset", U32 }, { "generations", U16 }, { "max_heap_size", U64 },
	{ "alloc_area_size", U64 }, { "mblock_size", U64 },
	{ "block_size", U64 }
};
static const ev_field f_gc_stats[] = {
	{ "capset", U32 }, { "generation", U16 }, { "copied", U64 },
	{ "slop", U64 }, { "fragmentation", U64 }, { "par_n_threads", U32 },
	{ "par_max_copied", U64 }, { "par_tot_copied", U64 },
	{ "par_balanced_copied", U64 }
};
static const ev_field f_task_create[] = { { "task", U64 }, { "cap", U16 },
					  { "kernel_thread", U64 } };
static const ev_field f_task_migrate[] = { { "task", U64 }, { "cap", U16 },
					   { "new_cap", U16 } };
static const ev_field f_marker[] = { { "marker", TEXT } };
static const ev_field f_assign_thread[] = { { "thread", U32 },
					    { "process", U32 } };
static const ev_field f_create_machine[] = { { "machine", U16 },
					     { "realtime", U64 } };
static const ev_field f_machine[] = { { "machine", U16 } };
static const ev_field f_send_message[] = {
	{ "tag", U8 }, { "sender_process", U32 }, { "sender_thread", U32 },
	{ "receiver_machine", U16 }, { "receiver_process", U32 },
	{ "receiver_inport", U32 }
};
static const ev_field f_receive_message[] = {
	{ "tag", U8 }, { "receiver_process", U32 },
	{ "receiver_inport", U32 }, { "sender_machine", U16 },
	{ "sender_process", U32 }, { "sender_thread", U32 },
	{ "message_size", U32 }
};
static const ev_field f_local_message[] = {
	{ "tag", U8 }, { "sender_process", U32 }, { "sender_thread", U32 },
	{ "receiver_process", U32 }, { "receiver_inport", U32 }
};
static const ev_field f_mem_return[] = { { "capset", U32 },
					 { "current", U32 }, { "needed", U32 },
					 { "returned", U32 } };
static const ev_field f_par_conjunction[] = { { "dyn_id", U64 },
					      { "static_id", U32 } };
static const ev_field f_mer_spark[] = { { "dyn_id", U64 },
					{ "spark", U32 } };
static const ev_field f_future_create[] = { { "future", U64 },
					    { "name", U32 } };
static const ev_field f_perf_name[] = { { "perf_num", U32 },
					{ "name", TEXT } };
static const ev_field f_perf_counter[] = { { "perf_num", U32 },
					   { "kernel_thread", U64 },
					   { "period", U64 } };
static const ev_field f_perf_tracepoint[] = { { "perf_num", U32 },
					      { "kernel_thread", U64 } };
static const ev_field f_heap_prof_begin[] = {
	{ "profile", U8 }, { "sampling_period", U64 }, { "breakdown", U32 },
	{ "module_filter", TEXT_NUL }, { "closure_descr_filter", TEXT_NUL },
	{ "type_descr_filter", TEXT_NUL }, { "cost_centre_filter", TEXT_NUL },
	{ "cost_centre_stack_filter", TEXT_NUL },
	{ "retainer_filter", TEXT_NUL }, { "biography_filter", TEXT_NUL }
};
static const ev_field f_cost_centre[] = {
	{ "cost_centre", U32 }, { "label", TEXT_NUL }, { "module", TEXT_NUL },
	{ "srcloc", TEXT_NUL }, { "flags", U8 }
};
static const ev_field f_bio_sample[] = { { "era", U64 }, { "time", U64 } };
static const ev_field f_sample_cost_centre[] = {
	{ "profile", U8 }, { "residency", U64 }, { "depth", U8 },
	{ "stack", U32_LIST }
};
static const ev_field f_sample_string[] = { { "profile", U8 },
					    { "residency", U64 },
					    { "label", TEXT_NUL } };
static const ev_field f_prof_sample[] = { { "capability", U32 },
					  { "ticks", U64 }, { "depth", U8 },
					  { "stack", U32_LIST } };
static const ev_field f_prof_begin[] = { { "tick_interval", U64 } };
static const ev_field f_ipe[] = {
	{ "info", U64 }, { "table_name", TEXT_NUL },
	{ "closure_desc", TEXT_NUL }, { "type_desc", TEXT_NUL },
	{ "label", TEXT_NUL }, { "module", TEXT_NUL }, { "srcloc", TEXT_NUL }
};
static const ev_field f_binary[] = { { "payload", BYTES } };
static const ev_field f_mark_end[] = { { "marked_objects", U32 } };
static const ev_field f_census_old[] = {
	{ "log2_block_size", U8 }, { "active_segments", U32 },
	{ "filled_segments", U32 }, { "live_blocks", U32 }
};
static const ev_field f_census[] = {
	{ "block_size", U16 }, { "active_segments", U32 },
	{ "filled_segments", U32 }, { "live_blocks", U32 }
};
static const ev_field f_pruned[] = { { "pruned_segments", U32 },
				     { "free_segments", U32 } };
static const ev_field f_ticky_def[] = {
	{ "counter", U64 }, { "arity", U16 }, { "kinds", TEXT_NUL },
	{ "name", TEXT_NUL }, { "info_table", U64 }, { "json", TEXT_NUL }
};
static const ev_field f_ticky_sample[] = {
	{ "counter", U64 }, { "entries", U64 }, { "allocs", U64 },
	{ "allocd", U64 }
};

#define N(fields) (uint8_t)(sizeof fields / sizeof fields[0])
#define L(id, min, fields) { id, min, N(fields), fields }
#define EMPTY(id) { id, 0, 0, f_none }

/* Ascending by id, then by min_size. */
static const ev_layout layouts[] = {
	L(EV_CREATE_THREAD, 4, f_thread),
	L(EV_RUN_THREAD, 4, f_thread),
	L(EV_STOP_THREAD, 6, f_stop_old),
	L(EV_STOP_THREAD, 10, f_stop),
	L(EV_THREAD_RUNNABLE, 4, f_thread),
	L(EV_MIGRATE_THREAD, 6, f_migrate),
	L(EV_RUN_SPARK, 4, f_thread),
	L(EV_STEAL_SPARK, 6, f_steal_spark),
	EMPTY(EV_SHUTDOWN),
	L(EV_THREAD_WAKEUP, 6, f_wakeup),
	EMPTY(EV_GC_START),
	EMPTY(EV_GC_END),
	EMPTY(EV_REQUEST_SEQ_GC),
	EMPTY(EV_REQUEST_PAR_GC),
	L(EV_CREATE_SPARK_THREAD, 4, f_spark_thread),
	L(EV_LOG_MSG, 0, f_message),
	L(EV_STARTUP, 2, f_startup),
	L(EV_BLOCK_MARKER, 14, f_block),
	L(EV_USER_MSG, 0, f_message),
	EMPTY(EV_GC_IDLE),
	EMPTY(EV_GC_WORK),
	EMPTY(EV_GC_DONE),
	L(23, 0, f_version),
	L(24, 0, f_invocation),
	L(EV_CAPSET_CREATE, 6, f_capset_create),
	L(EV_CAPSET_DELETE, 4, f_capset),
	L(EV_CAPSET_ASSIGN_CAP, 6, f_capset_cap),
	L(EV_CAPSET_REMOVE_CAP, 6, f_capset_cap),
	L(EV_RTS_IDENTIFIER, 4, f_rts_id),
	L(EV_PROGRAM_ARGS, 4, f_args),
	L(EV_PROGRAM_ENV, 4, f_env),
	L(EV_OSPROCESS_PID, 8, f_pid),
	L(EV_OSPROCESS_PPID, 8, f_ppid),
	L(EV_SPARK_COUNTERS, 56, f_spark_counters),
	EMPTY(EV_SPARK_CREATE),
	EMPTY(EV_SPARK_DUD),
	EMPTY(EV_SPARK_OVERFLOW),
	EMPTY(EV_SPARK_RUN),
	L(EV_SPARK_STEAL, 2, f_spark_steal),
	EMPTY(EV_SPARK_FIZZLE),
	EMPTY(EV_SPARK_GC),
	L(EV_WALL_CLOCK_TIME, 16, f_wall_clock),
	L(EV_THREAD_LABEL, 4, f_thread_label),
	L(EV_CAP_CREATE, 2, f_cap),
	L(EV_CAP_DELETE, 2, f_cap),
	L(EV_CAP_DISABLE, 2, f_cap),
	L(EV_CAP_ENABLE, 2, f_cap),
	L(EV_HEAP_ALLOCATED, 12, f_capset_bytes),
	L(EV_HEAP_SIZE, 12, f_capset_bytes),
	L(EV_HEAP_LIVE, 12, f_capset_bytes),
	L(EV_HEAP_INFO_GHC, 38, f_heap_info),
	{ EV_GC_STATS_GHC, 50, N(f_gc_stats) - 1, f_gc_stats },
	L(EV_GC_STATS_GHC, 58, f_gc_stats),
	EMPTY(EV_GC_GLOBAL_SYNC),
	L(EV_TASK_CREATE, 18, f_task_create),
	L(EV_TASK_MIGRATE, 12, f_task_migrate),
	L(EV_TASK_DELETE, 8, f_task),
	L(EV_USER_MARKER, 0, f_marker),
	EMPTY(EV_HACK_BUG_T9003),
	EMPTY(60),
	EMPTY(61),
	L(62, 4, f_process),
	L(63, 4, f_process),
	L(64, 8, f_assign_thread),
	L(65, 10, f_create_machine),
	L(66, 2, f_machine),
	L(67, 19, f_send_message),
	L(68, 23, f_receive_message),
	L(69, 17, f_local_message),
	L(EV_MEM_RETURN, 16, f_mem_return),
	L(EV_BLOCKS_SIZE, 12, f_capset_bytes),
	L(100, 12, f_par_conjunction),
	L(101, 8, f_dyn_id),
	L(102, 8, f_dyn_id),
	L(103, 12, f_mer_spark),
	L(104, 12, f_future_create),
	L(105, 8, f_future),
	L(106, 8, f_future),
	L(107, 8, f_future),
	EMPTY(108),
	EMPTY(109),
	L(110, 4, f_thread),
	EMPTY(111),
	EMPTY(112),
	EMPTY(113),
	L(EV_PERF_NAME, 4, f_perf_name),
	L(EV_PERF_COUNTER, 20, f_perf_counter),
	L(EV_PERF_TRACEPOINT, 12, f_perf_tracepoint),
	L(EV_HEAP_PROF_BEGIN, 13, f_heap_prof_begin),
	L(EV_HEAP_PROF_COST_CENTRE, 4, f_cost_centre),
	L(EV_HEAP_PROF_SAMPLE_BEGIN, 8, f_era),
	L(EV_HEAP_PROF_SAMPLE_COST_CENTRE, 10, f_sample_cost_centre),
	L(EV_HEAP_PROF_SAMPLE_STRING, 9, f_sample_string),
	L(EV_HEAP_PROF_SAMPLE_END, 8, f_era),
	L(EV_HEAP_BIO_PROF_SAMPLE_BEGIN, 16, f_bio_sample),
	L(EV_PROF_SAMPLE_COST_CENTRE, 13, f_prof_sample),
	L(EV_PROF_BEGIN, 8, f_prof_begin),
	L(EV_IPE, 8, f_ipe),
	L(EV_USER_BINARY_MSG, 0, f_binary),
	EMPTY(EV_CONC_MARK_BEGIN),
	L(EV_CONC_MARK_END, 4, f_mark_end),
	EMPTY(EV_CONC_SYNC_BEGIN),
	EMPTY(EV_CONC_SYNC_END),
	EMPTY(EV_CONC_SWEEP_BEGIN),
	EMPTY(EV_CONC_SWEEP_END),
	L(EV_CONC_UPD_REM_SET_FLUSH, 2, f_cap),
	L(EV_NONMOVING_HEAP_CENSUS, 13, f_census_old),
	L(EV_NONMOVING_HEAP_CENSUS, 14, f_census),
	L(EV_NONMOVING_PRUNED_SEGMENTS, 8, f_pruned),
	L(EV_TICKY_COUNTER_DEF, 10, f_ticky_def),
	L(EV_TICKY_COUNTER_SAMPLE, 32, f_ticky_sample),
	EMPTY(EV_TICKY_COUNTER_BEGIN_SAMPLE),
};

#define N_LAYOUTS (sizeof layouts / sizeof layouts[0])

/* The first layout of `id` by binary search (the table is sorted by id),
 * or N_LAYOUTS. */
static size_t first_layout(uint16_t id)
{
	size_t lo = 0, hi = N_LAYOUTS;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (layouts[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint32_t evi_layout_min_size(uint16_t id)
{
	size_t i = first_layout(id);

	/* The forms of a type are in order of min_size: the first is the
	 * oldest. */
	return i < N_LAYOUTS && layouts[i].id == id ? layouts[i].min_size : 0;
}

const ev_layout *evi_catalog_layout(uint16_t id, uint32_t size)
{
	const ev_layout *best = NULL;

	for (size_t i = first_layout(id); i < N_LAYOUTS && layouts[i].id == id;
	     i++)
		if (layouts[i].min_size <= size)
			best = &layouts[i];
	return best;
}
