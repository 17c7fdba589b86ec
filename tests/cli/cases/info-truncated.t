# info on a log cut inside an event: exit 0 (describing it is info's job), the stored size and the bytes up to the last complete event, in the text and the JSON
cmd: head -c 40013 @DATA@/threads-n2.eventlog > cut.eventlog; evtool info cut.eventlog > info.txt; echo "exit $?"; grep -E '^  (status|size) ' info.txt; evtool info --json cut.eventlog | grep -E '"(status|problem_offset|duration_ns|log_bytes|stored_bytes|gzip)"'; gzip -c cut.eventlog > cut.gz; evtool info cut.gz | grep -E '^  size '
exit: 0
--- stdout
exit 0
  status           truncated at offset 40000: the log ends inside an event (13 of 14 bytes present)
  size             40013 bytes stored, 40000 bytes of log to the last complete event
      "status": "truncated",
      "problem_offset": 40000,
      "duration_ns": 30003698,
          "status": "truncated"
      "log_bytes": 40000,
      "gzip": false,
      "stored_bytes": 40013,
  size             11919 bytes stored (gzip), 40000 bytes of log to the last complete event
--- stderr
