# --rm removes each input once its archive is written and read back; only the archives remain
cmd: cp @DATA@/user-n1.eventlog u.eventlog && cp @DATA@/merge-a.eventlog m.eventlog && evtool archive --rm u.eventlog m.eventlog && ls -A && zcat u.eventlog.gz | cmp - @DATA@/user-n1.eventlog && zcat m.eventlog.gz | cmp - @DATA@/merge-a.eventlog
exit: 0
--- stdout
m.eventlog.gz
u.eventlog.gz
--- stderr
