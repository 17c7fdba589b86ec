# validate --help: synopsis, description, options, exit codes
cmd: evtool validate --help
exit: 0
--- stdout
usage: evtool validate [FILE...]

check that logs are what GHC writes (a CI gate)

Checks each FILE's structure (header, declared sizes, blocks, data
end), time order within each capability, references to caps and
capsets, and the life of threads, GCs, tasks and heap samples. Prints
each finding (an error or a warning, with its offset, event and check
id) on standard error and a verdict per file. Exit 0 when every file
is valid, 1 when one is invalid (or has warnings, with --strict), 3
when the worst is truncated (a killed program's log).

example: evtool validate --strict bench.eventlog || exit 1

options:
      --strict               warnings fail too
      --sorted               also require one global time order (what 'evtool sort' writes)
      --tolerance TIME       accept time going back by up to TIME (ns, or with a unit: 5us; default 0)
      --gc-end-tolerance TIME
                             how far GC_END and GC_START may step back (default 1ms)
      --no-semantics         skip the thread, GC, task and heap-sample checks
      --max-errors N         stop checking a file after N errors
  -q, --quiet                print nothing; the exit code tells
      --json                 print one JSON document (schema_version 2)
      --list-checks          list the check ids and what they mean
      --no-progress          no progress bar on standard error
  -T, --threads N            check with N threads (default, or 0: the cores available; 1: one pass)
  -h, --help                 show this help

exit codes: 0 ok, 1 invalid input, 2 usage, 3 data dropped or repaired, 4 I/O or system error;
killed by SIGPIPE (141 in the shell) when the reader of standard output goes away
--- stderr
