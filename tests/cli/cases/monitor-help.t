# monitor --help: the command's synopsis, paragraph and options
cmd: evtool monitor --help
exit: 0
--- stdout
usage: evtool monitor SOURCE... [--listen ADDR] | --once FILE...

serve the figures of running programs' live logs to Prometheus

Follows every SOURCE at once and serves their figures on /metrics
in Prometheus' text format (OpenMetrics when the scraper asks for
it), with a status page on /. A SOURCE is a FIFO given to +RTS -ol,
a log file still growing, unix:PATH (the socket of a program using
eventlog-socket, connected again when it restarts) or a directory,
in which new *.eventlog files and FIFOs are followed as they appear.
Each run of a program is one set of series, labelled with program,
pid and source: allocation, live bytes, heap, collections and GC
pauses per generation, GC and mutator time, capabilities, threads,
sparks, user markers, events and bytes read (the man page lists
them). A run that ends keeps its final values for --keep-ended;
they are the figures of evtool stats. Damaged input is skipped to
the next block and reported. Serves loopback only unless --listen
says otherwise. --once prints the metrics of finished logs instead.

example: evtool monitor /run/ghc/ unix:/tmp/api.sock --listen 127.0.0.1:9464

options:
  -l, --listen ADDR          serve on ADDR: HOST:PORT, [IPv6]:PORT or a port (default 127.0.0.1:9464, loopback only)
      --once                 print the metrics of the finished logs given and exit (a node_exporter textfile)
      --keep-ended TIME      serve an ended process's final values this long (default 5m)
      --max-markers N        user marker names counted one by one per process, the others as (other); 0 turns markers off (default 100)
      --stall TIME           report a live log that sends nothing this long (default 1m)
      --max-sources N        sources followed at most, those found in directories included (default 1000)
  -h, --help                 show this help

exit codes: 0 ok, 1 invalid input, 2 usage, 3 data dropped or repaired, 4 I/O or system error;
killed by SIGPIPE (141 in the shell) when the reader of standard output goes away
--- stderr
