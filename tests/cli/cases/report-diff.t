# report BASE NEW: a page comparing two runs' heap profiles (its data:
# both runs, the figures and the bands of stats BASE NEW); profiles of
# different breakdowns are refused and no page is written; --top N
cmd: evtool report @DATA@/heapdiff-a-hy.eventlog @DATA@/heapdiff-b-hy.eventlog --top 3 -o d.html && python3 -c 'import json,re; t=open("d.html").read(); d=json.loads(re.search(r"id=\"report-data\">(.*?)</script>", t, re.S).group(1))["diff"]; print([r["file"].split("/")[-1] for r in d["runs"]], len(d["figures"]), [(b["band"], b["status"], b["new_peak_bytes"]) for b in d["heap_bands"]["list"]], d["heap_bands"]["rest_bands"])'; evtool report @DATA@/heapdiff-a-hy.eventlog @DATA@/heapdiff-b-hT.eventlog -o e.html; echo "exit $?"; ls e.html
exit: 2
--- stdout
['heapdiff-a-hy.eventlog', 'heapdiff-b-hy.eventlog'] 16 [('[]', 'both', 1801440), ('Double', 'new', 320000), ('Map', 'both', 921600)] 39
exit 1
--- stderr
evtool report: @DATA@/heapdiff-a-hy.eventlog and @DATA@/heapdiff-b-hT.eventlog break their heap profiles down differently (-hy, -hT): their bands cannot be compared
ls: cannot access 'e.html': No such file or directory
