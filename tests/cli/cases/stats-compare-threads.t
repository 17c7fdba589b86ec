# two runs compared with --threads --caps: after the figures side by side,
# each run's threads and capabilities, as stats --threads --caps prints them
# for that run alone
cmd: evtool stats --threads --caps @DATA@/threads-n2.eventlog @DATA@/threads-n4.eventlog > both.txt && grep -E '^(base|new): ' both.txt && for f in n2 n4; do evtool stats --threads --caps @DATA@/threads-$f.eventlog | sed -n '/^  Threads: /,$p' > alone-$f.txt; done && lb=$(grep -n '^base: ' both.txt | tail -n 1 | cut -d: -f1) && ln=$(grep -n '^new: [^ ]' both.txt | cut -d: -f1) && sed -n "$((lb + 2)),$((ln - 2))p" both.txt | cmp - alone-n2.txt && sed -n "$((ln + 2)),\$p" both.txt | cmp - alone-n4.txt && echo "each run's threads and caps"
exit: 0
--- stdout
base: @DATA@/threads-n2.eventlog
new:  @DATA@/threads-n4.eventlog
base: @DATA@/threads-n2.eventlog
new: @DATA@/threads-n4.eventlog
each run's threads and caps
--- stderr
