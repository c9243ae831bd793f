// One tensh session in a worker: the page asks, the module answers (JSON both ways). The
// page stops a runaway cell by ending the worker and starting another (app.js).
import init from './tensh_web.js';

let wasm;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function call(request) {
  const bytes = encoder.encode(request);
  const at = wasm.tensh_buffer(bytes.length);
  new Uint8Array(wasm.memory.buffer, at, bytes.length).set(bytes);
  const n = wasm.tensh_call(bytes.length);
  return decoder.decode(new Uint8Array(wasm.memory.buffer, wasm.tensh_answer(), n));
}

const ready = init({ module_or_path: new URL('./tensh_web_bg.wasm', import.meta.url) }).then((w) => {
  wasm = w;
  postMessage({ ready: true });
});

onmessage = async (event) => {
  await ready;
  const { id, request } = event.data;
  let answer;
  try {
    answer = call(request);
  } catch (e) {
    // A trap (a bug in tensh) ends this module: the page starts a fresh one.
    postMessage({ id, crashed: String(e) });
    return;
  }
  postMessage({ id, answer });
};
