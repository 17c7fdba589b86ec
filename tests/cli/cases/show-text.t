# the text of ghc-events show: event types, then events in time order,
# block markers among them, with --pretty-time on request
cmd: evtool show @DATA@/user-n1.eventlog > out.txt && sed -n '1,3p;/^Events:$/,/heap stats/p' out.txt; evtool show --pretty-time @DATA@/user-n1.eventlog > pretty.txt && grep -E ': (cap 0: )?(event block|marker:)' pretty.txt > lines.txt; head -n 3 lines.txt
exit: 0
--- stdout
Event Types:
0: Create thread (size 4)
1: Run thread (size 4)
Events:
129470: event block: cap 65535, end time: 10246800

129570: cap 0: event block: cap 0, end time: 10240830

201820: created capset 0 of type CapsetOsProcess
202010: created capset 1 of type CapsetClockDomain
204120: created cap 0
204200: assigned cap 0 to capset 0
204250: assigned cap 0 to capset 1
204580: cap 0: spark stats: 0 created, 0 converted, 0 remaining (0 overflowed, 0 dud, 0 GC'd, 0 fizzled)
208690: capset 1: wall clock time 1795317956s 141439000ns (unix epoch)
210500: capset 0: pid 8543
211380: capset 0: parent pid 8542
213610: capset 0: RTS version "GHC-9.0.2 rts_thr_l"
214220: capset 0: args: ["./user","+RTS","-l","-oluser-n1.eventlog","-suser-n1.rts-s.txt","-N1","-RTS"]
241470: heap stats for heap capset 0: generations 2, 0 bytes max heap size, 1048576 bytes alloc area size, 1048576 bytes mblock size, 4096 bytes block size
  0s   0ms 129.470us: event block: cap 65535, end time: 10246800
  0s   0ms 129.570us: cap 0: event block: cap 0, end time: 10240830
  0s   2ms 794.950us: cap 0: marker: begin
--- stderr
