# --check names the first event that is earlier than the one before it, exit 1
cmd: evtool sort --check @DATA@/threads-n2.eventlog
exit: 1
--- stdout
@DATA@/threads-n2.eventlog: not in time order: event 2185 at offset 39176 (SPARK_COUNTERS, time 232540 ns) is earlier than the event before it, 2183 at offset 39130 (HEAP_ALLOCATED, time 30233468 ns)
--- stderr
