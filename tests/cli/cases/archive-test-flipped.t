# a flipped byte in the compressed data is found by --test (exit 1), with the file and offset
cmd: evtool archive @DATA@/threads-n2.eventlog -o a.gz && printf '\xff' | dd of=a.gz bs=1 seek=9000 conv=notrunc 2>/dev/null && evtool archive --test a.gz
exit: 1
--- stdout
--- stderr
evtool archive: a.gz: stored offset 21516: CRC-32 mismatch in gzip member 1: the content's is 49babc40, the trailer says 51ae3209: the archive is damaged
