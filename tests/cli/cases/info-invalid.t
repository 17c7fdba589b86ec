# info on garbage fails with the offset and exit 1
cmd: head -c 100 @DATA@/user-n1.eventlog > bad; printf 'garbage-garbage' >> bad; evtool info bad
exit: 1
--- stderr
evtool info: bad: offset 98: expected event type end "ete", found "etga"
