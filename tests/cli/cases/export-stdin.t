# standard input (none named, or -, gzip too) exports as the named log does;
# -o - and no -o write standard output
cmd: evtool export --format hp @DATA@/hpt-n1.eventlog -o named.hp && evtool export --format hp < @DATA@/hpt-n1.eventlog | cmp - named.hp && gzip -c @DATA@/hpt-n1.eventlog | evtool export - --format hp -o - | cmp - named.hp && echo same
exit: 0
--- stdout
same
--- stderr
