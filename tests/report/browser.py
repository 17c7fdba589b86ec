#!/usr/bin/env python3
"""evtool report in a real browser: headless Chromium opens each page from
disk; every page must show no console error, every chart must have drawn
(non-blank canvas, elements for its data, a plot area of real size), each
capability's chart must be coloured running, GC and idle in the shares of
`evtool stats --caps` with a marker line at each USER_MARKER (what a person
sees, counted in pixels), and the numbers the page shows
must be those of `evtool stats --json --threads` (pauses and threads
included) and `evtool info --json`, and of an independent reading of the
events, compared as the rendered text. The time charts' plot areas line up;
zoom and pan move every time chart together; a click on the thread table's "runs" heading sorts it most runs
first, a second click fewest first. Screenshots go into the output folder.

usage: browser.py EVTOOL TESTDATA OUTDIR [--doc-screenshot PNG]
Exit 77 (skipped) when no Chromium is installed (apt-get install chromium).
"""
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile
from decimal import Decimal, ROUND_HALF_UP

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "show"))
from ndjson import BLOCK_MARKER, METADATA  # noqa: E402

SKIP = 77

# Runs inside the page before its own scripts: records every error, and
# after load describes each chart, as JSON in <pre id="browser-test">.
PROBE = r"""<script>
(function () {
  const errors = [];
  window.addEventListener('error', e => errors.push('error: ' + e.message));
  window.addEventListener('unhandledrejection', e => errors.push('rejection: ' + e.reason));
  for (const level of ['error', 'warn']) {
    const orig = console[level];
    console[level] = function (...a) { errors.push(level + ': ' + a.join(' ')); orig.apply(console, a); };
  }
  /* A capability's chart, as a person sees it: its name above it, its
   * time range, how many pixels of its plot area each colour of the legend
   * covers, and the times of the pixel columns that are a marker's colour
   * from top to bottom. A pixel nearest to the marker's colour is a
   * marker's; any other is split among running, GC, idle and the white
   * page in the proportions that mix its colour (an edge, or a state
   * thinner than a pixel, blends the colours of what it covers). */
  const PALETTE = { running: [0x3a, 0x9a, 0x3a], gc: [0xe0, 0x70, 0x2a], idle: [0xd8, 0xd8, 0xd8],
                    marker: [0x8a, 0x2b, 0xe2], white: [255, 255, 255] };
  const MIXED = ['running', 'gc', 'idle', 'white'];
  /* The inverse of the 4 x 4 matrix whose columns are the mixed colours
   * with a 1 below (the weights sum to 1): Gauss-Jordan elimination. */
  function unmixer() {
    const m = [0, 1, 2, 3].map(r => MIXED.map(k => r < 3 ? PALETTE[k][r] : 1)
                                      .concat([0, 1, 2, 3].map(c => +(c === r))));
    for (let c = 0; c < 4; c++) {
      let p = c;
      for (let r = c + 1; r < 4; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
      [m[c], m[p]] = [m[p], m[c]];
      const d = m[c][c];
      m[c] = m[c].map(v => v / d);
      for (let r = 0; r < 4; r++)
        if (r !== c) { const f = m[r][c]; m[r] = m[r].map((v, j) => v - f * m[c][j]); }
    }
    return m.map(row => row.slice(4));
  }
  const UNMIX = unmixer();
  function unmix(c, pixels) {
    const w = UNMIX.map(row => Math.max(0, row[0] * c[0] + row[1] * c[1] + row[2] * c[2] + row[3]));
    const sum = w.reduce((a, b) => a + b, 0) || 1;
    MIXED.forEach((k, j) => { pixels[k] += w[j] / sum; });
  }
  function capabilityShown(cv, ch) {
    const box = cv.parentElement, name = box.previousElementSibling;
    if (!ch || !box.classList.contains('cap') || !name) return null;
    const r = ch.currentDevicePixelRatio, a = ch.chartArea;
    const x0 = Math.round(a.left * r), y0 = Math.round(a.top * r);
    const w = Math.round((a.right - a.left) * r), h = Math.round((a.bottom - a.top) * r);
    const pixels = {}, marked = new Array(Math.max(w, 0)).fill(0), lines = [];
    for (const k in PALETTE) pixels[k] = 0;
    if (w > 0 && h > 0) {
      const px = cv.getContext('2d').getImageData(x0, y0, w, h).data;
      for (let i = 0; i < px.length; i += 4) {
        const al = px[i + 3] / 255, c = [0, 1, 2].map(k => px[i + k] * al + 255 * (1 - al));
        let best = null, dist = Infinity;
        for (const k in PALETTE) {
          const d = PALETTE[k].reduce((s, v, j) => s + (v - c[j]) * (v - c[j]), 0);
          if (d < dist) { dist = d; best = k; }
        }
        if (best === 'marker') {
          pixels.marker++;
          marked[(i / 4) % w]++;
        } else {
          unmix(c, pixels);
        }
      }
      marked.forEach((n, x) => {
        if (n >= 0.9 * h) lines.push(ch.scales.x.getValueForPixel(a.left + (x + 0.5) / r));
      });
    }
    return { name: name.textContent, min: ch.scales.x.min, max: ch.scales.x.max,
             pixels: pixels, total: Math.max(w * h, 0), marker_lines: lines,
             pixel_s: (ch.scales.x.max - ch.scales.x.min) / Math.max(w / r, 1) };
  }
  window.addEventListener('load', () => setTimeout(() => {
    const charts = [];
    for (const cv of document.querySelectorAll('canvas')) {
      const ch = Chart.getChart(cv);
      const ctx = cv.getContext('2d');
      const px = ctx.getImageData(0, 0, cv.width, cv.height).data;
      let inked = 0;
      for (let i = 3; i < px.length; i += 4) if (px[i]) inked++;
      let elements = 0, points = 0;
      if (ch) ch.data.datasets.forEach((d, k) => {
        elements += ch.getDatasetMeta(k).data.length;
        points += d.data.filter(v => v !== null && (typeof v !== 'object' || v.y !== null)).length;
      });
      /* What a person sees: the pixels of each dataset's (or bar's)
       * opaque colour, by its label. */
      const colours = {};
      if (ch) ch.data.datasets.forEach(d => {
        const bg = d.backgroundColor, want = Array.isArray(bg)
          ? bg.map((c, i) => [ch.data.labels[i], c]) : [[d.label, bg]];
        for (const [label, c] of want) {
          if (typeof c !== 'string' || !/^#[0-9a-f]{6}$/i.test(c)) continue;
          const r = parseInt(c.slice(1, 3), 16), g = parseInt(c.slice(3, 5), 16),
                b = parseInt(c.slice(5, 7), 16);
          let n = 0;
          for (let i = 0; i < px.length; i += 4)
            if (px[i + 3] === 255 && Math.abs(px[i] - r) < 3 && Math.abs(px[i + 1] - g) < 3 &&
                Math.abs(px[i + 2] - b) < 3) n++;
          colours[label] = (colours[label] || 0) + n;
        }
      });
      const a = ch ? ch.chartArea : null;
      charts.push({ chart: !!ch, width: cv.width, height: cv.height, inked: inked,
                    elements: elements, points: points, colours: colours,
                    plot: a ? { width: a.right - a.left, height: a.bottom - a.top } : null,
                    capability: capabilityShown(cv, ch),
                    section: cv.closest('section') ? cv.closest('section').id : null });
    }
    /* Zoom and pan: the wheel, a drag and a double click on the first
     * chart; every chart on the same time range must follow. */
    const all = Array.from(document.querySelectorAll('canvas')).map(cv => Chart.getChart(cv));
    const first = all[0], x0 = first.options.scales.x;
    const timed = all.filter(c => c.options.scales.x.min === x0.min && c.options.scales.x.max === x0.max);
    const ranges = () => timed.map(c => [c.scales.x.min, c.scales.x.max]);
    const box = first.canvas.getBoundingClientRect();
    const at = (dx) => ({ clientX: box.left + first.chartArea.left + (first.chartArea.right - first.chartArea.left) / 2 + dx,
                          clientY: box.top + box.height / 2, bubbles: true, cancelable: true });
    const zoom = { charts: timed.length, before: ranges(),
                   areas: timed.map(c => [c.chartArea.left, c.chartArea.right]) };
    first.canvas.dispatchEvent(new WheelEvent('wheel', Object.assign({ deltaY: -100 }, at(0))));
    first.canvas.dispatchEvent(new WheelEvent('wheel', Object.assign({ deltaY: -100 }, at(0))));
    zoom.wheel = ranges();
    first.canvas.dispatchEvent(new MouseEvent('mousedown', at(0)));
    first.canvas.dispatchEvent(new MouseEvent('mousemove', at(40)));
    window.dispatchEvent(new MouseEvent('mouseup', at(40)));
    zoom.drag = ranges();
    first.canvas.dispatchEvent(new MouseEvent('dblclick', at(0)));
    zoom.reset = ranges();
    /* The thread table sorts by the heading clicked: the runs column
     * (the 4th) after one click on it and after a second. */
    const sorting = {};
    const table = document.getElementById('threads');
    if (table) {
      const runs = () => Array.from(table.tBodies[0].rows).map(r => r.cells[3].textContent);
      sorting.before = runs();
      table.querySelectorAll('th')[3].click();
      sorting.once = runs();
      table.querySelectorAll('th')[3].click();
      sorting.twice = runs();
    }
    const pre = document.createElement('pre');
    pre.id = 'browser-test';
    pre.textContent = JSON.stringify({ errors: errors, charts: charts, zoom: zoom,
      sorting: sorting, rendered: document.body.getAttribute('data-rendered') });
    document.body.appendChild(pre);
  }, 100));
})();
</script>"""

CHROMIUM_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run',
                  '--disable-background-networking', '--disable-component-update',
                  '--disable-sync', '--hide-scrollbars', '--enable-logging=stderr', '--v=0']

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print('FAIL: ' + what)


def chromium():
    for name in (os.environ.get('EVTOOL_CHROMIUM'), 'chromium', 'chromium-browser'):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def browse(browser, page, extra, work):
    """Runs Chromium on `page` with `extra` flags; (stdout, console lines)."""
    profile = tempfile.mkdtemp(dir=work, prefix='profile-')
    r = subprocess.run([browser] + CHROMIUM_FLAGS + ['--user-data-dir=' + profile] + extra +
                       ['file://' + os.path.abspath(page)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    shutil.rmtree(profile, ignore_errors=True)
    err = r.stderr.decode('utf-8', 'replace')
    console = [l for l in err.splitlines() if ':CONSOLE' in l]
    return r.stdout.decode('utf-8'), console


class Texts(html.parser.HTMLParser):
    """The text of every element with an id (nested text included), and
    the cell texts of every table row with an id."""

    VOID = ('br', 'meta', 'img', 'input', 'link')

    def __init__(self):
        super().__init__()
        self.texts, self.rows, self.open, self.row = {}, {}, [], None

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        self.open.append(dict(attrs).get('id'))
        if self.open[-1]:
            self.texts[self.open[-1]] = ''
        if tag == 'tr' and self.open[-1]:
            self.row = self.rows.setdefault(self.open[-1], [])
        elif tag == 'td' and self.row is not None:
            self.row.append('')

    def handle_endtag(self, tag):
        if tag == 'tr':
            self.row = None
        if self.open and tag not in self.VOID:
            self.open.pop()

    def handle_data(self, data):
        for i in self.open:
            if i:
                self.texts[i] += data
        if self.row:
            self.row[-1] += data


# ---- an independent reading of the events, in file order ----
def events_in_file_order(evtool, log, work):
    """show --follow prints file order, and waits at the end of a log cut
    short: such a log is first given its data end (truncate keeps every
    complete event)."""
    complete = os.path.join(work, 'complete.eventlog')
    run([evtool, 'truncate', '-q', log, '-o', complete], (0, 3))
    out = run([evtool, 'show', '--follow', '--format', 'ndjson', complete], timeout=60)
    os.remove(complete)
    return [json.loads(l) for l in out.decode('utf-8').splitlines()]


def oracle_threads(events):
    """tid -> {runs, run_ns, stops: {status: n}}: RUN_THREAD to the next
    STOP_THREAD on the same capability, or to the capability's last event
    when a log cut short ends first."""
    threads, running, last = {}, {}, {}
    for e in events:
        f = e.get('fields', {})
        last[e['cap']] = max(last.get(e['cap'], 0), e['time'])
        if e['type'] == 'RUN_THREAD':
            t = threads.setdefault(f['thread'], {'runs': 0, 'run_ns': 0, 'stops': {}})
            t['runs'] += 1
            running[e['cap']] = (f['thread'], e['time'])
        elif e['type'] == 'STOP_THREAD':
            t = threads.setdefault(f['thread'], {'runs': 0, 'run_ns': 0, 'stops': {}})
            t['stops'][f['status']] = t['stops'].get(f['status'], 0) + 1
            if running.get(e['cap'], (None,))[0] == f['thread']:
                t['run_ns'] += e['time'] - running.pop(e['cap'])[1]
    for cap, (tid, start) in running.items():
        threads[tid]['run_ns'] += last[cap] - start
    return threads


def oracle_spans(events):
    """name -> [durations]: each user message "START name" to the next
    "STOP name" of the thread running on its capability (the latest open
    one of that name and thread first)."""
    running, opened, spans = {}, {}, {}
    for e in events:
        f = e.get('fields', {})
        if e['type'] == 'RUN_THREAD':
            running[e['cap']] = f['thread']
        elif e['type'] == 'STOP_THREAD' and running.get(e['cap']) == f['thread']:
            del running[e['cap']]
        elif e['type'] == 'USER_MSG':
            word, _, name = f['message'].partition(' ')
            key = (name, running.get(e['cap'], 0))
            if word == 'START':
                opened.setdefault(key, []).append(e['time'])
            elif word == 'STOP' and opened.get(key):
                spans.setdefault(name, []).append(e['time'] - opened[key].pop())
    return spans


def check_spans(name, texts, stats, spans):
    """The span table: each row as stats --spans=all --json says, in its
    order, and the counts and totals of START/STOP spans as the events
    give them."""
    shown = [s for s in stats['spans']['list']
             if s['count'] or s['unmatched_stops'] or s['unstopped']]
    for k, s in enumerate(shown):
        row = texts.rows.get('span-%d' % k)
        want = [s['name'] + (' (marker)' if s['kind'] == 'marker' else ''),
                commas(s['count']), ms(s['total_ns']), js_fixed(s['share'] * 100, 1) + '%',
                ms(s['mean_ns']), ms(s['p50_ns']), ms(s['p90_ns']), ms(s['p99_ns']),
                ms(s['max_ns'])]
        check(row == want, '%s: span row %d %r, stats --spans %r' % (name, k, row, want))
        if s['kind'] == 'span' and s['count']:
            got = spans.get(s['name'], [])
            check((len(got), sum(got)) == (s['count'], s['total_ns']),
                  '%s: span %s: %d spans, %d ns in the events; stats %d, %d' %
                  (name, s['name'], len(got), sum(got), s['count'], s['total_ns']))
    check(texts.rows.get('span-%d' % len(shown)) is None, name + ': no more span rows')


def oracle_pauses(events):
    """capset -> [(start, duration, gen, cap)]: GC_END - GC_START on the
    capability that posted the collection's GC_STATS_GHC."""
    start, lead, pauses = {}, {}, {}
    for e in events:
        cap, f = e['cap'], e.get('fields', {})
        if e['type'] == 'GC_START':
            start[cap] = e['time']
        elif e['type'] == 'GC_STATS_GHC':
            lead[cap] = (f['capset'], f['generation'])
        elif e['type'] == 'GC_END':
            if cap in lead and cap in start and start[cap] <= e['time']:
                capset, gen = lead[cap]
                pauses.setdefault(capset, []).append(
                    (start[cap], e['time'] - start[cap], gen, cap))
            lead.pop(cap, None)
            start.pop(cap, None)
    return pauses


# ---- the page's formatting rules, restated (report_page.html, fmt) ----
def js_fixed(x, digits):
    """Number.prototype.toFixed: the exact value, ties away from zero."""
    q = Decimal(1).scaleb(-digits)
    return str(Decimal(x).quantize(q, rounding=ROUND_HALF_UP))


def commas(n):
    return '{:,}'.format(int(Decimal(n).quantize(Decimal(1), rounding=ROUND_HALF_UP)))


def secs(ns):
    return js_fixed(ns / 1e9, 3) + ' s'


def pause(ns):
    return js_fixed(ns / 1e9, 4) + ' s'


def pct(x):
    return js_fixed(x * 100, 1) + ' %'


def expected_texts(i, s):
    """Element id -> text, for process i with stats --json figures s."""
    p = 'p%d-' % i
    want = {p + 'capabilities': str(s['capabilities']),
            p + 'elapsed_ns': secs(s['elapsed_ns'])}
    if s['heap_statistics']:
        want[p + 'mut_elapsed_ns'] = secs(s['mut_elapsed_ns'])
        want[p + 'gc_elapsed_ns'] = secs(s['gc_elapsed_ns'])
        want[p + 'productivity'] = pct(s['productivity'])
        for k in ('allocated_bytes', 'copied_bytes', 'max_live_bytes', 'max_slop_bytes',
                  'max_mem_in_use_bytes'):
            want[p + k] = commas(s[k]) + ' bytes'
        want[p + 'alloc_rate'] = commas(s['alloc_rate']) + ' bytes/s'
        want[p + 'collections'] = commas(s['collections'])
        if s['work_balance'] is not None:
            want[p + 'work_balance'] = pct(s['work_balance'])
    pauses = s.get('pauses')
    if pauses:
        for key, ps in [('all', pauses['all'])] + [('gen%d' % g['gen'], g) for g in pauses['generations']]:
            q = p + 'pauses-' + key + '-'
            want[q + 'count'] = commas(ps['count'])
            for k in ('p50', 'p90', 'p99', 'max'):
                want[q + k] = ms(ps[k + '_ns'])
        for k, l in enumerate(pauses['all']['longest']):
            q = 'p%d-longest-%d-' % (i, k)
            want[q + 'start'] = js_fixed(l['start_ns'] / 1e9, 6) + ' s'
            want[q + 'duration'] = ms(l['duration_ns'])
            want[q + 'gen'] = str(l['gen'])
            want[q + 'cap'] = str(l['cap'])
    for g in s['generations']:
        q = p + 'gen%d-' % g['gen']
        want[q + 'collections'] = commas(g['collections'])
        want[q + 'par_collections'] = commas(g['par_collections'])
        want[q + 'elapsed_ns'] = secs(g['elapsed_ns'])
        want[q + 'avg_pause_ns'] = pause(g['avg_pause_ns'])
        want[q + 'max_pause_ns'] = pause(g['max_pause_ns'])
    return want


def ms(ns):
    return js_fixed(ns / 1e6, 3) + ' ms'


def shown_ms(text):
    check(text is not None and text.endswith(' ms'), 'a time in ms: %r' % text)
    return Decimal(text[:-3]) if text else Decimal(-1)


def check_threads(name, texts, want):
    """Every thread's row: runs and run time exact, stop counts by reason,
    "blocked on an MVar" for status 7."""
    check(texts.texts.get('threads-summary', '').startswith('{:,} threads'.format(len(want))),
          name + ': threads summary %r, %d threads' % (texts.texts.get('threads-summary'), len(want)))
    for tid, t in want.items():
        row = texts.rows.get('thread-%d' % tid)
        what = '%s: thread %d' % (name, tid)
        check(row is not None, what + ' has a row')
        if not row:
            continue
        check(row[0] == str(tid), what + ': tid %r' % row[0])
        check(row[2] == ms(t['run_ns']), what + ': run time %r, want %s' % (row[2], ms(t['run_ns'])))
        check(row[3] == commas(t['runs']), what + ': runs %r, want %d' % (row[3], t['runs']))
        reasons = {}
        for part in filter(None, row[5].split(', ')):
            label, count = part.rsplit(' ', 1)
            reasons[label] = int(count.replace(',', ''))
        check(sorted(reasons.values()) == sorted(t['stops'].values()),
              what + ': stop counts %r, want %r' % (reasons, t['stops']))
        if 7 in t['stops']:
            check(reasons.get('blocked on an MVar') == t['stops'][7],
                  what + ': blocked on an MVar %r times' % t['stops'][7])


def check_pauses(name, i, texts, pauses):
    """Percentiles within the histogram's 1/32 (and display rounding) of
    the exact nearest-rank ones; count, max and the 10 longest exact."""
    t = texts.texts
    key = 'p%d-pauses-all-' % i
    if not pauses:
        check(key + 'count' not in t, '%s: process %d has no pause table' % (name, i))
        return
    durations = sorted(d for _, d, _, _ in pauses)
    n = len(durations)
    check(t.get(key + 'count') == commas(n), '%s: %scount %r, want %d' % (name, key, t.get(key + 'count'), n))
    check(t.get(key + 'max') == ms(durations[-1]), '%s: %smax %r' % (name, key, t.get(key + 'max')))
    half = Decimal('0.0005')
    for q, label in ((0.5, 'p50'), (0.9, 'p90'), (0.99, 'p99')):
        exact = Decimal(durations[max(0, -(-int(q * 1000) * n // 1000) - 1)]) / Decimal(10**6)
        got = shown_ms(t.get(key + label))
        check(exact - half <= got <= exact * Decimal(33) / Decimal(32) + half,
              '%s: %s%s %s ms, exact %s ms' % (name, key, label, got, exact))
    longest = sorted(pauses, key=lambda p: (-p[1], p[0]))[:10]
    for k, (start, dur, gen, cap) in enumerate(longest):
        pre = 'p%d-longest-%d-' % (i, k)
        check(t.get(pre + 'start') == js_fixed(start / 1e9, 6) + ' s',
              '%s: %sstart %r, want %d ns' % (name, pre, t.get(pre + 'start'), start))
        check(t.get(pre + 'duration') == ms(dur), '%s: %sduration %r, want %d ns' % (name, pre, t.get(pre + 'duration'), dur))
        check(t.get(pre + 'gen') == str(gen) and t.get(pre + 'cap') == str(cap),
              '%s: %sgen/cap %r/%r' % (name, pre, t.get(pre + 'gen'), t.get(pre + 'cap')))
    check(pre + 'start' in t and 'p%d-longest-%d-start' % (i, len(longest)) not in t,
          '%s: %d longest pauses shown' % (name, len(longest)))


def check_capabilities(name, charts, caps, events):
    """Each capability's chart shows the run's whole time range, and its
    plot area is coloured running, GC and idle in the shares of that range
    `stats --caps` gives (within 2 % of the area, plus what the markers
    cover); a marker line crosses the whole plot area within 2 pixels of
    each USER_MARKER of the capability, and nowhere else."""
    shown = {c['capability']['name']: c['capability'] for c in charts if c['capability']}
    check(sorted(shown) == sorted('capability %d' % c['cap'] for c in caps),
          '%s: a chart for each capability of stats --caps: %s' % (name, sorted(shown)))
    # The run the charts draw: its events that are not metadata (nor block
    # markers), as stats times a process.
    work = [e['time'] for e in events
            if e['id'] != BLOCK_MARKER and e['id'] not in METADATA]
    first, last = min(work), max(work)
    for c in caps:
        got = shown.get('capability %d' % c['cap'])
        if not got:
            continue
        what = '%s: capability %d' % (name, c['cap'])
        check(abs(got['min'] * 1e9 - first) < 1 + 1e-9 * last and
              abs(got['max'] * 1e9 - last) < 1 + 1e-9 * last,
              what + ': time axis %s-%s s, the run %d-%d ns' % (got['min'], got['max'], first, last))
        total = got['total'] or 1
        share = {k: n / total for k, n in got['pixels'].items()}
        span = max(last - first, 1)
        want = {'running': c['mutator_ns'] / span, 'gc': c['gc_ns'] / span,
                'idle': c['idle_ns'] / span}
        print('%s: pixels %s, stats %s' % (what, {k: round(v, 4) for k, v in share.items()},
                                          {k: round(v, 4) for k, v in want.items()}))
        for k, w in want.items():
            check(abs(share[k] - w) <= 0.02 + share['marker'],
                  what + ': %s covers %.1f %% of the plot area, stats --caps says %.1f %%'
                  % (k, 100 * share[k], 100 * w))
        marks = [e['time'] / 1e9 for e in events
                 if e['type'] == 'USER_MARKER' and e['cap'] == c['cap']]
        lines, near = got['marker_lines'], 2 * got['pixel_s']
        for t in marks:
            check(any(abs(t - x) <= near for x in lines),
                  what + ': a marker line at %.6f s: lines at %s' % (t, lines))
        for x in lines:
            check(any(abs(t - x) <= near for t in marks),
                  what + ': the marker line at %.6f s is a marker\'s' % x)


def run(cmd, ok=(0,), **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    if r.returncode not in ok:
        sys.exit('%s: exit %d: %s' % (' '.join(cmd), r.returncode, r.stderr.decode()))
    return r.stdout


def probe(browser, name, page, work):
    """Opens `page` with the probe; (texts, probe result, console lines),
    or None when the probe did not run. Checks that no error showed and
    that the page's script ran to its end."""
    probed = os.path.join(work, name + '-probed.html')
    with open(page, encoding='utf-8') as f:
        text = f.read()
    check('<script src' not in text and 'http://' not in text.replace('http://www.w3.org', ''),
          name + ': the page refers to nothing outside itself')
    with open(probed, 'w', encoding='utf-8') as f:
        f.write(text.replace('<head>', '<head>' + PROBE, 1))
    dom, console = browse(browser, probed, ['--virtual-time-budget=5000', '--force-device-scale-factor=3', '--dump-dom'], work)
    texts = Texts()
    texts.feed(dom)
    check('browser-test' in texts.texts, name + ': the probe ran')
    if 'browser-test' not in texts.texts:
        return None
    result = json.loads(texts.texts['browser-test'])
    check(result['errors'] == [], name + ': no console error: %s' % result['errors'])
    check(not [l for l in console if 'Uncaught' in l or 'ERROR' in l.split(':CONSOLE')[0]],
          name + ': no error in the browser log: %s' % console)
    check(result['rendered'] == 'yes', name + ': the page script ran to its end')
    return texts, result


def check_page(browser, evtool, name, log, work, out, sections, truncated=False):
    page = os.path.join(out, name + '.html')
    ok = (3,) if truncated else (0,)  # exit 3: a truncated log
    run([evtool, 'report', log, '-o', page], ok)
    stats = json.loads(run([evtool, 'stats', '--json', '--threads', '--caps', log], ok))['files'][0]
    info = json.loads(run([evtool, 'info', '--json', log], (0, 3)))['files'][0]
    probed = probe(browser, name, page, work)
    if not probed:
        return
    texts, result = probed
    check(texts.texts.get('report-status', '').startswith('A truncated' if truncated else 'A complete'),
          name + ': status %r' % texts.texts.get('report-status'))
    check(len(result['charts']) > 0, name + ': it has charts')
    for k, c in enumerate(result['charts']):
        what = '%s: chart %d (%s)' % (name, k, c['section'])
        check(c['chart'], what + ' is a Chart.js chart')
        check(c['width'] > 0 and c['height'] > 0 and c['inked'] > 0, what + ' has drawn: %s' % c)
        check(c['points'] > 0 and c['elements'] > 0, what + ' has drawn data: %s' % c)
        plot = c['plot'] or {'width': 0, 'height': 0}
        check(plot['height'] >= 40 and plot['width'] >= 300,
              what + ' has a plot area of at least 300 x 40 pixels: %s' % plot)
    z = result['zoom']
    same = lambda rs: all(r == rs[0] for r in rs)
    span = lambda rs: rs[0][1] - rs[0][0]
    check(z['charts'] >= 2, name + ': several time charts: %d' % z['charts'])
    check(all(abs(a[0] - z['areas'][0][0]) < 0.5 and abs(a[1] - z['areas'][0][1]) < 0.5
              for a in z['areas']),
          name + ': the time charts\' plot areas line up: %s' % z['areas'])
    check(same(z['wheel']) and span(z['wheel']) < 0.7 * span(z['before']),
          name + ': the wheel zooms every time chart in: %s -> %s' % (z['before'][0], z['wheel']))
    check(same(z['drag']) and z['drag'][0][0] < z['wheel'][0][0] and
          abs(span(z['drag']) - span(z['wheel'])) < 1e-9 * span(z['before']) + 1e-12,
          name + ': a drag pans them all to earlier times: %s -> %s' % (z['wheel'][0], z['drag']))
    check(z['reset'] == z['before'], name + ': a double click shows the whole run: %s' % z['reset'])
    for sect in sections:
        check(sect in texts.texts, name + ': section ' + sect)
    srt = result['sorting']
    if stats['threads']['list']:
        runs = lambda col: [int(x.replace(',', '')) for x in col]
        want = sorted(t['runs'] for t in stats['threads']['list'])
        check(sorted(runs(srt.get('before', []))) == want, name + ': the thread table has every thread')
        check(runs(srt.get('once', [])) == want[::-1],
              name + ': a click on "runs" sorts the threads most runs first: %s' % srt.get('once'))
        check(runs(srt.get('twice', [])) == want,
              name + ': a second click sorts them fewest first: %s' % srt.get('twice'))

    procs = stats['processes']
    for t in stats['threads']['list']:  # the thread table, as stats --threads
        row = texts.rows.get('thread-%d' % t['thread'])
        want = [str(t['thread']), t['label'] or '', ms(t['run_ns']), commas(t['runs']),
                commas(t['migrations']),
                ', '.join('%s %s' % (r['reason'], commas(r['count'])) for r in
                          sorted(t['stop_reasons'], key=lambda r: (-r['count'], r['status'])))]
        check(row == want, '%s: thread %d row %r, stats --threads %r' % (name, t['thread'], row, want))
    for i, s in enumerate(procs):
        for key, want in expected_texts(i, s).items():
            got = texts.texts.get(key)
            check(got == want, '%s: #%s shows %r, stats --json says %r' % (name, key, got, want))
        if not s['heap_statistics']:  # no GC events: no GC time, MUT nor productivity
            shown = [k for k in ('mut_elapsed_ns', 'gc_elapsed_ns', 'productivity')
                     if 'p%d-%s' % (i, k) in texts.texts]
            check(not shown, '%s: %s shown for a run without GC events' % (name, shown))
    if len(procs) == 1 and not info['args']:  # a log that lost its global block
        check(not any(k in texts.texts for k in ('p0-program', 'p0-rts', 'p0-pid')),
              name + ': no identity shown where the log has none')
    elif len(procs) == 1:  # one process: info's identity is its
        t = texts.texts
        check(t.get('p0-program') == info['args'][0], name + ': program %r' % t.get('p0-program'))
        check(t.get('p0-arguments') == ' '.join(info['args'][1:]),
              name + ': arguments %r' % t.get('p0-arguments'))
        check(t.get('p0-rts') == info['rts'], name + ': RTS %r' % t.get('p0-rts'))
        check(t.get('p0-pid') == str(info['pid']), name + ': pid %r' % t.get('p0-pid'))
    if 'heap-profile' in sections:
        n = sum(t['count'] for t in info['events_by_type']
                if t['name'] == 'HEAP_PROF_SAMPLE_BEGIN')
        check(texts.texts.get('profile-summary', '').startswith('%d samples' % n),
              name + ': profile summary %r, %r samples' % (texts.texts.get('profile-summary'), n))

    events = events_in_file_order(evtool, log, work)
    check_capabilities(name, result['charts'], stats['capabilities'], events)
    check_threads(name, texts, oracle_threads(events))
    if 'spans-section' in sections:
        spans = json.loads(run([evtool, 'stats', '--json', '--spans=all', log], ok))['files'][0]
        check_spans(name, texts, spans, oracle_spans(events))
    pauses = oracle_pauses(events)
    for i, s in enumerate(procs):
        check_pauses(name, i, texts, sorted(pauses.get(s['capset'], [])))

    shot = os.path.join(out, name + '.png')
    browse(browser, page, ['--window-size=1200,2600', '--screenshot=' + shot], work)
    check(os.path.getsize(shot) > 10000, name + ': screenshot ' + shot)
    return shot


def check_diff(browser, evtool, name, base, new, band, work, out):
    """report BASE NEW: the figures of stats BASE NEW, both runs' bands
    stacked in the same colour per band, and the band that differs seen
    (its colour's pixels) in the new run's chart, not in the base's, and
    as a bar of the change chart."""
    page = os.path.join(out, name + '.html')
    run([evtool, 'report', base, new, '-o', page])
    cmp = json.loads(run([evtool, 'stats', '--json', base, new]))
    probed = probe(browser, name, page, work)
    if not probed:
        return
    texts, result = probed
    for f in cmp['comparison'][0]['figures']:  # the figures, as stats A B
        row = texts.rows.get('fig-' + f['figure'])
        check(row is not None and row[0] == f['figure'], '%s: figure row %s' % (name, f['figure']))
    want = cmp['heap_bands']['list']
    for k, b in enumerate(want):
        row = texts.rows.get('band-%d' % k)
        check(row is not None and row[:2] == [b['band'], b['status']],
              '%s: band row %d %r, stats %r' % (name, k, row, (b['band'], b['status'])))
    charts = {c['section']: c for c in result['charts']}
    for sect in ('diff-run-0', 'diff-run-1', 'diff-bands'):
        c = charts.get(sect)
        check(c is not None and c['inked'] > 0 and c['points'] > 0,
              '%s: chart %s has drawn data: %s' % (name, sect, c))
    if not all(s in charts for s in ('diff-run-0', 'diff-run-1', 'diff-bands')):
        return
    a, b, bars = charts['diff-run-0'], charts['diff-run-1'], charts['diff-bands']
    check(band not in a['colours'] or a['colours'][band] == 0,
          '%s: the base run has no %s band (%s px)' % (name, band, a['colours'].get(band)))
    check(b['colours'].get(band, 0) > 200,
          '%s: the new run shows its %s band: %s px' % (name, band, b['colours'].get(band)))
    check(bars['colours'].get(band, 0) > 50,
          '%s: the change chart shows %s as a bar: %s px' % (name, band, bars['colours'].get(band)))
    shared = [l for l in a['colours'] if l in b['colours'] and l != '(other)']
    check(len(shared) >= 3 and all(a['colours'][l] > 0 and b['colours'][l] > 0 for l in shared[:3]),
          '%s: bands of both runs drawn in both charts, one colour each: %s' % (name, shared[:3]))
    shot = os.path.join(out, name + '.png')
    browse(browser, page, ['--window-size=1200,2400', '--screenshot=' + shot], work)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    evtool, testdata, out = sys.argv[1:4]
    doc_shot = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == '--doc-screenshot' else None
    browser = chromium()
    if not browser:
        print('chromium not installed: skipped (apt-get install chromium)')
        return SKIP
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix='evtool-browser-')
    try:
        td = lambda n: os.path.join(testdata, n + '.eventlog')
        merged = os.path.join(work, 'merged.eventlog')
        run([evtool, 'merge', td('merge-a'), td('merge-b'), '-o', merged])
        check_page(browser, evtool, 'threads-n1', td('threads-n1'), work, out, ['process-0'])
        shot = check_page(browser, evtool, 'gc-n2', td('gc-n2'), work, out, ['process-0'])
        check_page(browser, evtool, 'heap-n1', td('heap-n1'), work, out,
                   ['process-0', 'heap-profile'])
        check_page(browser, evtool, 'user-n1', td('user-n1'), work, out, ['process-0', 'markers-0'])
        check_page(browser, evtool, 'spans-a', td('spans-a'), work, out,
                   ['process-0', 'spans-section', 'spans-summary'])
        check_diff(browser, evtool, 'heapdiff-hT', td('heapdiff-a-hT'), td('heapdiff-b-hT'),
                   'ghc-prim:GHC.Types.D#', work, out)
        check_diff(browser, evtool, 'heapdiff-hy', td('heapdiff-a-hy'), td('heapdiff-b-hy'),
                   'Double', work, out)
        check_diff(browser, evtool, 'heapdiff-hc', td('heapdiff-a-hc'), td('heapdiff-b-hc'),
                   'extraDoubles/main.ds/...', work, out)
        check_page(browser, evtool, 'merged', merged, work, out, ['process-0', 'process-1'])
        check_page(browser, evtool, 'killed', os.path.join(testdata, 'killed-blocks.eventlog.gz'),
                   work, out, ['process-0'], truncated=True)
        if doc_shot and shot:  # the top of the GC-heavy page, for the README
            page = os.path.join(work, 'doc.html')  # titled by the bare log name
            subprocess.run([os.path.abspath(evtool), 'report', 'gc-n2.eventlog', '-o', page],
                           cwd=testdata, check=True)
            browse(browser, page, ['--window-size=1000,1250', '--screenshot=' + doc_shot], work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print('%d failure(s)' % len(failures))
        return 1
    print('all pages good')
    return 0


if __name__ == '__main__':
    sys.exit(main())
