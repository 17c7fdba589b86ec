# cat copies a complete real log byte for byte, atomically (no temporary left)
cmd: evtool cat @DATA@/threads-n4.eventlog -o out.eventlog && cmp @DATA@/threads-n4.eventlog out.eventlog && ls -A
exit: 0
--- stdout
out.eventlog
--- stderr
