# a log compressed with zstd, xz, bzip2 or lz4 is named as such, with the command that decompresses it, by every command (exit 1, offset 0), not "not a GHC eventlog"; archive --test names it too. The copies are made with the real tools; where one is not installed its magic bytes (from the format's spec: zstd RFC 8878 frame magic 0xFD2FB528 little-endian, xz "\xfd7zXZ\0", bzip2 "BZh9", lz4 frame magic 0x184D2204 little-endian) and the rest of the log stand in, which the messages cannot tell apart
cmd: log=@DATA@/user-n1.eventlog; make() { if command -v "$1" >/dev/null; then "$1" -q -c < $log > "$2"; else { printf "$3"; cat $log; } > "$2"; fi; }; make zstd x.zst '\050\265\057\375'; make xz x.xz '\375\067\172\130\132\000'; make bzip2 x.bz2 'BZh9'; make lz4 x.lz4 '\004\042\115\030'; for f in x.zst x.xz x.bz2 x.lz4; do evtool info $f > /dev/null; echo "info $f: $?"; done; for c in show validate stats; do evtool $c x.zst 2>&1 >/dev/null | sed "s/^/$c: /"; done; for c in cat filter sort merge truncate; do evtool $c x.zst -o out.eventlog 2>&1 | sed "s/^/$c: /"; done; evtool archive x.zst 2>&1 | sed "s/^/archive: /"; evtool archive --test x.xz; echo "exit $?"; ls
exit: 0
--- stdout
info x.zst: 1
info x.xz: 1
info x.bz2: 1
info x.lz4: 1
show: evtool show: x.zst: offset 0: zstd-compressed data, not a GHC eventlog: decompress it first, 'zstd -dc FILE | evtool ...' (evtool reads plain and gzip logs)
validate: evtool validate: x.zst: offset 0: error: zstd-compressed data, not a GHC eventlog: decompress it first, 'zstd -dc FILE | evtool ...' (evtool reads plain and gzip logs) [input]
stats: evtool stats: x.zst: offset 0: zstd-compressed data, not a GHC eventlog: decompress it first, 'zstd -dc FILE | evtool ...' (evtool reads plain and gzip logs)
cat: evtool cat: x.zst: offset 0: zstd-compressed data, not a GHC eventlog: decompress it first, 'zstd -dc FILE | evtool ...' (evtool reads plain and gzip logs)
filter: evtool filter: x.zst: offset 0: zstd-compressed data, not a GHC eventlog: decompress it first, 'zstd -dc FILE | evtool ...' (evtool reads plain and gzip logs)
sort: evtool sort: x.zst: offset 0: zstd-compressed data, not a GHC eventlog: decompress it first, 'zstd -dc FILE | evtool ...' (evtool reads plain and gzip logs)
merge: evtool merge: x.zst: offset 0: zstd-compressed data, not a GHC eventlog: decompress it first, 'zstd -dc FILE | evtool ...' (evtool reads plain and gzip logs)
truncate: evtool truncate: x.zst: offset 0: zstd-compressed data, not a GHC eventlog: decompress it first, 'zstd -dc FILE | evtool ...' (evtool reads plain and gzip logs)
archive: evtool archive: x.zst: offset 0: zstd-compressed data, not a GHC eventlog: decompress it first, 'zstd -dc FILE | evtool ...' (evtool reads plain and gzip logs)
exit 1
x.bz2
x.lz4
x.xz
x.zst
--- stderr
evtool info: x.zst: offset 0: zstd-compressed data, not a GHC eventlog: decompress it first, 'zstd -dc FILE | evtool ...' (evtool reads plain and gzip logs)
evtool info: x.xz: offset 0: xz-compressed data, not a GHC eventlog: decompress it first, 'xz -dc FILE | evtool ...' (evtool reads plain and gzip logs)
evtool info: x.bz2: offset 0: bzip2-compressed data, not a GHC eventlog: decompress it first, 'bzip2 -dc FILE | evtool ...' (evtool reads plain and gzip logs)
evtool info: x.lz4: offset 0: lz4-compressed data, not a GHC eventlog: decompress it first, 'lz4 -dc FILE | evtool ...' (evtool reads plain and gzip logs)
evtool archive: x.xz: stored offset 0: not gzip data: xz-compressed data (it starts with "\xfd7zX")
