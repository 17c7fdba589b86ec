# info lists the sessions of a stream holding several (restarted eventlog), with byte ranges and completeness
cmd: cat @DATA@/user-n1.eventlog @DATA@/sparks-n2.eventlog > two.eventlog; head -c 9000 two.eventlog > cut.eventlog; evtool info cut.eventlog | grep -E '^  (status|events|session)'
exit: 0
--- stdout
  status           truncated at offset 9000: the log ends without the data-end marker (after 52 events)
  events           159 in 3 blocks, 2 sessions
  session 1        bytes 0 to 5298, 107 events, complete
  session 2        bytes 5298 to 9000, 52 events, truncated
--- stderr
