# every --json and NDJSON output is valid UTF-8 JSON whatever bytes the log holds: gc-n2's PROGRAM_ARGS gets a 0xff byte in place of the R of "+RTS" (the damage), which comes out as U+FFFD; wall_clock_start_ns also comes as a string, which jq 1.6 would otherwise round
cmd: python3 -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); i=b.index(b"\0+RTS\0"); b[i+2]=0xff; open("ff.eventlog","wb").write(b)' @DATA@/gc-n2.eventlog; check='import json,sys; [json.loads(l) for l in sys.stdin.buffer.read().decode("utf-8").splitlines()] if sys.argv[1] == "nd" else json.loads(sys.stdin.buffer.read().decode("utf-8")); print(sys.argv[2], "parses")'; evtool info --json ff.eventlog | python3 -c "$check" doc "info --json"; evtool validate --json ff.eventlog | python3 -c "$check" doc "validate --json"; evtool stats --json ff.eventlog | python3 -c "$check" doc "stats --json"; evtool show --format ndjson ff.eventlog | python3 -c "$check" nd "show --format ndjson"; evtool info --json ff.eventlog | python3 -c 'import json,sys; f=json.loads(sys.stdin.buffer.read().decode("utf-8"))["files"][0]; print(ascii(f["args"])); print(str(f["wall_clock_start_ns"]) == f["wall_clock_start_ns_str"])'; evtool show --format ndjson ff.eventlog | python3 -c 'import json,sys; [print(ascii(e["fields"]["args"])) for e in map(json.loads, sys.stdin.buffer.read().decode("utf-8").splitlines()) if e["type"] == "PROGRAM_ARGS"]'
exit: 0
--- stdout
info --json parses
validate --json parses
stats --json parses
show --format ndjson parses
['./gc', '+\ufffdTS', '-l', '-olgc-n2.eventlog', '-sgc-n2.rts-s.txt', '-N2', '-A64k', '-RTS']
True
['./gc', '+\ufffdTS', '-l', '-olgc-n2.eventlog', '-sgc-n2.rts-s.txt', '-N2', '-A64k', '-RTS']
