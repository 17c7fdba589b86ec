#!/usr/bin/env python3
"""The examples of evtool's documentation work when pasted into bash and zsh.

    tests/examples.py EVTOOL README MANPAGE
    tests/examples.py --self-test

Collects every example command line: the `example:` lines of each
command's --help, the indented command lines of README.md (a line starting
with `evtool`, `$ evtool`, or holding `| evtool`), and the .EX blocks of
the man page. Each must parse in bash and in zsh (`-n`, each shell skipped
when absent), and must hold no unquoted glob character that zsh would
refuse when nothing matches ("no matches found": a jq filter such as
.files[0] must be quoted); `*` is allowed, for file patterns. Prints one
line per problem and "N examples, M problems".
"""
import re
import shutil
import subprocess
import sys

GLOB_CHARS = "[]?{}"


def unquoted_globs(line):
    """The glob characters of `line` outside quotes and comments."""
    found, quote, i = [], None, 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == quote:
                quote = None
            elif c == "\\" and quote == '"':
                i += 1
        elif c in "'\"":
            quote = c
        elif c == "\\":
            i += 1
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            break
        elif c in GLOB_CHARS:
            found.append(c)
        i += 1
    return found


def help_examples(evtool):
    out = subprocess.run([evtool, "help", "--dump-options"],
                         capture_output=True, text=True, check=False).stdout
    commands = [l.split("\t")[1] for l in out.splitlines()
                if l.startswith("command\t")]
    examples = []
    for cmd in commands:
        text = subprocess.run([evtool, cmd, "--help"], capture_output=True,
                              text=True, check=False).stdout
        examples += [("%s --help" % cmd, l[len("example: "):])
                     for l in text.splitlines() if l.startswith("example: ")]
    return examples


def readme_examples(path):
    examples = []
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        if not line.startswith("    "):
            continue
        cmd = line.strip()
        if cmd.startswith("$ "):
            cmd = cmd[2:]
        # "evtool CMD: FILE: ..." is a message, not a command
        if re.match(r"evtool [a-z]+: ", cmd):
            continue
        if cmd.startswith("evtool ") or "| evtool " in cmd:
            examples.append(("README.md:%d" % n, cmd))
    return examples


def man_examples(path):
    examples, inside = [], False
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if line == ".EX":
            inside = True
        elif line == ".EE":
            inside = False
        elif inside and line.startswith("evtool ") and ": " not in line:
            text = (line.replace("\\-", "-").replace("\\(aq", "'")
                    .replace("\\(dq", '"').replace("\\e", "\\"))
            examples.append(("evtool.1:%d" % n, text))
    return examples


def parses(shell, line):
    return subprocess.run([shell, "-n", "-c", line], capture_output=True,
                          check=False).returncode == 0


def problems_of(where, line, shells):
    problems = []
    globs = unquoted_globs(line)
    if globs:
        problems.append("%s: unquoted %s in: %s" % (where, "".join(globs), line))
    for shell in shells:
        if not parses(shell, line):
            problems.append("%s: %s cannot parse: %s" % (where, shell, line))
    return problems


def self_test():
    assert unquoted_globs("evtool info x | jq .files[0]") == ["[", "]"]
    assert unquoted_globs("evtool info x | jq '.files[0]'") == []
    assert unquoted_globs('jq "select(.a == \\"[\\")"') == []
    assert unquoted_globs("evtool archive ci/*.gz  # a [comment]") == []
    print("self-test ok")


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return
    evtool, readme, man = sys.argv[1:4]
    shells = [s for s in ("bash", "zsh") if shutil.which(s)]
    examples = help_examples(evtool) + readme_examples(readme) + \
        man_examples(man)
    problems = []
    for where, line in examples:
        problems += problems_of(where, line, shells)
    for p in problems:
        print(p)
    print("%d examples, %d problems (shells: %s)" % (
        len(examples), len(problems), " ".join(shells)))
    sys.exit(1 if problems or not examples else 0)


if __name__ == "__main__":
    main()
