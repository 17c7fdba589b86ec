# a run logged without the GC's and scheduler's events (as +RTS -l-g -l-s writes it): the total runs to hs_exit (the RTS's 0.010s), GC time, MUT and productivity are not recorded, and a gate on them fails
cmd: evtool filter --exclude-class gc,s,p @DATA@/user-n1.eventlog -o u.eventlog && evtool stats u.eventlog && evtool stats u.eventlog --fail-if 'productivity<50%'
exit: 1
--- stdout
u.eventlog: process 8543 (capset 0, 1 capability)
  GC and heap: not recorded (no GC_STATS_GHC or HEAP_* events)

  SPARKS: not recorded (no SPARK_COUNTERS events)

  Total   time  (  0.010s elapsed)

u.eventlog: process 8543 (capset 0, 1 capability)
  GC and heap: not recorded (no GC_STATS_GHC or HEAP_* events)

  SPARKS: not recorded (no SPARK_COUNTERS events)

  Total   time  (  0.010s elapsed)

--- stderr
evtool stats: u.eventlog: --fail-if 'productivity<50%' failed: the run has no productivity
