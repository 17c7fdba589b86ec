# a log over 1 MiB is archived as several gzip members (one per MiB); gzip -t, zcat, pigz (when installed) and evtool read it back byte for byte, one thread and two write the same bytes, --test checks it, and two archives one after the other are two logs
cmd: evtool merge --align none @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog -o big.eventlog && evtool archive --threads 2 big.eventlog && evtool archive --threads 1 big.eventlog -o one.gz && cmp big.eventlog.gz one.gz && gzip -t big.eventlog.gz && zcat big.eventlog.gz | cmp - big.eventlog && { ! command -v pigz >/dev/null || pigz -d -c big.eventlog.gz | cmp - big.eventlog; } && evtool cat big.eventlog.gz -o - | cmp - big.eventlog && evtool archive --test big.eventlog.gz && cat big.eventlog.gz one.gz > two.gz && zcat two.gz | cmp - <(cat big.eventlog big.eventlog) && evtool archive --test two.gz
exit: 0
--- stdout
big.eventlog.gz: ok, 1878254 bytes of log, xxh3-64 ffe8a8a6c01b4b10
two.gz: ok, 3756508 bytes of log, xxh3-64 c2f8e32157b1cac7
--- stderr
