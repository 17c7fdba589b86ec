#!/usr/bin/env python3
"""The sweep: every command that writes a log, over every real log.

    sweep.py EVTOOL TESTDATA [CORPUS] [--rows testdata|corpus]
             [--evcheck EVCHECK] [--only REGEX]

Runs each writing command (the columns below) on every log of TESTDATA
(*.eventlog and *.eventlog.gz; --rows testdata, the default) or of CORPUS
(real logs of other GHC versions; --rows corpus: exit 77, skipped, when
the folder is absent), and checks every log it writes with `evtool
validate` (and `validate --sorted` after sort). The testdata rows add one
damaged log made here from a real one (for truncate --resync), and one log
of two sessions (two runs' logs concatenated), which merge refuses as an
input (exit 2, "session 2 begins": it takes one session per input). Each log is
merged with itself, with a log of another GHC version (a corpus log for
testdata's 9.0.2 logs, when the corpus is there; threads-n2 for a corpus
log), and with its peer run (heap-a with heap-b, merge-a with merge-b);
the merge with another version must say each conversion once, as a
warning naming its input. Each log is also merged with copies of itself
shifted so that its bracketed samples (heap censuses, ticky samples) meet
their copies' at the begin, the end and the events between them (at 0, 1
ns and either side of a sample's length): every sample must stay whole.
Every row is run again as another producer of the format would write it:
the log with its header declared as Mercury's runtime declares it
(tests/cli/cases/redeclare.py --mercury: id 39 variable-size, the
declarations in Mercury's order); its merge with a GHC log that declares
39 as GHC does must be refused, naming the clash (exit 2). A pipeline runs through files and another
through standard input and output; cat -o x.eventlog.gz must write gzip.
The slice (filter of the middle third of a log's time) must describe its
window: no event after it, and stats timing each process inside it.
With --evcheck (tests/interop/EvCheck.hs built), the ghc-events library
must read every output too, and read the same events as the input where
the command keeps them all.

A cell passes when the command wrote a log and the checks passed it, or
when the command refused an input that is no log to work on (exit 1:
`evtool validate` calls the input invalid too, or it holds a header and
no event), or a Mercury row's merge with a GHC log (exit 2, "another
producer's"), or a merge of the two-session row (exit 2, "session 2
begins"); any other refusal of a log that validates fails. Prints a table of
commands x logs with what each produced (ok, `refused`, `-` when the
command does not apply, or FAIL and why, detailed below the table) and
exits 1 when any cell failed, 77 when there is nothing to run.
"""
import argparse
import glob
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'cli', 'cases'))
import redeclare  # noqa: E402  (the Mercury header, shared with the cases)

# Event classes of `filter --class` (lib/format/catalog.c's class names).
CLASSES = ['scheduler', 'gc', 'sparks-sampled', 'sparks-full', 'user',
           'nonmoving', 'ticky', 'meta', 'cap', 'heap-profile',
           'time-profile', 'nonmoving-gc', 'block', 'debug', 'other']

# The damaged log: 40 bytes of fixed garbage over the middle of a real log
# (the event they start in keeps its type, and its time reads as hours in a
# run of 20 ms). Only truncate --resync applies to it.
DAMAGE_SOURCE = 'threads-n1.eventlog'
DAMAGE_LEN = 40

# The log of two sessions: two runs' logs concatenated (as a restarted
# eventlog is). Merge refuses it (exit 2, "session 2 begins"): it takes
# one session per input.
TWO_RUNS = ['merge-a.eventlog', 'merge-b.eventlog']


class Sweep:
    def __init__(self, evtool, evcheck, work):
        self.evtool = evtool
        self.evcheck = evcheck
        self.work = work
        self.failures = []
        self.count = 0

    def run(self, *args):
        """Runs evtool; returns (exit code, stderr text)."""
        p = subprocess.run([self.evtool] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        return p.returncode, (p.stdout + p.stderr).decode('utf-8', 'replace')

    def out(self, name):
        path = os.path.join(self.work, name)
        if os.path.exists(path):
            os.remove(path)
        return path

    def events(self, path):
        """Events of a log as `evtool info` counts them (markers not)."""
        rc, text = self.run('info', path)
        m = re.search(r'^  events +(\d+)', text, re.M)
        return int(m.group(1)) if m else None

    def ghc_events(self, cmd, *args):
        p = subprocess.run([self.evcheck, cmd] + list(args),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return p.returncode, (p.stdout + p.stderr).decode('utf-8', 'replace')


def first_line(text):
    text = text.strip().splitlines()
    return text[0][:300] if text else ''


def log_facts(sw, log):
    """What the checks need to know of an input log."""
    rc, text = sw.run('validate', '--quiet', log)
    info_rc, info = sw.run('info', log)
    m = re.search(r'^  events +(\d+)', info, re.M)
    events = int(m.group(1)) if m else 0
    t = re.search(r'^  time +first (\d+) ns, last (\d+) ns', info, re.M)
    s = re.search(r'^  events .*, (\d+) sessions?$', info, re.M)
    return {
        'valid': rc == 0,
        'events': events,
        'complete': re.search(r'^  status +complete$', info, re.M) is not None,
        'last_time': int(t.group(2)) if t else None,
        'rts': (re.search(r'^  rts +(\S+)', info, re.M) or [None, ''])[1],
        'sessions': int(s.group(1)) if s else 1,
    }


# ---- the commands: each returns (exit code, message, output path) ----

def pipeline(sw, log, steps):
    """Runs evtool commands one after another, each on the last output."""
    cur = log
    for k, step in enumerate(steps):
        out = sw.out('p%d.eventlog' % k)
        args = [a.replace('{IN}', cur) for a in step] + ['-o', out]
        rc, text = sw.run(*args)
        if rc not in (0, 3) or not os.path.exists(out):
            return rc, '%s: %s' % (step[0], first_line(text)), None
        cur = out
    return 0, '', cur


def simple(*args):
    def cmd(sw, log, facts):
        out = sw.out('o.eventlog')
        rc, text = sw.run(*[a.replace('{IN}', log) for a in args], '-o', out)
        return rc, first_line(text), out
    return cmd


def middle_third(sw, log, facts):
    """filter of the middle third of the log's time (raw timestamps), the
    window kept in facts for check_slice."""
    rc, info = sw.run('info', log)
    t = re.search(r'^  time +first (\d+) ns, last (\d+) ns', info, re.M)
    if not t:
        return None
    first, last = int(t.group(1)), int(t.group(2))
    lo, hi = first + (last - first) // 3, first + 2 * (last - first) // 3
    if hi <= lo:
        return None
    facts['slice_window'] = (lo, hi)
    return simple('filter', '--no-progress', '--from', str(lo), '--to',
                  str(hi), '{IN}')(sw, log, facts)


def check_slice(sw, out, window):
    """A slice describes its window [lo, hi): no event at or after hi
    (filter drops the metadata after it), and stats times each process
    inside it (from 0, the run's start, unless stats tells a slice)."""
    lo, hi = window
    rc, info = sw.run('info', out)
    t = re.search(r'^  time +first (\d+) ns, last (\d+) ns', info, re.M)
    if t and int(t.group(2)) >= hi:
        return 'an event at %s ns, after the window [%d, %d)' % (
            t.group(2), lo, hi)
    rc, text = sw.run('stats', '--json', out)
    if rc not in (0, 3):
        return 'stats exit %d: %s' % (rc, first_line(text))
    for f in json.loads(text)['files']:
        for p in f['processes']:
            start = lo if p['slice'] else 0
            if p['end_ns'] >= hi or (p['slice'] and p['start_ns'] < lo):
                return 'stats times [%d, %d] of the window [%d, %d)' % (
                    p['start_ns'], p['end_ns'], lo, hi)
            if p['elapsed_ns'] > hi - start:
                return 'stats elapsed %d ns, over the window' % p['elapsed_ns']
    return ''


def archive_extract(sw, log, facts):
    if log.endswith('.gz'):
        return None  # archive takes plain logs (it refuses gzip)
    gz = sw.out('a.eventlog.gz')
    out = sw.out('x.eventlog')
    rc, text = sw.run('archive', '--no-progress', log, '-o', gz)
    if rc not in (0, 3):
        return rc, 'archive: ' + first_line(text), None
    rc2, text = sw.run('archive', '--extract', gz, '-o', out)
    return (rc2 if rc2 else rc), 'extract: ' + first_line(text), out


def truncate_cut(fraction):
    """truncate of the log cut (as head -c would) after a fraction of the
    bytes that follow its header."""
    def cmd(sw, log, facts):
        if log.endswith('.gz'):
            return None
        cut = sw.out('cut.eventlog')
        with open(log, 'rb') as f:
            data = f.read()
        start = data.find(b'hetehdredatb')
        if start < 0 or len(data) <= start + 12:
            return None  # no events to cut between
        start += 12
        with open(cut, 'wb') as f:
            f.write(data[:start + int((len(data) - start) * fraction)])
        out = sw.out('o.eventlog')
        rc, text = sw.run('truncate', '-q', cut, '-o', out)
        return rc, first_line(text), out
    return cmd


def merge_other(sw, log, facts):
    """The log merged with a log of another GHC version (no flags): each
    conversion is said once, as a warning naming the input it applies to."""
    other = sw.other_version(facts)
    if not other:
        return None
    out = sw.out('o.eventlog')
    rc, text = sw.run('merge', '--no-progress', log, other, '-o', out)
    clash = [l for l in text.splitlines() if 'cannot be merged' in l]
    if clash:
        return rc, clash[0], out
    warnings = [l for l in text.splitlines() if ': warning: ' in l]
    for w in warnings:
        if warnings.count(w) > 1:
            return 1, 'warned more than once: ' + w, None
        if not w.startswith('evtool merge: %s: ' % log) and \
                not w.startswith('evtool merge: %s: ' % other):
            return 1, 'a warning naming no input: ' + w, None
    return rc, first_line(text), out


# ---- merges whose bracketed samples coincide ----

OPENS = (162, 166, 212)  # HEAP_PROF_SAMPLE_BEGIN, HEAP_BIO_..., TICKY_BEGIN
ENTRIES = (163, 164, 211)  # the samples' own entries
SAMPLE_END = 165


def global_events(sw, log):
    """(id, time) of the global events of `log` in time order (the global
    buffer's order but for equal times)."""
    p = subprocess.run([sw.evtool, 'show', '--format', 'ndjson', log],
                       stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    out = []
    for line in p.stdout.decode('utf-8', 'replace').splitlines():
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if e.get('cap') is None and e.get('id') != 18:
            out.append((e['id'], e['time']))
    return out


def sample_groups(events):
    """Each bracketed group as the list of its (id, time): a census runs to
    its end (165) when the log has one, with whatever lies between; before
    GHC 8.4, and for ticky samples, a group is its begin and its entries."""
    bracketed = any(t == SAMPLE_END for t, _ in events)
    groups, cur = [], None
    for t, time in events:
        if cur is not None:
            census = cur[0][0] != 212
            if (census and bracketed and t not in OPENS) or \
                    (t in ENTRIES and (t == 211) == (not census)):
                cur.append((t, time))
                if t != SAMPLE_END:
                    continue
                groups.append(cur)
                cur = None
                continue
            groups.append(cur)
            cur = None
        if t in OPENS:
            cur = [(t, time)]
    if cur:
        groups.append(cur)
    return groups


def sample_shifts(sw, log, most=14):
    """Shifts that make a copy's samples meet the log's: 1 ns either way,
    and for the longest sample, the one holding the most other events (a
    -p tick) and the first: either side of its length, both ways, and the
    offsets of the first event inside and of those other events."""
    groups = sample_groups(global_events(sw, log))
    shifts = [1, -1]
    picked = []
    if groups:
        picked = [max(groups, key=lambda g: g[-1][1] - g[0][1]),
                  max(groups, key=lambda g: sum(t not in ENTRIES
                                                for t, _ in g[1:-1])),
                  groups[0]]
    for g in picked:
        begin, length = g[0][1], g[-1][1] - g[0][1]
        inside = [time - begin for t, time in g[1:-1] if t not in ENTRIES]
        if len(g) > 2:
            inside.insert(0, g[1][1] - begin)
        for d in [length - 1, length, length + 1] + inside[:3]:
            shifts += [d, -d]
    seen = []
    for d in shifts:
        if d and d not in seen:
            seen.append(d)
    return seen[:most]


def merge_near(sw, log, facts):
    """The log merged with itself and copies shifted by sample_shifts."""
    shifts = sample_shifts(sw, log)
    sw.copies = 2 + len(shifts)
    out = sw.out('o.eventlog')
    spec = ','.join('%d=%dns' % (k + 3, d) for k, d in enumerate(shifts))
    rc, text = sw.run('merge', '--no-progress', *([log] * sw.copies),
                      '--shift', spec, '-o', out)
    return rc, first_line(text), out


def stdio_pipeline(sw, log, facts):
    """filter | sort | truncate through standard input and output, as a
    shell pipeline (no file names, no -o)."""
    out = sw.out('s.eventlog')
    script = ('set -o pipefail; "$0" filter --exclude-class user < "$1" | '
              '"$0" sort | "$0" truncate -q --at 8ms > "$2"')
    p = subprocess.run(['bash', '-c', script, sw.evtool, log, out],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, first_line(p.stderr.decode('utf-8', 'replace')), out


def gzip_output(sw, log, facts):
    """cat -o x.eventlog.gz: a gzip archive, which validate reads back."""
    out = sw.out('o.eventlog.gz')
    rc, text = sw.run('cat', log, '-o', out)
    if rc in (0, 3) and os.path.exists(out):
        with open(out, 'rb') as f:
            if f.read(2) != b'\x1f\x8b':
                return 1, '-o %s is no gzip file' % out, None
    return rc, first_line(text), out


# Runs made to be merged: heap-a and heap-b sample at the same moments
# (testdata/generate.sh keeps them for that), the merge-* workers overlap.
PEERS = {'heap-a.eventlog': 'heap-b.eventlog',
         'merge-a.eventlog': 'merge-b.eventlog',
         'merge-b.eventlog': 'merge-c.eventlog'}


def merge_peer(sw, log, facts):
    """The log merged with its peer run (a Mercury variant with its peer's
    variant, made beside it)."""
    name = os.path.basename(log)
    prefix = 'mercury-' if name.startswith('mercury-') else ''
    peer = PEERS.get(name[len(prefix):])
    if not peer:
        return None
    peer = prefix + peer
    out = sw.out('o.eventlog')
    rc, text = sw.run('merge', '--no-progress', log,
                      os.path.join(os.path.dirname(log), peer), '-o', out)
    return rc, first_line(text), out


def resync(sw, log, facts):
    out = sw.out('o.eventlog')
    rc, text = sw.run('truncate', '--resync', '-q', log, '-o', out)
    return rc, first_line(text), out


COMMANDS = [
    ('reblock', simple('cat', '--reblock', '{IN}')),
] + [
    ('class-' + c, simple('filter', '--no-progress', '--class', c, '{IN}'))
    for c in CLASSES
] + [
    ('cap-0', simple('filter', '--no-progress', '--cap', '0', '{IN}')),
    ('cap-global', simple('filter', '--no-progress', '--cap', 'global',
                          '{IN}')),
    ('thread-2', simple('filter', '--no-progress', '--thread', '2', '{IN}')),
    ('window', simple('filter', '--no-progress', '--from', '2ms', '--to',
                      '20ms', '{IN}')),
    ('slice', middle_third),
    ('redact', simple('filter', '--no-progress', '--redact', 'args,env',
                      '{IN}')),
    ('sort', simple('sort', '--no-progress', '{IN}')),
    ('trunc-at', simple('truncate', '-q', '--at', '5ms', '{IN}')),
    ('trunc-events', simple('truncate', '-q', '--events', '50', '{IN}')),
    ('cut-1/3', truncate_cut(1 / 3)),
    ('cut-2/3', truncate_cut(2 / 3)),
    ('merge-self', simple('merge', '--no-progress', '{IN}', '{IN}')),
    ('merge-other', merge_other),
    ('merge-peer', merge_peer),
    ('merge-near', merge_near),
    ('archive', archive_extract),
    ('filter|sort|cut', lambda sw, log, facts: pipeline(sw, log, [
        ['filter', '--no-progress', '--exclude-class', 'user', '{IN}'],
        ['sort', '--no-progress', '{IN}'],
        ['truncate', '-q', '--at', '8ms', '{IN}']])),
    ('merge|filter|cat', lambda sw, log, facts: pipeline(sw, log, [
        ['merge', '--no-progress', '{IN}', '{IN}'],
        ['filter', '--no-progress', '--exclude-cap', '0', '{IN}'],
        ['cat', '--reblock', '{IN}']])),
    ('stdin|stdout', stdio_pipeline),
    ('-o x.gz', gzip_output),
    ('resync', None),  # the damaged log only
]

# Columns where the output holds every event of the input: ghc-events must
# read the same ones (--evcheck). `same-per-cap`: cat --reblock keeps each
# cap's events in order; the others compare counts (sort reorders, merge
# doubles, redact rewrites payloads, archive and cat -o x.gz must be the
# same sequence).
KEEPS_ALL = {'reblock': 'same-per-cap', 'archive': 'same', 'sort': 'count',
             'redact': 'count', 'merge-self': 'double',
             'merge-near': 'copies', '-o x.gz': 'same'}


def check_output(sw, name, log, facts, rc, msg, out):
    """Returns '' when the output passes, else why not."""
    if rc not in (0, 3):
        if rc == 1 and (not facts['valid'] or facts['events'] == 0):
            return None  # refused an input that is no log to work on
        if rc == 2 and facts.get('foreign') and name == 'merge-other' and \
                "another producer's" in msg:
            return None  # another producer's 39 beside GHC's: refused
        if rc == 2 and facts['sessions'] > 1 and name.startswith('merge') \
                and 'session 2 begins' in msg:
            return None  # merge takes one session per input: refused
        return 'exit %d: %s' % (rc, msg)
    if not out or not os.path.exists(out):
        return 'exit %d but no output' % rc
    args = ['validate', '--no-progress']
    if name == 'sort':
        args.append('--sorted')
    vrc, text = sw.run(*(args + [out]))
    if vrc != 0:
        errors = [l for l in text.splitlines() if ': error: ' in l]
        return 'validate: %s' % first_line('\n'.join(errors) or text)
    if name == 'resync' and facts.get('source_last_time') is not None:
        info = log_facts(sw, out)
        if info['last_time'] and info['last_time'] > facts['source_last_time']:
            return ('an event at %d ns, after the last of the log it was made '
                    'from (%d ns)' % (info['last_time'],
                                      facts['source_last_time']))
    if name == 'slice':
        why = check_slice(sw, out, facts['slice_window'])
        if why:
            return why
    if sw.evcheck and facts.get('ghc_reads'):
        return check_ghc_events(sw, name, log, facts, out)
    return ''


def check_ghc_events(sw, name, log, facts, out):
    if out.endswith('.gz'):  # ghc-events reads plain logs: unpack it here
        plain = sw.out('gunzipped.eventlog')
        with gzip.open(out, 'rb') as f, open(plain, 'wb') as g:
            shutil.copyfileobj(f, g)
        out = plain
    rc, text = sw.ghc_events('count', out)
    if rc != 0:
        return 'ghc-events cannot read it: ' + first_line(text)
    got = int(text.split()[0])
    if got != sw.events(out):
        return 'ghc-events reads %d events, evtool wrote %d' % (
            got, sw.events(out))
    how = KEEPS_ALL.get(name)
    if not how or not facts['complete'] or log.endswith('.gz'):
        return ''
    if how in ('same', 'same-per-cap'):
        rc, text = sw.ghc_events(how, log, out)
        return '' if rc == 0 else 'ghc-events %s: %s' % (how, first_line(text))
    want = facts['ghc_events']
    if how == 'count' and got != want:
        return 'ghc-events reads %d events, not %d' % (got, want)
    # merged with itself (or its copies): every event once per copy, and
    # the creation events the merge synthesises for a log that lacks them
    copies = {'double': 2, 'copies': getattr(sw, 'copies', 0)}.get(how)
    if copies and got < copies * want:
        return 'ghc-events reads %d events, fewer than %d x %d' % (
            got, copies, want)
    return ''


def damaged_log(sw, testdata):
    src = os.path.join(testdata, DAMAGE_SOURCE)
    with open(src, 'rb') as f:
        data = bytearray(f.read())
    mid = len(data) // 2
    data[mid:mid + DAMAGE_LEN] = bytes((i * 37 + 11) & 0xff
                                       for i in range(DAMAGE_LEN))
    path = os.path.join(sw.work, 'damaged-%s' % DAMAGE_SOURCE)
    with open(path, 'wb') as f:
        f.write(data)
    return path, log_facts(sw, src)['last_time']


def two_runs_log(sw, testdata):
    """merge-a's and merge-b's logs concatenated: one log of two
    sessions (two runs, each clock from 0), in the work folder."""
    path = os.path.join(sw.work, 'two-runs.eventlog')
    with open(path, 'wb') as f:
        for name in TWO_RUNS:
            with open(os.path.join(testdata, name), 'rb') as g:
                f.write(g.read())
    return path


def mercury_log(sw, log):
    """The log with the header Mercury's runtime would write (see
    redeclare.py), in the work folder; None when its events cannot be
    walked with its declared sizes."""
    opener = gzip.open if log.endswith('.gz') else open
    with opener(log, 'rb') as f:
        data = f.read()
    try:
        data = redeclare.mercury(data)
    except redeclare.CannotWalk:
        return None
    name = os.path.basename(log)
    if name.endswith('.gz'):
        name = name[:-3]
    path = os.path.join(sw.work, 'mercury-' + name)
    with open(path, 'wb') as f:
        f.write(data)
    return path


def add_ghc_facts(sw, log, f):
    """Whether ghc-events reads the log itself, and how many events."""
    rc, text = sw.ghc_events('count', log) if sw.evcheck else (1, '')
    f['ghc_reads'] = rc == 0
    f['ghc_events'] = int(text.split()[0]) if rc == 0 else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('evtool')
    ap.add_argument('testdata')
    ap.add_argument('corpus', nargs='?')
    ap.add_argument('--rows', choices=['testdata', 'corpus'],
                    default='testdata')
    ap.add_argument('--evcheck')
    ap.add_argument('--only', help='run the columns matching this regex')
    a = ap.parse_args()

    logs = sorted(glob.glob(os.path.join(a.testdata, '*.eventlog')) +
                  glob.glob(os.path.join(a.testdata, '*.eventlog.gz')))
    corpus = []
    if a.corpus and os.path.isdir(a.corpus):
        corpus = sorted(glob.glob(os.path.join(a.corpus, '*.eventlog')))
    elif a.rows == 'corpus':
        print('skip: no corpus at %s' % (a.corpus or '(none given)'))
        return 77
    else:
        print('corpus: %s absent: no merge with another GHC version'
              % (a.corpus or '(none given)'))
    if not logs:
        print('no logs in %s' % a.testdata)
        return 2
    work = tempfile.mkdtemp(prefix='evtool-sweep.')
    sw = Sweep(a.evtool, a.evcheck, work)
    try:
        return sweep(sw, a, logs, corpus)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def sweep(sw, a, logs, corpus):
    columns = [c for c in COMMANDS
               if not a.only or re.search(a.only, c[0])]
    newer = os.path.join(a.testdata, 'threads-n2.eventlog')
    facts = {log: log_facts(sw, log) for log in corpus + [newer] +
             (logs if a.rows == 'testdata' else [])}
    for log, f in facts.items():
        # ghc-events checks apply to the logs ghc-events reads itself
        add_ghc_facts(sw, log, f)
    # Another GHC version to merge with: a corpus log for testdata's 9.0.2
    # logs (6.12's, the oldest, when there), a testdata log for the
    # corpus's.
    older = [c for c in corpus if facts[c]['complete'] and facts[c]['valid']
             and facts[c]['rts'] != facts[newer]['rts']]
    older = [c for c in older if 'ghc-6.12' in c] or older

    def other_version(f):
        if f['rts'] == facts[newer]['rts']:
            return older[0] if older else None
        return newer
    sw.other_version = other_version

    if a.rows == 'corpus':
        rows = [(log, facts[log]) for log in corpus]
        damaged = two_runs = None
    else:
        rows = [(log, facts[log]) for log in logs]
        damaged, source_last = damaged_log(sw, a.testdata)
        dfacts = log_facts(sw, damaged)
        dfacts['source_last_time'] = source_last
        rows.append((damaged, dfacts))
        two_runs = two_runs_log(sw, a.testdata)
        tfacts = log_facts(sw, two_runs)
        add_ghc_facts(sw, two_runs, tfacts)
        rows.append((two_runs, tfacts))
    for log, f in list(rows):
        mercury = mercury_log(sw, log) \
            if log not in (damaged, two_runs) else None
        if mercury:
            mfacts = log_facts(sw, mercury)
            mfacts['foreign'] = True
            add_ghc_facts(sw, mercury, mfacts)
            rows.append((mercury, mfacts))

    names = [os.path.basename(r[0]) for r in rows]
    width = max(len(n) for n in names)
    table = []
    for (log, f), label in zip(rows, names):
        cells = []
        for name, cmd in columns:
            is_damaged = log == damaged
            if (name == 'resync') != is_damaged:
                cells.append('-')
                continue
            got = (resync if is_damaged else cmd)(sw, log, f)
            if got is None:
                cells.append('-')
                continue
            rc, msg, out = got
            why = check_output(sw, name, log, f, rc, msg, out)
            sw.count += 1
            if why is None:
                cells.append('refused')
            elif why == '':
                cells.append('ok')
            else:
                cells.append('FAIL')
                sw.failures.append((label, name, why))
        table.append((label, cells))
        odd = ' '.join('%s=%s' % (c[0], v) for c, v in zip(columns, cells)
                       if v not in ('ok', '-'))
        print('%-*s  %s' % (width, label, odd or 'all ok'), flush=True)
    print_table(columns, table, width)
    for label, name, why in sw.failures:
        print('FAIL %s x %s: %s' % (name, label, why))
    unread = [os.path.basename(r[0]) for r in rows
              if sw.evcheck and not r[1].get('ghc_reads')]
    if unread:
        print('ghc-events cannot read %s itself: validate only'
              % ', '.join(unread))
    print('%d runs, %d failed%s' % (sw.count, len(sw.failures),
                                    ' (ghc-events checked)' if sw.evcheck
                                    else ''))
    return 1 if sw.failures else 0


def print_table(columns, table, width):
    """Commands down, logs across would be too wide: one row per log, one
    column per command, each cell a short mark."""
    marks = {'ok': '.', 'refused': 'r', '-': ' ', 'FAIL': 'X'}
    print()
    print('. ok (validates), r refused (an invalid input; a Mercury log '
          'with a GHC one; a log of two sessions in a merge), X FAIL, '
          'blank: does not apply')
    for k, (name, _) in enumerate(columns):
        print('%*s %2d %s' % (width, '', k + 1, name))
    print('%*s  %s' % (width, '', ''.join('%-3d' % (k + 1)
                                           for k in range(len(columns)))))
    for label, cells in table:
        print('%-*s  %s' % (width, label,
                            ''.join('%-3s' % marks[c] for c in cells)))


if __name__ == '__main__':
    sys.exit(main())
