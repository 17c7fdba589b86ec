# no -o and standard output a terminal (on_tty.py): every command that writes a log refuses as gzip and zstd do, exit 2, and writes nothing
cmd: python3 @CASES@/../on_tty.py sh -c 'for c in "cat @DATA@/user-n1.eventlog" "filter @DATA@/user-n1.eventlog --class user" "sort @DATA@/user-n1.eventlog" "merge @DATA@/merge-a.eventlog @DATA@/merge-b.eventlog" "truncate @DATA@/user-n1.eventlog" "cat --gzip @DATA@/user-n1.eventlog"; do evtool $c; echo "exit $?"; done; evtool archive - < @DATA@/user-n1.eventlog; echo "archive: $?"' | tr -d '\r'; ls -A
exit: 0
--- stdout
evtool: refusing to write binary data to a terminal; use -o FILE or redirect
exit 2
evtool: refusing to write binary data to a terminal; use -o FILE or redirect
exit 2
evtool: refusing to write binary data to a terminal; use -o FILE or redirect
exit 2
evtool: refusing to write binary data to a terminal; use -o FILE or redirect
exit 2
evtool: refusing to write binary data to a terminal; use -o FILE or redirect
exit 2
evtool: refusing to write binary data to a terminal; use -o FILE or redirect
exit 2
evtool: refusing to write binary data to a terminal; use -o FILE or redirect
archive: 2
