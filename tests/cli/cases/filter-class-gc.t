# --class gc keeps GC and heap statistics (as +RTS -lg), plus the metadata
cmd: evtool filter @DATA@/gc-n2.eventlog --class gc -o out.eventlog && evtool info out.eventlog | grep -E 'status|events |by class|by capability' && evtool validate -q out.eventlog && echo valid
exit: 0
--- stdout
  status           complete
  events           6360 in 3 blocks, 1 session
  by class         scheduler 3 gc 6336 meta 5 cap 16
  by capability    0: 2112 1: 4226 global 22
valid
--- stderr
