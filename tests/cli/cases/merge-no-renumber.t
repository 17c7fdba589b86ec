# --no-renumber keeps every id: only the clocks move
cmd: evtool merge --no-renumber @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog -o out.eventlog && evtool info out.eventlog | grep -E '^  (capabilities|capsets|events) '
exit: 0
--- stdout
  capabilities     2: 0 1
  capsets          2: 0 (os-process), 1 (clock-domain)
  events           322 in 4 blocks, 1 session
--- stderr
