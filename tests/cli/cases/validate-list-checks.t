# --list-checks prints every check id and what a finding of it means
cmd: evtool validate --list-checks
exit: 0
--- stdout
header           the header is malformed (magic words, event-type list)
type-size        a known event type is declared with a size that no GHC version used
undeclared-type  an event's type is not declared in the header
payload-size     an event's payload is too short for its type's layout
block-size       a block marker declares fewer than 24 bytes or more than 2 MiB
block-end        an event, a block marker or the data end crosses the end of its block
block-time       an event lies outside its block's time window, or a block ends before it starts
truncated        the log ends before its data-end marker (a killed program, a cut copy)
trailing-data    bytes after the data end that are not another session's header
input            the input cannot be decoded (corrupt gzip)
time-order       time goes back within a capability's events (GC_END and GC_START: beyond their tolerance)
block-overlap    a capability's block starts before its previous block ended
not-sorted       with the sorted option: an event is earlier than one before it
cap-ref          a capability used by a block or payload was never created (CAP_CREATE, STARTUP)
cap-capset       a capability in use is never assigned to a capset (warning)
capset-ref       a capset named by an event was never created (CAPSET_CREATE)
thread-run       a thread starts running on a capability that is running another thread
thread-stop      a thread stops on a capability that is not running it
thread-two-caps  a thread runs on two capabilities at once
thread-migrate   a thread is migrated while it runs
thread-finished  a thread runs, stops or migrates after it finished (STOP_THREAD status 5)
thread-create    a thread is created twice, or runs before its creation (warning)
gc-start         GC_START while the capability is already in a GC
gc-end           GC_END without a GC_START on the capability
task             a task is created or deleted twice (warning)
heap-sample      heap-profile sample events outside a begin/end bracket, or brackets that do not match
limit            more threads, tasks or capsets than the validator tracks at once; their checks restart (warning)
--- stderr
