#!/usr/bin/env python3
"""Runs a command with its standard output and standard error on a new
pseudo-terminal, copies what it prints to our standard output, and exits
with its status (128 + N when killed by signal N).

    on_tty.py [--stdin] COMMAND [ARG...]

The tests use it where script(1) was used before: script forwards its own
standard input to the terminal, and at the end of that input it writes
bytes that the terminal echoes back (seen as thousands of "^@" when the
command is slow to start on a loaded machine). This sends the command no
input at all: its standard input is /dev/null, or with --stdin the
terminal too (for a command that must see a terminal there: it gets no
input from it either, so one that reads it waits until killed).
"""
import os
import subprocess
import sys


def main() -> int:
    args = sys.argv[1:]
    stdin_tty = args[:1] == ["--stdin"]
    if stdin_tty:
        args = args[1:]
    if not args:
        print("usage: on_tty.py [--stdin] COMMAND [ARG...]", file=sys.stderr)
        return 2
    master, slave = os.openpty()
    child = subprocess.Popen(args,
                             stdin=slave if stdin_tty else subprocess.DEVNULL,
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
