# a truncated log is refused with hints; --force archives it as it is, byte for byte
cmd: head -c 30000 @DATA@/threads-n2.eventlog > cut.eventlog; evtool archive cut.eventlog; echo "refused: $?"; ls -A; evtool archive --force cut.eventlog && gunzip -c cut.eventlog.gz | cmp - cut.eventlog
exit: 0
--- stdout
refused: 1
cut.eventlog
--- stderr
evtool archive: cut.eventlog: offset 29992: the log ends inside an event (8 of 20 bytes present); the last complete event ends at offset 29992
hint: 'evtool truncate' repairs a log whose program was killed
hint: 'evtool archive --force' archives it as it is
evtool archive: cut.eventlog: offset 29992: warning: the log ends inside an event (8 of 20 bytes present); the last complete event ends at offset 29992; archiving it anyway (--force)
