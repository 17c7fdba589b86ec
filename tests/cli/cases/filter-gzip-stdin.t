# gzip on standard input; a time window from the first event (+25ms) needs a second read, so stdin is copied to a temporary file
cmd: mkdir tmp; gzip -c @DATA@/threads-n2.eventlog | evtool filter - --from +25ms --tmpdir tmp -o out.eventlog && evtool filter @DATA@/threads-n2.eventlog --from +25ms -o file.eventlog && cmp out.eventlog file.eventlog && ls -A tmp | wc -l
exit: 0
--- stdout
0
--- stderr
