# --rm keeps the input when archiving fails: an invalid log, and an archive that already exists
cmd: cp @DATA@/killed-sigkill.eventlog k.eventlog && cp @DATA@/user-n1.eventlog u.eventlog && touch u.eventlog.gz && evtool archive --rm k.eventlog u.eventlog; rc=$?; ls -A; exit $rc
exit: 2
--- stdout
k.eventlog
u.eventlog
u.eventlog.gz
--- stderr
evtool archive: k.eventlog: offset 2688: the log ends without the data-end marker (after 0 events); the last complete event ends at offset 2688
hint: 'evtool truncate' repairs a log whose program was killed
hint: 'evtool archive --force' archives it as it is
evtool archive: u.eventlog.gz: already exists; --force replaces it
