# a merged log: each OS process its own pid, named by program and pid (the
# pids of the inputs, as info prints them), each cap its own track
cmd: evtool merge @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog -o m.eventlog && evtool export m.eventlog -o m.json && python3 -c 'import json; [print(e["name"], e["pid"], e.get("tid", "-"), e["args"]["name"]) for e in json.load(open("m.json"))["traceEvents"] if e["ph"] == "M"]' > meta.txt && evtool info @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog | sed -n "s/^  pid  *\([0-9]*\) .*/\1/p" > pids.txt && sed -E "s/pid [0-9]+/pid N/" meta.txt && for p in $(cat pids.txt); do grep -c "(pid $p)" meta.txt; done
exit: 0
--- stdout
process_name 1 - worker (pid N)
process_name 2 - worker (pid N)
thread_name 1 1 cap 0
thread_name 2 2 cap 1
thread_name 2 3 cap 2
1
1
--- stderr
