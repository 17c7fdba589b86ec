# evtool --help lists every command and the exit codes
cmd: evtool --help
exit: 0
--- stdout
usage: evtool COMMAND [OPTIONS] [FILE...]
       evtool help COMMAND | evtool COMMAND --help
       evtool --version

A toolkit for GHC eventlogs (+RTS -l). Every command reads plain or gzip logs:
the files named, or standard input when none is (or '-'). A command that writes
a log writes standard output unless -o names a file, gzip-compressed with
--gzip or when the file's name ends in .gz.

commands:
  cat        copy a log (decompressing gzip), optionally re-blocked
  info       summarise logs: GHC version, caps, times, event counts
  show       print the events as text, exactly as ghc-events show does
  filter     keep some events: by class, type, cap, process, thread, time, markers
  stats      the +RTS -s summary, GC pauses and threads of a run; compare, CI gate, live
  monitor    serve the figures of running programs' live logs to Prometheus
  report     one self-contained HTML page about a run: timelines, GC, heap
  sort       put a log into one global, stable time order
  merge      merge the logs of several processes into one timeline
  export     convert a log for perfetto, speedscope or hp2ps
  validate   check that logs are what GHC writes (a CI gate)
  view       the timeline of a log of any size, in the browser
  truncate   repair a log cut short (a killed program); cut a log to a prefix
  archive    gzip logs with their digest; test and extract archives

exit codes:
  0    success
  1    invalid input data
  2    usage error
  3    finished, but data was dropped or repaired
  4    I/O or system error
  141  killed by SIGPIPE: the reader of standard output went away (as cat)
