# --redact args blanks every argument after the program name; the log stays valid
cmd: evtool filter @DATA@/user-n1.eventlog --redact args -o out.eventlog && evtool info out.eventlog | grep -E 'program|status'
exit: 0
--- stdout
  status           complete
  program          ./user <redacted> <redacted> <redacted> <redacted> <redacted> <redacted>
--- stderr
