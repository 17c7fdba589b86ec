# nothing selected and no metadata: still a valid, complete log
cmd: evtool filter @DATA@/threads-n2.eventlog --class ticky --no-metadata -o out.eventlog && evtool info out.eventlog | grep -E 'status|^  events ' && evtool validate -q out.eventlog && echo valid
exit: 0
--- stdout
  status           complete
  events           0 in 0 blocks, 1 session
valid
--- stderr
