# 'evtool help cat' and 'evtool cat --help' print the same text
cmd: evtool help cat > a; evtool cat --help > b; cmp a b && cat a
exit: 0
--- stdout
usage: evtool cat [IN...] [-o OUT]

copy a log (decompressing gzip), optionally re-blocked

Copies IN to OUT byte for byte; several inputs are written one after
the other as separate sessions. With --reblock, events are grouped
into fresh blocks by capability (the blocks GHC's RTS would write).

example: evtool cat run.eventlog.gz -o run.eventlog

options:
  -o, --output OUT           write to OUT, not standard output (*.gz: compressed)
      --gzip                 compress as 'evtool archive' does (gzip with the log's digest)
      --reblock              group events into fresh blocks by capability
      --block-size SIZE      largest block --reblock writes (default 2M)
      --in-place             replace the one input with the result (safely, by rename)
  -T, --threads N            read with N threads (default, or 0: the cores available; 1: sequentially)
  -h, --help                 show this help

exit codes: 0 ok, 1 invalid input, 2 usage, 3 data dropped or repaired, 4 I/O or system error;
killed by SIGPIPE (141 in the shell) when the reader of standard output goes away
