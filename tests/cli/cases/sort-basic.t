# sort: one global time order, every event kept, re-blocked; --check agrees; validate --sorted passes
cmd: evtool sort @DATA@/threads-n4.eventlog -o out.eventlog && evtool sort --check out.eventlog && evtool info out.eventlog | grep -E 'status|inversions|by capability|by class' && evtool validate -q --sorted out.eventlog && echo valid
exit: 0
--- stdout
out.eventlog: in time order
  status           complete
  time inversions  0 (0 of them GC_END)
  by class         scheduler 5221 gc 23 sparks-sampled 9 meta 5 cap 28
  by capability    0: 1780 1: 1488 2: 1105 3: 849 global 64
valid
--- stderr
