# garbage in the middle of a block: refused with a hint; --resync cuts that block before it, skips to the next block marker, reports the range and keeps every later block
cmd: cp @DATA@/threads-n4.eventlog bad.eventlog && printf '\356%.0s' $(seq 333) | dd of=bad.eventlog bs=1 seek=44756 conv=notrunc 2>/dev/null; evtool truncate bad.eventlog -o out.eventlog; echo "exit $?"; evtool truncate --resync bad.eventlog -o out.eventlog; echo "exit $?"; evtool info out.eventlog | grep -E '^  (status|events|by capability) ' && evtool validate --strict out.eventlog
exit: 0
--- stdout
exit 1
exit 3
  status           complete
  events           4541 in 5 blocks, 1 session
  by capability    0: 1780 1: 743 2: 1105 3: 849 global 64
out.eventlog: valid (0 warnings, 4541 events)
--- stderr
evtool truncate: bad.eventlog: offset 44756: event type 61166 is not declared in the header
hint: 'evtool truncate --resync' skips damaged regions to the next block and keeps the rest
evtool truncate: bad.eventlog: offset 44756: skipped 12404 damaged bytes (event type 61166 is not declared in the header) up to the block marker at offset 57160
evtool truncate: bad.eventlog: offset 32338: block of cap 1 cut from 24822 to 12418 bytes, end time 17714599 ns (declared 40327158)
evtool truncate: bad.eventlog: kept 4541 events in 5 blocks, times 223930 to 40297318 ns (0.040073 s); dropped 12404 of 91166 bytes
