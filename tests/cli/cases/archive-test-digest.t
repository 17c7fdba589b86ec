# a damaged digest in the header is found by --test even though the CRC-32 matches
cmd: evtool archive @DATA@/user-n1.eventlog -o a.gz && printf '\x00' | dd of=a.gz bs=1 seek=20 conv=notrunc 2>/dev/null && evtool archive --test a.gz
exit: 1
--- stdout
--- stderr
evtool archive: a.gz: stored offset 0: xxh3-64 mismatch in gzip member 1: the content's is 106a9cc9e1df0f7b, the header says 106a9c00e1df0f7b (the CRC-32 matches, so the header was damaged or rewritten)
