/**
 * Evaluator cost per call, no database and no network: what each family adds to a cell.
 * `npm run bench -- evaluators [--calls 200]`. Sandboxed code runs fewer calls (each starts a
 * fresh QuickJS worker or CPython interpreter, by design).
 */
import { loadConfig } from "@/server/core/config";
import { runEvaluator } from "@/server/evaluations/evaluators";
import type { AppContext } from "@/server/core/app-context";
import { loadAverage, log, machine } from "../lib/benchmark";

const app = { config: loadConfig({}) } as AppContext;
const text = (n: number) => Array.from({ length: n }, (_, i) => "lorem ipsum dolor sit amet "[i % 27]).join("");

async function perCall(
  name: string,
  calls: number,
  uri: string,
  parameters: Record<string, unknown>,
  inputs: Record<string, unknown>,
  outputs: unknown,
  data: Record<string, unknown> = {},
) {
  const ctx = { app, projectId: "bench", signal: new AbortController().signal };
  const request = { uri, data: { uri, parameters, ...data }, inputs, outputs };
  const first = await runEvaluator(ctx, request);
  if (first.status !== "success") throw new Error(`${name}: ${first.error.message}`);
  const started = performance.now();
  for (let i = 0; i < calls; i++) await runEvaluator(ctx, request);
  const ms = (performance.now() - started) / calls;
  log(`${name}: ${ms.toFixed(3)} ms per call`);
  return { name, calls, ms_per_call: Number(ms.toFixed(3)) };
}

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const at = argv.indexOf("--calls");
  const calls = at >= 0 ? Number(argv[at + 1]) : 200;
  const answer = { correct_answer: text(2_000) };
  const results = [
    await perCall("exact_match", calls * 10, "svc:builtin:auto_exact_match:v0", {}, answer, text(2_000)),
    await perCall("regex", calls * 10, "svc:builtin:auto_regex_test:v0", { regex_pattern: "(a+)+b" }, {}, text(2_000)),
    await perCall(
      "similarity_2k_chars",
      calls,
      "svc:builtin:auto_similarity_match:v0",
      {},
      answer,
      text(2_000).replace(/o/g, "0"),
    ),
    await perCall(
      "levenshtein_2k_chars",
      calls,
      "svc:builtin:auto_levenshtein_distance:v0",
      {},
      answer,
      text(2_000).replace(/o/g, "0"),
    ),
    await perCall(
      "json_diff",
      calls * 10,
      "svc:builtin:auto_json_diff:v0",
      {},
      { correct_answer: { a: 1, b: { c: [1, 2], d: "x" } } },
      { a: 1, b: { c: [1], d: "x" } },
    ),
    await perCall("javascript_code", Math.max(5, calls / 20), "svc:custom:code:v0", {}, answer, "x", {
      script: "function evaluate(i, o) { return o.length / 10; }",
      runtime: "javascript",
    }),
    await perCall("python_code", 3, "svc:custom:code:v0", {}, answer, "x", {
      script: "def evaluate(i, o, t):\n    return 0.5",
      runtime: "python",
    }),
  ];
  return { machine: machine(), load_average: loadAverage(), results };
}
