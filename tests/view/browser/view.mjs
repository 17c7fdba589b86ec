// evtool view's page in headless Chromium, on a real log (run.sh).
//
//   node view.mjs NODE_MODULES CHROMIUM EVTOOL LOG OUT_DIR SPANS_LOG [LOG...]
//
// 1. The whole run: each capability row's pixels that are running (a
//    thread's colour), GC (red) and idle (grey) cover the shares that
//    `evtool stats --caps --json` gives for the visible range (within 0.5%);
//    for the further LOGs too. Under each, the spark strips (sparks.mjs):
//    one per cap when the API shows sparks, none else; bars of sparks
//    created and converted in exactly the columns where the API has them.
// 2. Zoomed by URL near one RUN_THREAD event of `evtool show`, then by the
//    wheel over it down to about a microsecond: the tooltip of that event
//    is show's line for it.
//    A click there lists that thread's life, the event among it.
// 3. A range selected by shift-drag: its figures (mutator and GC per
//    capability; each process's bytes allocated and GC pauses) are those
//    of `evtool filter --from --to | evtool stats --json`, exactly (the
//    runs, GCs and pauses inside the window, whole), shown on the page;
//    its events, paged, are show's lines of the range. The same on a log
//    of many GCs (gc-n2), with its pauses.
// 4. A message typed into the search box: the view is centred on it.
//    The W, S, A and D keys and a drag zoom and pan as they say.
// 5. The timeline's rows (rows.mjs): the GC phase colours of each cap row
//    cover the shares that show's events give by ThreadScope's rules; the
//    thread rows' running, runnable and blocked colours those of
//    stats --threads and of the thread events in time order; the span
//    bars start where stats --spans puts them; the merged log has one
//    header per process (program, pid) and a heap chart for each.
// 6. The heap profile's bands of logs with one (-hc, -hy, -hT): each
//    band's share of the band pixels is its share of the census bytes
//    over the run, each sample held until the next (as the page draws
//    them), from `evtool export --format hp` (within 1%).
// 7. A FIFO fed by a running GHC program ($EVTOOL_TICKER, run.sh builds
//    it when ghc is there): the drawn range grows while it runs.
// Prints "N passed, N failed"; exits 1 on a failure.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { gcPhasesOfShow, threadStatesOfShow, rowsChecks } from './rows.mjs';
import { checkSparks } from './sparks.mjs';

const [modules, chromiumPath, evtool, log, outDir, spansLog, ...pixelLogs] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(modules), 'x.js'));
const { chromium } = require('playwright-core');
let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) { passed++; console.log('ok ' + what); } else { failed++; console.log('FAIL ' + what); }
}
function run(args, input) {
  return execFileSync(evtool, args, { input, maxBuffer: 1 << 28 });
}
function capsOf(stats) {
  const out = {};
  for (const c of JSON.parse(stats).files[0].capabilities) out[c.cap] = c;
  return out;
}

async function startView(file) {
  const proc = spawn(evtool, ['view', file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let text = '';
    proc.stdout.on('data', d => { text += d; if (text.includes('\n')) resolve(text.split('\n')[0]); });
    proc.on('exit', c => reject(new Error('evtool view exited ' + c)));
  });
  return { proc, url };
}
const { proc: server, url } = await startView(log);
const userDir = fs.mkdtempSync(path.join(process.env.TMPDIR || '/tmp', 'evtool-chromium-'));
const browser = await chromium.launchPersistentContext(userDir, {
  executablePath: chromiumPath, headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1200, height: 300 },
});
// 1. The pixels of the whole run of `file` against stats --caps.
async function checkPixels(page, file) {
  const meta = await page.evaluate(() => fetch('/api/meta').then(r => r.json()));
  const shares = await page.evaluate(() => {
    const { LABEL, ROW, capY } = window.viewLayout, { PHASE_RGB } = window.viewColours;
    const cv = document.getElementById('tl');
    const px = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
    const rows = [];
    for (let cap = 0; cap < window.tilesCaps; cap++) {
      const y0 = capY(cap), h = ROW - 6, n = { run: 0, gc: 0, idle: 0, all: 0, phases: [0, 0, 0, 0] };
      for (let y = y0; y < y0 + h; y++)
        for (let x = LABEL; x < cv.width; x++) {
          const i = 4 * (y * cv.width + x), r = px[i], g = px[i + 1], b = px[i + 2];
          if (r === 85 && g === 85 && b === 85) continue; // a marker's line
          n.all++;
          const k = PHASE_RGB.findIndex(c => c[0] === r && c[1] === g && c[2] === b);
          if (k >= 0) { n.gc++; n.phases[k]++; }
          else if (r === 224 && g === 224 && b === 224) n.idle++;
          else if (!(r === 250 && g === 250 && b === 250)) n.run++;
        }
      rows.push({ run: n.run / n.all, gc: n.gc / n.all, idle: n.idle / n.all, phases: n.phases.map(v => v / n.all) });
    }
    return rows;
  });
  // Who ran: a column that a thread ran through whole is that thread's
  // colour (one per thread id, the same on every row); the markers and
  // messages are flags: a line at each one's time, down over the rows.
  const who = await page.evaluate(() => {
    const { LABEL, ROW, capY } = window.viewLayout, cv = document.getElementById('tl');
    const px = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
    const at = (x, y) => { const i = 4 * (y * cv.width + x); return [px[i], px[i + 1], px[i + 2]].join(','); };
    let full = 0, wrong = 0;
    const tids = new Set(), flags = [];
    tiles.caps.forEach((row, cap) => {
      for (let x = 0; x < tiles.width; x++) {
        const len = Math.floor((tiles.to - tiles.from) * (x + 1) / tiles.width) - Math.floor((tiles.to - tiles.from) * x / tiles.width);
        if (!row.tid[x] || row.run_ns[x] !== len) continue;
        full++; tids.add(row.tid[x]);
        const want = window.rgbOf(row.tid[x]).join(',');
        for (let y = capY(cap); y < capY(cap) + ROW - 6; y++) {
          const got = at(LABEL + x, y);
          if (got !== want && got !== '85,85,85') { wrong++; break; }
        }
      }
    });
    for (const m of tiles.texts.filter(t => t.kind !== 'label'))
      flags.push(at(Math.round(window.xOf(m.time)), capY(0) + 3));
    return { full, wrong, tids: tids.size, flags };
  });
  check(who.wrong === 0, `${path.basename(file)}: ${who.full} columns run through by one thread (${who.tids} threads), ${who.wrong} not in its colour`);
  check(who.flags.every(c => c === '85,85,85'), `${path.basename(file)}: ${who.flags.length} markers and messages flagged: ${who.flags.filter(c => c !== '85,85,85').length} not`);
  const whole = capsOf(run(['stats', '--caps', '--json', file]));
  const span = meta.end_ns - meta.start_ns;
  for (const [cap, c] of Object.entries(whole)) {
    const want = { run: c.mutator_ns / span, gc: c.gc_ns / span };
    want.idle = 1 - want.run - want.gc;
    const got = shares[cap];
    const ok = got && ['run', 'gc', 'idle'].every(k => Math.abs(got[k] - want[k]) <= 0.005);
    check(ok, `${path.basename(file)} cap ${cap} pixels: running ${got && got.run.toFixed(3)} GC ${got && got.gc.toFixed(3)} idle ${got && got.idle.toFixed(3)}; stats --caps ${want.run.toFixed(3)} ${want.gc.toFixed(3)} ${want.idle.toFixed(3)}`);
  }
  // The GC's phases: each colour's share is its time by ThreadScope's
  // rules over show's events.
  const phases = gcPhasesOfShow(run(['show', file]).toString());
  for (const cap of Object.keys(whole)) {
    const want = (phases[cap] || [0, 0, 0, 0]).map(ns => ns / span), got = shares[cap];
    const ok = got && want.every((v, k) => Math.abs(got.phases[k] - v) <= 0.005);
    check(ok, `${path.basename(file)} cap ${cap} GC phase pixels (sync work idle done): ${got && got.phases.map(v => v.toFixed(3))}; show's events ${want.map(v => v.toFixed(3))}`);
  }

}

// 5. The bands of `file` against its hp export.
function hpSamples(file) {
  const out = [];
  let cur = null;
  for (const line of run(['export', '--format', 'hp', file, '-o', '-']).toString().split('\n')) {
    let m;
    if ((m = /^BEGIN_SAMPLE ([\d.]+)$/.exec(line))) cur = { t: Number(m[1]) * 1e9, bytes: {} };
    else if (/^END_SAMPLE/.test(line)) { out.push(cur); cur = null; }
    else if (cur && (m = /^(.*)\t(\d+)$/.exec(line))) cur.bytes[m[1]] = (cur.bytes[m[1]] || 0) + Number(m[2]);
  }
  return out;
}
async function checkBands(page, file) {
  const meta = await page.evaluate(() => fetch('/api/meta').then(r => r.json()));
  await page.waitForFunction(() => window.lastBands && window.bandsLayout, null, { timeout: 30000 });
  await page.waitForTimeout(300);
  const { names, counts } = await page.evaluate(() => {
    const { y, H } = window.bandsLayout, { LABEL } = window.viewLayout;
    const cv = document.getElementById('tl');
    const px = cv.getContext('2d').getImageData(LABEL, y, cv.width - LABEL, H).data;
    const colours = window.bandColours.map(h => [1, 3, 5].map(i => parseInt(h.slice(i, i + 2), 16)).join(','));
    const counts = new Array(window.lastBands.bands.length).fill(0);
    for (let o = 0; o < px.length; o += 4) {
      const i = colours.indexOf(px[o] + ',' + px[o + 1] + ',' + px[o + 2]);
      if (i >= 0 && i < counts.length) counts[i]++;
    }
    return { names: window.lastBands.bands, counts };
  });
  const samples = hpSamples(file);
  const want = new Array(names.length).fill(0);
  samples.forEach((s, k) => {
    const a = Math.max(s.t, meta.start_ns), b = Math.min(k + 1 < samples.length ? samples[k + 1].t : meta.end_ns, meta.end_ns);
    if (b <= a) return;
    for (const [name, v] of Object.entries(s.bytes)) {
      const i = names.indexOf(name);
      want[i >= 0 && i < names.length - 1 ? i : names.length - 1] += v * (b - a);
    }
  });
  const wsum = want.reduce((p, q) => p + q, 0), csum = counts.reduce((p, q) => p + q, 0);
  check(csum > 0 && wsum > 0, `${path.basename(file)}: bands drawn (${csum} pixels)`);
  names.forEach((name, i) => {
    const got = counts[i] / csum, exp = want[i] / wsum;
    check(Math.abs(got - exp) <= 0.01, `${path.basename(file)} band ${JSON.stringify(name)}: ${got.toFixed(4)} of the pixels, ${exp.toFixed(4)} of the census`);
  });
}

// The selected range's processes: each one's bytes allocated and GC
// pauses (count, total, min, p50, p90, p99, max, the longest) in the
// answer the page drew them from are those of `evtool filter --from --to
// | evtool stats --json`, and the page shows them. The pauses compared.
async function checkWindowProcesses(page, file, w) {
  const procs = JSON.parse(run(['stats', '--json', '-'],
    run(['filter', file, '--from', String(w.from), '--to', String(w.to)])).toString()).files[0].processes;
  const shown = await page.evaluate(() => document.getElementById('side').textContent);
  const none = { count: 0, total_ns: 0, min_ns: 0, p50_ns: 0, p90_ns: 0, p99_ns: 0, max_ns: 0, longest: [] };
  const where = `${path.basename(file)} window [${w.from}, ${w.to})`;
  let pauses = 0;
  check(procs.length > 0 && w.processes.length === procs.length, `${where}: ${w.processes.length} processes, stats ${procs.length}`);
  for (const sp of procs) {
    const all = sp.pauses ? sp.pauses.all : none;
    const want = await page.evaluate(p => window.windowProcessLine(p), { capset: sp.capset, allocated_bytes: sp.allocated_bytes, pauses: all });
    const got = w.processes.find(p => p.capset === sp.capset);
    check(got && got.allocated_bytes === sp.allocated_bytes && JSON.stringify(got.pauses) === JSON.stringify(all),
      `${where} process ${sp.capset}: allocated ${got && got.allocated_bytes}, pauses ${got && JSON.stringify(got.pauses)}; filter | stats ${sp.allocated_bytes}, ${JSON.stringify(all)}`);
    check(shown.includes(want + '\n'), `${where}: the page shows "${want}"`);
    pauses += all.count;
  }
  return pauses;
}

const errors = [];
try {
  const page = await browser.newPage();
  page.on('pageerror', e => errors.push(String(e)));
  // The page and its script are in the binary: it asks nothing of any
  // other host.
  const foreign = [];
  page.on('request', r => { if (!/^(http:\/\/127\.0\.0\.1:\d+\/|about:|data:)/.test(r.url())) foreign.push(r.url()); });
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url);
  await page.waitForFunction(() => window.drawn > 0, null, { timeout: 30000 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(outDir, 'whole.png') });

  // The time of drawing one frame, for bench/README.md (not a check).
  console.log('frame drawn in ' + (await page.evaluate(() => window.frameMs(20))).toFixed(1) + ' ms (mean of 20)');
  await checkPixels(page, log);
  const sparkMarks = {};
  for (const other of pixelLogs) {
    const v = await startView(other);
    try {
      await page.goto(v.url);
      await page.waitForFunction(() => window.drawn > 0, null, { timeout: 30000 });
      await page.waitForTimeout(300);
      await checkPixels(page, other);
      sparkMarks[path.basename(other)] = await checkSparks({ page, run, check }, other);
      if (/sparks-n2/.test(other)) await page.screenshot({ path: path.join(outDir, 'sparks.png'), fullPage: true });
      if (/gc-n2/.test(other)) { // a log of many GCs: a range selected over some
        const box = await page.locator('#tl').boundingBox();
        const y = box.y + await page.evaluate(() => window.viewLayout.capY(0)) + 11;
        await page.evaluate(() => { window.lastWindow = null; });
        await page.keyboard.down('Shift');
        await page.mouse.move(box.x + 300, y);
        await page.mouse.down();
        await page.mouse.move(box.x + 900, y, { steps: 5 });
        await page.mouse.up();
        await page.keyboard.up('Shift');
        await page.waitForFunction(() => window.lastWindow, null, { timeout: 10000 });
        await page.waitForTimeout(200);
        await page.screenshot({ path: path.join(outDir, 'window-gc.png'), fullPage: true });
        const n = await checkWindowProcesses(page, other, await page.evaluate(() => window.lastWindow));
        check(n > 1, `${path.basename(other)}: ${n} GC pauses in the selected range`);
      }
    } finally { v.proc.kill(); }
  }
  check(sparkMarks['sparks-n2.eventlog'] > 0, `spark strips checked: ${JSON.stringify(sparkMarks)} columns marked`);
  await page.goto(url);
  await page.waitForFunction(() => window.drawn > 0, null, { timeout: 30000 });

  // 2. One RUN_THREAD event of cap 0, from show, in the middle of the run.
  const lines = run(['show', log]).toString().split('\n')
    .filter(l => /^\d+: cap 0: running thread \d+$/.test(l));
  const line = lines[Math.floor(lines.length / 2)];
  const t = Number(line.split(':')[0]);
  await page.goto(`${url}#from=${t - 1000000}&to=${t + 1000000}`);
  await page.waitForFunction(() => window.drawn > 0, null, { timeout: 30000 });
  const box = await page.locator('#tl').boundingBox();
  const xOf = () => page.evaluate(tt => {
    const { LABEL } = window.viewLayout, cv = document.getElementById('tl');
    const m = /from=(\d+)&to=(\d+)/.exec(location.hash);
    return cv.getBoundingClientRect().left + LABEL + (tt - Number(m[1])) / (Number(m[2]) - Number(m[1])) * (cv.width - LABEL);
  }, t);
  const yCap0 = box.y + await page.evaluate(() => window.viewLayout.capY(0)) + 11;
  for (let i = 0; i < 60; i++) {
    const span = await page.evaluate(() => { const m = /from=(\d+)&to=(\d+)/.exec(location.hash); return m ? Number(m[2]) - Number(m[1]) : 1e18; });
    if (span <= 2000) break;
    await page.mouse.move(await xOf(), yCap0);
    await page.mouse.wheel(0, -100);
    await page.waitForTimeout(40);
  }
  await page.waitForTimeout(300);
  const x = await xOf();
  await page.mouse.move(x + 1, yCap0);
  await page.mouse.move(x, yCap0);
  await page.waitForFunction(() => document.getElementById('tip').style.display === 'block', null, { timeout: 10000 })
    .catch(() => errors.push('no tooltip'));
  await page.screenshot({ path: path.join(outDir, 'event.png') });
  const shown = await page.evaluate(() => document.getElementById('tip').dataset.show);
  check(shown === line, `tooltip at ${t}: ${JSON.stringify(shown)}, show: ${JSON.stringify(line)}`);

  // A click just after the event, inside its run: the thread is
  // highlighted and its life listed, that event among them.
  const tid = Number(/running thread (\d+)$/.exec(line)[1]);
  await page.mouse.click(x + 3, yCap0);
  await page.waitForFunction(() => window.lastThread, null, { timeout: 10000 })
    .catch(() => errors.push('no thread listed'));
  const life = await page.evaluate(() => window.lastThread);
  check(life && life.tid === tid && life.events.some(ev => ev.show === line),
        `click: thread ${life && life.tid} (want ${tid}), ${life ? life.events.length : 0} events listed`);
  await page.screenshot({ path: path.join(outDir, 'thread.png') });
  // Highlighted everywhere: on every cap row, a column that one thread ran
  // through whole is in its colour if it is the clicked thread, else
  // dimmed; here, and over the whole run (where the others ran).
  const litColumns = () => page.evaluate(() => {
    const { LABEL, ROW, capY } = window.viewLayout, cv = document.getElementById('tl');
    const px = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
    let mine = 0, others = 0, wrong = 0;
    tiles.caps.forEach((row, cap) => {
      for (let x = 0; x < tiles.width; x++) {
        const len = Math.floor((tiles.to - tiles.from) * (x + 1) / tiles.width) - Math.floor((tiles.to - tiles.from) * x / tiles.width);
        if (!row.tid[x] || row.run_ns[x] !== len) continue;
        const want = (row.tid[x] === highlight ? window.rgbOf(row.tid[x]) : dim(window.rgbOf(row.tid[x]))).join(',');
        const i = 4 * ((capY(cap) + ROW - 8) * cv.width + LABEL + x);
        if ([px[i], px[i + 1], px[i + 2]].join(',') !== want) wrong++;
        else if (row.tid[x] === highlight) mine++; else others++;
      }
    });
    return { mine, others, wrong };
  });
  const here = await litColumns();
  await page.keyboard.press('0');
  await page.waitForTimeout(500);
  const all = await litColumns();
  const lit = { mine: here.mine, others: all.others, wrong: here.wrong + all.wrong };
  check(lit.mine > 0 && lit.others > 0 && lit.wrong === 0, `click: the thread's columns lit ${lit.mine}, others dimmed ${lit.others}, ${lit.wrong} wrong`);

  // 3. A range selected with shift-drag over the whole run's view.
  const select = async (x0, x1) => {
    await page.keyboard.down('Shift');
    await page.mouse.move(box.x + x0, yCap0);
    await page.mouse.down();
    await page.mouse.move(box.x + x1, yCap0, { steps: 5 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
  };
  await page.keyboard.press('0');
  await page.waitForTimeout(500);
  await select(400, 700);
  await page.waitForFunction(() => window.lastWindow, null, { timeout: 10000 });
  await page.screenshot({ path: path.join(outDir, 'window.png') });
  const w = await page.evaluate(() => window.lastWindow);
  const slice = capsOf(run(['stats', '--caps', '--json', '-'],
    run(['filter', log, '--from', String(w.from), '--to', String(w.to)])));
  for (const c of w.caps) {
    const s = slice[c.cap] || { mutator_ns: 0, gc_ns: 0 };
    const ok = c.mutator_ns === s.mutator_ns && c.gc_ns === s.gc_ns;
    check(ok, `window [${w.from}, ${w.to}) cap ${c.cap}: mutator ${c.mutator_ns} GC ${c.gc_ns}; filter | stats ${s.mutator_ns} ${s.gc_ns}`);
  }
  // ... each process's allocation and GC pauses (checkWindowProcesses).
  await checkWindowProcesses(page, log, w);
  // ... and the events in it, 100 a page: selected over most of the run,
  // paged through to the last, they are show's lines of the range, each
  // page in time order.
  await page.waitForFunction(() => window.lastEvents && window.lastEvents.page === 1, null, { timeout: 10000 });
  await page.evaluate(() => { window.lastWindow = null; window.lastEvents = null; });
  await select(100, 1150);
  await page.waitForFunction(() => window.lastEvents && window.lastEvents.page === 1, null, { timeout: 10000 });
  const wide = await page.evaluate(() => window.lastWindow);
  await checkWindowProcesses(page, log, wide);
  const pages = [await page.evaluate(() => window.lastEvents)];
  while (pages[pages.length - 1].more && pages.length < 50) {
    await page.click('#next-events');
    await page.waitForFunction(n => window.lastEvents.page === n, pages.length + 1, { timeout: 10000 });
    pages.push(await page.evaluate(() => window.lastEvents));
  }
  {
    const timeOf = l => Number(l.split(':')[0]);
    const inRange = run(['show', log]).toString().split('\n')
      .filter(l => /^\d+: /.test(l) && !l.includes('event block') && timeOf(l) >= wide.from && timeOf(l) < wide.to);
    const got = pages.flatMap(p => p.lines);
    const ordered = pages.every(p => p.lines.every((l, i) => i === 0 || timeOf(p.lines[i - 1]) <= timeOf(l)));
    const full = pages.every((p, i) => p.lines.length === (i + 1 < pages.length ? 100 : p.lines.length));
    check(pages.length > 1 && !pages[pages.length - 1].more && full && ordered && got.slice().sort().join('\n') === inRange.slice().sort().join('\n'),
          `window [${wide.from}, ${wide.to}) events: pages of ${pages.map(p => p.lines.length)} lines, each in time order ${ordered}; show: ${inRange.length} in the range`);
  }
  // 4. Search: a user message or marker of show's, typed in; the view is
  //    centred on it.
  const said = run(['show', log]).toString().split('\n')
    .map(l => /^(\d+): cap \d+: (?:marker: )?(worker b start)$/.exec(l)).find(m => m);
  check(!!said, 'show has the message "worker b start"');
  if (said) {
    await page.fill('#q', said[2]);
    await page.press('#q', 'Enter');
    await page.waitForTimeout(700);
    const range = await page.evaluate(() => /from=(\d+)&to=(\d+)/.exec(location.hash).slice(1).map(Number));
    const at = Number(said[1]);
    check(range[0] <= at && at < range[1], `search ${JSON.stringify(said[2])} at ${at}: view ${range}`);
  }
  // ... and n jumps to each next hit of a search of several.
  await page.fill('#q', 'worker');
  await page.press('#q', 'Enter');
  await page.waitForTimeout(700);
  await page.evaluate(() => document.activeElement.blur());
  const times = await page.evaluate(() => hits.map(h => h.time));
  let jumped = 0;
  for (let k = 1; k < Math.min(times.length, 4); k++) {
    await page.keyboard.press('n');
    await page.waitForTimeout(300);
    const r = await page.evaluate(() => /from=(\d+)&to=(\d+)/.exec(location.hash).slice(1).map(Number));
    if (r[0] <= times[k] && times[k] < r[1]) jumped++;
  }
  check(times.length >= 2 && jumped === Math.min(times.length, 4) - 1, `search "worker": ${times.length} hits, n jumped to ${jumped} of the next`);
  // 4b. The keys and a drag: from the middle third of the run, W and S
  //     zoom by 0.8 and 1.25 about the centre, A and D pan by a fifth of
  //     the range, a drag of 100 pixels to the left pans by 100 pixels'
  //     time; each shown in the URL.
  {
    const m = await page.evaluate(() => fetch('/api/meta').then(r => r.json()));
    const third = Math.floor((m.end_ns - m.start_ns) / 3);
    const range = () => page.evaluate(() => /from=(\d+)&to=(\d+)/.exec(location.hash).slice(1).map(Number));
    // Keys go to the search box while it has the focus.
    await page.evaluate(() => document.activeElement.blur());
    await page.evaluate(([a, b]) => { location.hash = 'from=' + a + '&to=' + b; }, [m.start_ns + third, m.start_ns + 2 * third]);
    await page.waitForTimeout(300);
    let [a, b] = await range();
    const near = (x, y) => Math.abs(x - y) <= 1;
    for (const [key, f] of [['w', (p, q) => { const c = (p + q) / 2; return [c - (c - p) * 0.8, c + (q - c) * 0.8]; }],
                            ['s', (p, q) => { const c = (p + q) / 2; return [c - (c - p) * 1.25, c + (q - c) * 1.25]; }],
                            ['a', (p, q) => [p - (q - p) * 0.2, q - (q - p) * 0.2]],
                            ['d', (p, q) => [p + (q - p) * 0.2, q + (q - p) * 0.2]]]) {
      await page.keyboard.press(key);
      await page.waitForTimeout(200);
      const want = f(a, b), got = await range();
      check(near(got[0], want[0]) && near(got[1], want[1]), `key ${key.toUpperCase()}: [${a}, ${b}) -> [${got}), want [${want.map(Math.round)})`);
      [a, b] = got;
    }
    const w = await page.evaluate(() => document.getElementById('tl').width - window.viewLayout.LABEL);
    await page.mouse.move(box.x + 700, yCap0);
    await page.mouse.down();
    await page.mouse.move(box.x + 600, yCap0, { steps: 5 });
    await page.mouse.up();
    await page.waitForTimeout(200);
    const got = await range(), d = 100 / w * (b - a);
    check(near(got[0], a + d) && near(got[1], b + d), `drag 100 px left: [${a}, ${b}) -> [${got}), want [${Math.round(a + d)}, ${Math.round(b + d)})`);
  }
  // 5. The rows of the timeline, on the merged log and the further ones.
  const counts = await rowsChecks({ page, url, startView, run, check, outDir,
    logs: { merged: log, threads: pixelLogs.find(f => /threads-n2/.test(f)), spans: spansLog } });
  check(counts.threads > 0 && counts.spans > 0 && counts.headers === 2,
        `rows checked: ${counts.threads} thread rows, ${counts.spans} span names, ${counts.headers} process headers`);
  // 6. Heap-profile bands (the page is taller: they are at its bottom).
  //    Off the last rows page first: its server is gone, and a resize
  //    there would fetch from it.
  await page.goto('about:blank');
  await page.setViewportSize({ width: 1200, height: 480 });
  for (const name of ['prof-n2.eventlog', 'heapdiff-a-hy.eventlog', 'hpt-n1.eventlog']) {
    const file = path.join(path.dirname(pixelLogs[0]), name);
    const v = await startView(file);
    try {
      await page.goto(v.url);
      await page.waitForFunction(() => window.drawn > 0, null, { timeout: 30000 });
      await checkBands(page, file);
      await page.screenshot({ path: path.join(outDir, 'bands-' + name.replace('.eventlog', '.png')) });
    } finally { v.proc.kill(); }
  }
  // 7. A FIFO fed by a running GHC program (tests/view/ticker.hs, built
  //    by run.sh when ghc is there): the range the page draws grows while
  //    the program runs, and is the whole run once the log is complete.
  if (process.env.EVTOOL_TICKER) {
    const dir = fs.mkdtempSync(path.join(process.env.TMPDIR || '/tmp', 'evtool-fifo-'));
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const started = startView(fifo);
    const prog = spawn(process.env.EVTOOL_TICKER, ['+RTS', '-l', '-ol' + fifo, '-RTS'], { stdio: 'ignore' });
    const v = await started;
    try {
      await page.goto(v.url);
      // Sampled until the log is complete and drawn (a slow server, as
      // under a sanitizer, may still be reading the FIFO after the program
      // ends).
      const seen = [], t0 = Date.now();
      for (;;) {
        const [to, done] = await page.evaluate(() => fetch('/api/meta').then(r => r.json())
          .then(m => [tiles ? tiles.to : 0, m.complete && tiles && tiles.to === m.end_ns]));
        if (!seen.length || to !== seen[seen.length - 1]) seen.push(to);
        if ((done && prog.exitCode !== null) || Date.now() - t0 > 60000) break;
        await page.waitForTimeout(100);
      }
      const end = await page.evaluate(() => fetch('/api/meta').then(r => r.json()).then(m => [m.end_ns, tiles.to]));
      await page.screenshot({ path: path.join(outDir, 'live.png') });
      const grew = seen.filter(t => t > 1); // 1: the empty log's range
      check(grew.length >= 2 && grew.every((t, i) => i === 0 || t > grew[i - 1]),
            `live FIFO: the drawn range's end grew as the program wrote its log: ${grew}`);
      check(end[0] === end[1], `live FIFO: complete, the whole run drawn: to ${end[1]}, meta end ${end[0]}`);
    } finally { v.proc.kill(); prog.kill(); fs.rmSync(dir, { recursive: true, force: true }); }
  } else {
    console.log('skip live FIFO: no ghc');
  }
  check(errors.length === 0, 'no page errors: ' + errors.join('; '));
  check(foreign.length === 0, 'no request but to evtool view: ' + foreign.slice(0, 3).join(' '));
} finally {
  await browser.close();
  server.kill();
  fs.rmSync(userDir, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
