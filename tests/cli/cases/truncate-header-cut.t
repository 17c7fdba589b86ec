# a log cut inside its header: an error that says there is nothing to recover; validate calls it truncated but does not point to truncate
cmd: head -c 100 @DATA@/user-n1.eventlog > cut.eventlog; evtool truncate cut.eventlog -o out.eventlog; rc=$?; ls -A; evtool validate cut.eventlog; echo "validate $?"; exit $rc
exit: 1
--- stdout
cut.eventlog
cut.eventlog: truncated at offset 0 (0 warnings, 0 events)
validate 3
--- stderr
evtool truncate: cut.eventlog: offset 0: the input ends inside the header (100 bytes of it read): there are no events to recover
evtool validate: cut.eventlog: offset 0: error: the input ends inside the header (100 bytes of it read); the last complete event ends at offset 0 [truncated]
hint: the header itself is incomplete, so no event can be recovered; 'evtool truncate' cannot repair it
