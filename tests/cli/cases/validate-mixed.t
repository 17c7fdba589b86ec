# the exit code is the worst file's: valid 0 < truncated 3 < invalid 1
cmd: cat @DATA@/user-n1.eventlog > bad.eventlog && printf 'x' >> bad.eventlog && evtool validate -q @DATA@/user-n1.eventlog @DATA@/killed-sigkill.eventlog; echo "valid+truncated: $?"; evtool validate -q bad.eventlog @DATA@/killed-sigkill.eventlog @DATA@/user-n1.eventlog; echo "invalid+truncated+valid: $?"
exit: 0
--- stdout
valid+truncated: 3
invalid+truncated+valid: 1
--- stderr
