# -o NAME.gz and --gzip: every command that writes a log writes the archive 'evtool archive' writes (same bytes either way), which gzip -t, archive --test and validate accept and which holds the plain output
cmd: n=0; for c in "cat @DATA@/threads-n2.eventlog" "filter @DATA@/threads-n2.eventlog --class gc" "sort @DATA@/threads-n2.eventlog" "merge @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog" "truncate -q @DATA@/killed-sigkill.eventlog"; do n=$((n + 1)); evtool $c -o $n.gz; echo "$n -o: $?"; evtool $c --gzip > $n.stdout.gz; echo "$n --gzip: $?"; evtool $c > $n.plain; cmp $n.gz $n.stdout.gz && gzip -t $n.gz && zcat $n.gz | cmp - $n.plain && evtool archive --test $n.gz && evtool validate --strict $n.gz && evtool show $n.gz | cmp - <(evtool show $n.plain) || echo "$n: FAILED"; done; evtool archive @DATA@/threads-n2.eventlog -o a.gz && cmp a.gz 1.gz && echo "cat -o x.gz = archive"
exit: 0
--- stdout
1 -o: 0
1 --gzip: 0
1.gz: ok, 73994 bytes of log, xxh3-64 d8f41e8aed515595
1.gz: valid (0 warnings, 4253 events)
2 -o: 0
2 --gzip: 0
2.gz: ok, 3770 bytes of log, xxh3-64 9992d85b88e65720
2.gz: valid (0 warnings, 52 events)
3 -o: 0
3 --gzip: 0
3.gz: ok, 88418 bytes of log, xxh3-64 132b9f6bf087326e
3.gz: valid (0 warnings, 4854 events)
4 -o: 0
4 --gzip: 0
4.gz: ok, 9070 bytes of log, xxh3-64 e45776357d4499d2
4.gz: valid (0 warnings, 326 events)
5 -o: 3
5 --gzip: 3
5.gz: ok, 2690 bytes of log, xxh3-64 4c160398c64817b3
5.gz: valid (0 warnings, 0 events)
cat -o x.gz = archive
--- stderr
