# evtool export --help: synopsis, what it does, an example and the options
cmd: evtool export --help
exit: 0
--- stdout
usage: evtool export [LOG] [--format perfetto|speedscope|hp] [-o OUT]

convert a log for perfetto, speedscope or hp2ps

Converts LOG (default: standard input) in time order and bounded
memory. perfetto: Trace Event Format JSON (ui.perfetto.dev,
chrome://tracing, speedscope): a process per OS process, a track per
capability, thread runs and GCs as slices, markers and messages as
instants, heap and spark counters. speedscope: the cost-centre time
profile of a profiled run (+RTS -p -l), a profile per capability. hp:
the heap profile (+RTS -h -l) as the RTS's .hp file, for hp2ps or
eventlog2html. A log without what the format needs: a message, exit
1, no output. A log cut short: its complete events, exit 3.

example: evtool export run.eventlog -o run.json  # open in ui.perfetto.dev

options:
      --format perfetto|speedscope|hp
                             perfetto (default: Trace Event Format JSON), speedscope (the time profile of a +RTS -p run) or hp (the heap profile, as hp2ps reads)
  -o, --output FILE          write to FILE (default, or -: standard output)
      --tmpdir DIR           folder for temporary files when sorting (default $TMPDIR or /tmp)
  -T, --threads N            read with N threads (default, or 0: the cores available; 1: one)
  -h, --help                 show this help

exit codes: 0 ok, 1 invalid input, 2 usage, 3 data dropped or repaired, 4 I/O or system error;
killed by SIGPIPE (141 in the shell) when the reader of standard output goes away
--- stderr
