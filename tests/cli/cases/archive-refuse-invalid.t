# an invalid log is refused with a hint; nothing is written
cmd: head -c 100 @DATA@/user-n1.eventlog > bad.eventlog; printf 'garbage-garbage' >> bad.eventlog; evtool archive bad.eventlog; rc=$?; ls -A; exit $rc
exit: 1
--- stdout
bad.eventlog
--- stderr
evtool archive: bad.eventlog: offset 98: expected event type end "ete", found "etga"
hint: 'evtool archive --force' archives it as it is
