# stats A B: heap profiles of different breakdowns are refused (exit 1),
# after the rest of the comparison; a run without a profile is said to
# have none
cmd: evtool stats @DATA@/heapdiff-a-hT.eventlog @DATA@/heapdiff-b-hc.eventlog | tail -1; echo "exit ${PIPESTATUS[0]}"; evtool stats @DATA@/threads-n1.eventlog @DATA@/heapdiff-b-hT.eventlog | tail -1
exit: 0
--- stdout
  p99-pause                      12.3ms             21.0ms    +70.9%
exit 1
  heap profile: only @DATA@/heapdiff-b-hT.eventlog has one; bands not compared
--- stderr
evtool stats: @DATA@/heapdiff-a-hT.eventlog and @DATA@/heapdiff-b-hc.eventlog break their heap profiles down differently (-hT, -hc): their bands cannot be compared
