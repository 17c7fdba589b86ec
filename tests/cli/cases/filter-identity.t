# without selectors every event is kept, re-blocked by capability
cmd: evtool filter @DATA@/threads-n4.eventlog -o out.eventlog && evtool info out.eventlog | grep -E 'events |by capability|by class'; evtool info @DATA@/threads-n4.eventlog | grep -E 'events |by capability|by class'
exit: 0
--- stdout
  events           5286 in 5 blocks, 1 session
  by class         scheduler 5221 gc 23 sparks-sampled 9 meta 5 cap 28
  by capability    0: 1780 1: 1488 2: 1105 3: 849 global 64
  events           5286 in 5 blocks, 1 session
  by class         scheduler 5221 gc 23 sparks-sampled 9 meta 5 cap 28
  by capability    0: 1780 1: 1488 2: 1105 3: 849 global 64
--- stderr
