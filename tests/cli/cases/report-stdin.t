# report reads standard input and writes standard output; the page names the input <stdin>
cmd: evtool report - -o - < @DATA@/gc-n2.eventlog | grep -o '"file":"<stdin>","status":"complete"'
exit: 0
--- stdout
"file":"<stdin>","status":"complete"
--- stderr
