# an unknown option is a usage error naming it; a close one gets the option it was likely meant to be (a typo, a swap, a prefix), a far one nothing
cmd: evtool cat --frob @DATA@/user-n1.eventlog -o out; echo "exit $?"; evtool show --prety-time @DATA@/user-n1.eventlog; evtool show --pretty @DATA@/user-n1.eventlog; evtool filter --clsas gc @DATA@/user-n1.eventlog -o out; evtool sort --memroy 1M @DATA@/user-n1.eventlog -o out; echo "exit $?"
exit: 0
--- stdout
exit 2
exit 2
--- stderr
evtool cat: unknown option '--frob'
Run 'evtool cat --help' for usage.
evtool show: unknown option '--prety-time'
hint: did you mean '--pretty-time'?
Run 'evtool show --help' for usage.
evtool show: unknown option '--pretty'
hint: did you mean '--pretty-time'?
Run 'evtool show --help' for usage.
evtool filter: unknown option '--clsas'
hint: did you mean '--class'?
Run 'evtool filter --help' for usage.
evtool sort: unknown option '--memroy'
hint: did you mean '--memory'?
Run 'evtool sort --help' for usage.
