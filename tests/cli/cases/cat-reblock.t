# --reblock regroups blocks but keeps every event
cmd: evtool cat --reblock @DATA@/threads-n4.eventlog -o out.eventlog && evtool info out.eventlog | grep -E 'status|events |by capability'; evtool info @DATA@/threads-n4.eventlog | grep -E 'events |by capability'
exit: 0
--- stdout
  status           complete
  events           5286 in 5 blocks, 1 session
  by capability    0: 1780 1: 1488 2: 1105 3: 849 global 64
  events           5286 in 5 blocks, 1 session
  by capability    0: 1780 1: 1488 2: 1105 3: 849 global 64
