# sorting a sorted log changes nothing, byte for byte
cmd: evtool sort @DATA@/gc-n2.eventlog -o a.eventlog && evtool sort a.eventlog -o b.eventlog && cmp a.eventlog b.eventlog && evtool validate --sorted a.eventlog 2>/dev/null && echo same
exit: 0
--- stdout
a.eventlog: valid (0 warnings, 7820 events)
same
--- stderr
