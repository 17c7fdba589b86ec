# a file that is not an eventlog: invalid at offset 0
cmd: printf 'hello, world\n' > text.txt && evtool validate text.txt
exit: 1
--- stdout
text.txt: invalid (1 error, 0 warnings, 0 events)
--- stderr
evtool validate: text.txt: offset 0: error: expected header begin "hdrb", found "hell": not a GHC eventlog [header]
