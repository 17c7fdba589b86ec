# monitor --once: every metric of a finished log in Prometheus' text format, user markers by name (user-n1)
cmd: evtool monitor --once @DATA@/user-n1.eventlog
exit: 0
--- stdout
# HELP ghc_eventlog_heap_allocated_bytes_total Bytes allocated (the sum of each capability's last HEAP_ALLOCATED).
# TYPE ghc_eventlog_heap_allocated_bytes_total counter
ghc_eventlog_heap_allocated_bytes_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 151616
# HELP ghc_eventlog_heap_live_bytes Live bytes after the last major collection (HEAP_LIVE).
# TYPE ghc_eventlog_heap_live_bytes gauge
ghc_eventlog_heap_live_bytes{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 60712
# HELP ghc_eventlog_heap_size_bytes Heap size (the last HEAP_SIZE).
# TYPE ghc_eventlog_heap_size_bytes gauge
ghc_eventlog_heap_size_bytes{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 2097152
# HELP ghc_max_live_bytes Maximum residency: the largest HEAP_LIVE.
# TYPE ghc_max_live_bytes gauge
ghc_max_live_bytes{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 60712
# HELP ghc_max_mem_in_use_bytes Memory in use at its peak (+RTS -s total memory in use).
# TYPE ghc_max_mem_in_use_bytes gauge
ghc_max_mem_in_use_bytes{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 2097152
# HELP ghc_gc_copied_bytes_total Bytes copied by collections.
# TYPE ghc_gc_copied_bytes_total counter
ghc_gc_copied_bytes_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 15680
# HELP ghc_gc_collections_total Collections per generation.
# TYPE ghc_gc_collections_total counter
ghc_gc_collections_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0"} 0
ghc_gc_collections_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1"} 1
# HELP ghc_gc_pause_seconds GC pauses per generation (GC_START to GC_END on the leading capability).
# TYPE ghc_gc_pause_seconds histogram
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0",le="0.0001"} 0
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0",le="0.00025"} 0
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0",le="0.0005"} 0
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0",le="0.001"} 0
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0",le="0.0025"} 0
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0",le="0.005"} 0
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0",le="0.01"} 0
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0",le="0.025"} 0
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0",le="0.05"} 0
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0",le="0.1"} 0
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0",le="0.25"} 0
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0",le="0.5"} 0
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0",le="1.0"} 0
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0",le="2.5"} 0
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0",le="5.0"} 0
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0",le="10.0"} 0
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0",le="+Inf"} 0
ghc_gc_pause_seconds_sum{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0"} 0.000000000
ghc_gc_pause_seconds_count{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="0"} 0
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1",le="0.0001"} 0
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1",le="0.00025"} 1
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1",le="0.0005"} 1
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1",le="0.001"} 1
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1",le="0.0025"} 1
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1",le="0.005"} 1
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1",le="0.01"} 1
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1",le="0.025"} 1
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1",le="0.05"} 1
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1",le="0.1"} 1
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1",le="0.25"} 1
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1",le="0.5"} 1
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1",le="1.0"} 1
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1",le="2.5"} 1
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1",le="5.0"} 1
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1",le="10.0"} 1
ghc_gc_pause_seconds_bucket{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1",le="+Inf"} 1
ghc_gc_pause_seconds_sum{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1"} 0.000100660
ghc_gc_pause_seconds_count{program="user",pid="8543",source="@DATA@/user-n1.eventlog",generation="1"} 1
# HELP ghc_gc_seconds_total Elapsed time in GC pauses.
# TYPE ghc_gc_seconds_total counter
ghc_gc_seconds_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 0.000100660
# HELP ghc_mutator_seconds_total Elapsed time outside GC pauses (MUT, with INIT and EXIT).
# TYPE ghc_mutator_seconds_total counter
ghc_mutator_seconds_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 0.010102070
# HELP ghc_productivity_ratio Mutator time over elapsed time, 0 to 1.
# TYPE ghc_productivity_ratio gauge
ghc_productivity_ratio{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 0.990134
# HELP ghc_capability_busy_seconds_total Time each capability ran Haskell threads (usage=mutator) or collected (usage=gc).
# TYPE ghc_capability_busy_seconds_total counter
ghc_capability_busy_seconds_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog",capability="0",usage="mutator"} 0.000243240
ghc_capability_busy_seconds_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog",capability="0",usage="gc"} 0.000100660
# HELP ghc_threads_created_total Haskell threads created (CREATE_THREAD).
# TYPE ghc_threads_created_total counter
ghc_threads_created_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 5
# HELP ghc_threads_finished_total Haskell threads finished (STOP_THREAD, thread finished).
# TYPE ghc_threads_finished_total counter
ghc_threads_finished_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 5
# HELP ghc_sparks_created_total Sparks created (SPARK_COUNTERS).
# TYPE ghc_sparks_created_total counter
ghc_sparks_created_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 0
# HELP ghc_sparks_converted_total Sparks converted (run).
# TYPE ghc_sparks_converted_total counter
ghc_sparks_converted_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 0
# HELP ghc_sparks_fizzled_total Sparks fizzled (evaluated by another thread first).
# TYPE ghc_sparks_fizzled_total counter
ghc_sparks_fizzled_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 0
# HELP ghc_sparks_gcd_total Sparks garbage-collected.
# TYPE ghc_sparks_gcd_total counter
ghc_sparks_gcd_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 0
# HELP ghc_sparks_dud_total Sparks not created: already evaluated (dud).
# TYPE ghc_sparks_dud_total counter
ghc_sparks_dud_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 0
# HELP ghc_sparks_overflowed_total Sparks not created: the spark pool was full.
# TYPE ghc_sparks_overflowed_total counter
ghc_sparks_overflowed_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 0
# HELP ghc_user_markers_total User markers (traceMarker) by name; marker="(other)" past --max-markers names.
# TYPE ghc_user_markers_total counter
ghc_user_markers_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog",marker="begin"} 1
ghc_user_markers_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog",marker="marker αβγ"} 1
ghc_user_markers_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog",marker="checkpoint 5"} 1
ghc_user_markers_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog",marker="checkpoint 10"} 1
ghc_user_markers_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog",marker="checkpoint 15"} 1
ghc_user_markers_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog",marker="checkpoint 20"} 1
ghc_user_markers_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog",marker="end €"} 1
# HELP ghc_eventlog_events_total Events read, block markers included.
# TYPE ghc_eventlog_events_total counter
ghc_eventlog_events_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 109
# HELP ghc_eventlog_read_bytes_total Bytes of the log read, header included.
# TYPE ghc_eventlog_read_bytes_total counter
ghc_eventlog_read_bytes_total{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 5296
# HELP ghc_eventlog_live 1 while the log is being written, 0 once it ended (kept for --keep-ended).
# TYPE ghc_eventlog_live gauge
ghc_eventlog_live{program="user",pid="8543",source="@DATA@/user-n1.eventlog"} 0
--- stderr
