/**
 * The program of the worker thread that runs one `node` code tool call in QuickJS (WebAssembly).
 * It is source text (an `eval` worker) rather than a file path because the Next.js and server.mjs
 * bundles move this module and a worker file beside it would not follow; `require` resolves from
 * the app's root, where quickjs-emscripten-core and its release-sync variant are installed.
 *
 * workerData: { script, inputJson, env, timeoutMs, memoryBytes }. Posts back
 * { ok: true, json } (main's return value as JSON text) or { ok: false, error, console, limit }.
 * The VM's linear memory is a WebAssembly.Memory whose `maximum` is the cap, so growth past it
 * fails inside the engine (malloc returns NULL, QuickJS throws "out of memory"); the interrupt
 * handler stops the script at the deadline. Inside the VM there is no require, no module loader,
 * no fetch, no timers: only the ECMAScript built-ins, `console` and a frozen `process.env`.
 */
export const QUICKJS_WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require("node:worker_threads");
const { newQuickJSWASMModuleFromVariant, newVariant } = require("quickjs-emscripten-core");
const releaseSync = require("@jitl/quickjs-wasmfile-release-sync");

const PAGE = 65536;
const CONSOLE_MAX_CHARS = 16384;

async function main() {
  const { script, inputJson, env, timeoutMs, memoryBytes } = workerData;
  const memory = new WebAssembly.Memory({ initial: 256, maximum: Math.max(256, Math.floor(memoryBytes / PAGE)) });
  const QuickJS = await newQuickJSWASMModuleFromVariant(newVariant(releaseSync.default || releaseSync, { wasmMemory: memory }));
  const deadline = Date.now() + timeoutMs;
  let interrupted = false;
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(memoryBytes);
  runtime.setMaxStackSize(1024 * 1024);
  runtime.setInterruptHandler(() => (interrupted = Date.now() > deadline));
  const vm = runtime.newContext();
  let consoleText = "";
  const log = vm.newFunction("log", (...args) => {
    const line = args.map((arg) => { const value = vm.dump(arg); return typeof value === "string" ? value : JSON.stringify(value); }).join(" ");
    if (consoleText.length < CONSOLE_MAX_CHARS) consoleText += (line + "\n").slice(0, CONSOLE_MAX_CHARS - consoleText.length);
  });
  vm.setProp(vm.global, "__svc_log", log);
  log.dispose();
  const prelude = vm.evalCode(
    "globalThis.console = Object.freeze({ log: __svc_log, info: __svc_log, warn: __svc_log, error: __svc_log, debug: __svc_log });" +
      "globalThis.process = Object.freeze({ env: Object.freeze(" + JSON.stringify(env) + ") });" +
      "delete globalThis.__svc_log;",
    "prelude.js",
  );
  prelude.unwrap().dispose();

  const failure = (handle) => {
    const error = vm.dump(handle);
    handle.dispose();
    const limit = interrupted ? "time" : memory.buffer.byteLength >= memoryBytes - 4 * PAGE || /out of memory/.test(String(error && error.message)) ? "memory" : undefined;
    // The wrapper's own frames (call.js) say nothing about the script.
    const stack = error && typeof error.stack === "string" ? error.stack.split("\n").filter((line) => line.trim() && !line.includes("(call.js:")).join("\n") : "";
    const text = error && typeof error === "object" && "message" in error ? (error.name || "Error") + ": " + error.message + (stack ? "\n" + stack : "") : String(error);
    return { ok: false, error: text.trimEnd(), console: consoleText, limit };
  };

  const loaded = vm.evalCode(script, "tool.js");
  if (loaded.error) return failure(loaded.error);
  loaded.value.dispose();
  const called = vm.evalCode(
    "(async () => {" +
      " if (typeof main !== 'function') throw new TypeError('the script defines no function main(inputs)');" +
      " const value = await main(" + inputJson + ");" +
      " const json = JSON.stringify(value === undefined ? null : value);" +
      " if (json === undefined) throw new TypeError('main returned a value JSON cannot represent');" +
      " return json;" +
      "})()",
    "call.js",
  );
  if (called.error) return failure(called.error);
  const promise = called.value;
  let state = vm.getPromiseState(promise);
  while (state.type === "pending" && runtime.hasPendingJob()) {
    const jobs = runtime.executePendingJobs();
    if (jobs.error) { promise.dispose(); return failure(jobs.error); }
    state = vm.getPromiseState(promise);
  }
  promise.dispose();
  if (state.type === "rejected") return failure(state.error);
  if (state.type === "pending") return { ok: false, error: "main returned a promise that never settles (there are no timers or I/O to wait for)", console: consoleText };
  const json = vm.getString(state.value);
  state.value.dispose();
  return { ok: true, json };
}

main().then(
  (message) => parentPort.postMessage(message),
  (error) => parentPort.postMessage({ ok: false, error: String((error && error.message) || error), console: "" }),
);
`;
