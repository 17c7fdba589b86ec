# --extract restores FILE from FILE.gz, refuses to overwrite it, and replaces it with --force
cmd: cp @DATA@/heap-n1.eventlog h.eventlog && evtool archive --rm h.eventlog && evtool archive --extract h.eventlog.gz && cmp h.eventlog @DATA@/heap-n1.eventlog && evtool validate --strict h.eventlog && ls -A && evtool archive --extract h.eventlog.gz; echo "again: $?"; evtool archive -x -f h.eventlog.gz && cmp h.eventlog @DATA@/heap-n1.eventlog && evtool validate --strict h.eventlog
exit: 0
--- stdout
h.eventlog: valid (0 warnings, 3646 events)
h.eventlog
h.eventlog.gz
again: 2
h.eventlog: valid (0 warnings, 3646 events)
--- stderr
evtool archive: h.eventlog: already exists; --force replaces it
