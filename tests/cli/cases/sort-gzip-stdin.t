# gzip on standard input is copied to an unnamed temporary file, then merged in place
cmd: mkdir tmp; gzip -c @DATA@/threads-n2.eventlog | evtool sort -v --tmpdir tmp - -o out.eventlog && evtool sort @DATA@/threads-n2.eventlog -o file.eventlog && cmp out.eventlog file.eventlog && evtool validate --sorted out.eventlog 2>/dev/null && ls -A tmp | wc -l
exit: 0
--- stdout
out.eventlog: valid (0 warnings, 4250 events)
0
--- stderr
evtool sort: sorted 4250 events in 1 session
evtool sort: 1 session merged in place: 3 capability streams, widest reorder window 2 events
evtool sort: 73994 bytes in temporary files (the input was copied first)
