# a log killed by SIGKILL after whole blocks (gzip): every event kept, the data end appended, nothing else changed; exit 3
cmd: evtool truncate @DATA@/killed-blocks.eventlog.gz -o out.eventlog; rc=$?; { zcat @DATA@/killed-blocks.eventlog.gz; printf '\377\377'; } | cmp - out.eventlog && evtool info out.eventlog | grep -E '^  (status|events) ' && evtool validate --strict out.eventlog && exit $rc
exit: 3
--- stdout
  status           complete
  events           12921 in 4 blocks, 1 session
out.eventlog: valid (0 warnings, 12921 events)
--- stderr
evtool truncate: @DATA@/killed-blocks.eventlog.gz: offset 8389320: the log ends without the data-end marker (after 12921 events)
evtool truncate: @DATA@/killed-blocks.eventlog.gz: kept 12921 events in 4 blocks, times 186790 to 262564694 ns (0.262378 s); no input bytes dropped
