# archive answers to gzip's and zstd's habits: -c (standard output) -9 -T 2 writes what -o - --level 9 --threads 2 writes, -1 a larger archive; -d -c restores the log; -k keeps the input (the default) and -d extracts beside it; -T4 and -d with --test or --rm with -k are usage errors, -19 is no level
cmd: log=@DATA@/threads-n2.eventlog; evtool archive -c -9 -T 2 $log > a.gz && evtool archive -o - --level 9 --threads 2 $log > b.gz && cmp a.gz b.gz && echo same; evtool archive -1c $log > fast.gz && [ $(wc -c < fast.gz) -gt $(wc -c < a.gz) ] && echo '-1 is larger'; evtool archive -dc a.gz | cmp - $log && echo restored; cp $log x.eventlog && evtool archive -k -T4 x.eventlog && ls && rm x.eventlog && evtool archive -d x.eventlog.gz && cmp x.eventlog $log && ls; evtool archive -19 $log -o y.gz; echo "exit $?"; evtool archive -k --rm x.eventlog; echo "exit $?"; evtool archive -c x.eventlog -o z.gz; echo "exit $?"; evtool archive -d --test x.eventlog.gz; echo "exit $?"
exit: 0
--- stdout
same
-1 is larger
restored
a.gz
b.gz
fast.gz
x.eventlog
x.eventlog.gz
a.gz
b.gz
fast.gz
x.eventlog
x.eventlog.gz
exit 2
exit 2
exit 2
exit 2
--- stderr
evtool archive: --level: '19' is not a whole number from 1 to 9
Run 'evtool archive --help' for usage.
evtool archive: --rm and --keep exclude each other
Run 'evtool archive --help' for usage.
evtool archive: -c writes to standard output: leave out -o
Run 'evtool archive --help' for usage.
evtool archive: --test and --extract exclude each other
Run 'evtool archive --help' for usage.
