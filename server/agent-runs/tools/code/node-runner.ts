import { Worker } from "node:worker_threads";
import type { CodeLimits, CodeRun, CodeRuntime } from "./code-runner";
import { QUICKJS_WORKER_SOURCE } from "./quickjs-worker-source";

/** After the deadline, how long the interrupt handler has to stop the script before the worker is killed. */
const HARD_STOP_GRACE_MS = 2_000;

interface WorkerReply {
  ok: boolean;
  json?: string;
  error?: string;
  console?: string;
  limit?: "time" | "memory";
}

/**
 * A `node` script's `main(inputs)` in QuickJS (WebAssembly), in a worker thread of its own so a
 * busy script never blocks the server's event loop and a stuck one can be killed. The worker's
 * own JavaScript heap is bounded too (resourceLimits); the script's heap is the VM's WASM memory.
 * console output is kept only to explain a failure, as python's stdout is.
 */
const runNode: CodeRun = ({ script, input, env, limits, signal }) =>
  new Promise((resolve, reject) => {
    const worker = new Worker(QUICKJS_WORKER_SOURCE, {
      eval: true,
      workerData: {
        script,
        inputJson: JSON.stringify(input ?? {}),
        env,
        timeoutMs: limits.timeoutMs,
        memoryBytes: limits.memoryMb * 1024 * 1024,
      },
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
      // Piped, not inherited: nothing the runtime prints reaches the server's JSON log lines.
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      outcome();
    };
    const fail = (message: string) => finish(() => reject(new Error(message)));
    const timer = setTimeout(() => fail(timeMessage(limits)), limits.timeoutMs + HARD_STOP_GRACE_MS);
    const onAbort = () => fail("the call was cancelled");
    signal?.addEventListener("abort", onAbort, { once: true });
    if (signal?.aborted) onAbort();
    worker.once("message", (reply: WorkerReply) => {
      if (reply.ok) return finish(() => resolve(JSON.parse(reply.json ?? "null")));
      fail(failureMessage(reply, limits));
    });
    worker.once("error", (error) =>
      fail(
        /ERR_WORKER_OUT_OF_MEMORY/.test(String((error as NodeJS.ErrnoException).code))
          ? memoryMessage(limits)
          : error.message,
      ),
    );
    worker.once("exit", (code) => fail(`the node runtime stopped unexpectedly (exit code ${code})`));
  });

/** `node` code tools: no sandbox needed, the VM has no file system. */
export const nodeRuntime: CodeRuntime = { needsSandbox: false, run: runNode };

const timeMessage = (limits: CodeLimits) => `stopped after ${limits.timeoutMs} ms (SANDBOX_COMMAND_TIMEOUT_MS)`;
const memoryMessage = (limits: CodeLimits) =>
  `stopped: the script went over its memory cap of ${limits.memoryMb} MB (CODE_TOOL_MEMORY_MB)`;

function failureMessage(reply: WorkerReply, limits: CodeLimits): string {
  const cause =
    reply.limit === "time" ? `${timeMessage(limits)}\n` : reply.limit === "memory" ? `${memoryMessage(limits)}\n` : "";
  const output = reply.console ? `\nconsole output:\n${reply.console}` : "";
  return `${cause}${reply.error ?? "the script failed"}${output}`.trimEnd();
}
