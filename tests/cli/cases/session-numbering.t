# sessions are numbered from 1 alike by info, validate (text and --json) and truncate --session: a two-session stream cut short in its second session, whose first event after the second session's first block marker gets the timestamp 2^40 ns (the damage: outside its block's window)
cmd: cat @DATA@/user-n1.eventlog @DATA@/sparks-n2.eventlog > two.eventlog; head -c 9000 two.eventlog > cut.eventlog; python3 -c 'b=bytearray(open("cut.eventlog","rb").read()); off=b.index(b"datb",5298)+4+24; b[off+2:off+10]=(2**40).to_bytes(8,"big"); open("cut.eventlog","wb").write(b)'; evtool info --json cut.eventlog | python3 -c 'import json,sys; [print("info", s["session"], s["offset"], s["events"], s["status"]) for s in json.load(sys.stdin)["files"][0]["session_list"]]'; evtool validate --json cut.eventlog | python3 -c 'import json,sys; [print("validate --json", f["session"], f["check"], f["offset"]) for f in json.load(sys.stdin)["files"][0]["findings"]]'; evtool validate cut.eventlog 2>&1 >/dev/null | grep -o 'session [0-9]*, event [0-9]*'; evtool truncate -q --session 2 cut.eventlog -o s2.eventlog; echo "truncate --session 2: exit $?"; evtool info s2.eventlog | grep -E '^  events'
exit: 0
--- stdout
info 1 0 107 complete
info 2 5298 52 truncated
validate --json 2 block-time 8010
validate --json 2 truncated 9000
session 2, event 1
truncate --session 2: exit 3
  events           52 in 1 block, 1 session
