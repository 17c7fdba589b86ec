# bytes after the data end that are not another session: invalid, at the offset where they start
cmd: cat @DATA@/user-n1.eventlog > bad.eventlog && printf 'garbage' >> bad.eventlog && evtool validate bad.eventlog
exit: 1
--- stdout
bad.eventlog: invalid (1 error, 0 warnings, 107 events)
--- stderr
evtool validate: bad.eventlog: offset 5298: error: unexpected bytes after the data-end marker [trailing-data]
