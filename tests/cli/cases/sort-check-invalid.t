# --check on input it cannot check (not an eventlog: "cannot check"; empty: the message every command gives an empty file): exit 1 as invalid input, nothing on standard output, unlike an inversion
cmd: echo garbage > garbage.eventlog; : > empty.eventlog; evtool sort --check garbage.eventlog; echo "rc=$?"; evtool sort --check empty.eventlog
exit: 1
--- stdout
rc=1
--- stderr
evtool sort: garbage.eventlog: cannot check: offset 0: expected header begin "hdrb", found "garb": not a GHC eventlog
evtool sort: empty.eventlog: the file is empty: it holds no eventlog
