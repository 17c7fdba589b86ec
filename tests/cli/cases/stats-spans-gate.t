# --fail-if on the spans: sleeps of 30 ms (spans-b) against 20 ms
# (spans-a) fail a gate of +10% on their p99 and pass one of +60%; an
# absolute limit; a span the run does not have fails; the table of both
# runs with --spans
cmd: evtool stats @DATA@/spans-a.eventlog @DATA@/spans-b.eventlog --fail-if 'span:sleep.p99>+10%' >/dev/null; echo "exit $?"; evtool stats @DATA@/spans-a.eventlog @DATA@/spans-b.eventlog --fail-if 'span:sleep.p99>+60%' --fail-if 'span:sleep.count>5' >/dev/null; echo "exit $?"; evtool stats @DATA@/spans-b.eventlog --fail-if 'span:job.max>=9ms' --fail-if 'span:nothing.total>0' >/dev/null; echo "exit $?"; evtool stats --spans @DATA@/spans-a.eventlog @DATA@/spans-b.eventlog | sed -n '/^  span /,$p' | head -6
exit: 0
--- stdout
exit 1
exit 0
exit 1
  span                                 base            new    change
  span:outer.count                        1              1     +0.0%
  span:outer.total                    105ms          155ms    +48.3%
  span:outer.p50                      105ms          155ms    +48.3%
  span:outer.p99                      105ms          155ms    +48.3%
  span:outer.max                      105ms          155ms    +48.3%
--- stderr
evtool stats: @DATA@/spans-b.eventlog: --fail-if 'span:sleep.p99>+10%' failed: span:sleep.p99 is 30.4ms, +49.2% of the base's 20.4ms
evtool stats: @DATA@/spans-b.eventlog: --fail-if 'span:job.max>=9ms' failed: span:job.max is 10.1ms
evtool stats: @DATA@/spans-b.eventlog: --fail-if 'span:nothing.total>0' failed: the run has no span:nothing.total
