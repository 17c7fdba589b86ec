# --exclude-* options drop what they match; all conditions must hold
cmd: evtool filter @DATA@/threads-n4.eventlog --exclude-class scheduler --exclude-cap 1 -o out.eventlog && evtool info out.eventlog | grep -E '^  events |by class|by capability'
exit: 0
--- stdout
  events           72 in 5 blocks, 1 session
  by class         scheduler 11 gc 21 sparks-sampled 7 meta 5 cap 28
  by capability    0: 12 1: 2 2: 5 3: 19 global 34
--- stderr
