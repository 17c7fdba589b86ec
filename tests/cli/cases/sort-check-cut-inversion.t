# --check on a cut log with an inversion before the cut: the inversion wins, exit 1
cmd: head -c 40000 @DATA@/threads-n2.eventlog > cut.eventlog; evtool sort --check cut.eventlog
exit: 1
--- stdout
cut.eventlog: not in time order: event 2185 at offset 39176 (SPARK_COUNTERS, time 232540 ns) is earlier than the event before it, 2183 at offset 39130 (HEAP_ALLOCATED, time 30233468 ns)
--- stderr
