# --session N (1-based) writes one session of a restarted stream; info lists the sessions
cmd: cat @DATA@/user-n1.eventlog @DATA@/sparks-n2.eventlog > two.eventlog; evtool info two.eventlog | grep -E '^  session'; evtool truncate -q --session 2 two.eventlog -o s2.eventlog && cmp s2.eventlog @DATA@/sparks-n2.eventlog && evtool validate --strict s2.eventlog && evtool truncate --session 3 two.eventlog -o s3.eventlog; rc=$?; ls -A; exit $rc
exit: 2
--- stdout
  session 1        bytes 0 to 5298, 107 events, complete
  session 2        bytes 5298 to 12646, 229 events, complete
s2.eventlog: valid (0 warnings, 229 events)
s2.eventlog
two.eventlog
--- stderr
evtool truncate: two.eventlog: there is no session 3: the log holds 2 sessions
