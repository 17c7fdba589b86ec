# evtool merge a b | evtool show: the same text as showing the merged file
cmd: evtool merge @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog | evtool show > piped.txt; echo "${PIPESTATUS[*]}"; evtool merge @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog -o m.eventlog && evtool show m.eventlog | cmp - piped.txt && grep -c . piped.txt
exit: 0
--- stdout
0 0
397
--- stderr
