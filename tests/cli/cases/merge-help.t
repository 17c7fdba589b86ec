# evtool merge --help: synopsis, what it does, an example and the options
cmd: evtool merge --help
exit: 0
--- stdout
usage: evtool merge [IN...] [-o OUT]

merge the logs of several processes into one timeline

Writes one log holding every IN as its own process: capabilities,
capsets, threads, tasks, cost centres, ticky counters and heap
profiles are renumbered so that no two inputs share one, and each
input's clock is shifted by its WALL_CLOCK_TIME so that the processes
line up in real time (the earliest start is time 0). Capability
blocks are copied whole, interleaved by aligned start time; the
global events of all inputs are merged in time order.

example: evtool merge client.eventlog server.eventlog -o both.eventlog.gz

options:
  -o, --output OUT           write to OUT, not standard output (*.gz: compressed)
      --gzip                 compress as 'evtool archive' does (gzip with the log's digest)
      --align wall-clock|start|none
                             line clocks up by wall-clock (default), start or none
      --shift N=TIME,...     move input N (1 = first) by TIME, e.g. 2=+15ms,3=-1.5s
      --widen                zero-fill events of a type that is shorter in some inputs
      --no-renumber          keep every id as it is (inputs known to share none)
      --no-progress          no progress bar on standard error
  -v, --verbose              say how each input is renumbered, shifted and completed
  -h, --help                 show this help

exit codes: 0 ok, 1 invalid input, 2 usage, 3 data dropped or repaired, 4 I/O or system error;
killed by SIGPIPE (141 in the shell) when the reader of standard output goes away
