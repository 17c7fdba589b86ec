# --max-errors stops checking a file after N errors (--sorted: a GHC log is not in one global order)
cmd: evtool validate --sorted --max-errors 2 @DATA@/threads-n2.eventlog
exit: 1
--- stdout
@DATA@/threads-n2.eventlog: invalid (2 errors, 0 warnings, 4201 events); stopped after 2 failing findings
--- stderr
evtool validate: @DATA@/threads-n2.eventlog: offset 39176: error: event 2185 SPARK_COUNTERS on cap 1 at 232540 ns: the event's time 232540 ns is earlier than the 30233468 ns of an event before it [not-sorted]
evtool validate: @DATA@/threads-n2.eventlog: offset 72808: error: event 4202 GC_END on cap 1 at 28423568 ns: the event's time 28423568 ns is earlier than the 28424168 ns of an event before it [not-sorted]
