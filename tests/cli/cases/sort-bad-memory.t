# a memory limit below 64K is refused
cmd: evtool sort --memory 1K @DATA@/gc-n2.eventlog -o out.eventlog
exit: 2
--- stdout
--- stderr
evtool sort: --memory: '1K' is not a size of at least 64K (bytes, or with K, M, G or T, powers of 1024: 150M, 1.5G)
Run 'evtool sort --help' for usage.
