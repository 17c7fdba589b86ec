# --in-place repairs the file itself, through a temporary file and rename; a gzip input is refused
cmd: head -c 50000 @DATA@/threads-n4.eventlog > run.eventlog; evtool truncate -q --in-place run.eventlog; echo "exit $?"; ls -A; evtool info run.eventlog | grep -E '^  (status|events) '; evtool validate --strict run.eventlog; cp @DATA@/killed-blocks.eventlog.gz k.gz; evtool truncate --in-place k.gz; echo "exit $?"; cmp k.gz @DATA@/killed-blocks.eventlog.gz && ls -A
exit: 0
--- stdout
exit 3
run.eventlog
  status           complete
  events           2839 in 2 blocks, 1 session
run.eventlog: valid (0 warnings, 2839 events)
exit 2
k.gz
run.eventlog
--- stderr
evtool truncate: --in-place would replace a gzip file with an uncompressed log; use -o
Run 'evtool truncate --help' for usage.
