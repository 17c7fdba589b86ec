# complete real logs validate: one verdict line each on stdout, nothing on stderr
cmd: evtool validate @DATA@/threads-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/heap-n1.eventlog @DATA@/nonmoving-n2.eventlog
exit: 0
--- stdout
@DATA@/threads-n2.eventlog: valid (0 warnings, 4253 events)
@DATA@/gc-n2.eventlog: valid (0 warnings, 7823 events)
@DATA@/heap-n1.eventlog: valid (0 warnings, 3648 events)
@DATA@/nonmoving-n2.eventlog: valid (0 warnings, 4197 events)
--- stderr
