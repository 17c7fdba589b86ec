# complete real logs validate: one verdict line each on stdout, nothing on stderr
cmd: evtool validate @DATA@/threads-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/heap-n1.eventlog @DATA@/nonmoving-n2.eventlog
exit: 0
--- stdout
@DATA@/threads-n2.eventlog: valid (0 warnings, 4250 events)
@DATA@/gc-n2.eventlog: valid (0 warnings, 7820 events)
@DATA@/heap-n1.eventlog: valid (0 warnings, 3646 events)
@DATA@/nonmoving-n2.eventlog: valid (0 warnings, 4194 events)
--- stderr
