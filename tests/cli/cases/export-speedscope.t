# speedscope of a profiled run: one sampled profile per cap, as many samples
# as PROF_SAMPLE_COST_CENTRE events, one frame per cost centre defined
cmd: evtool export --format speedscope @DATA@/prof-n2.eventlog -o p.json && evtool show --format ndjson @DATA@/prof-n2.eventlog > s.ndjson && python3 @CASES@/../../export/speedscope_summary.py p.json s.ndjson
exit: 0
--- stdout
['cap 0', 'cap 1'] nanoseconds
samples: True
cap 0 stacks as the events: True
cap 1 stacks as the events: True
frames: True
weights: True
--- stderr
