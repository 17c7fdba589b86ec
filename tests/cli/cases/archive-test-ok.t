# --test checks CRC, length, the stored digest (the log's xxh3-64, as info prints it) and the log
cmd: evtool archive @DATA@/threads-n2.eventlog -o a.gz && evtool archive --test a.gz && evtool info @DATA@/threads-n2.eventlog | grep xxh3
exit: 0
--- stdout
a.gz: ok, 73994 bytes of log, xxh3-64 d8f41e8aed515595
  xxh3-64          d8f41e8aed515595
--- stderr
