# archive --help lists its modes and options
cmd: evtool archive --help
exit: 0
--- stdout
usage: evtool archive [FILE...] | --test [FILE.gz...] | --extract [FILE.gz...]

gzip logs with their digest; test and extract archives

Writes FILE.gz beside each FILE (or -o OUT): standard gzip, which
gzip, zcat and every evtool command read, holding the xxh3-64 digest
of the log in its header. Each log is validated first; an invalid or
truncated one is refused unless --force. --test checks archives
(CRC-32, length, digest, valid eventlog); --extract restores the log
(FILE.gz to FILE), checking it. Existing outputs are kept unless
--force; inputs are kept unless --rm. gzip's and zstd's habits
work: -d extracts, -c writes to standard output, -k keeps, -1 to
-9 set the level, -T N the threads.

example: evtool archive --rm ci/*.eventlog && evtool archive --test ci/*.gz

options:
  -o, --output OUT           write to OUT ('-' for standard output); one input only
  -c, --stdout               write to standard output (-o -), as gzip -c
  -#, --level N              compression level, 1 (fastest) to 9 (smallest), also as -1 to -9; default 6
  -T, --threads N            compression threads (default, or 0 as in zstd -T0: online CPUs, at most 8)
      --rm                   remove each input once its archive is written and verified
  -k, --keep                 keep the inputs (the default; as gzip -k)
  -f, --force                archive an invalid or truncated log; replace existing outputs
  -t, --test                 check archives: CRC-32, length, digest, and a valid eventlog
  -x, --extract              restore the log of each archive, checking it
  -d, --decompress           the same as --extract, as gzip -d
  -v, --verbose              report sizes and digests on standard error
      --no-progress          no progress bar on standard error
  -h, --help                 show this help

exit codes: 0 ok, 1 invalid input, 2 usage, 3 data dropped or repaired, 4 I/O or system error;
killed by SIGPIPE (141 in the shell) when the reader of standard output goes away
