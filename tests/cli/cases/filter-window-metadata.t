# a time window drops the metadata stamped after it (sparks-n2 labels threads at 5.3 and 9.2 ms, and deletes its capsets at 20.3 ms): the slice's last event is its window's last, and stats times it from the run's start to there, not to the run's end (the base kept them: last 20339039 ns, Total 0.010s)
cmd: evtool filter @DATA@/sparks-n2.eventlog --to 5ms -o s.eventlog && evtool info s.eventlog | grep '^  time  ' && evtool stats s.eventlog | grep Total
exit: 0
--- stdout
  time             first 212190 ns, last 1325960 ns, duration 0.001114 s
  Total   time  (  0.001s elapsed)
