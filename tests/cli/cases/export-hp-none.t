# hp and speedscope of a log without a heap profile or time samples: a
# message, exit 1, and no output file
cmd: evtool export --format hp @DATA@/threads-n1.eventlog -o x.hp; echo "exit $?"; evtool export --format speedscope @DATA@/heap-n1.eventlog -o x.json; echo "exit $?"; evtool export --format hp @DATA@/threads-n1.eventlog | wc -c; ls
exit: 0
--- stdout
exit 1
exit 1
0
--- stderr
evtool export: @DATA@/threads-n1.eventlog: no heap profile (run with +RTS -h -l)
evtool export: @DATA@/heap-n1.eventlog: no time-profile samples (PROF_SAMPLE_COST_CENTRE: run a profiled program with +RTS -p -l)
evtool export: @DATA@/threads-n1.eventlog: no heap profile (run with +RTS -h -l)
