# times pasted as evtool prints them: a show line's timestamp (plain, with its colon, and --pretty-time, whose '854.90 us' is 854 us and 90 ns) cut the same window as filter; info's 'last N ns' and wall clock (time 0) and validate's 'at N ns' are timestamps too; info's duration shifts merge's input
cmd: log=@DATA@/threads-n2.eventlog; a=$(evtool show $log | grep -m1 'creating thread 2$' | cut -d' ' -f1); n=$(evtool show --pretty-time $log | grep -nm1 -E '\.[1-9][0-9] +us' | cut -d: -f1); b=$(evtool show $log | sed -n ${n}p | cut -d' ' -f1); pa=$(evtool show --pretty-time $log | grep -m1 'creating thread 2$' | cut -d: -f1); pb=$(evtool show --pretty-time $log | sed -n ${n}p | cut -d: -f1); echo "[$a] [$b] [$pa] [$pb]"; evtool filter --no-metadata --from "$a" --to "$b" $log -o plain.eventlog && evtool filter --no-metadata --from "$pa" --to "$pb" $log -o pretty.eventlog && cmp plain.eventlog pretty.eventlog && evtool show plain.eventlog | grep -E '^ *[0-9]+: cap [0-9]+: [a-z]' | sed -n '1p;$p'; evtool show pretty.eventlog | grep -cE '^ *[0-9]+:'; last=$(evtool info $log | sed -n 's/.*last \([0-9]* ns\),.*/\1/p'); wall=$(evtool info $log | sed -n 's/^  wall clock *\([^ ]*\) .*/\1/p'); echo "[$last] [$wall]"; evtool truncate -q --at "$last" $log -o last.eventlog; evtool show last.eventlog | grep -E '^ *[0-9]+:' | sort -n | tail -n 1; evtool filter --from "$wall" --to "$last" $log -o wall.eventlog && evtool filter --from 0 --to "$last" $log -o zero.eventlog && cmp wall.eventlog zero.eventlog && echo 'wall clock = 0'; cp @DATA@/user-n1.eventlog t.eventlog && chmod u+w t.eventlog && printf '\000\000\000\000\000\052\241\336' | dd of=t.eventlog bs=1 seek=3133 conv=notrunc 2>/dev/null; at=$(evtool validate t.eventlog 2>&1 | sed -n 's/.*is at \([0-9]* ns\).*/\1/p'); echo "[$at]"; evtool filter --no-metadata --to "$at" t.eventlog -o before.eventlog && evtool show before.eventlog | grep -E '^ *[0-9]+:' | tail -n 1; d=$(evtool info @DATA@/merge-a.eventlog | sed -n 's/.*duration \([0-9.]* s\)$/\1/p'); echo "[$d]"; evtool merge --shift "2=$d" @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog -o shifted.eventlog && evtool merge --shift "2=+$d" @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog -o plus.eventlog && cmp shifted.eventlog plus.eventlog && evtool validate shifted.eventlog
exit: 0
--- stdout
[369000:] [1854090:] [  0s   0ms 369.0  us] [  0s   1ms 854.90 us]
369000: cap 0: event block: cap 0, end time: 1819270
1853120: cap 1: stopping thread 3 (thread yielding)
88
[30284298 ns] [2026-11-22T03:25:55.998210310Z]
30284238: deleted capset 0
wall clock = 0
[2794950 ns]
2793950: cap 0: hello from user.hs
[0.200255 s]
shifted.eventlog: valid (0 warnings, 322 events)
--- stderr
