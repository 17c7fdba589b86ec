# a file that is not an eventlog is invalid input, with the offset
cmd: echo 'hello world' > notes.txt; evtool cat notes.txt -o out.eventlog
exit: 1
--- stderr
evtool cat: notes.txt: offset 0: expected header begin "hdrb", found "hell": not a GHC eventlog
