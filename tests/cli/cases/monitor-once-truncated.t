# monitor --once on a log cut short (killed-blocks, gzip): the metrics of its complete events, a warning, exit 3
cmd: evtool monitor --once @DATA@/killed-blocks.eventlog.gz > out.txt; echo "exit $?"; grep -E '^ghc_(eventlog_heap_alloc|gc_collections|eventlog_events)' out.txt
exit: 0
--- stdout
exit 3
ghc_eventlog_heap_allocated_bytes_total{program="",pid="",source="@DATA@/killed-blocks.eventlog.gz"} 198922272
ghc_gc_collections_total{program="",pid="",source="@DATA@/killed-blocks.eventlog.gz",generation="0"} 86
ghc_gc_collections_total{program="",pid="",source="@DATA@/killed-blocks.eventlog.gz",generation="1"} 1
ghc_eventlog_events_total{program="",pid="",source="@DATA@/killed-blocks.eventlog.gz"} 12925
--- stderr
evtool monitor: @DATA@/killed-blocks.eventlog.gz: offset 8389320: warning: the log ends without its data end (truncated); its metrics are of its complete events
