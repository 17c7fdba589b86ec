# no input named and standard input a terminal (on_tty.py --stdin): every command's usage error, nothing read
cmd: python3 @CASES@/../on_tty.py --stdin sh -c 'for c in cat info show filter stats sort merge export validate truncate archive; do evtool $c; echo "$c: $?"; done' | tr -d '\r'
exit: 0
--- stdout
evtool cat: missing operand, and standard input is a terminal ([IN...] [-o OUT])
Run 'evtool cat --help' for usage.
cat: 2
evtool info: missing operand, and standard input is a terminal ([FILE...])
Run 'evtool info --help' for usage.
info: 2
evtool show: missing operand, and standard input is a terminal ([FILE])
Run 'evtool show --help' for usage.
show: 2
evtool filter: missing operand, and standard input is a terminal ([IN] [-o OUT])
Run 'evtool filter --help' for usage.
filter: 2
evtool stats: missing operand, and standard input is a terminal ([FILE...] | BASE NEW [--fail-if COND]... | --follow [SOURCE])
Run 'evtool stats --help' for usage.
stats: 2
evtool sort: missing operand, and standard input is a terminal ([IN] [-o OUT] | --check [IN])
Run 'evtool sort --help' for usage.
sort: 2
evtool merge: missing operand, and standard input is a terminal ([IN...] [-o OUT])
Run 'evtool merge --help' for usage.
merge: 2
evtool export: missing operand, and standard input is a terminal ([LOG] [--format perfetto|speedscope|hp] [-o OUT])
Run 'evtool export --help' for usage.
export: 2
evtool validate: missing operand, and standard input is a terminal ([FILE...])
Run 'evtool validate --help' for usage.
validate: 2
evtool truncate: missing operand, and standard input is a terminal ([IN] [-o OUT] | IN --in-place)
Run 'evtool truncate --help' for usage.
truncate: 2
evtool archive: missing operand, and standard input is a terminal ([FILE...] | --test [FILE.gz...] | --extract [FILE.gz...])
Run 'evtool archive --help' for usage.
archive: 2
