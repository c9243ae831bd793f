// The playground page: a prompt pane over one tensh session, lessons over another, each in
// its own worker (worker.js). Stop ends a worker and starts a fresh one that replays the
// session's finished inputs, so nothing but the interrupted cell is lost. The session's
// inputs, the lesson open, its edited steps and the exercise answers live in the page's
// address (#s=...), so a link restores them all, and so does a reload.

const $ = (id) => document.getElementById(id);

/** A tensh session in a worker; `call` sends one request and resolves to its answer. */
class Session {
  constructor() {
    this.next = 0;
    this.waiting = new Map();
    this.busy = 0;
    this.start();
  }
  start() {
    this.worker = new Worker('worker.js', { type: 'module' });
    this.ready = new Promise((resolve) => { this.markReady = resolve; });
    this.worker.onmessage = (event) => {
      const m = event.data;
      if (m.ready) { this.markReady(); return; }
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      this.busy -= 1;
      changed();
      if (m.crashed) { w.reject(new Error(m.crashed)); this.restart(); }
      else w.resolve(JSON.parse(m.answer));
    };
  }
  async call(request) {
    await this.ready;
    const id = this.next++;
    this.busy += 1;
    changed();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, request: JSON.stringify(request) });
    });
  }
  /** Ends the worker (and whatever it runs) and starts a fresh one. */
  restart() {
    this.worker.terminate();
    for (const w of this.waiting.values()) w.reject(new Error('stopped'));
    this.waiting.clear();
    this.busy = 0;
    this.start();
    changed();
  }
}

const prompt = new Session();
const lessons = new Session();
let idleWaiters = [];

function changed() {
  const busy = prompt.busy + lessons.busy > 0 || replaying;
  $('stop').disabled = !busy;
  document.body.dataset.busy = busy ? 'yes' : 'no';
  // Waiters hear of it once what the answer shows is drawn, and only if nothing started
  // meanwhile (an answer often leads to the next request: a picture redrawn, a replay).
  if (!busy) setTimeout(() => {
    if (document.body.dataset.busy !== 'no') return;
    const w = idleWaiters;
    idleWaiters = [];
    w.forEach((f) => f());
  }, 0);
}

// ---------------------------------------------------------------------------------------
// The prompt pane.

const output = $('output');
const input = $('input');
let finished = [];   // the lines of every finished input, in order (what a link restores)
let block = [];      // the lines of the input being written (a block not yet complete)
let typed = [];      // inputs typed, for Up and Down
let typedAt = 0;
let replaying = false;
let watched = null;  // the last picture: its input, and the element it is drawn in

/** Draws an SVG picture in `element` at least as large as it was drawn (its smallest labels
 * are 10 units: a quarter larger, they read on a projector); a wide one scrolls. */
function drawPicture(element, svgText) {
  element.innerHTML = svgText;
  const svg = element.querySelector('svg');
  const box = svg && svg.viewBox && svg.viewBox.baseVal;
  if (box && box.width) {
    svg.style.width = `${box.width * PICTURE_SCALE}px`;
    svg.style.height = `${box.height * PICTURE_SCALE}px`;
  }
}
const PICTURE_SCALE = 1.25;

function show(kind, text) {
  if (kind === 'svg') {
    const div = document.createElement('div');
    div.className = 'picture';
    drawPicture(div, text);
    output.append(div);
    return div;
  }
  const pre = document.createElement('pre');
  pre.className = kind;
  pre.textContent = text.replace(/\n$/, '');
  output.append(pre);
  return pre;
}

function setPrompt(answer) {
  $('prompt-label').textContent = answer.prompt;
  if (answer.python !== undefined && answer.python !== python()) {
    // The session changed language (`:python`, `:rhai`, a replayed link): the lesson's
    // steps follow.
    $('language').value = answer.python ? 'python' : 'rhai';
    if (lessonData && !lessons.busy) showLesson($('lesson').value);
  }
  input.value = answer.prompt === '... ' ? answer.indent : '';
}

function isPicture(line) {
  return /^\s*(explain\s*\(|:explain\s)/.test(line);
}

let promptChain = Promise.resolve();

/** Feeds a line (or lines sent together) to the prompt's session and shows what it printed:
 * one input at a time, in the order given, after any replay in progress. */
function feed(line, options) {
  const done = promptChain.then(() => feedNow(line, options));
  promptChain = done.catch(() => {});
  return done;
}

async function feedNow(line, { quiet = false } = {}) {
  if (!quiet) {
    const label = $('prompt-label').textContent;
    show('in', line.split('\n').map((l, i) => (i ? '... ' : label) + l).join('\n'));
  }
  let answer;
  try {
    answer = await prompt.call({ op: 'line', text: line });
  } catch (e) {
    if (!quiet) show('err', e.message === 'stopped' ? 'KeyboardInterrupt' : `tensh stopped: ${e.message}`);
    await replay();
    return;
  }
  let picture = null;
  if (!quiet) {
    for (const [kind, text] of answer.events) {
      const el = show(kind, text);
      if (kind === 'svg') picture = el;
    }
  }
  block.push(line);
  if (answer.exit !== undefined) {
    show('out', `(the session ended with status ${answer.exit}; a fresh one starts)`);
    finished = []; block = [];
  } else if (answer.prompt === '>>> ') {
    finished.push(...block);
    const whole = block.join('\n');
    block = [];
    if (!quiet) {
      if (picture && isPicture(whole)) watched = { code: whole, element: picture };
      else await redrawWatched();
      remember();
    }
  }
  setPrompt(answer);
  output.scrollTop = output.scrollHeight;
}

/** Draws the last picture again, so that it follows the session's changes to its tensor. */
async function redrawWatched() {
  if (!watched || !watched.element.isConnected) return;
  try {
    // Not an input: `:why` and `_` stay those of the user's last input.
    const answer = await prompt.call({ op: 'picture', code: watched.code });
    const svg = answer.events.find(([kind]) => kind === 'svg');
    if (svg) drawPicture(watched.element, svg[1]);
  } catch (e) { /* stopped: the picture stays as it was */ }
}

/** A fresh worker with the finished inputs run again (after Stop or a crash), in the
 * language the session started in. */
async function replay() {
  replaying = true;
  changed();
  block = [];
  try {
    await prompt.call({ op: 'reset', python: startPython });
    for (const line of finished) {
      await prompt.call({ op: 'line', text: line });
    }
  } finally {
    setPrompt({ prompt: '>>> ', indent: '' });
    replaying = false;
    changed();
  }
}

/** What a link keeps: the language the prompt started in, its finished inputs (a switch of
 * language among them), the lesson open, the steps edited in each lesson (by language and
 * index) and the exercise answers written. */
function savedState() {
  return {
    v: 3, python: startPython, lines: finished, lesson: $('lesson').value,
    edits: lessonEdits, answers: exerciseAnswers,
  };
}

function isEmpty(state) {
  return !state.lines.length && !Object.keys(state.edits).length && !Object.keys(state.answers).length;
}

function encode(state) {
  const bytes = new TextEncoder().encode(JSON.stringify(state));
  let s = '';
  bytes.forEach((b) => { s += String.fromCharCode(b); });
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A state from a link: version 2, or version 1's prompt inputs alone. */
function decode(text) {
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(s, (c) => c.charCodeAt(0));
  return normalized(JSON.parse(new TextDecoder().decode(bytes)));
}

function normalized(state) {
  if (Array.isArray(state)) state = { lines: state };
  const lines = Array.isArray(state.lines) ? state.lines : [];
  return {
    // Links from before Python was the default hold Rhai inputs.
    python: typeof state.python === 'boolean' ? state.python : !lines.length,
    lines,
    lesson: typeof state.lesson === 'string' ? state.lesson : null,
    edits: state.edits && typeof state.edits === 'object' ? state.edits : {},
    answers: state.answers && typeof state.answers === 'object' ? state.answers : {},
  };
}

/** Keeps the session, the lesson and its edits in the address and in local storage. */
function remember() {
  const state = savedState();
  const hash = isEmpty(state) ? '' : `#s=${encode(state)}`;
  history.replaceState(null, '', location.pathname + location.search + hash);
  try { localStorage.setItem('tensh-session', JSON.stringify(state)); } catch (e) { /* private mode */ }
}

/** The banner and a first thing to try, at the top of a fresh prompt pane. */
function greet(answer) {
  if (!answer.banner) return;
  const pre = show('banner', answer.banner);
  pre.classList.add('banner');
  const tries = document.createElement('div');
  tries.className = 'try';
  tries.append('Try: ');
  for (const line of answer.try || []) {
    const button = document.createElement('button');
    button.textContent = line;
    button.title = 'Run this line';
    button.addEventListener('click', () => { input.value = ''; feed(line); });
    tries.append(button, ' ');
  }
  output.append(tries);
}

async function complete() {
  const line = input.value;
  const cursor = input.selectionStart;
  const answer = await prompt.call({ op: 'complete', line, cursor });
  const words = answer.candidates;
  if (!words.length) return;
  let common = words[0];
  for (const w of words) while (!w.startsWith(common)) common = common.slice(0, -1);
  const start = answer.start;
  const chars = Array.from(line);
  const before = chars.slice(0, start).join('');
  const after = chars.slice(cursor).join('');
  const typed = chars.slice(start, cursor).join('');
  if (common.length > typed.length) {
    input.value = before + common + after;
    input.selectionStart = input.selectionEnd = before.length + common.length;
  }
  if (words.length > 1) show('out', words.join('  '));
}

input.addEventListener('keydown', async (event) => {
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    const text = input.value;
    input.value = '';
    if (text.trim()) typed.push(text);
    typedAt = typed.length;
    // Several lines go together: the session splits them and strips a pasted transcript's
    // prompts, as the terminal's prompt does.
    await feed(text);
  } else if (event.key === 'Tab') {
    event.preventDefault();
    await complete();
  } else if (event.key === 'ArrowUp' && !input.value.includes('\n') && typedAt > 0) {
    event.preventDefault();
    input.value = typed[--typedAt];
  } else if (event.key === 'ArrowDown' && typedAt < typed.length) {
    event.preventDefault();
    typedAt += 1;
    input.value = typed[typedAt] || '';
  } else if (event.key === 'c' && event.ctrlKey && !$('stop').disabled) {
    event.preventDefault();
    stop();
  }
});
input.addEventListener('input', () => {
  input.rows = Math.min(12, input.value.split('\n').length);
});

function stop() {
  if (prompt.busy) prompt.restart();
  if (lessons.busy) { lessons.restart(); lessonStopped = true; }
}

$('stop').addEventListener('click', stop);
document.addEventListener('keydown', (event) => {
  if (event.key === 'c' && event.ctrlKey && !$('stop').disabled && document.activeElement !== input) stop();
});
/** Whether the page speaks Python now (the prompt, the lessons' steps, the exercises). */
function python() {
  return $('language').value === 'python';
}

$('language').addEventListener('change', () => {
  feed(python() ? ':python' : ':rhai');
  if (lessonData && !lessons.busy) showLesson($('lesson').value);
});
$('share').addEventListener('click', async () => {
  remember();
  try { await navigator.clipboard.writeText(location.href); $('status').textContent = 'link copied'; }
  catch (e) { $('status').textContent = 'the link is in the address bar'; }
});
$('reset').addEventListener('click', () => {
  promptChain = promptChain.then(async () => {
    finished = []; block = []; watched = null;
    output.textContent = '';
    startPython = python();
    const answer = await prompt.call({ op: 'reset', python: startPython });
    greet(answer);
    setPrompt(answer);
    remember();
  }).catch(() => {});
});

// ---------------------------------------------------------------------------------------
// Lessons: the tutorials of docs/, each step run as `tensh test` runs it.

let lessonData = null;
let lessonStopped = false;
let lessonEdits = {};      // lesson key (editKey) -> { step index -> its text as edited }
let exerciseAnswers = {};  // exercise key (editKey) -> the answer written
let startPython = true;    // the language the prompt's session started in

/** Where a lesson's edits or an exercise's answer are kept: by name, and by language (a
 * Python step is another text than its Rhai twin). */
function editKey(name) {
  return python() ? `${name}.py` : name;
}

/** The session a part of a lesson shows: the one in the page's language when the lesson
 * gives both. */
function blockOf(part) {
  const twin = part.twin;
  return twin && twin.python === python() ? twin : part.block;
}

/** A textarea as tall as its text, so the end of a long step is never hidden. */
function grow(textarea) {
  textarea.style.height = 'auto';
  textarea.style.height = `${textarea.scrollHeight + 2}px`;
}
window.addEventListener('resize', () => document.querySelectorAll('#lesson-body textarea').forEach(grow));

function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

function inline(s) {
  return escapeHtml(s)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*\w])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>')
    .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1');
}

/** Enough Markdown for the docs' prose: headings, paragraphs, lists, fenced code. */
function markdown(text) {
  const html = [];
  let para = [];
  let code = null;
  const flush = () => { if (para.length) html.push(`<p>${inline(para.join(' '))}</p>`); para = []; };
  for (const line of text.split('\n')) {
    if (code !== null) {
      if (line.trim().startsWith('```')) { html.push(`<pre>${escapeHtml(code.join('\n'))}</pre>`); code = null; }
      else code.push(line);
      continue;
    }
    if (line.trim().startsWith('```')) { flush(); code = []; continue; }
    const heading = /^(#+)\s+(.*)$/.exec(line);
    if (heading) { flush(); const n = Math.min(6, heading[1].length + 1); html.push(`<h${n}>${inline(heading[2])}</h${n}>`); continue; }
    if (!line.trim()) { flush(); continue; }
    para.push(line.trim());
  }
  flush();
  return html.join('\n');
}

function stepElement(entry, python) {
  const div = document.createElement('div');
  div.className = 'step';
  div.innerHTML = `<textarea spellcheck="false" rows="${entry.input.length}"></textarea>
    <div class="columns"><div><div class="label">expected</div><pre class="expected"></pre></div>
    <div><div class="label">this page printed</div><pre class="actual"></pre></div></div>`;
  div.querySelector('textarea').value = entry.input.join('\n');
  div.querySelector('.expected').textContent = entry.expected.join('\n');
  div.step = { entry, python };
  return div;
}

function showLesson(name) {
  const body = $('lesson-body');
  body.textContent = '';
  $('lesson-status').textContent = '';
  if (name === 'exercises') { showExercises(); return; }
  const lesson = lessonData.lessons.find((l) => l.name === name);
  const key = editKey(name);
  const edits = lessonEdits[key] || {};
  let index = 0;
  for (const part of lesson.parts) {
    if (part.prose !== undefined) {
      const div = document.createElement('div');
      div.innerHTML = markdown(part.prose);
      body.append(div);
    } else {
      const shown = blockOf(part);
      shown.entries.forEach((entry, i) => {
        const el = stepElement(entry, shown.python);
        el.step.fresh = i === 0 && shown.fresh;
        const k = index++;
        const textarea = el.querySelector('textarea');
        if (edits[k] !== undefined) textarea.value = edits[k];
        textarea.addEventListener('input', () => {
          const original = entry.input.join('\n');
          const mine = lessonEdits[key] || (lessonEdits[key] = {});
          if (textarea.value === original) delete mine[k]; else mine[k] = textarea.value;
          if (!Object.keys(mine).length) delete lessonEdits[key];
          grow(textarea);
          remember();
        });
        body.append(el);
        grow(textarea);
      });
    }
  }
}

/** Runs the lesson's steps in a fresh session, each as edited; the counts that matched. */
async function runLesson() {
  const steps = Array.from(document.querySelectorAll('#lesson-body .step'));
  const started = performance.now();
  lessonStopped = false;
  await lessons.call({ op: 'reset' });
  let passed = 0;
  let failed = 0;
  for (const [i, el] of steps.entries()) {
    const input = el.querySelector('textarea').value.split('\n');
    let answer;
    try {
      answer = await lessons.call({
        op: 'step', input, expected: el.step.entry.expected,
        python: el.step.python, fresh: i === 0 || el.step.fresh,
      });
    } catch (e) {
      el.querySelector('.actual').textContent = lessonStopped ? 'KeyboardInterrupt' : `tensh stopped: ${e.message}`;
      el.className = 'step fail';
      failed += 1;
      break;
    }
    const actual = el.querySelector('.actual');
    actual.textContent = answer.actual.join('\n');
    actual.classList.toggle('differs', !answer.match);
    el.className = `step ${answer.match ? 'pass' : 'fail'}`;
    if (answer.match) passed += 1; else failed += 1;
  }
  const ms = Math.round(performance.now() - started);
  $('lesson-status').textContent = `${passed} of ${steps.length} steps as expected (${ms} ms)`;
  document.body.dataset.lessonMs = ms;
  return { passed, failed };
}

function showExercises() {
  const body = $('lesson-body');
  const intro = document.createElement('div');
  const defines = python() ? '`def answer(...)`' : '`fn answer(...)`';
  intro.innerHTML = markdown(`## Exercises\nEach answer names its exercise on the first line and defines ${defines}; **Check** runs the same check as \`tensh test\`.`);
  body.append(intro);
  for (const ex of lessonData.exercises) {
    const div = document.createElement('div');
    div.className = 'step exercise';
    div.innerHTML = `<h3><code>${escapeHtml(ex.name)}</code></h3><p>${inline(ex.returns)}: ${inline(ex.rule)}</p>
      <textarea spellcheck="false" rows="4"></textarea><button>Check</button> <span class="message"></span>`;
    const textarea = div.querySelector('textarea');
    const blank = python()
      ? `# exercise: ${ex.name}\nimport torch\n\ndef answer(x):\n    `
      : `// exercise: ${ex.name}\nfn answer(x) {\n    \n}`;
    const key = editKey(ex.name);
    textarea.value = exerciseAnswers[key] !== undefined ? exerciseAnswers[key] : blank;
    textarea.addEventListener('input', () => {
      if (textarea.value === blank) delete exerciseAnswers[key]; else exerciseAnswers[key] = textarea.value;
      grow(textarea);
      remember();
    });
    div.querySelector('button').addEventListener('click', async () => {
      const message = div.querySelector('.message');
      try {
        const a = await lessons.call({ op: 'exercise', name: ex.name, answer: div.querySelector('textarea').value });
        message.textContent = a.message;
        message.className = `message ${a.passed ? 'passed' : 'failed'}`;
      } catch (e) { message.textContent = 'stopped'; message.className = 'message failed'; }
    });
    body.append(div);
    grow(textarea);
  }
}

$('run-lesson').addEventListener('click', runLesson);
$('lesson').addEventListener('change', () => { showLesson($('lesson').value); remember(); });

// ---------------------------------------------------------------------------------------
// Start: the lessons, then the session the address (or the last visit) holds.

async function main() {
  const started = performance.now();
  lessonData = await lessons.call({ op: 'lessons' });
  for (const l of lessonData.lessons) $('lesson').append(new Option(l.title, l.name));
  $('lesson').append(new Option('Exercises', 'exercises'));
  // ?lesson=NAME opens a lesson; ?view=prompt or ?view=lessons shows one pane (for embedding).
  const params = new URLSearchParams(location.search);
  let restored = normalized({});
  const match = /#s=([A-Za-z0-9_-]*)/.exec(location.hash);
  try {
    if (match) restored = decode(match[1]);
    else restored = normalized(JSON.parse(localStorage.getItem('tensh-session') || '[]'));
  } catch (e) { restored = normalized({}); }
  lessonEdits = restored.edits;
  exerciseAnswers = restored.answers;
  startPython = restored.python;
  $('language').value = startPython ? 'python' : 'rhai';
  const known = (name) => name && Array.from($('lesson').options).some((o) => o.value === name);
  const chosen = params.get('lesson');
  const first = known(chosen) ? chosen : known(restored.lesson) ? restored.lesson : lessonData.lessons[0].name;
  $('lesson').value = first;
  showLesson(first);
  if (params.get('view') === 'prompt' || params.get('view') === 'lessons') {
    document.body.classList.add(`only-${params.get('view')}`);
  }
  const fresh = await prompt.call({ op: 'reset', python: startPython });
  greet(fresh);
  setPrompt(fresh);
  for (const line of restored.lines) await feed(line);
  const ms = Math.round(performance.now() - started);
  document.body.dataset.readyMs = ms;
  $('status').textContent = `ready in ${ms} ms`;
  changed();
  input.focus();
}

if ('serviceWorker' in navigator && location.protocol !== 'file:') {
  navigator.serviceWorker.register('sw.js').catch(() => { /* no offline copy */ });
}

/** For tests and embedding: resolves when nothing runs. */
window.tensh = {
  idle: () => new Promise((resolve) => {
    if (document.body.dataset.busy === 'no') resolve(); else idleWaiters.push(resolve);
  }),
  lessons: () => lessonData,
  runLesson,
  showLesson,
  /** Switches the page's language as its Syntax menu does. */
  setPython: (on) => {
    $('language').value = on ? 'python' : 'rhai';
    $('language').dispatchEvent(new Event('change'));
  },
};

main();
