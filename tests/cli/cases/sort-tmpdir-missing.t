# standard input from a pipe needs a temporary copy: a missing --tmpdir is an I/O error naming it, and no output appears
cmd: cat @DATA@/user-n1.eventlog | evtool sort --tmpdir missing - -o out.eventlog; rc=$?; ls; exit $rc
exit: 4
--- stdout
--- stderr
evtool sort: cannot create a temporary file in missing: No such file or directory
