# --from/--to with + count from the log's first event, half-open; the same window in wall-clock time
cmd: evtool filter @DATA@/threads-n2.eventlog --from +10ms --to +20ms --no-metadata -o a.eventlog && evtool info a.eventlog | grep -E '^  (time|events) '; evtool filter @DATA@/threads-n2.eventlog --from 2026-11-22T03:25:56.008437550Z --to 2026-11-22T04:25:56.018437550+01:00 --no-metadata -o b.eventlog && cmp a.eventlog b.eventlog && echo same
exit: 0
--- stdout
  time             first 12153849 ns, last 18295649 ns, duration 0.006142 s
  events           1115 in 2 blocks, 1 session
  time inversions  0 (0 of them GC_END)
same
--- stderr
