# a truncated log archived with --force: the archive is intact, the log in it is not (exit 3)
cmd: evtool archive --force @DATA@/killed-sigkill.eventlog -o k.gz; echo "archive: $?"; evtool archive --test k.gz
exit: 3
--- stdout
archive: 0
--- stderr
evtool archive: @DATA@/killed-sigkill.eventlog: offset 2688: warning: the log ends without the data-end marker (after 0 events); the last complete event ends at offset 2688; archiving it anyway (--force)
evtool archive: k.gz: offset 2688: the log ends without the data-end marker (after 0 events); the last complete event ends at offset 2688
hint: the archive itself is intact: the log was archived like this (with --force?)
