// The spark strips under the timeline, as ThreadScope's spark views: one
// strip "cap N sparks" per capability, drawn when the view's /api/tiles
// shows sparks and only then; in each, the columns with a bar of sparks
// created (above the middle) and converted (below it) are exactly the
// spans where the API, asked again here for the page's range and width,
// says that cap created or converted any. Over the whole run, the API's
// sums are the cap's last SPARK_COUNTERS totals in show's lines.
import path from 'node:path';

function lastCounters(show) {
  const out = {};
  for (const m of show.matchAll(/^\d+: cap (\d+): spark stats: (\d+) created, (\d+) converted/gm))
    out[m[1]] = { created: Number(m[2]), converted: Number(m[3]) };
  return out;
}
const columns = values => values.flatMap((v, x) => (v > 0 ? [x] : []));
function diff(got, want) {
  const g = new Set(got), w = new Set(want);
  return { missing: want.filter(x => !g.has(x)).length, extra: got.filter(x => !w.has(x)).length };
}

export async function checkSparks({ page, run, check }, file) {
  const seen = await page.evaluate(() => {
    const { LABEL } = window.viewLayout, { SPARK_RGB = {} } = window.viewColours;
    const L = window.viewLayout.current, cv = document.getElementById('tl');
    const px = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
    const is = (x, y, rgb = []) => { const i = 4 * (y * cv.width + x); return px[i] === rgb[0] && px[i + 1] === rgb[1] && px[i + 2] === rgb[2]; };
    const strips = (L.sparks || []).map(({ cap, y, h }) => {
      const mid = y + Math.floor(h / 2), created = [], converted = [];
      for (let x = 0; x < tiles.width; x++) {
        let up = false, down = false;
        for (let yy = y; yy < mid; yy++) up = up || is(LABEL + x, yy, SPARK_RGB.created);
        for (let yy = mid; yy < y + h; yy++) down = down || is(LABEL + x, yy, SPARK_RGB.converted);
        if (up) created.push(x);
        if (down) converted.push(x);
      }
      return { cap, created, converted };
    });
    return { strips, q: 'from=' + tiles.from + '&to=' + tiles.to + '&width=' + tiles.width };
  });
  const api = await page.evaluate(q => fetch('/api/tiles?' + q).then(r => r.json()), seen.q);
  const name = path.basename(file);
  const any = api.caps.some(c => c.sparks_created.some(v => v > 0) || c.sparks_converted.some(v => v > 0) ||
                                 c.spark_pool.some(v => v > 0));
  check(seen.strips.length === (any ? api.caps.length : 0),
        `${name}: ${seen.strips.length} spark strips; the API: ${api.caps.length} caps, sparks ${any ? '' : 'not '}shown`);
  if (!any) return 0;
  const counters = lastCounters(run(['show', file]).toString());
  const meta = await page.evaluate(() => fetch('/api/meta').then(r => r.json()));
  const whole = api.from === meta.start_ns && api.to === meta.end_ns;
  let marked = 0;
  api.caps.forEach((c, i) => {
    const s = seen.strips[i] || { cap: -1, created: [], converted: [] };
    const want = { created: columns(c.sparks_created), converted: columns(c.sparks_converted) };
    for (const k of ['created', 'converted']) {
      const d = diff(s[k], want[k]);
      check(s.cap === c.cap && d.missing === 0 && d.extra === 0,
            `${name} cap ${c.cap} sparks strip: ${s[k].length} columns with ${k} bars; the API: ${want[k].length} spans with sparks ${k} (${d.missing} without a bar, ${d.extra} bars where none)`);
      marked += s[k].length;
    }
    const sum = k => c['sparks_' + k].reduce((p, q) => p + q, 0), last = counters[c.cap] || {};
    check(whole && sum('created') === last.created && sum('converted') === last.converted,
          `${name} cap ${c.cap}: the whole run's API sparks created ${sum('created')} converted ${sum('converted')}; show's last spark stats ${last.created} ${last.converted}`);
  });
  return marked;
}
