# --between-markers: "\," is a comma of the pattern, not the split (here inside a glob's bracket: the start "checkpoint [5,]" matches "checkpoint 5")
cmd: evtool filter @DATA@/user-n1.eventlog --between-markers 'checkpoint [5\,],checkpoint 10' --no-metadata -o out.eventlog && evtool info out.eventlog | grep -E '^  events |USER'
exit: 0
--- stdout
  events           7 in 1 block, 1 session
    USER_MSG                            19            5
    USER_MARKER                         58            2
--- stderr
