# standard input needs a temporary copy: a missing --tmpdir is an I/O error naming it, and no output appears
cmd: evtool sort --tmpdir missing - -o out.eventlog < @DATA@/user-n1.eventlog; rc=$?; ls; exit $rc
exit: 4
--- stdout
--- stderr
evtool sort: cannot create a temporary file in missing: No such file or directory
