# a log cut mid-event: the page of its complete events, a warning with the offset, exit 3
cmd: head -c 30000 @DATA@/gc-n2.eventlog | evtool report - -o cut.html; echo "exit $?"; ls -A; grep -o '"status":"truncated"' cut.html
exit: 0
--- stdout
exit 3
cut.html
"status":"truncated"
--- stderr
evtool report: <stdin>: offset 29994: warning: the log ends inside an event (6 of 10 bytes present); the report covers the events before it
