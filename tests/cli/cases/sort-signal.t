# SIGTERM while sorting standard input leaves neither the output, its temporary file, nor a copy in --tmpdir
cmd: mkdir tmp; mkfifo pipe; (head -c 4000 @DATA@/threads-n2.eventlog; sleep 30) > pipe & feeder=$!; evtool sort --tmpdir tmp - -o out.eventlog < pipe & pid=$!; for i in $(seq 100); do ls -A | grep -q evtool- && break; sleep 0.1; done; ls -A | grep -c evtool-; kill -TERM $pid; wait $pid; rc=$?; ls -A; ls -A tmp | wc -l; kill $feeder; exit $rc
exit: 143
--- stdout
1
pipe
tmp
0
--- stderr
