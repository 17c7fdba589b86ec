# evtool filter --class gc < a > b: standard input in, standard output out, the same log as with a file and -o; b validates
cmd: evtool filter --class gc < @DATA@/gc-n2.eventlog > b; echo "filter: $?"; evtool filter @DATA@/gc-n2.eventlog --class gc -o c && cmp b c && evtool validate --strict b
exit: 0
--- stdout
filter: 0
b: valid (0 warnings, 6363 events)
--- stderr
