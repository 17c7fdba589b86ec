# a truncated archive is reported as such (exit 3), with how to recover what is there
cmd: evtool archive @DATA@/threads-n4.eventlog -o a.gz && head -c 12000 a.gz > cut.gz && evtool archive --test cut.gz
exit: 3
--- stdout
--- stderr
evtool archive: cut.gz: stored offset 12000: the archive is cut short: it ends inside the compressed data of gzip member 1, after 38650 bytes of log
hint: 'zcat cut.gz > part.eventlog' restores the log up to the cut; 'evtool truncate' then repairs it
