// The module's one call: a request (JSON text) written into its memory, `tensh_call` run,
// the answer (JSON text) read back. Used by the page's worker and by web/test/conformance.mjs.
export function caller(wasm) {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return (request) => {
    const bytes = encoder.encode(request);
    const at = wasm.tensh_buffer(bytes.length);
    new Uint8Array(wasm.memory.buffer, at, bytes.length).set(bytes);
    const n = wasm.tensh_call(bytes.length);
    return decoder.decode(new Uint8Array(wasm.memory.buffer, wasm.tensh_answer(), n));
  };
}
