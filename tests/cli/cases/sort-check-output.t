# --check writes nothing
cmd: evtool sort --check @DATA@/user-n1.eventlog -o out.eventlog
exit: 2
--- stdout
--- stderr
evtool: --check writes nothing: leave out -o and --gzip
Run 'evtool sort --help' for usage.
