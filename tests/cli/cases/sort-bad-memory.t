# a memory limit below 64K is refused
cmd: evtool sort --memory 1K @DATA@/gc-n2.eventlog -o out.eventlog
exit: 2
--- stdout
--- stderr
evtool: --memory: '1K' is not a size of at least 64K (bytes, or a number with K, M or G)
