# --block-size splits blocks; nothing is lost
cmd: evtool cat --reblock --block-size 512 @DATA@/threads-n2.eventlog -o out.eventlog && evtool info out.eventlog | grep -E 'status|events '
exit: 0
--- stdout
  status           complete
  events           4250 in 149 blocks, 1 session
