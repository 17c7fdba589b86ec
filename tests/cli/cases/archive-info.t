# every evtool command reads an archive: info sees the same log
cmd: evtool archive @DATA@/gc-n2.eventlog -o gc.eventlog.gz && evtool info gc.eventlog.gz | grep -E 'status|events ' && evtool cat gc.eventlog.gz -o gc.eventlog && cmp gc.eventlog @DATA@/gc-n2.eventlog
exit: 0
--- stdout
  status           complete
  events           7820 in 3 blocks, 1 session
--- stderr
