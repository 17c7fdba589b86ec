// The rows of evtool view's timeline in headless Chromium (view.mjs calls
// rowsChecks): what a person sees, from the canvas's pixels, against what
// show's events and the stats tables predict.
import path from 'node:path';

// Each cap's GC phases (sync, work, idle, done) in ns, from show's text,
// by ThreadScope's rules (Events/EventDuration.hs): "starting GC" opens
// sync; "GC working", "GC idle" and "GC done" each end the phase open
// unless it is their own and open theirs; "finished GC" ends it; a
// running or stopping thread or spark stats line turns the open phase
// into sync from its start. A GC still open at the end counts nothing.
export function gcPhasesOfShow(text) {
  const next = { 'GC working': 1, 'GC idle': 2, 'GC done': 3, 'finished GC': -1 };
  const open = {}, out = {};
  for (const line of text.split('\n')) {
    const m = /^(\d+): cap (\d+): (.*)$/.exec(line);
    if (!m) continue;
    const t = Number(m[1]), cap = m[2], what = m[3];
    const o = open[cap], acc = out[cap] || (out[cap] = [0, 0, 0, 0]);
    if (what === 'starting GC') open[cap] = { ph: 0, since: t };
    else if (what in next && o && o.ph !== next[what]) {
      acc[o.ph] += t - o.since;
      open[cap] = next[what] < 0 ? null : { ph: next[what], since: t };
    } else if (o && /^(running thread|stopping thread|spark stats)/.test(what)) o.ph = 0;
  }
  return out;
}

// What a STOP_THREAD's text leaves its thread in: runnable, finished
// (null) or blocked of a kind (as the page colours it).
function afterStop(reason) {
  if (/^(heap overflow|stack overflow|thread yielding|thread migrating)/.test(reason)) return 'runnable';
  if (reason.startsWith('thread finished')) return null;
  const kinds = [[/MVar/, 'mvar'], [/black hole/, 'blackhole'], [/I\/O|asyncDoProc/, 'io'], [/threadDelay/, 'delay'],
    [/STM/, 'stm'], [/foreign call/, 'foreign'], [/throwTo/, 'throwto']];
  const k = kinds.find(([re]) => re.test(reason));
  return 'blocked:' + (k ? k[1] : 'other');
}

// Each thread's runnable and blocked (by kind) ns, from show's lines in
// their (time) order: created, woken or made runnable is runnable, a stop
// leaves it as its reason says, running ends the state.
export function threadStatesOfShow(text) {
  const st = {};
  const at = tid => st[tid] || (st[tid] = { state: null, since: 0, runnable: 0, blocked: {} });
  const close = (s, t) => {
    if (s.state === 'runnable') s.runnable += t - s.since;
    else if (s.state && s.state.startsWith('blocked:')) {
      const k = s.state.slice(8); s.blocked[k] = (s.blocked[k] || 0) + t - s.since;
    }
  };
  for (const line of text.split('\n')) {
    let m = /^(\d+): cap \d+: (creating|running) thread (\d+)$/.exec(line), next, tid, t;
    if (m) { t = Number(m[1]); tid = m[3]; next = m[2] === 'running' ? 'running' : at(tid).state ? undefined : 'runnable'; }
    else if ((m = /^(\d+): cap \d+: stopping thread (\d+) \((.*)\)$/.exec(line))) { t = Number(m[1]); tid = m[2]; next = afterStop(m[3]); }
    else if ((m = /^(\d+): cap \d+: (?:thread (\d+) is runnable|waking up thread (\d+) on cap \d+)$/.exec(line))) {
      t = Number(m[1]); tid = m[2] || m[3];
      next = at(tid).state && at(tid).state.startsWith('blocked:') ? 'runnable' : undefined;
    } else continue;
    if (next === undefined) continue;
    const s = at(tid);
    close(s, t);
    s.state = next; s.since = t;
  }
  return st;
}

// The shares of each colour in the rows [y, y + h) of the timeline's
// columns (from LABEL), as a map 'r,g,b' -> share.
async function colourShares(page, y, h) {
  return page.evaluate(([y0, hh]) => {
    const { LABEL } = window.viewLayout, cv = document.getElementById('tl');
    const px = cv.getContext('2d').getImageData(LABEL, y0, cv.width - LABEL, hh).data, n = {};
    for (let i = 0; i < px.length; i += 4) { const k = px[i] + ',' + px[i + 1] + ',' + px[i + 2]; n[k] = (n[k] || 0) + 1; }
    for (const k in n) n[k] /= px.length / 4;
    return n;
  }, [y, h]);
}

// Opens the page and waits for the picture of the complete index.
async function open(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => (window.drawn || 0) > 0 && window.viewLayout.current, null, { timeout: 30000 });
  await page.waitForFunction(() => fetch('/api/meta').then(r => r.json()).then(m => m.complete), null, { timeout: 30000 });
  await page.waitForTimeout(700);
}

// The thread rows of `file` (threads shown with T) against stats
// --threads (running) and the thread events in time order (runnable,
// blocked by kind).
async function threadRows({ page, startView, run, check, outDir }, file) {
  const v = await startView(file);
  let rows = 0;
  try {
    await open(page, v.url);
    await page.keyboard.press('t');
    await page.waitForFunction(() => window.viewLayout.current.threads.length > 0, null, { timeout: 10000 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(outDir, 'threads.png'), fullPage: true });
    const meta = await page.evaluate(() => fetch('/api/meta').then(r => r.json()));
    const span = meta.end_ns - meta.start_ns;
    const stats = JSON.parse(run(['stats', '--threads', '--json', file])).files[0].threads.list;
    const states = threadStatesOfShow(run(['show', file]).toString());
    const { layout, colours } = await page.evaluate(() => ({
      layout: window.viewLayout.current.threads.map(r => ({ tid: r.t.tid, y: r.y, rgb: window.rgbOf(r.t.tid) })),
      colours: window.viewColours }));
    for (const r of layout) {
      const got = await colourShares(page, r.y, 12), key = c => c.join(',');
      const want = { run: (stats.find(t => t.thread === r.tid) || { run_ns: 0 }).run_ns / span };
      const s = states[r.tid] || { runnable: 0, blocked: {} };
      want.runnable = s.runnable / span;
      want.blocked = Object.values(s.blocked).reduce((a, b) => a + b, 0) / span;
      const have = { run: got[key(r.rgb)] || 0, runnable: got[key(colours.RUNNABLE)] || 0,
        blocked: Object.values(colours.BLOCKED).reduce((a, c) => a + (got[key(c)] || 0), 0) };
      const ok = ['run', 'runnable', 'blocked'].every(k => Math.abs(have[k] - want[k]) <= 0.005);
      check(ok, `${path.basename(file)} thread ${r.tid} row pixels: running ${have.run.toFixed(3)} runnable ${have.runnable.toFixed(3)} blocked ${have.blocked.toFixed(3)}; stats --threads and its events ${want.run.toFixed(3)} ${want.runnable.toFixed(3)} ${want.blocked.toFixed(3)}`);
      // Blocked on what: each kind's colour where the events say.
      for (const [kind, ns] of Object.entries(s.blocked)) {
        const share = got[key(colours.BLOCKED[kind])] || 0;
        check(Math.abs(share - ns / span) <= 0.01, `${path.basename(file)} thread ${r.tid} blocked on ${kind}: pixels ${share.toFixed(3)}, events ${(ns / span).toFixed(3)}`);
      }
      rows++;
    }
  } finally { v.proc.kill(); }
  return rows;
}

// One run of a thread of `file` (RUN_THREAD to its STOP_THREAD in show's
// lines), zoomed in to about a microsecond around it with the thread rows
// shown: the thread's row is its colour over the whole height of every
// column inside the run and nowhere in the columns outside it (the rows
// drawn from its events, not from buckets of 4 us); hovering the row at
// the run's start shows the RUN_THREAD line as show prints it.
async function zoomedThreadRun({ page, startView, run, check, outDir }, file) {
  const lines = run(['show', file]).toString().split('\n');
  const evs = lines.map(l => /^(\d+): cap \d+: (running|stopping) thread (\d+)\b/.exec(l)).filter(m => m)
    .map(m => ({ t: Number(m[1]), what: m[2], tid: Number(m[3]) }));
  // A run of at least 100 ns with no other event of its thread within
  // 600 ns of it, from the middle of the log.
  let pick = null;
  for (let i = Math.floor(evs.length / 2); i < evs.length && !pick; i++) {
    const a = evs[i], b = evs.slice(i + 1).find(e => e.tid === a.tid);
    if (a.what !== 'running' || !b || b.what !== 'stopping' || b.t - a.t < 100) continue;
    const near = evs.some(e => e.tid === a.tid && e !== a && e !== b && Math.abs(e.t - (a.t + b.t) / 2) < 600 + (b.t - a.t) / 2);
    if (!near) pick = { tid: a.tid, from: a.t, to: b.t, line: lines.find(l => l.startsWith(a.t + ': ') && l.endsWith('running thread ' + a.tid)) };
  }
  check(!!pick, `${path.basename(file)}: a run to zoom into`);
  if (!pick) return 0;
  const v = await startView(file);
  try {
    await open(page, v.url);
    await page.keyboard.press('t');
    await page.waitForFunction(() => window.viewLayout.current.threads.length > 0, null, { timeout: 10000 });
    const mid = Math.round((pick.from + pick.to) / 2), half = 500 + Math.round((pick.to - pick.from) / 2);
    const drawn = await page.evaluate(() => window.drawn);
    await page.evaluate(([a, b]) => { location.hash = 'from=' + a + '&to=' + b; }, [mid - half, mid + half]);
    await page.waitForFunction(n => window.drawn > n, drawn, { timeout: 10000 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(outDir, 'thread-run.png') });
    const got = await page.evaluate(tid => {
      const L = window.viewLayout.current, row = L.threads.find(r => r.t.tid === tid);
      if (!row) return null;
      const { LABEL } = window.viewLayout, cv = document.getElementById('tl'), rgb = window.rgbOf(tid);
      const w = cv.width - LABEL, h = 12, px = cv.getContext('2d').getImageData(LABEL, row.y, w, h).data;
      const cols = [];
      for (let x = 0; x < w; x++) {
        let n = 0;
        for (let y = 0; y < h; y++) { const i = 4 * (y * w + x); if (px[i] === rgb[0] && px[i + 1] === rgb[1] && px[i + 2] === rgb[2]) n++; }
        cols.push(n);
      }
      // The range drawn (the page widens one of under 1 ns a pixel).
      return { cols, h, y: row.y, from: tiles.from, to: tiles.to };
    }, pick.tid);
    check(!!got, `${path.basename(file)}: thread ${pick.tid} has a row`);
    if (!got) return 0;
    // Column x covers [lo, hi) as the server cuts the range.
    const w = got.cols.length, span = got.to - got.from;
    let inside = 0, wrong = [];
    got.cols.forEach((n, x) => {
      const lo = got.from + Math.floor(span * x / w), hi = got.from + Math.floor(span * (x + 1) / w);
      if (lo >= pick.from && hi <= pick.to) { inside++; if (n !== got.h) wrong.push(x + ':' + n); }
      else if (hi <= pick.from || lo >= pick.to) { if (n !== 0) wrong.push(x + ':' + n); }
    });
    check(inside > 50 && wrong.length === 0,
          `${path.basename(file)} thread ${pick.tid} zoomed to [${got.from}, ${got.to}): its run [${pick.from}, ${pick.to}) fills ${inside} columns, ${wrong.length} columns wrong ${wrong.slice(0, 8).join(' ')}`);
    // The tooltip on the row at the run's start: show's RUN_THREAD line.
    const box = await page.locator('#tl').boundingBox();
    const x = box.x + await page.evaluate(t => window.xOf(t), pick.from) + 0.5, y = box.y + got.y + 6;
    await page.mouse.move(x + 2, y);
    await page.mouse.move(x, y);
    await page.waitForFunction(() => document.getElementById('tip').style.display === 'block', null, { timeout: 10000 }).catch(() => {});
    const shown = await page.evaluate(() => document.getElementById('tip').dataset.show);
    check(shown === pick.line, `${path.basename(file)} thread ${pick.tid} row tooltip at ${pick.from}: ${JSON.stringify(shown)}, show: ${JSON.stringify(pick.line)}`);
  } finally { v.proc.kill(); }
  return 1;
}

// The span bars of `file`: each name's first bar starts at its first
// span's start as stats --spans gives it; a name of one span ends where
// that span ends.
async function spanBars({ page, startView, run, check, outDir }, file) {
  const v = await startView(file);
  let names = 0;
  try {
    await open(page, v.url);
    await page.screenshot({ path: path.join(outDir, 'spans.png'), fullPage: true });
    const list = JSON.parse(run(['stats', '--spans', '--json', file])).files[0].spans.list;
    const lanes = await page.evaluate(() => window.viewLayout.current.lanes);
    for (const s of list) {
      const lane = lanes.find(l => l.name === s.name);
      if (!s.count) { check(!!lane, `span ${s.name}: a lane, no bar`); continue; }
      const bar = await page.evaluate(([y, first, last]) => {
        const { LABEL } = window.viewLayout, cv = document.getElementById('tl');
        const px = cv.getContext('2d').getImageData(0, y + 4, cv.width, 1).data;
        let lo = -1, hi = -1;
        for (let x = LABEL; x < cv.width; x++) {
          const i = 4 * x;
          if (px[i] === 250 && px[i + 1] === 250 && px[i + 2] === 250) continue;
          if (lo < 0) lo = x;
          hi = x;
        }
        return { lo, hi, x0: Math.floor(window.xOf(first)), x1: Math.round(window.xOf(last)) - 1 };
      }, [lane.y, s.first_ns, s.first_ns + s.total_ns]);
      const ok = Math.abs(bar.lo - bar.x0) <= 1 && (s.count > 1 || Math.abs(bar.hi - bar.x1) <= 1);
      check(ok, `span ${s.name} (${s.count}): bar pixels ${bar.lo}..${bar.hi}, stats --spans first at x ${bar.x0}${s.count === 1 ? ' to ' + bar.x1 : ''}`);
      names++;
    }
  } finally { v.proc.kill(); }
  return names;
}

// The merged log: one header per process, naming its program and pid
// (stats' processes), and a heap chart per process.
async function processGroups({ page, url, run, check, outDir }, file) {
  await open(page, url);
  await page.screenshot({ path: path.join(outDir, 'processes.png'), fullPage: true });
  const procs = JSON.parse(run(['stats', '--json', file])).files[0].processes;
  const seen = await page.evaluate(() => {
    const { HEADER_RGB } = window.viewColours, cv = document.getElementById('tl');
    const px = cv.getContext('2d').getImageData(2, 0, 1, cv.height).data, L = window.viewLayout.current;
    let bands = 0, inside = false;
    for (let y = 0; y < cv.height; y++) {
      const on = px[4 * y] === HEADER_RGB[0] && px[4 * y + 1] === HEADER_RGB[1] && px[4 * y + 2] === HEADER_RGB[2];
      if (on && !inside) bands++;
      inside = on;
    }
    // A heap chart shows the heap's size as a blue line.
    const charts = [];
    for (let y = L.heapY; y < L.sparksY; y += window.viewLayout.HEAP || 90) {
      const d = cv.getContext('2d').getImageData(0, y, cv.width, 90).data;
      let blue = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i + 2] - d[i] > 80 && d[i + 2] > 150) blue++; // the line, antialiased
      charts.push(blue);
    }
    return { bands, texts: L.headers.map(h => h.text), caps: L.headers.map(h => h.p.caps), charts };
  });
  check(seen.bands === procs.length && procs.every((p, i) => seen.texts[i] && seen.texts[i].includes('pid ' + p.pid) && seen.texts[i].startsWith('./worker')),
        `merged log: ${seen.bands} header bands ${JSON.stringify(seen.texts)}; stats: ${procs.length} processes, pids ${procs.map(p => p.pid)}`);
  check(seen.charts.length === procs.length && seen.charts.every(n => n > 0),
        `merged log: heap charts with a size line ${JSON.stringify(seen.charts)}, one per process`);
  return seen.bands;
}

export async function rowsChecks(ctx) {
  const headers = await processGroups(ctx, ctx.logs.merged);
  const threads = await threadRows(ctx, ctx.logs.threads) + await zoomedThreadRun(ctx, ctx.logs.threads);
  const spans = await spanBars(ctx, ctx.logs.spans);
  return { headers, threads, spans };
}
