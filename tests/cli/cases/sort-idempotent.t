# sorting a sorted log changes nothing, byte for byte
cmd: evtool sort @DATA@/gc-n2.eventlog -o a.eventlog && evtool sort a.eventlog -o b.eventlog && cmp a.eventlog b.eventlog && echo same
exit: 0
--- stdout
same
--- stderr
