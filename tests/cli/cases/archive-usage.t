# option combinations that make no sense are usage errors (extracting into a NAME.gz too: it would hold no gzip)
cmd: for a in "--test -o x a.gz" "--test --extract a.gz" "--extract --level 3 a.gz" "--rm -" "a b -o c" "--level 10 a" "--threads 65 a" "-x a.log" "-d a.gz -o b.gz"; do evtool archive $a; echo "exit $?"; done
exit: 0
--- stdout
exit 2
exit 2
exit 2
exit 2
exit 2
exit 2
exit 2
exit 2
exit 2
--- stderr
evtool archive: --test takes neither -o nor --force
Run 'evtool archive --help' for usage.
evtool archive: --test and --extract exclude each other
Run 'evtool archive --help' for usage.
evtool archive: --level applies only when archiving
Run 'evtool archive --help' for usage.
evtool archive: --rm cannot remove standard input
Run 'evtool archive --help' for usage.
evtool archive: -o and -c take a single input
Run 'evtool archive --help' for usage.
evtool archive: --level: '10' is not a whole number from 1 to 9
Run 'evtool archive --help' for usage.
evtool archive: --threads: '65' is not a whole number from 0 to 64
Run 'evtool archive --help' for usage.
evtool archive: a.log: does not end in .gz: name the output with -o OUT
Run 'evtool archive --help' for usage.
evtool archive: -o b.gz: --extract writes the plain log, not gzip: name it without .gz
Run 'evtool archive --help' for usage.
