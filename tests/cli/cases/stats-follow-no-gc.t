# stats --follow of a run cut before its first collection (user-n1 up to
# 2.83 ms): without GC_STATS_GHC or HEAP_* events stats says "GC and heap:
# not recorded", so the line has "-" for every figure but the time, not 0
cmd: evtool truncate -q --at 2830000 @DATA@/user-n1.eventlog | evtool stats --follow -; evtool truncate -q --at 2830000 @DATA@/user-n1.eventlog | evtool stats - | grep 'not recorded'
exit: 0
--- stdout
      time   alloc rate       live       heap   GCs   GC time  productivity
   0.0028s            -          -          -     -         -             -

<stdin>: process 8543 (capset 0, 1 capability)
  GC and heap: not recorded (no GC_STATS_GHC or HEAP_* events)

  SPARKS: 0 (0 converted, 0 overflowed, 0 dud, 0 GC'd, 0 fizzled)

  Total   time  (  0.003s elapsed)

  GC and heap: not recorded (no GC_STATS_GHC or HEAP_* events)
--- stderr
