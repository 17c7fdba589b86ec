#!/usr/bin/env python3
"""Runs a command with its standard output and standard error on a new
pseudo-terminal, copies what it prints to our standard output, and exits
with its status (128 + N when killed by signal N).

    on_tty.py COMMAND [ARG...]

The tests use it where script(1) was used before: script forwards its own
standard input to the terminal, and at the end of that input it writes
bytes that the terminal echoes back (seen as thousands of "^@" when the
command is slow to start on a loaded machine). This sends the command no
input at all: its standard input is /dev/null.
"""
import os
import subprocess
import sys


def main() -> int:
    if len(sys.argv) < 2:
        print("usage: on_tty.py COMMAND [ARG...]", file=sys.stderr)
        return 2
    master, slave = os.openpty()
    child = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL,
                             stdout=slave, stderr=slave,
                             start_new_session=True)
    os.close(slave)
    out = sys.stdout.buffer
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every writer of the terminal has closed it
            break
        if not chunk:
            break
        out.write(chunk)
    out.flush()
    status = child.wait()
    return 128 - status if status < 0 else status


if __name__ == "__main__":
    sys.exit(main())
