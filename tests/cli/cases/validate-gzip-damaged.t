# gzip input: a copy cut short is truncated (exit 3); a wrong CRC-32 is invalid input (exit 1)
cmd: gzip -n -c < @DATA@/user-n1.eventlog > l.gz && head -c 2000 l.gz | evtool validate -; echo "cut: $?"; size=$(stat -c %s l.gz) && printf '\377' | dd of=l.gz bs=1 seek=$((size - 8)) conv=notrunc 2>/dev/null && evtool validate l.gz
exit: 1
--- stdout
<stdin>: truncated at offset 4820 (0 warnings, 88 events)
cut: 3
l.gz: invalid (1 error, 0 warnings, 107 events)
--- stderr
evtool validate: <stdin>: offset 4820: error: the log ends inside an event (41 of 80 bytes present); the gzip stream is cut short; the last complete event ends at offset 4820 [truncated]
hint: 'evtool truncate' repairs a log whose program was killed; 'evtool cat --reblock' keeps its complete events
evtool validate: l.gz: offset 5298: error: gzip data is corrupt (incorrect data check) near stored offset 2171 [input]
