# an unknown command is a usage error naming it; a close one gets the command it was likely meant to be, from 'evtool help' too; a far one nothing; an option before any command is an unknown option, with --version or --help when close
cmd: evtool frobnicate x; echo "exit $?"; evtool shwo x; evtool valdiate x; evtool stat x; evtool help filtr; echo "exit $?"; evtool --versoin; echo "exit $?"; evtool --frob; echo "exit $?"
exit: 0
--- stdout
exit 2
exit 2
exit 2
exit 2
--- stderr
evtool: unknown command 'frobnicate'
Run 'evtool --help' for usage.
evtool: unknown command 'shwo'
hint: did you mean 'show'?
Run 'evtool --help' for usage.
evtool: unknown command 'valdiate'
hint: did you mean 'validate'?
Run 'evtool --help' for usage.
evtool: unknown command 'stat'
hint: did you mean 'stats'?
Run 'evtool --help' for usage.
evtool: unknown command 'filtr'
hint: did you mean 'filter'?
Run 'evtool --help' for usage.
evtool: unknown option '--versoin'
hint: did you mean '--version'?
Run 'evtool --help' for usage.
evtool: unknown option '--frob'
Run 'evtool --help' for usage.
