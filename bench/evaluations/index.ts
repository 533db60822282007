/**
 * evaluations: the engine's throughput and overhead, on PostgreSQL with the real worker (SKIP
 * LOCKED claims, leases, LISTEN/NOTIFY), against the scripted OpenAI-compatible model server.
 *
 *   npm run bench -- evaluations [--testcases 1000] [--repeats 3] [--rounds 2] [--slow-cells 1000]
 *                                [--worker-processes 2] [--cpu-prof DIR]
 *
 * 1. Near-zero model latency: `--testcases` x `--repeats` cells (agent invocation, is_split, plus
 *    an exact-match evaluator per cell) at batch_size 10, timed from create to `success`; and the
 *    same agent invoked directly (the invoke path's prepare + turn + trace, and the same evaluator)
 *    as many times at concurrency 10 in the same process. Both are warmed up first with as many
 *    invocations, then measured in `--rounds` rounds of alternating order (engine first, then
 *    direct first). Reports cells/s and the ratio engine time / direct time over the rounds
 *    (target <= 1.10), and each round's. Each run's tables are analyzed once it is minted (inside
 *    the timed window), as a database in service has statistics.
 * 2. 200 ms model latency: `--slow-cells` agent cells at batch_size 50, timed against the ideal
 *    cells x 200 ms / 50 (target <= 1.3), and against the same invocations made directly at
 *    concurrency 50 (on a machine short of CPU, that is the real floor). Run twice: with the
 *    evaluation worker in this process, then (`--worker-processes N`, default 2, the cores of the
 *    project's machines; 0 skips it) with the cells run by N processes of `npm run worker`
 *    (server/boot/worker-main.ts, every background worker, span ingest included) on the same
 *    database, this process only serving the API as an app instance does: a deployment's way to
 *    use more than one core. They are warmed up first (as many cells as this process ran before
 *    its own 200 ms run) and the trace backlog of the earlier phases is ingested before timing.
 *
 * The scripted model server runs in a child process (model-server-main.ts): it stands in for a
 * hosted model, which is never on the engine's thread; in this process it took about 0.5 ms of
 * CPU per invocation and a share of the one thread. Its CPU is reported apart.
 *
 * For each, the invocations' mean time and mean number in flight: whether a slow run is slow
 * because dispatch leaves slots idle, or because each invocation takes longer; and the CPU per
 * invocation of this process (plus the worker processes', when they run the cells), the reading
 * that matters once a Node thread is saturated. Both paths are warmed up first. "Directly" is
 * `runAgentTurn` without a per-run resolution: the invoke path as a caller of
 * `/services/agent/v0/invoke` gets it (template and connection resolved per call). `--cpu-prof`
 * writes a V8 CPU profile of each near-zero phase (engine, direct) to DIR.
 *
 * Uses DATABASE_URL, or the local server at postgres://postgres@127.0.0.1:5432/test; a fresh
 * database is created for the run and dropped afterwards.
 */
import { rawQuery, type Database } from "@/server/db";
import { startEvaluationWorker } from "@/server/evaluations";
import { runAgentTurn } from "@/server/evaluations/execution/agent-runner";
import { runEvaluator } from "@/server/evaluations/evaluators";
import { ingestBacklog } from "@/server/tracing/ingest/backlog";
import { openBenchApp } from "../lib/bench-app";
import { loadAverage, log, machine } from "../lib/benchmark";
import { profiled } from "./cpu-profile";
import { startModelServerProcess } from "./model-server-process";
import { startWorkerProcesses } from "./worker-processes";

function flag(argv: string[], name: string, fallback: number, least = 1): number {
  const i = argv.indexOf(`--${name}`);
  const raw = i >= 0 ? argv[i + 1] : undefined;
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < least) throw new Error(`--${name} must be an integer of at least ${least}`);
  return value;
}

/**
 * How busy the slots were: the mean time of one invocation, and the mean number in flight
 * (their summed time over the wall time). Far below the concurrency asked for means dispatch
 * serialises; at it, with long invocations, means each invocation is slower (the CPU is short).
 */
function inFlight(latenciesMs: number[], seconds: number) {
  const sum = latenciesMs.reduce((a, b) => a + b, 0);
  return {
    mean_ms: Number((sum / Math.max(1, latenciesMs.length)).toFixed(1)),
    mean_in_flight: Number((sum / 1000 / seconds).toFixed(1)),
  };
}

/**
 * This process's CPU time (user + system) per invocation since `from`: the engine, the invoke
 * path and the scripted model server alike, far less moved by other tenants than wall time
 * (PostgreSQL's own CPU is in its processes, not counted).
 */
function cpuPer(from: NodeJS.CpuUsage, count: number): number {
  const used = process.cpuUsage(from);
  return Number(((used.user + used.system) / 1000 / count).toFixed(2));
}

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** Waits until the span ingest backlog is empty (at most a minute), polling. */
async function ingested(db: Database): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if ((await ingestBacklog(db)) === 0) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  log("the span ingest queue did not empty within a minute; measuring anyway");
}

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const testcases = flag(argv, "testcases", 1000);
  const repeats = flag(argv, "repeats", 3);
  const slowCells = flag(argv, "slow-cells", 1000);
  const workerProcesses = flag(argv, "worker-processes", 2, 0);
  const nearZeroRounds = flag(argv, "rounds", 2);
  const profileDir = argv.includes("--cpu-prof") ? argv[argv.indexOf("--cpu-prof") + 1] : undefined;
  const loadBefore = loadAverage();
  const model = await startModelServerProcess();
  const { handle, app, account, call, databaseUrl, secretKey, close } = await openBenchApp(
    "bench_evaluations",
    model.baseUrl,
  );
  try {
    const agent = (
      await call("POST", "/api/simple/workflows/", {
        workflow: {
          slug: "bench-agent",
          data: { parameters: { agent: { llm: { provider: "openai", model: "gpt-5-mini" }, tools: [] } } },
        },
      })
    ).workflow;
    const evaluator = (
      await call("POST", "/api/simple/evaluators/", {
        evaluator: { slug: "exact", data: { uri: "svc:builtin:auto_exact_match:v0", parameters: {} } },
      })
    ).evaluator;
    const rows = Array.from({ length: testcases }, (_, i) => ({ question: `q${i}`, correct_answer: "42" }));
    const worker = startEvaluationWorker(app, { concurrency: 60 });

    /** `workerCpuMs`: the CPU so far of the worker processes, when the cells run there. */
    const evaluate = async (
      data: Record<string, unknown>,
      flags: Record<string, boolean> = {},
      workerCpuMs: () => number = () => 0,
    ) => {
      const started = performance.now();
      const cpuFrom = process.cpuUsage();
      const workerCpuFrom = workerCpuMs();
      const modelCpuFrom = model.cpuMs();
      const { evaluation } = await call("POST", "/api/simple/evaluations/", { evaluation: { flags, data } });
      // A database in service has its tables' statistics (autovacuum analyzes a table within a
      // minute of a large run's start); this new one has none, and the planner then takes the
      // tables for a few rows, which hid a plan that scanned them all (server/evaluations/README.md, "Cost rules").
      await rawQuery(handle.db, "analyze evaluation_results, evaluation_scenarios");
      for (;;) {
        const { evaluation: e } = await call("GET", `/api/simple/evaluations/${evaluation.id}`);
        if (["success", "errors", "failure"].includes(e.data.status)) {
          const seconds = (performance.now() - started) / 1000;
          const cpu = process.cpuUsage(cpuFrom);
          const cpuMs = (cpu.user + cpu.system) / 1000 + workerCpuMs() - workerCpuFrom;
          const modelCpuMs = model.cpuMs() - modelCpuFrom;
          if (e.data.status !== "success") throw new Error(`the run ended ${e.data.status}`);
          const { results } = await call("POST", "/api/evaluations/results/query", {
            result: {
              run_id: evaluation.id,
              step_keys: Object.keys(e.progress.steps).filter((k) => k.startsWith("application-")),
            },
          });
          return {
            seconds,
            cpuMs: Number((cpuMs / Math.max(1, results.length)).toFixed(2)),
            modelCpuMs: Number((modelCpuMs / Math.max(1, results.length)).toFixed(2)),
            cells: e.progress.cells_total,
            invocations: inFlight(
              results.map((r: { data?: { latency_ms?: number } }) => r.data?.latency_ms ?? 0),
              seconds,
            ),
          };
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    const principal = { projectId: account.project.id, userId: account.user.id, role: "owner" as const };
    const invokeDirectly = (content: string) =>
      runAgentTurn(
        app,
        principal,
        { workflowRevisionId: agent.revision_id },
        [{ role: "user", content }],
        new AbortController().signal,
      );
    /**
     * The 200 ms run again, its cells run by `workerProcesses` processes of `npm run worker` (this
     * process only serves the API, as an app instance does). They start every background worker,
     * span ingest among them: the traces of the phases before are ingested first, so the
     * measured run carries the ingest of its own traces only.
     */
    const inWorkerProcesses = async () => {
      log(`starting ${workerProcesses} worker processes`);
      const workers = await startWorkerProcesses(workerProcesses, {
        DATABASE_URL: databaseUrl,
        APP_SECRET_KEY: secretKey.toString("base64"),
        OPENAI_API_KEY: "sk-bench",
        OPENAI_BASE_URL: model.baseUrl,
        AGENT_MAX_RETRIES: "0",
      });
      try {
        // Fresh processes: as many cells as this process ran before its own 200 ms run, at near-zero latency.
        log("warm-up in the worker processes; the trace backlog ingested");
        await model.setLatency(0);
        await evaluate({ ...slowData, testcases: slowData.testcases.slice(0, Math.max(600, testcases)) });
        await model.setLatency(200);
        await ingested(handle.db);
        log(`200 ms latency: ${slowCells} agent cells at batch_size 50 in ${workerProcesses} worker processes`);
        return await evaluate(slowData, {}, () => workers.cpuMs());
      } finally {
        await workers.stop();
      }
    };
    const invocations = testcases * repeats;
    /** The near-zero run through the engine: every testcase, `repeats` times. */
    const nearZeroRun = () =>
      evaluate(
        {
          testcases: rows,
          application_steps: [agent.revision_id],
          evaluator_steps: [evaluator.revision_id],
          repeats,
          concurrency: { batch_size: 10 },
        },
        { is_split: true },
      );
    /** The same invocations and scores made directly at concurrency 10. */
    const nearZeroDirect = async () => {
      const started = performance.now();
      const cpuFrom = process.cpuUsage();
      const latencies: number[] = [];
      await pool(
        Array.from({ length: invocations }, (_, i) => rows[i % testcases]),
        10,
        async (row) => {
          const outcome = await invokeDirectly(row.question);
          if (outcome.status !== "success") throw new Error(outcome.error.message);
          latencies.push(outcome.latencyMs);
          await runEvaluator(
            { app, projectId: account.project.id, signal: new AbortController().signal },
            { uri: "svc:builtin:auto_exact_match:v0", data: { parameters: {} }, inputs: row, outputs: outcome.outputs },
          );
        },
      );
      const seconds = (performance.now() - started) / 1000;
      return { seconds, cpuMs: cpuPer(cpuFrom, invocations), invocations: inFlight(latencies, seconds) };
    };
    // Both paths before measuring, as many times as one measured phase: V8 goes on optimising the
    // invoke path and sizing its young generation for thousands of calls, so a phase run first
    // on a barely warm process was up to a fifth slower than the same phase run again.
    log(`warm-up: ${invocations} invocations through the engine and as many directly`);
    await nearZeroRun();
    await nearZeroDirect();

    // Rounds in alternating order (engine first, then direct first), so what drifts over the
    // process's life (its warmth, the machine's other load) weighs on both paths alike.
    const rounds: {
      engine: Awaited<ReturnType<typeof nearZeroRun>>;
      direct: Awaited<ReturnType<typeof nearZeroDirect>>;
    }[] = [];
    for (let round = 1; round <= nearZeroRounds; round++) {
      const engineFirst = round % 2 === 1;
      const measureEngine = () => {
        log(`round ${round}: ${testcases} testcases x ${repeats} repeats through the engine`);
        return profiled(profileDir, `near-zero-engine-${round}`, nearZeroRun);
      };
      const measureDirect = () => {
        log(`round ${round}: the same ${invocations} invocations and scores, directly, at concurrency 10`);
        return profiled(profileDir, `near-zero-direct-${round}`, nearZeroDirect);
      };
      if (engineFirst) {
        const engine = await measureEngine();
        rounds.push({ engine, direct: await measureDirect() });
      } else {
        const direct = await measureDirect();
        rounds.push({ engine: await measureEngine(), direct });
      }
    }
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const engineSeconds = sum(rounds.map((r) => r.engine.seconds));
    const directSeconds = sum(rounds.map((r) => r.direct.seconds));

    log(`200 ms latency: ${slowCells} agent cells at batch_size 50, the worker in this process`);
    await model.setLatency(200);
    const slowData = {
      testcases: rows.slice(0, slowCells).concat(
        Array.from({ length: Math.max(0, slowCells - testcases) }, (_, i) => ({
          question: `extra${i}`,
          correct_answer: "42",
        })),
      ),
      application_steps: [agent.revision_id],
      concurrency: { batch_size: 50 },
    };
    const slow = await evaluate(slowData);
    const ideal = (slowCells * 0.2) / 50;
    await worker.stop();
    const multiProcess = workerProcesses > 0 ? await inWorkerProcesses() : undefined;
    log(
      `the same ${slowCells} invocations directly at concurrency 50 (on this machine's CPU, the floor for the engine)`,
    );
    const slowDirectStarted = performance.now();
    const slowDirectCpu = process.cpuUsage();
    const slowDirectLatencies: number[] = [];
    await pool(
      Array.from({ length: slowCells }, (_, i) => `slow${i}`),
      50,
      async (question) => {
        const outcome = await invokeDirectly(question);
        if (outcome.status !== "success") throw new Error(outcome.error.message);
        slowDirectLatencies.push(outcome.latencyMs);
      },
    );
    const slowDirect = (performance.now() - slowDirectStarted) / 1000;
    const slowDirectCpuMs = cpuPer(slowDirectCpu, slowCells);
    return {
      benchmark: "evaluations",
      database: "postgres",
      machine: machine(),
      load_average: { before: loadBefore, after: loadAverage() },
      near_zero_latency: {
        testcases,
        repeats,
        invocations,
        cells_total: rounds[0].engine.cells,
        rounds: rounds.length,
        engine_seconds: Number(engineSeconds.toFixed(2)),
        invocation_cells_per_second: Number(((invocations * rounds.length) / engineSeconds).toFixed(1)),
        direct_seconds: Number(directSeconds.toFixed(2)),
        engine_over_direct: Number((engineSeconds / directSeconds).toFixed(3)),
        target: "<= 1.10",
        by_round: rounds.map((r, i) => ({
          order: i % 2 === 0 ? "engine, direct" : "direct, engine",
          engine_seconds: Number(r.engine.seconds.toFixed(2)),
          direct_seconds: Number(r.direct.seconds.toFixed(2)),
          engine_over_direct: Number((r.engine.seconds / r.direct.seconds).toFixed(3)),
          engine_invocations: r.engine.invocations,
          direct_invocations: r.direct.invocations,
          cpu_ms_per_invocation: { engine: r.engine.cpuMs, direct: r.direct.cpuMs },
          model_server_cpu_ms_per_invocation: r.engine.modelCpuMs,
        })),
      },
      model_latency_200ms: {
        cells: slowCells,
        batch_size: 50,
        seconds: Number(slow.seconds.toFixed(2)),
        ideal_seconds: ideal,
        over_ideal: Number((slow.seconds / ideal).toFixed(3)),
        target: "<= 1.3",
        direct_seconds: Number(slowDirect.toFixed(2)),
        engine_over_direct: Number((slow.seconds / slowDirect).toFixed(3)),
        engine_invocations: slow.invocations,
        direct_invocations: inFlight(slowDirectLatencies, slowDirect),
        cpu_ms_per_invocation: { engine: slow.cpuMs, direct: slowDirectCpuMs },
        model_server_cpu_ms_per_invocation: slow.modelCpuMs,
        worker_processes: multiProcess && {
          processes: workerProcesses,
          seconds: Number(multiProcess.seconds.toFixed(2)),
          over_ideal: Number((multiProcess.seconds / ideal).toFixed(3)),
          engine_over_direct: Number((multiProcess.seconds / slowDirect).toFixed(3)),
          engine_invocations: multiProcess.invocations,
          cpu_ms_per_invocation: multiProcess.cpuMs,
        },
      },
    };
  } finally {
    await model.close();
    await close();
  }
}
