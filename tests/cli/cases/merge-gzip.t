# a gzip input merges like its plain form, and -o - writes to standard output
cmd: gzip -c @DATA@/merge-b.eventlog > b.eventlog.gz && evtool merge @DATA@/merge-a.eventlog b.eventlog.gz -o - > gz.eventlog && evtool merge @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog -o plain.eventlog && cmp gz.eventlog plain.eventlog && evtool validate plain.eventlog 2>/dev/null
exit: 0
--- stdout
plain.eventlog: valid (0 warnings, 322 events)
--- stderr
