#!/usr/bin/env python3
"""The examples of evtool's documentation work when pasted into bash and zsh,
and print what the documentation shows.

    tests/examples.py EVTOOL README MANPAGE [GUIDE...]
    tests/examples.py --run EVTOOL SOURCE_DIR DOC...
    tests/examples.py --self-test

Collects every example command line: the `example:` lines of each
command's --help, the indented command lines of README.md (a line starting
with `evtool`, `$ evtool`, or holding `| evtool`), and the .EX blocks of
the man page. Each must parse in bash and in zsh (`-n`, each shell skipped
when absent), and must hold no unquoted glob character that zsh would
refuse when nothing matches ("no matches found": a jq filter such as
.files[0] must be quoted); `*` is allowed, for file patterns. Prints one
line per problem and "N examples, M problems". The guides (doc/guide.md)
are read as the README is.

--run runs the transcripts of the README and the guide: in an indented
block, each line `$ COMMAND` is run by bash, and the lines after it, up
to the next `$` line or the block's end, are what it must print
(standard output and standard error together, standard output line
buffered as on a terminal). A line `...` stands for any number of lines.
The commands of a document run one after the other in one bash, in a
fresh folder holding `testdata` (the source's) and `build/evtool`, with
`evtool` first on PATH: a command sees the files earlier ones wrote, and
`$?` the status of the one before. Prints each mismatch with both texts
and "N commands, M mismatches".
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

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
            examples.append(("%s:%d" % (os.path.basename(path), n), cmd))
    return examples


def transcripts(path):
    """[(line number, command, expected lines)] of the `$` lines of path's
    indented blocks."""
    found, block = [], []
    lines = open(path, encoding="utf-8").read().split("\n") + [""]

    def flush():
        while block and block[-1][1] == "":
            block.pop()
        for n, text in block:
            if text.startswith("$ "):
                found.append((n, text[2:], []))
            elif found and found[-1][0] >= block[0][0]:
                found[-1][2].append(text)
        block.clear()

    for n, line in enumerate(lines, 1):
        if line.startswith("    ") or (line.strip() == "" and block):
            block.append((n, line[4:].rstrip()))
        else:
            flush()
    flush()
    return found


def table_examples(path):
    """[(line number, command)] of the examples in path's tables: a row's
    last cell when it is one `evtool ...` command."""
    found = []
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        cells = line.strip().strip("|").split("|")
        if line.startswith("|") and len(cells) > 1:
            last = cells[-1].strip()
            if re.fullmatch(r"`evtool [^`]*`", last):
                found.append((n, last[1:-1]))
    return found


def matches(expected, got):
    """Whether the lines got are the lines expected, where a line "..."
    stands for any number of lines."""
    if not expected:
        return not got
    if expected[0] == "...":
        return any(matches(expected[1:], got[i:]) for i in range(len(got) + 1))
    return bool(got) and got[0] == expected[0] and matches(expected[1:], got[1:])


def line_buffered():
    """The command prefix that makes a program's standard output line
    buffered (stdbuf), or none."""
    return ["stdbuf", "-oL"] if shutil.which("stdbuf") else []


def run_document(evtool, source, path):
    """Runs path's transcripts; returns (commands, problems)."""
    # a table's example must succeed (0), or finish having dropped or
    # repaired data as it says (3); what it prints is not compared
    cases = transcripts(path) + [(n, cmd, None) for n, cmd in table_examples(path)]
    if not cases:
        return 0, []
    work = tempfile.mkdtemp(prefix="evtool-examples-")
    try:
        os.symlink(os.path.join(source, "testdata"), os.path.join(work, "testdata"))
        for folder in ("build", "bin"):
            os.mkdir(os.path.join(work, folder))
            os.symlink(evtool, os.path.join(work, folder, "evtool"))
        mark = "@@evtool-example@@"
        # each command's output follows its mark; the next mark (or the
        # last) carries its exit status
        script = ["__st=0"]
        for i, (_, cmd, _) in enumerate(cases):
            script.append("printf '%s %d %%d\\n' $__st; (exit $__st); { %s\n} 2>&1; __st=$?"
                          % (mark, i, cmd))
        script.append("printf '%s %d %%d\\n' $__st" % (mark, len(cases)))
        env = dict(os.environ, LC_ALL="C.UTF-8", TZ="UTC", COLUMNS="80",
                   PATH=os.path.join(work, "bin") + os.pathsep + os.environ["PATH"])
        # stdbuf preloads a library; an ASan build must accept that
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0"
        if line_buffered():
            env["_STDBUF_O"] = "L"
            env["LD_PRELOAD"] = (env.get("LD_PRELOAD", "") + " " +
                                 stdbuf_library()).strip()
        out = run_bash("\n".join(script), work, env)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    got, status = {}, {}
    current = None
    for line in out.split("\n"):
        if line.startswith(mark + " "):
            current, before = (int(w) for w in line.split()[1:3])
            status[current - 1] = before
            got[current] = []
        elif current is not None:
            got[current].append(line.rstrip())
    problems = []
    for i, (n, cmd, expected) in enumerate(cases):
        lines = got.get(i, [])
        while lines and lines[-1] == "":
            lines.pop()
        if expected is None:
            if status.get(i) not in (0, 3):
                problems.append("%s:%d: %s\n--- exit %s, printed\n%s" % (
                    path, n, cmd, status.get(i), "\n".join(lines)))
        elif not matches(expected, lines):
            problems.append("%s:%d: $ %s\n--- shown\n%s\n--- printed\n%s" % (
                path, n, cmd, "\n".join(expected), "\n".join(lines)))
    return len(cases), problems


def run_bash(script, work, env, seconds=300):
    """What the script prints; a script still running after `seconds` is
    killed, with all it started, and its output so far returned."""
    proc = subprocess.Popen(["bash", "-c", script], cwd=work, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        out, _ = proc.communicate()
        out += b"\n(killed after %d s)\n" % seconds
    return out.decode("utf-8", "replace")


def stdbuf_library():
    """The library stdbuf preloads (coreutils' libstdbuf.so)."""
    for folder in ("/usr/libexec/coreutils", "/usr/lib/coreutils",
                   "/usr/local/libexec/coreutils"):
        candidate = os.path.join(folder, "libstdbuf.so")
        if os.path.exists(candidate):
            return candidate
    return ""


def run_main(evtool, source, docs):
    total, problems = 0, []
    for doc in docs:
        n, p = run_document(os.path.abspath(evtool), os.path.abspath(source), doc)
        total += n
        problems += p
    for p in problems:
        print(p)
    print("%d commands, %d mismatches" % (total, len(problems)))
    sys.exit(1 if problems or not total else 0)


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
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "d"], ["a", "d"])
    assert not matches(["a", "...", "d"], ["a", "b"])
    assert not matches(["a"], ["a", "b"])
    assert matches(["..."], [])
    print("self-test ok")


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return
    if sys.argv[1:2] == ["--run"]:
        run_main(sys.argv[2], sys.argv[3], sys.argv[4:])
        return
    evtool, readme, man = sys.argv[1:4]
    shells = [s for s in ("bash", "zsh") if shutil.which(s)]
    examples = help_examples(evtool) + readme_examples(readme) + \
        man_examples(man)
    for guide in sys.argv[4:]:
        examples += readme_examples(guide)
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
