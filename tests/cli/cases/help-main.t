# evtool --help lists every command and the exit codes
cmd: evtool --help
exit: 0
--- stdout
usage: evtool COMMAND [OPTIONS] [FILE...]
       evtool help COMMAND | evtool COMMAND --help
       evtool --version

A toolkit for GHC eventlogs (+RTS -l). Every command reads plain or gzip logs,
and '-' for standard input.

commands:
  cat        copy a log (decompressing gzip), optionally re-blocked
  info       summarise logs: GHC version, caps, times, event counts

exit codes:
  0  success
  1  invalid input data
  2  usage error
  3  finished, but data was dropped or repaired
  4  I/O or system error
