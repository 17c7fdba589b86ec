# a gzip input is not archived again
cmd: gzip -c @DATA@/user-n1.eventlog > u.gz; evtool archive u.gz
exit: 2
--- stderr
evtool archive: u.gz: is gzip-compressed already ('evtool archive --test' checks an archive)
