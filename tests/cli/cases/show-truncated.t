# a log cut short: the complete events are printed (in time order, with
# ghc-events' final newline), then an error naming the file and offset, exit 3
cmd: head -c 40000 @DATA@/threads-n2.eventlog > cut.eventlog; evtool show cut.eventlog > out.txt; rc=$?; tail -n 3 out.txt; sed -n '/^Events:$/,$p' out.txt | grep -c '^[0-9]*: '; exit $rc
exit: 3
--- stdout
28604938: cap 0: spark stats: 0 created, 0 converted, 0 remaining (0 overflowed, 0 dud, 0 GC'd, 0 fizzled)
30233468: cap 0: allocated on heap capset 0: 105824 total bytes till now

2229
--- stderr
evtool show: cut.eventlog: offset 40000: the log ends without the data-end marker (after 2227 events)
hint: 'evtool truncate' repairs a log whose program was killed; 'evtool cat --reblock' keeps its complete events
