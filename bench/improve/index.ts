/**
 * improve: the optimizer's own overhead per round, beside the evaluation cells it runs.
 *
 *   npm run bench -- improve [--testcases 40] [--rounds 3] [--candidates 3]
 *
 * A prompt application that fails every even addition, a testset of `--testcases` additions and
 * an exact-match evaluator; an optimization with all three strategies (reflective through the
 * scripted optimizer model, few-shot, parameter sweep), `--rounds` rounds of `--candidates`. The
 * optimization is driven by hand, in one process, alternating two phases until it ends:
 *
 * - the optimizer: one `optimizationPass` (claim, proposals with the optimizer model's call,
 *   commits on improve/ variants, creating runs, scoring finished runs, progress, the report);
 * - the cells: `drainEvaluationCells` until no cell is due (the invocations, the in-process
 *   evaluator, record, settle, each run's end).
 *
 * Each phase's wall time and this process's CPU (process.cpuUsage) are summed per round (the
 * round the optimization was in when the phase began; round 0 is the base's run, the last
 * includes the holdout and the report). The ratio optimizer / cells is the overhead (target
 * <= 10%). The model server runs in a child process; its CPU is not counted on either side.
 *
 * Uses DATABASE_URL, or the local server at postgres://postgres@127.0.0.1:5432/test; a fresh
 * database is created for the run and dropped afterwards.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { improveOptimizations } from "@/server/db/schema";
import { drainEvaluationCells } from "@/server/evaluations";
import { optimizationPass } from "@/server/improve";
import { openBenchApp } from "../lib/bench-app";
import { loadAverage, log, machine } from "../lib/benchmark";

function flag(argv: string[], name: string, fallback: number): number {
  const i = argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}

async function modelServer() {
  const child = fork(fileURLToPath(new URL("./model-server-main.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.once("message", (m: { baseUrl?: string }) => resolve(m.baseUrl!));
    child.once("exit", (code) => reject(new Error(`the model server exited with ${code}`)));
  });
  return { baseUrl, close: () => child.disconnect() };
}

interface Cost {
  wall_ms: number;
  cpu_ms: number;
}
const zero = (): Cost => ({ wall_ms: 0, cpu_ms: 0 });

async function timed<T>(into: Cost, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  try {
    return await work();
  } finally {
    const used = process.cpuUsage(cpu);
    into.wall_ms += performance.now() - started;
    into.cpu_ms += (used.user + used.system) / 1000;
  }
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const pct = (a: number, b: number) => Math.round((a / b) * 1000) / 10;

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const testcases = flag(argv, "testcases", 40);
  const rounds = flag(argv, "rounds", 3);
  const candidates = flag(argv, "candidates", 3);
  const loadBefore = loadAverage();
  const model = await modelServer();
  const { handle, app, call, close } = await openBenchApp("bench_improve", model.baseUrl);
  try {
    const prompt = (
      await call("POST", "/api/simple/applications/", {
        application: {
          slug: "adder",
          data: {
            parameters: {
              prompt: {
                messages: [
                  { role: "system", content: "You add two numbers. Answer with the sum only." },
                  { role: "user", content: "Add {{a}} and {{b}}." },
                ],
                llm_config: { model: "openai/gpt-5-mini" },
              },
            },
          },
        },
      })
    ).application;
    const rows = Array.from({ length: testcases }, (_, i) => ({ a: i, b: i + 1, correct_answer: String(2 * i + 1) }));
    const testset = (
      await call("POST", "/api/simple/testsets/", { testset: { slug: "adds", data: { testcases: rows } } })
    ).testset;
    const evaluator = (
      await call("POST", "/api/simple/evaluators/", {
        evaluator: { slug: "exact", data: { uri: "svc:builtin:auto_exact_match:v0", parameters: {} } },
      })
    ).evaluator;
    const optimizer = new Map<number, Cost>();
    const cells = new Map<number, Cost>();
    const at = (map: Map<number, Cost>, round: number) => map.get(round) ?? map.set(round, zero()).get(round)!;
    let cellsRun = 0;
    /** One optimization driven to its end; with `measure`, each phase's cost goes to its round. */
    const optimize = async (roundsOf: number, measure: boolean) => {
      const started = (
        await call("POST", "/api/improve/optimizations", {
          base_revision_id: prompt.revision_id,
          testset_revision_id: testset.revision_id,
          evaluator_revision_ids: [evaluator.revision_id],
          model: "openai/gpt-5-mini",
          rounds: roundsOf,
          candidates_per_round: candidates,
          seed: 1,
        })
      ).optimization;
      for (let guard = 0; guard < 10_000; guard++) {
        await handle.db
          .update(improveOptimizations)
          .set({ nextAt: app.now() })
          .where(eq(improveOptimizations.id, started.id));
        const pass = zero();
        await timed(pass, () => optimizationPass(app, 1, { pollMs: 0 }));
        const current = (await call("GET", `/api/improve/optimizations/${started.id}`)).optimization;
        // The pass worked on the round the optimization is in after it (it made that round's candidates).
        const round = current.progress?.round ?? 0;
        if (measure) {
          at(optimizer, round).wall_ms += pass.wall_ms;
          at(optimizer, round).cpu_ms += pass.cpu_ms;
        }
        if (!["queued", "running"].includes(current.status)) return current;
        await timed(measure ? at(cells, round) : zero(), async () => {
          for (;;) {
            const n = await drainEvaluationCells(app, 50);
            if (n === 0) break;
            if (measure) cellsRun += n;
          }
        });
      }
      throw new Error("the optimization did not end");
    };
    // Warm-up: the first pass through each code path loads modules and fills caches.
    log("warm-up: one optimization of one round");
    await optimize(1, false);
    log(`measured: ${rounds} rounds of ${candidates} candidates`);
    const wall = performance.now();
    const final = await optimize(rounds, true);
    const totalWall = performance.now() - wall;
    if (final.status !== "succeeded") throw new Error(`the optimization ended ${final.status}: ${final.error ?? ""}`);
    const perRound = [...new Set([...optimizer.keys(), ...cells.keys()])]
      .sort((a, b) => a - b)
      .map((round) => {
        const o = at(optimizer, round);
        const c = at(cells, round);
        return {
          round,
          optimizer_wall_ms: round1(o.wall_ms),
          optimizer_cpu_ms: round1(o.cpu_ms),
          cells_wall_ms: round1(c.wall_ms),
          cells_cpu_ms: round1(c.cpu_ms),
          overhead_wall_pct: pct(o.wall_ms, c.wall_ms),
          overhead_cpu_pct: pct(o.cpu_ms, c.cpu_ms),
        };
      });
    const sum = (map: Map<number, Cost>, k: keyof Cost) => [...map.values()].reduce((s, c) => s + c[k], 0);
    log(
      `optimization ${final.status}: winner ${final.result.winner.holdout_score} vs base ${final.result.base.holdout_score}`,
    );
    return {
      machine: machine(),
      load_before: loadBefore,
      load_after: loadAverage(),
      testcases,
      rounds,
      candidates_per_round: candidates,
      split: final.split,
      cells_run: cellsRun,
      total_wall_ms: round1(totalWall),
      optimizer: { wall_ms: round1(sum(optimizer, "wall_ms")), cpu_ms: round1(sum(optimizer, "cpu_ms")) },
      cells: { wall_ms: round1(sum(cells, "wall_ms")), cpu_ms: round1(sum(cells, "cpu_ms")) },
      overhead_wall_pct: pct(sum(optimizer, "wall_ms"), sum(cells, "wall_ms")),
      overhead_cpu_pct: pct(sum(optimizer, "cpu_ms"), sum(cells, "cpu_ms")),
      target_pct: 10,
      per_round: perRound,
      result: {
        base_holdout: final.result.base.holdout_score,
        winner_holdout: final.result.winner.holdout_score,
        difference: final.result.difference,
      },
    };
  } finally {
    model.close();
    await close();
  }
}
