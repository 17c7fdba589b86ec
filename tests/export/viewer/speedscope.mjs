// Loads profiles into the real speedscope app (its built index.html from
// the npm package) in headless Chromium and checks that each one loaded:
// no import error, no page error, and the names it must show visible in
// the page (the profile selector and the sandwich view's frame table).
//
//   node speedscope.mjs NODE_MODULES CHROMIUM OUT_DIR PROFILE NAME... [-- PROFILE NAME...]
//
// Each PROFILE is followed by the names to find; "--" separates profiles.
// With EVTOOL_VIEWER_PICKER set, the profile picker is opened too (its
// names count as shown) and shot as PROFILE.profiles.png, and the sandwich
// view as PROFILE.sandwich.png (the screenshots in doc/).
// A PNG of each loaded profile is written to OUT_DIR (PROFILE's base name
// + ".png"). The app and the profiles are served from 127.0.0.1 only, and
// the profile is passed as #profileURL=.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const [modules, chromiumPath, outDir, ...rest] = process.argv.slice(2);
const require = createRequire(path.join(modules, 'x.js'));
const { chromium } = require('playwright-core');
const app = path.join(modules, 'speedscope', 'dist', 'release');

const jobs = [];
for (const arg of rest) {
  if (arg === '--' || jobs.length === 0) {
    if (arg !== '--') jobs.push({ file: arg, names: [] });
    else jobs.push(null);
  } else if (jobs[jobs.length - 1] === null) {
    jobs[jobs.length - 1] = { file: arg, names: [] };
  } else {
    jobs[jobs.length - 1].names.push(arg);
  }
}

const types = { '.html': 'text/html', '.js': 'text/javascript',
  '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm',
  '.png': 'image/png', '.woff2': 'font/woff2' };
const server = http.createServer((req, res) => {
  const url = decodeURIComponent(req.url.split(/[?#]/)[0]);
  let file;
  if (url.startsWith('/profile/')) file = jobs[Number(url.slice(9))]?.file;
  else file = path.join(app, path.normalize(url === '/' ? '/index.html' : url));
  if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.writeHead(404); res.end(); return;
  }
  res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
  fs.createReadStream(file).pipe(res);
});
await new Promise(r => server.listen(0, '127.0.0.1', r));
const port = server.address().port;

const userDir = fs.mkdtempSync(path.join(process.env.TMPDIR || '/tmp', 'evtool-chromium-'));
const browser = await chromium.launchPersistentContext(userDir, {
  executablePath: chromiumPath, headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run',
         '--disable-background-networking', '--disable-component-update',
         '--disable-sync'],
  viewport: { width: 1000, height: 600 },
});
let failed = 0;
try {
  for (const [i, job] of jobs.entries()) {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', e => errors.push(String(e)));
    page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('dialog', d => { errors.push('dialog: ' + d.message()); d.dismiss(); });
    const name = path.basename(job.file);
    await page.goto(`http://127.0.0.1:${port}/index.html#profileURL=` +
                    encodeURIComponent(`http://127.0.0.1:${port}/profile/${i}`));
    // Loaded: the flame chart's canvas is there and the loading text gone.
    await page.waitForFunction(() => document.querySelectorAll('canvas').length > 0 &&
      !/Loading|Drop a file/.test(document.body.innerText), null, { timeout: 60000 })
      .catch(() => errors.push('the profile did not load within 60 s (a loaded machine is slow, not wrong)'));
    await page.screenshot({ path: path.join(outDir, name + '.png') });
    const profiles = await page.innerText('body');
    await page.keyboard.press('3'); // the sandwich view: a table of frames
    await page.waitForTimeout(300);
    let text = profiles + '\n' + await page.innerText('body');
    if (process.env.EVTOOL_VIEWER_PICKER) {
      await page.screenshot({ path: path.join(outDir, name + '.sandwich.png') });
      // The profile picker (a click on the title) lists every track.
      await page.click('text=/\\(1\\/\\d+\\)/').catch(e => errors.push(String(e)));
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(outDir, name + '.profiles.png') });
      text += '\n' + await page.innerText('body');
    }
    if (/Something went wrong|Unrecognized format|Failed to load/i.test(text))
      errors.push('import error shown: ' + text.slice(0, 200));
    const missing = job.names.filter(n => !text.includes(n));
    if (missing.length) errors.push('not shown: ' + missing.join(', '));
    if (errors.length) {
      failed++;
      console.log(`FAIL ${name}:\n  ` + errors.join('\n  '));
    } else {
      console.log(`ok ${name}: ${job.names.join(', ')}`);
    }
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
  fs.rmSync(userDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
