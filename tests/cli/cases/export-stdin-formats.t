# every format exports from standard input to standard output (no LOG, no
# -o) the same bytes as from the named log to a named file
cmd: for f in perfetto speedscope hp; do evtool export --format $f @DATA@/prof-n2.eventlog -o named.$f && evtool export --format $f < @DATA@/prof-n2.eventlog > piped.$f && test -s piped.$f && cmp named.$f piped.$f && echo "$f same"; done
exit: 0
--- stdout
perfetto same
speedscope same
hp same
--- stderr
