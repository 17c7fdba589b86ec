# a log cut by SIGKILL is refused by plain cat with a hint; no output appears
cmd: evtool cat @DATA@/killed-sigkill.eventlog -o out.eventlog; rc=$?; test ! -e out.eventlog && ls -A && exit $rc
exit: 1
--- stdout
--- stderr
evtool cat: @DATA@/killed-sigkill.eventlog: offset 2688: the log ends without the data-end marker (after 0 events)
hint: 'evtool truncate' repairs a log whose program was killed; 'evtool cat --reblock' keeps its complete events
