# --in-place on a complete log leaves the file untouched (same bytes, inode and modification time), exit 0, and says so
cmd: cp @DATA@/user-n1.eventlog u.eventlog && touch -d '2020-01-02 03:04:05' u.eventlog && before=$(stat -c '%i %Y' u.eventlog) && evtool truncate --in-place u.eventlog; rc=$?; test "$(stat -c '%i %Y' u.eventlog)" = "$before" && echo untouched; cmp u.eventlog @DATA@/user-n1.eventlog && ls -A && exit $rc
exit: 0
--- stdout
untouched
u.eventlog
--- stderr
evtool truncate: u.eventlog: the log is complete; left untouched
