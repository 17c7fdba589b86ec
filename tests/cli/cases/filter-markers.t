# --between-markers: from the first marker matching A to the next matching B, both kept; globs allowed
cmd: evtool filter @DATA@/user-n1.eventlog --between-markers 'checkpoint 5,checkpoint 1*' --no-metadata -o out.eventlog && evtool info out.eventlog | grep -E '^  events |USER'
exit: 0
--- stdout
  events           7 in 1 block, 1 session
    USER_MSG                            19            5
    USER_MARKER                         58            2
--- stderr
