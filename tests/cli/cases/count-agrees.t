# one event count: info, validate (text and --json), truncate, filter and sort count the same events on every testdata log (block markers are not events, as in ghc-events)
cmd: for f in @DATA@/*.eventlog @DATA@/*.eventlog.gz; do n=${f##*/}; i=$(evtool info "$f" | sed -n 's/^  events *\([0-9]*\) in.*/\1/p'); v=$(evtool validate "$f" 2>/dev/null | sed -n 's/.* \([0-9]*\) events).*/\1/p'); j=$(evtool validate --json "$f" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["files"][0]["events"])'); t=$(evtool truncate "$f" -o t.eventlog 2>&1 | sed -n 's/.*kept \([0-9]*\) events.*/\1/p'); s=$(evtool sort -v "$f" -o s.eventlog 2>&1 | sed -n 's/.*sorted \([0-9]*\) events.*/\1/p'); echo "$n info $i validate $v json $j truncate $t sort $s"; [ "$i" = "$v" ] && [ "$i" = "$j" ] && [ "$i" = "$t" ] && [ "$i" = "$s" ] || echo "  DISAGREE"; done
exit: 0
--- stdout
gc-n2.eventlog info 7820 validate 7820 json 7820 truncate 7820 sort 7820
heap-a.eventlog info 4619 validate 4619 json 4619 truncate 4619 sort 4619
heap-b.eventlog info 5706 validate 5706 json 5706 truncate 5706 sort 5706
heap-n1.eventlog info 3646 validate 3646 json 3646 truncate 3646 sort 3646
heapdiff-a-hT.eventlog info 759 validate 759 json 759 truncate 759 sort 759
heapdiff-a-hc.eventlog info 1053 validate 1053 json 1053 truncate 1053 sort 1053
heapdiff-a-hy.eventlog info 1122 validate 1122 json 1122 truncate 1122 sort 1122
heapdiff-b-hT.eventlog info 865 validate 865 json 865 truncate 865 sort 865
heapdiff-b-hc.eventlog info 1074 validate 1074 json 1074 truncate 1074 sort 1074
heapdiff-b-hy.eventlog info 1215 validate 1215 json 1215 truncate 1215 sort 1215
hpt-n1.eventlog info 3885 validate 3885 json 3885 truncate 3885 sort 3885
killed-sigkill.eventlog info 0 validate 0 json 0 truncate 0 sort 0
merge-a.eventlog info 143 validate 143 json 143 truncate 143 sort 143
merge-b.eventlog info 179 validate 179 json 179 truncate 179 sort 179
merge-c.eventlog info 208 validate 208 json 208 truncate 208 sort 208
nonmoving-n2.eventlog info 4194 validate 4194 json 4194 truncate 4194 sort 4194
prof-a.eventlog info 7676 validate 7676 json 7676 truncate 7676 sort 7676
prof-b.eventlog info 7683 validate 7683 json 7683 truncate 7683 sort 7683
prof-n2.eventlog info 6641 validate 6641 json 6641 truncate 6641 sort 6641
spans-a.eventlog info 267 validate 267 json 267 truncate 267 sort 267
spans-b.eventlog info 271 validate 271 json 271 truncate 271 sort 271
sparks-n2.eventlog info 229 validate 229 json 229 truncate 229 sort 229
threads-n1.eventlog info 3499 validate 3499 json 3499 truncate 3499 sort 3499
threads-n2.eventlog info 4250 validate 4250 json 4250 truncate 4250 sort 4250
threads-n4.eventlog info 5286 validate 5286 json 5286 truncate 5286 sort 5286
user-n1.eventlog info 107 validate 107 json 107 truncate 107 sort 107
killed-blocks.eventlog.gz info 12921 validate 12921 json 12921 truncate 12921 sort 12921
