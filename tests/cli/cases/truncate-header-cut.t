# a log cut inside its header: an error that says there is nothing to recover
cmd: head -c 100 @DATA@/user-n1.eventlog > cut.eventlog; evtool truncate cut.eventlog -o out.eventlog; rc=$?; ls -A; exit $rc
exit: 1
--- stdout
cut.eventlog
--- stderr
evtool: cut.eventlog: offset 0: the input ends inside the header (100 bytes of it read): there are no events to recover
