# stats --follow --spans: after each interval's line, one per name whose
# spans ended in it (count in the interval, total and max so far)
cmd: evtool stats --follow --every 50ms --spans @DATA@/spans-a.eventlog | sed -n '1,/Spans:/p' | grep -v '^@DATA@' | head -12
exit: 0
--- stdout
      time   alloc rate       live       heap   GCs   GC time  productivity
   0.0500s            -          -          -     -         -             -
       span job                  3 ended, 30.4ms in all so far, max 10.2ms
       span sleep                2 ended, 40.5ms in all so far, max 20.3ms
   0.1000s            -          -          -     -         -             -
       span sleep                2 ended, 81.0ms in all so far, max 20.4ms
   0.1500s    3.9 MiB/s   59.4 KiB    2.0 MiB     1     117us         99.9%
       span outer                1 ended, 105ms in all so far, max 105ms
       span sleep                1 ended, 101ms in all so far, max 20.4ms
       span work                 4 ended, 3.59ms in all so far, max 1.45ms
       span a                    1 ended, 4.24ms in all so far, max 4.24ms
       span b                    1 ended, 4.24ms in all so far, max 4.24ms
