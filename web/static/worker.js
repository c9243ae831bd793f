// One tensh session in a worker: the page asks, the module answers (JSON both ways). The
// page stops a runaway cell by ending the worker and starting another (app.js).
import init from './tensh_web.js';
import { caller } from './call.js';

let call;

const ready = init({ module_or_path: new URL('./tensh_web_bg.wasm', import.meta.url) }).then((wasm) => {
  call = caller(wasm);
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
