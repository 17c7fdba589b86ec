# SIGTERM while writing leaves neither the output nor a temporary file
cmd: mkfifo pipe; (head -c 4000 @DATA@/threads-n2.eventlog; sleep 30) > pipe & feeder=$!; evtool cat pipe -o out.eventlog & pid=$!; for i in $(seq 100); do ls -A | grep -q evtool- && break; sleep 0.1; done; ls -A | grep -c evtool-; kill -TERM $pid; wait $pid; rc=$?; ls -A; kill $feeder; exit $rc
exit: 143
--- stdout
1
pipe
