/**
 * code-tool-soak: memory of the server process over many agent runs that call a code tool.
 *
 *   npm run bench -- code-tool-soak [--runs 600] [--every 100] [--runtime python|node]
 *     [--sessions new|one] [--snapshots DIR]
 *
 * Each run goes through the invoke route (batch answer, recorded as a run with its event log and
 * trace) against the scripted model server: the model calls the code tool, then answers with its
 * result. Every `--every` runs the process is collected fully (gc, twice) and its memory printed:
 * a leak shows as heap or RSS that keeps climbing, while a warm-up rise that levels off does not.
 * `--snapshots DIR` writes a heap snapshot at each step, for Chrome's comparison view. PGlite in
 * memory, or PostgreSQL with DATABASE_URL.
 */
import { writeHeapSnapshot, setFlagsFromString } from "node:v8";
import path from "node:path";
import { runInNewContext } from "node:vm";
import { loadAverage, log, machine, parseFlags } from "../lib/benchmark";
import { startScriptedModelServer } from "../../tests/helpers/scripted-model-server";
import { createTestApp } from "../../tests/helpers/test-app";

const SCRIPTS = {
  python: 'def main(a, b):\n    return {"sum": a + b, "text": "x" * 1000}\n',
  node: 'function main({ a, b }) {\n  return { sum: a + b, text: "x".repeat(1000) };\n}\n',
};

/** A full collection, with or without `--expose-gc` on the command line. */
function collector(): () => void {
  if (typeof globalThis.gc === "function") return globalThis.gc;
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

const mb = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(1));

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const flags = parseFlags(argv);
  const runs = Number(flags.runs ?? 600);
  const every = Number(flags.every ?? 100);
  const runtime = String(flags.runtime ?? "python") as keyof typeof SCRIPTS;
  const sessions = String(flags.sessions ?? "new");
  const snapshots = typeof flags.snapshots === "string" ? flags.snapshots : undefined;
  if (!(runtime in SCRIPTS)) throw new Error(`--runtime must be python or node, not ${runtime}`);
  const gc = collector();
  const loadBefore = loadAverage();

  const model = await startScriptedModelServer();
  const app = await createTestApp({ providerEnv: { openai: { key: "sk-soak", baseUrl: model.baseUrl } } });
  const { key } = await app.newProject();
  // The first request of a turn asks for the tool; the one carrying its result gets the answer.
  model.respondWith((request) =>
    JSON.stringify(request.body).includes("function_call_output")
      ? { kind: "reply", text: "The sum is there." }
      : { kind: "reply", toolCalls: [{ id: "call_add", name: "add", input: { a: 2, b: 3 } }] },
  );
  const agent = {
    llm: { provider: "openai", model: "gpt-5-mini" },
    tools: [
      {
        type: "code",
        name: "add",
        runtime,
        script: SCRIPTS[runtime],
        input_schema: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        },
      },
    ],
    runner: { permissions: { default: "allow" } },
  };

  const steps: Array<Record<string, number>> = [];
  const measure = (done: number, started: number) => {
    gc();
    gc();
    const memory = process.memoryUsage();
    const step = {
      runs: done,
      rss_mb: mb(memory.rss),
      heap_used_mb: mb(memory.heapUsed),
      external_mb: mb(memory.external),
      array_buffers_mb: mb(memory.arrayBuffers),
      ms_per_run: Number(((performance.now() - started) / Math.max(1, every)).toFixed(1)),
    };
    steps.push(step);
    log(JSON.stringify(step));
    if (snapshots) writeHeapSnapshot(path.join(snapshots, `soak-${runtime}-${done}.heapsnapshot`));
  };

  measure(0, performance.now());
  let started = performance.now();
  for (let i = 1; i <= runs; i++) {
    const res = await app.call("POST", "/services/agent/v0/invoke", {
      key,
      body: {
        session_id: sessions === "one" ? "soak" : `soak-${i}`,
        data: { inputs: { messages: [{ role: "user", content: "add 2 and 3" }] }, parameters: { agent } },
      },
    });
    const tool = JSON.stringify(res.body);
    if (res.status !== 200 || !tool.includes('"sum":5'))
      throw new Error(`run ${i}: ${res.status} ${tool.slice(0, 500)}`);
    // The scripted model server records every request it answers (tests read them); it lives in
    // this process, so kept they were the growth this bench measured: about 10 KB a run.
    model.requests.length = 0;
    if (i % every === 0) {
      measure(i, started);
      started = performance.now();
    }
  }
  await app.close();
  await model.close();
  const first = steps[1] ?? steps[0];
  const last = steps.at(-1)!;
  return {
    benchmark: "code-tool-soak",
    runtime,
    sessions,
    runs,
    steps,
    // Growth after the first step (warm-up: modules, JIT, caches filled once).
    heap_growth_after_first_step_mb: Number((last.heap_used_mb - first.heap_used_mb).toFixed(1)),
    rss_growth_after_first_step_mb: Number((last.rss_mb - first.rss_mb).toFixed(1)),
    database: process.env.DATABASE_URL ? "postgresql" : "pglite",
    load_average: { before: loadBefore, after: loadAverage() },
    machine: machine(),
  };
}
