// Runs every conformance case (tests/conformance: a session and what real PyTorch printed for
// it) through the page's WebAssembly module, as `cargo test` runs them through the binary:
// each case's Rhai side as a script, and its Python side (after the prelude when the case has
// a Rhai side). The module runs in Node here, the same file the page loads. Cases the binary
// does not pass yet are listed in tests/conformance/expected_failures.txt; what the page
// prints differently for a reason of the platform is listed, with the reason, in
// web/test/page_differences.txt. Fails on any other difference, and on a listed case that
// passes. Run by web/test/run.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'web/dist');
const { initSync } = await import(path.join(dist, 'tensh_web.js'));
const { caller } = await import(path.join(dist, 'call.js'));
const callText = caller(initSync({ module: fs.readFileSync(path.join(dist, 'tensh_web_bg.wasm')) }));
const call = (request) => JSON.parse(callText(JSON.stringify(request)));

function parse(file) {
  const sections = { header: [] };
  let current = 'header';
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /^--- (python|rhai|expected)\s*$/.exec(line);
    if (m) { current = m[1]; sections[current] = []; continue; }
    sections[current].push(line);
  }
  const get = (k) => (sections[k] || []).join('\n');
  return { python: get('python'), rhai: get('rhai'), expected: get('expected') };
}

function cases(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) cases(p, out);
    else if (e.name.endsWith('.case')) out.push(p);
  }
  return out;
}

function listed(file) {
  const map = new Map();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [name, ...why] = line.trim().split(/\s+/);
    map.set(name, why.join(' '));
  }
  return map;
}

const caseRoot = path.join(root, 'tests/conformance');
const prelude = fs.readFileSync(path.join(caseRoot, 'prelude.py'), 'utf8');
const failing = listed(path.join(caseRoot, 'expected_failures.txt'));
const differing = listed(path.join(root, 'web/test/page_differences.txt'));
const trimEnd = (s) => s.replace(/\s+$/, '');
let passed = 0;
const problems = [];
const started = performance.now();
for (const file of cases(caseRoot).sort()) {
  const name = path.relative(caseRoot, file);
  const c = parse(file);
  const sides = [];
  if (c.rhai.trim()) sides.push(['rhai', 'case.rhai', c.rhai, false]);
  sides.push(['python', 'case.py', c.rhai.trim() ? `${prelude}\n${c.python}\n` : c.python, true]);
  for (const [side, script, code, python] of sides) {
    call({ op: 'reset' });
    const answer = call({ op: 'script', name: script, code, python });
    const got = answer.events.filter(([kind]) => kind === 'out').map(([, text]) => text).join('');
    const ok = trimEnd(got) === trimEnd(c.expected);
    const key = `${name}:${side}`;
    const known = failing.has(name) || differing.has(key) || differing.has(name);
    if (ok && !known) passed += 1;
    else if (ok && differing.has(key)) problems.push(`${key} now passes: remove it from web/test/page_differences.txt`);
    else if (!ok && !known) {
      const want = trimEnd(c.expected).split('\n');
      const have = trimEnd(got).split('\n');
      const i = want.findIndex((l, k) => l !== have[k]);
      problems.push(`${key}: line ${i + 1}: expected ${JSON.stringify(want[i])}, the page printed ${JSON.stringify(have[i])}`);
    }
  }
}
const ms = Math.round(performance.now() - started);
console.log(`conformance in the page's module: ${passed} passed in ${ms} ms`);
for (const p of problems) console.log(`FAIL ${p}`);
process.exit(problems.length ? 1 : 0);
