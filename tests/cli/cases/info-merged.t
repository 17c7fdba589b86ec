# info on a merged log lists its processes (capset, capabilities, RTS, program, pid, wall-clock start), in text and in --json's "processes"; the top-level identity fields are the first process's, not a mix of the first and last
cmd: evtool merge @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog -o m.eventlog 2>/dev/null; evtool info m.eventlog | sed -n '/^  status/,/^  capabilities/p'; evtool info --json m.eventlog | python3 -c 'import json,sys; f=json.load(sys.stdin)["files"][0]; print("top", f["pid"], f["args"][1], f["rts"]); [print("process", p["capset"], p["session"], p["pid"], p["ppid"], " ".join(p["args"][:2]), p["capabilities"], p["start_time_ns"], p["wall_clock_start"], str(p["wall_clock_start_ns"]) == p["wall_clock_start_ns_str"]) for p in f["processes"]]'; for l in merge-a merge-b; do evtool info --json @DATA@/$l.eventlog | python3 -c 'import json,sys; f=json.load(sys.stdin)["files"][0]; p=f["processes"]; print(len(p), p[0]["pid"] == f["pid"], p[0]["args"] == f["args"])'; done
exit: 0
--- stdout
  status           complete
  processes        2
  process 1        capset 0, 1 capability: 0
    rts              GHC-9.0.2 rts_thr_l
    program          ./worker a +RTS -l -olmerge-a.eventlog -smerge-a.rts-s.txt -N1 -RTS
    pid              8605 (parent 8604)
    started          2026-11-22T03:25:56.858905460Z (at 169890 ns)
  process 2        capset 2, 2 capabilities: 1 2
    rts              GHC-9.0.2 rts_thr_l
    program          ./worker b +RTS -l -olmerge-b.eventlog -smerge-b.rts-s.txt -N2 -RTS
    pid              8613 (parent 8612)
    started          2026-11-22T03:25:56.909970130Z (at 51234560 ns)
  capabilities     3: 0 1 2
top 8605 a GHC-9.0.2 rts_thr_l
process 0 1 8605 8604 ./worker a [0] 169890 2026-11-22T03:25:56.858905460Z True
process 2 1 8613 8612 ./worker b [1, 2] 51234560 2026-11-22T03:25:56.909970130Z True
1 True True
1 True True
