# an 'EV' digest subfield with an unknown kind or a bad length is a damaged archive for --test and --extract (exit 1, file and offset named), not plain gzip
cmd: evtool archive @DATA@/user-n1.eventlog -o u.gz && cp u.gz v.gz && printf '\007' | dd of=u.gz bs=1 seek=16 conv=notrunc 2>/dev/null && printf '\010' | dd of=v.gz bs=1 seek=14 conv=notrunc 2>/dev/null; evtool archive --test u.gz; echo "exit $?"; evtool archive --test v.gz; echo "exit $?"; evtool archive --extract u.gz -o u.eventlog; echo "exit $?"; ls -A
exit: 0
--- stdout
exit 1
exit 1
exit 1
u.gz
v.gz
--- stderr
evtool archive: u.gz: stored offset 16: the 'EV' digest subfield has kind 7, which this evtool does not know (it knows 1 to 4)
evtool archive: v.gz: stored offset 14: the 'EV' digest subfield declares 8 data bytes (8 present), not 9: the header is damaged
evtool archive: u.gz: stored offset 16: the 'EV' digest subfield has kind 7, which this evtool does not know (it knows 1 to 4)
