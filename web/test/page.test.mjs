// Drives the built playground page (web/dist) in headless Chromium and checks it against the
// native binary: every lesson's outputs equal what `tensh test --bless` writes natively, an
// `explain` picture is SVG with its byte labels, an error shows as text, Stop interrupts
// `loop {}` without losing the session, Python syntax runs, a shared link restores the
// session with its lesson edits and exercise answers, `:why` outlives a picture's redraw,
// a lesson reads on a projector (1024x768: no output cut, no step hidden, labels of 12 px
// and more), the module goes compressed, and the page reloads offline. Prints the page's
// weight and timings, and takes a screenshot: into target/page-test/ unless
// `--screenshot PATH` names another place (docs/pictures/web-page.png is refreshed so, by
// hand: `web/test/run --screenshot docs/pictures/web-page.png`). Run by web/test/run.

import { chromium } from 'playwright-core';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tensh = path.join(root, 'target/release/tensh');
const dist = path.join(root, 'web/dist');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const screenshotAt = process.argv.indexOf('--screenshot');
const screenshot = screenshotAt > 0 ? path.resolve(process.argv[screenshotAt + 1])
  : path.join(root, 'target/page-test/web-page.png');
let failures = 0;

function check(ok, what, detail = '') {
  if (ok) console.log(`ok   ${what}`);
  else { failures += 1; console.log(`FAIL ${what}${detail ? `\n     ${detail}` : ''}`); }
}

// ---------------------------------------------------------------------------------------
// The native side: each lesson's inputs, run by the native binary as `tensh test --bless`.

/** A lesson's sessions as the page shows them in one language (a part given in both shows
 * its twin in the twin's language): [{python, fresh, entries: [{input, expected}]}]. */
function blocksOf(lesson, python) {
  return lesson.parts.filter((p) => p.block)
    .map((p) => (p.twin && p.twin.python === python ? p.twin : p.block));
}

/** What the native binary prints for each entry of `blocks`, in order. */
function nativeOutputs(name, blocks) {
  const lines = [`# ${name}`, ''];
  for (const b of blocks) {
    lines.push('```' + (b.python ? 'pycon' : 'tensh') + (b.fresh ? ' fresh' : ''));
    for (const e of b.entries) {
      e.input.forEach((l, i) => lines.push((i ? '... ' : '>>> ') + l));
    }
    lines.push('```', '');
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tensh-page-native-'));
  const file = path.join(dir, `${name}.md`);
  fs.writeFileSync(file, lines.join('\n'));
  spawnSync(tensh, ['test', '--bless', file], { encoding: 'utf8' });
  const blessed = fs.readFileSync(file, 'utf8').split('\n');
  fs.rmSync(dir, { recursive: true, force: true });
  // Walk the blessed file knowing each entry's input: what follows an input up to the next
  // entry (or the fence) is its output.
  const outputs = [];
  let at = 0;
  for (const b of blocks) {
    while (!blessed[at].startsWith('```')) at += 1;
    at += 1;
    b.entries.forEach((e, k) => {
      at += e.input.length;
      const next = b.entries[k + 1];
      const out = [];
      while (!(blessed[at].startsWith('```') && !next) && !(next && blessed[at] === `>>> ${next.input[0]}`)) {
        out.push(blessed[at]);
        at += 1;
      }
      while (out.length && !out[out.length - 1].trim()) out.pop();
      outputs.push(out.join('\n'));
    });
    at += 1;
  }
  return outputs;
}

// ---------------------------------------------------------------------------------------
// The page.

function gzipSize(file) {
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

async function startServer() {
  const server = spawn(tensh, ['web', '--port', '0', '--dir', dist], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let text = '';
    server.stdout.on('data', (d) => {
      text += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(text);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`tensh web exited with ${code}`)));
  });
  return { server, url };
}

async function idle(page) {
  await page.evaluate(() => window.tensh.idle());
}

async function type(page, text) {
  await page.locator('#input').fill(text);
  await page.locator('#input').press('Enter');
  await idle(page);
}

async function lastOf(page, selector) {
  return page.evaluate((s) => {
    const all = document.querySelectorAll(s);
    return all.length ? all[all.length - 1].textContent : null;
  }, selector);
}

async function ready(page) {
  await page.waitForFunction(() => document.body.dataset.readyMs !== undefined, null, { timeout: 60000 });
  await idle(page);
}

async function main() {
  const metrics = {};
  const weight = ['tensh_web_bg.wasm', 'tensh_web.js', 'app.js', 'worker.js', 'call.js', 'index.html', 'style.css', 'sw.js']
    .map((f) => [f, fs.statSync(path.join(dist, f)).size, gzipSize(path.join(dist, f))]);
  metrics.bytes = weight.reduce((n, [, b]) => n + b, 0);
  metrics.gzipBytes = weight.reduce((n, [, , g]) => n + g, 0);
  metrics.brotliBytes = weight.reduce((n, [f]) => n + zlib.brotliCompressSync(fs.readFileSync(path.join(dist, f))).length, 0);

  const { server, url } = await startServer();
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    const t0 = Date.now();
    await page.goto(url);
    await ready(page);
    metrics.loadToPromptMs = Date.now() - t0;
    metrics.pageReadyMs = Number(await page.evaluate(() => document.body.dataset.readyMs));
    check(await page.locator('#prompt-label').textContent() === '>>> ', 'the prompt is ready');
    check(await page.locator('#language').inputValue() === 'python', 'the page speaks Python first');

    // Every lesson in each language, against the native binary.
    const lessons = await page.evaluate(async () => {
      const s = document.querySelector('#lesson');
      return Array.from(s.options).map((o) => o.value).filter((v) => v !== 'exercises');
    });
    const allLessons = await page.evaluate(() => window.tensh.lessons());
    check(lessons.length >= 7, `${lessons.length} lessons listed`);
    for (const python of [true, false]) for (const name of lessons) {
      const lesson = allLessons.lessons.find((l) => l.name === name);
      const blocks = blocksOf(lesson, python);
      const native = nativeOutputs(name, blocks);
      const language = python ? 'Python' : 'Rhai';
      if ((await page.locator('#language').inputValue() === 'python') !== python) {
        await page.selectOption('#language', python ? 'python' : 'rhai');
        await idle(page);
      }
      await page.selectOption('#lesson', name);
      const start = Date.now();
      await page.click('#run-lesson');
      await page.waitForFunction(() => /steps as expected/.test(document.querySelector('#lesson-status').textContent), null, { timeout: 120000 });
      const took = Date.now() - start;
      if (name === 'layout' && !python) metrics.layoutLessonMs = took;
      if (name === 'layout' && python) metrics.layoutLessonPythonMs = took;
      const twins = lesson.parts.filter((p) => p.twin).length;
      if (python && ['layout', 'view', 'tensor-views', 'storage', 'frombuffer', 'confusions', 'files', 'explain'].includes(name)) {
        check(twins > 0 && blocks.every((b) => b.python), `lesson ${name} is all Python in Python`);
      }
      const steps = await page.evaluate(() => Array.from(document.querySelectorAll('#lesson-body .step'))
        .map((el) => ({ actual: el.querySelector('.actual').textContent, pass: el.classList.contains('pass') })));
      const differ = steps.map((s, i) => [i, s]).filter(([i, s]) => s.actual !== native[i]);
      check(steps.length === native.length && differ.length === 0,
        `lesson ${name} (${language}): ${steps.length} outputs equal the native binary's`,
        differ.slice(0, 3).map(([i, s]) => `step ${i}: page ${JSON.stringify(s.actual)} native ${JSON.stringify(native[i])}`).join('\n     '));
      const failing = steps.filter((s) => !s.pass).length;
      check(failing === 0, `lesson ${name} (${language}): every step prints what the lesson expects`, `${failing} differ`);
    }
    await page.selectOption('#lesson', 'layout');
    await page.click('#run-lesson');
    await page.waitForFunction(() => /steps as expected/.test(document.querySelector('#lesson-status').textContent));

    // Every exercise in each language, its worked solution checked as `tensh test` checks
    // it, and a copy where a view is asked refused.
    for (const python of [true, false]) {
      await page.selectOption('#language', python ? 'python' : 'rhai');
      await idle(page);
      await page.selectOption('#lesson', 'exercises');
      const language = python ? 'Python' : 'Rhai';
      const blank = await page.locator('.exercise', { hasText: 'every_other' }).locator('textarea').inputValue();
      check(blank.startsWith(python ? '# exercise: every_other' : '// exercise: every_other'), `a blank ${language} answer`);
      let solved = 0;
      for (const ex of allLessons.exercises) {
        const solution = fs.readFileSync(path.join(root, 'docs/exercises/solutions', `${ex.name}.${python ? 'py' : 'rhai'}`), 'utf8');
        const exercise = page.locator('.exercise', { hasText: ex.name }).first();
        await exercise.locator('textarea').fill(solution);
        await exercise.locator('button').click();
        await page.waitForFunction((n) => Array.from(document.querySelectorAll('.exercise'))
          .some((e) => e.querySelector('h3').textContent === n && e.querySelector('.message').textContent), ex.name);
        if (await exercise.locator('.message').textContent() === 'passed') solved += 1;
        else console.log(`     ${ex.name}: ${await exercise.locator('.message').textContent()}`);
      }
      check(solved === allLessons.exercises.length, `${solved} of ${allLessons.exercises.length} ${language} solutions pass on the page`);
    }
    await page.selectOption('#language', 'python');
    await idle(page);
    await page.selectOption('#lesson', 'exercises');
    const wrong = page.locator('.exercise', { hasText: 'every_other' }).first();
    await wrong.locator('textarea').fill('# exercise: every_other\ndef answer(x):\n    return x[::2].clone()\n');
    await wrong.locator('button').click();
    await page.waitForFunction(() => /not yet/.test(Array.from(document.querySelectorAll('.exercise .message')).map((m) => m.textContent).join()));
    check(await wrong.locator('.message').textContent() === 'not yet: a view stepping 2 elements', 'a copy where a view is asked is not yet right');
    await page.selectOption('#lesson', 'layout');

    // The prompt in Rhai: echo, a picture, an error.
    await page.selectOption('#language', 'rhai');
    await idle(page);

    await type(page, 'let x = torch::arange(6).view(2, 3);');
    await type(page, 'x.t()');
    check(await lastOf(page, '#output pre.out') === 'tensor([[0, 3],\n        [1, 4],\n        [2, 5]])', 'a value echoes as PyTorch prints it');
    await type(page, 'explain(x)');
    const labels = await page.evaluate(() => {
      const svg = document.querySelector('#output .picture svg');
      return svg ? Array.from(svg.querySelectorAll('text')).map((t) => t.textContent) : null;
    });
    check(labels !== null, 'explain draws an SVG picture');
    check(labels && ['byte 0', 'byte 8', 'byte 16', 'byte 24', 'byte 32', 'byte 40'].every((l) => labels.includes(l)),
      'the picture labels each element\'s bytes', JSON.stringify(labels));
    await type(page, 'x[0][1] = 7;');
    const redrawn = await page.evaluate(() => Array.from(document.querySelectorAll('#output .picture svg text')).map((t) => t.textContent));
    check(redrawn.includes('07 00 00 00'), 'the picture follows the tensor as the session changes it');
    await type(page, 'x.t().view(6)');
    check((await lastOf(page, '#output pre.err') || '').startsWith('RuntimeError: view size is not compatible with input tensor\'s size and stride'),
      'an error shows as text');
    await page.locator('#input').fill('x.is_contig');
    await page.locator('#input').press('Tab');
    await idle(page);
    check(await page.locator('#input').inputValue() === 'x.is_contiguous(', 'Tab completes a method');
    await page.locator('#input').fill('');
    await type(page, '?torch::zeros');
    check(/zeros/.test(await lastOf(page, '#output pre.out') || ''), '?name shows help');

    // Stop interrupts a runaway cell and keeps the session.
    await page.locator('#input').fill('loop {}');
    await page.locator('#input').press('Enter');
    await page.waitForTimeout(500);
    check(await page.evaluate(() => document.body.dataset.busy) === 'yes', 'loop {} runs');
    const stopped = Date.now();
    await page.click('#stop');
    await idle(page);
    metrics.stopMs = Date.now() - stopped;
    check(await lastOf(page, '#output pre.err') === 'KeyboardInterrupt', 'Stop interrupts the cell');
    await type(page, 'x.sum()');
    check(await lastOf(page, '#output pre.out') === 'tensor(21)', 'the session outlives Stop', await lastOf(page, '#output pre.out'));

    // Python syntax.
    await page.selectOption('#language', 'python');
    await idle(page);
    await type(page, 'import torch');
    await type(page, 'y = torch.arange(4)');
    await type(page, 'y.view(2, 2).t().is_contiguous()');
    check(await lastOf(page, '#output pre.out') === 'False', 'Python syntax runs at the prompt', await page.evaluate(() => Array.from(document.querySelectorAll('#output pre')).slice(-6).map((p) => p.className + ': ' + p.textContent).join(' / ')));
    await page.selectOption('#language', 'rhai');
    await idle(page);

    await page.click('#run-lesson');
    await page.waitForFunction(() => /steps as expected/.test(document.querySelector('#lesson-status').textContent));
    await page.evaluate(() => document.querySelectorAll('#lesson-body .step')[1].scrollIntoView());
    fs.mkdirSync(path.dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot });

    // `:why` explains the last input's error though a picture on screen was drawn again.
    await type(page, 'explain(x)');
    await type(page, 'x.t().view(6)');
    await type(page, ':why');
    check(/cannot merge/.test(await lastOf(page, '#output pre.out') || ''), ':why outlives the picture drawn again',
      await lastOf(page, '#output pre.out'));

    // An edited lesson step and an exercise answer go with the link.
    await page.selectOption('#lesson', 'view');
    const edited = page.locator('#lesson-body .step textarea').nth(1);
    await edited.fill('torch::arange(5)');
    await page.selectOption('#lesson', 'exercises');
    const answer = '// exercise: every_other\nfn answer(x) {\n    x["::2"]\n}';
    await page.locator('.exercise', { hasText: 'every_other' }).locator('textarea').fill(answer);
    await page.selectOption('#lesson', 'view');

    // A shared link restores the session (in a new browser context: nothing kept but the link).
    const link = page.url();
    const other = await (await browser.newContext()).newPage();
    await other.goto(link);
    await ready(other);
    check(await other.evaluate(() => document.querySelectorAll('#output .picture svg').length) > 0, 'a shared link replays the session');
    await type(other, 'x.sum()');
    check(await lastOf(other, '#output pre.out') === 'tensor(21)', 'a shared link restores the variables', await lastOf(other, '#output pre.out'));
    check(await other.locator('#lesson').inputValue() === 'view', 'a shared link opens the lesson it was on');
    check(await other.locator('#lesson-body .step textarea').nth(1).inputValue() === 'torch::arange(5)', 'a shared link keeps an edited step');
    await other.selectOption('#lesson', 'exercises');
    check(await other.locator('.exercise', { hasText: 'every_other' }).locator('textarea').inputValue() === answer,
      'a shared link keeps an exercise answer');

    // A fresh page greets with the banner and a first thing to try, which runs on a click.
    const fresh = await (await browser.newContext()).newPage();
    await fresh.goto(url);
    await ready(fresh);
    check(/PyTorch's memory model in Python/.test(await fresh.locator('#output .banner').textContent()), 'the prompt pane opens with a banner');
    for (const k of [0, 1, 2]) {
      await fresh.locator('#output .try button').nth(k).click();
      await idle(fresh);
    }
    check(await lastOf(fresh, '#output pre.out') === '(1, 3)', 'a first thing to try runs on a click', await lastOf(fresh, '#output pre.out'));

    // A projector: 1024x768. Every lesson output shows whole (wrapped, never cut), every step
    // shows all its lines, and the picture's smallest labels are at least 12 px.
    const projector = await (await browser.newContext({ viewport: { width: 1024, height: 768 } })).newPage();
    await projector.goto(`${url}?lesson=layout`);
    await ready(projector);
    await projector.click('#run-lesson');
    await projector.waitForFunction(() => /steps as expected/.test(document.querySelector('#lesson-status').textContent), null, { timeout: 120000 });
    const cut = await projector.evaluate(() => Array.from(document.querySelectorAll('#lesson-body .step pre'))
      .filter((p) => p.scrollWidth > p.clientWidth + 1).map((p) => p.textContent.slice(0, 60)));
    check(cut.length === 0, 'at 1024x768 no lesson output is cut', JSON.stringify(cut.slice(0, 3)));
    const hidden = await projector.evaluate(() => Array.from(document.querySelectorAll('#lesson-body .step textarea'))
      .filter((t) => t.scrollHeight > t.clientHeight + 2).map((t) => t.value.slice(0, 60)));
    check(hidden.length === 0, 'at 1024x768 every step shows all its lines', JSON.stringify(hidden.slice(0, 3)));
    await type(projector, 'import torch');
    await type(projector, 'p = torch.arange(6, dtype=torch.int16).view(2, 3)');
    await type(projector, 'explain(p.t())');
    const smallest = await projector.evaluate(() => {
      const svg = document.querySelector('#output .picture svg');
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return Math.min(...Array.from(svg.querySelectorAll('text')).map((t) => parseFloat(getComputedStyle(t).fontSize) * scale));
    });
    check(smallest >= 12, `at 1024x768 the picture's smallest label is ${smallest.toFixed(1)} px`);
    fs.mkdirSync(path.join(root, 'target/page-test'), { recursive: true });
    await projector.screenshot({ path: path.join(root, 'target/page-test/projector.png') });

    // The module comes compressed (the build's .gz, sent by tensh web), asked for as the
    // browser asks for it.
    const module = await new Promise((resolve, reject) => {
      http.get(`${url}tensh_web_bg.wasm`, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } }, (res) => {
        let length = 0;
        res.on('data', (d) => { length += d.length; });
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], length }));
      }).on('error', reject);
    });
    metrics.moduleTransferBytes = module.length;
    check(module.encoding === 'gzip' && module.length === fs.statSync(path.join(dist, 'tensh_web_bg.wasm.gz')).size,
      `the module is sent compressed (${module.length} bytes)`, JSON.stringify(module));

    // Embedding: a lesson chosen and one pane shown by the address.
    const embedded = await (await browser.newContext()).newPage();
    await embedded.goto(`${url}?lesson=storage&view=lessons`);
    await ready(embedded);
    check(await embedded.locator('#lesson').inputValue() === 'storage', '?lesson= opens a lesson');
    check(!(await embedded.locator('#prompt').isVisible()), '?view=lessons shows the lessons alone');

    // Offline, once loaded.
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await ready(page);
    await context.setOffline(true);
    await page.reload();
    await ready(page);
    await type(page, 'x.sum()');
    check(await lastOf(page, '#output pre.out') === 'tensor(21)', 'the page reloads offline with its session');
    await context.setOffline(false);
    check(pageErrors.length === 0, 'no script error on the page', pageErrors.join('\n'));
  } finally {
    await browser.close();
    server.kill();
  }
  console.log(JSON.stringify(metrics));
  console.log(failures ? `${failures} failed` : 'all passed');
  process.exit(failures ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(1); });
