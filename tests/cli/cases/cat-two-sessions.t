# two inputs become two sessions; cat of that stream reproduces it
cmd: evtool cat @DATA@/user-n1.eventlog @DATA@/sparks-n2.eventlog -o two.eventlog && cat @DATA@/user-n1.eventlog @DATA@/sparks-n2.eventlog | cmp - two.eventlog && evtool cat two.eventlog -o again.eventlog && cmp two.eventlog again.eventlog && evtool info two.eventlog | grep -E 'sessions'
exit: 0
--- stdout
  events           336 in 5 blocks, 2 sessions
