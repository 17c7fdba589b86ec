# -o NAME.gz and --gzip of a log over 1 MiB (two gzip members, whose headers get the digest when the spooled members are copied out): the same bytes as 'evtool archive' of that log, which --test accepts
cmd: evtool merge --align none @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog > big.eventlog && [ $(wc -c < big.eventlog) -gt 1048576 ] && echo "over 1 MiB"; evtool merge --align none @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog -o m.gz; echo "-o: $?"; evtool merge --align none @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog @DATA@/gc-n2.eventlog --gzip > s.gz; echo "--gzip: $?"; evtool archive big.eventlog -o a.gz && cmp m.gz a.gz && cmp s.gz a.gz && echo "same as archive" && evtool archive --test m.gz
exit: 0
--- stdout
over 1 MiB
-o: 0
--gzip: 0
same as archive
m.gz: ok, 1878254 bytes of log, xxh3-64 ffe8a8a6c01b4b10
--- stderr
