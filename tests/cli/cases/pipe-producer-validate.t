# producer | evtool validate: a log written to a pipe (here by evtool cat and by gzip) is validated from standard input; a truncated one exits 3
cmd: evtool cat @DATA@/sparks-n2.eventlog | evtool validate; echo "${PIPESTATUS[*]}"; gzip -c @DATA@/sparks-n2.eventlog | evtool validate --json | grep -c '"file": "<stdin>"'; head -c 5000 @DATA@/sparks-n2.eventlog | evtool validate --quiet; echo "cut: $?"
exit: 0
--- stdout
<stdin>: valid (0 warnings, 232 events)
0 0
1
cut: 3
--- stderr
