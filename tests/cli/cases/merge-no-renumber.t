# --no-renumber keeps every id, for inputs that share none: the two processes of a merged log, split apart by filter, merge back with their ids unchanged into a valid log
cmd: evtool merge @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog -o ab.eventlog && evtool filter ab.eventlog --process 8605 -o a.eventlog && evtool filter ab.eventlog --process 8613 -o b.eventlog && evtool merge --no-renumber --align none a.eventlog b.eventlog -o out.eventlog && evtool info out.eventlog | grep -E '^  (capabilities|capsets|events) ' && evtool validate out.eventlog 2>/dev/null
exit: 0
--- stdout
  capabilities     3: 0 1 2
  capsets          4: 0 (os-process), 1 (clock-domain), 2 (os-process), 3 (clock-domain)
  events           322 in 4 blocks, 1 session
out.eventlog: valid (0 warnings, 322 events)
--- stderr
