# standard input (a pipe, plain or gzip, or a redirected file) merges like the file itself
cmd: evtool merge @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog -o ref.eventlog && cat @DATA@/merge-a.eventlog | evtool merge - @DATA@/merge-b.eventlog -o pipe.eventlog && gzip -c @DATA@/merge-b.eventlog | evtool merge @DATA@/merge-a.eventlog - -o gz.eventlog && evtool merge - @DATA@/merge-b.eventlog -o file.eventlog < @DATA@/merge-a.eventlog && cmp ref.eventlog pipe.eventlog && cmp ref.eventlog gz.eventlog && cmp ref.eventlog file.eventlog && evtool validate ref.eventlog 2>/dev/null
exit: 0
--- stdout
ref.eventlog: valid (0 warnings, 322 events)
--- stderr
