# an existing archive is kept unless --force
cmd: echo old > u.gz; evtool archive @DATA@/user-n1.eventlog -o u.gz; echo "refused: $?"; cat u.gz; evtool archive -f @DATA@/user-n1.eventlog -o u.gz && zcat u.gz | cmp - @DATA@/user-n1.eventlog
exit: 0
--- stdout
refused: 2
old
--- stderr
evtool archive: u.gz: already exists; --force replaces it
