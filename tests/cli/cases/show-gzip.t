# gzip input, by name and on standard input, shows as the plain log does
cmd: gzip -c @DATA@/user-n1.eventlog > u.eventlog.gz; evtool show @DATA@/user-n1.eventlog > plain.txt && evtool show u.eventlog.gz | cmp - plain.txt && evtool show - < u.eventlog.gz | cmp - plain.txt && echo same
exit: 0
--- stdout
same
--- stderr
