# --bytes N keeps what lies within the first N bytes: the same log as repairing `head -c N`
cmd: evtool truncate -q --bytes 10000 @DATA@/threads-n2.eventlog -o a.eventlog && head -c 10000 @DATA@/threads-n2.eventlog | evtool truncate -q - -o b.eventlog; rc=$?; cmp a.eventlog b.eventlog && evtool info a.eventlog | grep -E '^  (status|events|size) ' && evtool validate --strict a.eventlog && exit $rc
exit: 3
--- stdout
  status           complete
  events           433 in 1 block, 1 session
  size             9996 bytes
a.eventlog: valid (0 warnings, 433 events)
--- stderr
