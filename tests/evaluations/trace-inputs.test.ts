import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawQuery } from "@/server/db";
import { evaluationRuns } from "@/server/db/schema";
import { drainIngestQueue } from "@/server/tracing";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import { arithmeticModel, createEntity, evaluationApp, settled, startWorker } from "./eval-fixtures";
import { eventually } from "../helpers/eventually";

const CRON_SECRET = "cron-secret-for-live-ticks-0123456789";

let t: TestApp;
let model: ScriptedModelServer;
let worker: { stop(): Promise<void> };
let key: string;
let promptRevision: string;
let exactMatch: string;
let sequence = 0;

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

/** Ingests one trace (a root span named `name` with inputs and outputs) started at `start`. */
async function trace(name: string, start: Date, inputs: Record<string, unknown>, outputs: unknown): Promise<string> {
  const id = `${hex(Date.now(), 16)}${hex(++sequence, 16)}`;
  const res = await t.call("POST", "/api/tracing/spans/ingest", {
    key,
    body: {
      spans: [
        {
          trace_id: id,
          span_id: hex(sequence, 16),
          span_name: name,
          start_time: start.toISOString(),
          end_time: new Date(start.getTime() + 100).toISOString(),
          attributes: { "ag.data.inputs": inputs, "ag.data.outputs": outputs },
        },
      ],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return id;
}

async function savedQuery(slug: string, spanName: string, extra: Record<string, unknown>[] = []): Promise<string> {
  const conditions = [{ field: "span_name", value: spanName }, ...extra];
  return (
    await createEntity(t, key, "queries", "query", { slug, data: { filtering: { operator: "and", conditions } } })
  ).revision_id;
}

const create = (data: Record<string, unknown>, flags: Record<string, boolean> = {}) =>
  t.call("POST", "/api/simple/evaluations/", { key, body: { evaluation: { name: "traces", flags, data } } });

async function results(runId: string) {
  const res = await t.call("POST", "/api/evaluations/results/query", { key, body: { result: { run_id: runId } } });
  return res.body.results as any[];
}

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

beforeAll(async () => {
  model = await startScriptedModelServer();
  model.respondWith(arithmeticModel((a) => [3, 7, 11].includes(a)));
  t = await evaluationApp(model, { cronSecret: CRON_SECRET });
  ({ key } = await t.newProject());
  worker = startWorker(t, { liveTickMs: 0 });
  promptRevision = (
    await createEntity(t, key, "applications", "application", {
      slug: "adder-prompt",
      data: {
        parameters: {
          prompt: {
            messages: [{ role: "user", content: "Add {{a}} and {{b}}. Reply with the number only." }],
            llm_config: { model: "openai/gpt-5-mini" },
          },
        },
      },
    })
  ).revision_id;
  exactMatch = (
    await createEntity(t, key, "evaluators", "evaluator", {
      slug: "exact",
      data: { uri: "svc:builtin:auto_exact_match:v0", parameters: { correct_answer_key: "correct_answer" } },
    })
  ).revision_id;
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await model.close();
});

describe("a saved query as the input of a batch evaluation", () => {
  let query: string;
  const ids: string[] = [];
  beforeAll(async () => {
    // Four production traces of "adder-call" (one answered wrong) and one of something else.
    for (const [a, answer] of [
      [1, "3"],
      [2, "5"],
      [4, "10"],
      [5, "11"],
    ] as const)
      ids.push(await trace("adder-call", minutesAgo(30), { a, b: a + 1, correct_answer: String(2 * a + 1) }, answer));
    await trace("other-call", minutesAgo(30), { a: 1, b: 2, correct_answer: "3" }, "3");
    await drainIngestQueue(t.context);
    query = await savedQuery("adder-calls", "adder-call");
  });

  it("scores the matching traces' own outputs when there is no application", async () => {
    const res = await create({ query_steps: [query], evaluator_steps: [exactMatch] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.evaluation).toMatchObject({
      flags: { has_queries: true, has_testsets: false },
      data: { query_steps: { [query]: "custom" } },
    });
    const done = await settled(t, key, res.body.evaluation.id);
    expect(done.data.status).toBe("success");
    const cells = await results(done.id);
    const inputs = cells.filter((c) => c.step_key.startsWith("query-"));
    expect(inputs.map((c) => c.trace_id).sort()).toEqual([...ids].sort());
    const scores = cells.filter((c) => c.step_key.startsWith("evaluator-"));
    expect(scores).toHaveLength(4);
    expect(scores.filter((c) => c.data.outputs.success)).toHaveLength(3);
    // A score links to the trace it scored.
    expect(scores.map((c) => c.trace_id).sort()).toEqual([...ids].sort());
  });

  it("re-invokes the application on the traces' inputs when there is one", async () => {
    const res = await create({
      query_steps: [query],
      application_steps: [promptRevision],
      evaluator_steps: [exactMatch],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const done = await settled(t, key, res.body.evaluation.id);
    expect(done.data.status).toBe("success");
    const cells = await results(done.id);
    const invocations = cells.filter((c) => c.step_key.startsWith("application-"));
    expect(invocations.map((c) => c.data.outputs).sort()).toEqual(["11", "3", "5", "9"]);
    // New traces, not the sources.
    expect(invocations.some((c) => ids.includes(c.trace_id))).toBe(false);
    const scores = cells.filter((c) => c.step_key.startsWith("evaluator-"));
    expect(scores.every((c) => c.data.outputs.success)).toBe(true);
  });

  it("takes traces by id; an unknown one is a 400 naming it", async () => {
    const res = await create({ trace_ids: ids.slice(0, 2), evaluator_steps: [exactMatch] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.evaluation.flags.has_traces).toBe(true);
    expect(res.body.evaluation.data.traces).toBe(2);
    const done = await settled(t, key, res.body.evaluation.id);
    expect(done.data.status).toBe("success");
    // A fetch counts the ids in the database (the run's outline) rather than reading them.
    expect(done.data).toMatchObject({ traces: 2 });
    expect(done.data).not.toHaveProperty("testcases");
    expect(done.progress.steps["traces"]).toEqual({ success: 2 });

    const unknown = "0".repeat(31) + "1";
    const bad = await create({ trace_ids: [ids[0], unknown], evaluator_steps: [exactMatch] });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain(unknown);
  });

  it("finishes at once when nothing matches, and refuses a query it cannot run", async () => {
    const empty = await create({
      query_steps: [await savedQuery("nothing", "no-such-span")],
      evaluator_steps: [exactMatch],
    });
    expect(empty.status, JSON.stringify(empty.body)).toBe(200);
    expect(empty.body.evaluation.data.status).toBe("success");
    expect(empty.body.evaluation.progress.cells_total).toBe(0);

    const invalid = (
      await createEntity(t, key, "queries", "query", {
        slug: "invalid",
        data: { filtering: { conditions: [{ field: "no_such_field", value: 1 }] } },
      })
    ).revision_id;
    const refused = await create({ query_steps: [invalid], evaluator_steps: [exactMatch] });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain("no_such_field");

    const missing = await create({ query_steps: [exactMatch], evaluator_steps: [exactMatch] });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe("unknown_revision");
  });
});

describe("a live evaluation", () => {
  const refresh = (query: string, secret: string | null = CRON_SECRET) =>
    t.call("POST", `/api/admin/evaluations/runs/refresh?${query}`, {
      headers: secret ? { authorization: `Bearer ${secret}` } : {},
    });
  const scenarios = async (runId: string) =>
    (await t.call("POST", "/api/evaluations/scenarios/query", { key, body: { scenario: { run_id: runId } } })).body
      .scenarios as any[];

  it("takes saved queries of invocation traces and evaluators only", async () => {
    const notInvocations = await create(
      { query_steps: [await savedQuery("live-any", "live-any")], evaluator_steps: [exactMatch] },
      { is_live: true },
    );
    expect(notInvocations.status).toBe(400);
    expect(notInvocations.body.detail).toContain("trace_type");
    const invocation = [{ field: "trace_type", value: "invocation" }];
    const withApp = await create(
      {
        query_steps: [await savedQuery("live-app", "live-app", invocation)],
        application_steps: [promptRevision],
        evaluator_steps: [exactMatch],
      },
      { is_live: true },
    );
    expect(withApp.status).toBe(400);
    expect(withApp.body.code).toBe("unsupported_live_graph");
  });

  it("scores each window's traces on a tick, once, never finishes, and stops ticking when stopped", async () => {
    const query = await savedQuery("live-adder", "live-adder", [{ field: "trace_type", value: "invocation" }]);
    const res = await create({ query_steps: [query], evaluator_steps: [exactMatch] }, { is_live: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const run = res.body.evaluation;
    expect(run).toMatchObject({ flags: { is_live: true, is_active: true }, data: { status: "running" } });
    expect(run.progress.cells_total).toBe(0);

    // Two traces in the window [10:00, 10:05) of some past hour, one outside it.
    const tick = new Date(Math.floor(minutesAgo(20).getTime() / 300_000) * 300_000);
    const inWindow = (m: number) => new Date(tick.getTime() - m * 60_000);
    await trace("live-adder", inWindow(4), { a: 1, b: 2, correct_answer: "3" }, "3");
    await trace("live-adder", inWindow(2), { a: 3, b: 4, correct_answer: "7" }, "8");
    await trace("live-adder", inWindow(9), { a: 5, b: 6, correct_answer: "11" }, "11");
    await drainIngestQueue(t.context);

    const window = `trigger_interval=5&trigger_datetime=${encodeURIComponent(tick.toISOString())}`;
    expect((await refresh(window, null)).status).toBe(401);
    expect((await refresh(window, "wrong")).status).toBe(401);
    const ticked = await refresh(window);
    expect(ticked.status, JSON.stringify(ticked.body)).toBe(200);
    expect(ticked.body).toMatchObject({ status: "success", scenarios: 2 });

    const scored = await settled(t, key, run.id, (e) => e.progress.cells_done === e.progress.cells_total);
    expect(scored.data.status).toBe("running");
    expect(scored.flags.is_active).toBe(true);
    const rows = await scenarios(run.id);
    expect(rows).toHaveLength(2);
    const windowStart = new Date(tick.getTime() - 5 * 60_000).toISOString();
    expect(rows.every((s) => s.timestamp === windowStart && s.interval === 5)).toBe(true);

    // The same window again mints nothing: each trace is scored once.
    expect((await refresh(window)).body).toMatchObject({ status: "success", scenarios: 0 });

    // The window's metrics follow as its scenarios settle (settled() awaited the settling).
    const temporal = await t.call("POST", "/api/evaluations/metrics/query", {
      key,
      body: { metrics: { run_id: run.id, timestamps: true } },
    });
    expect(temporal.body.count).toBe(1);
    const metric = temporal.body.metrics[0];
    expect(metric).toMatchObject({ timestamp: windowStart, interval: 5 });
    const evaluatorKey = Object.keys(metric.data).find((k) => k.startsWith("evaluator-"))!;
    expect(metric.data[evaluatorKey]["attributes.svc.data.outputs.success"]).toMatchObject({ count: 2, mean: 0.5 });

    const stopped = await t.call("POST", `/api/simple/evaluations/${run.id}/stop`, { key });
    expect(stopped.body.evaluation).toMatchObject({ flags: { is_active: false }, data: { status: "running" } });
    await trace("live-adder", inWindow(1), { a: 2, b: 2, correct_answer: "4" }, "4");
    await drainIngestQueue(t.context);
    expect((await refresh(window)).body).toMatchObject({ status: "success" });
    expect(await scenarios(run.id)).toHaveLength(2);
  });

  // Every server's workers tick every live run; an explicit refresh of a past window that met such
  // a tick used to skip the run, and that window was never scored.
  it.skipIf(!process.env.DATABASE_URL)(
    "an explicit refresh waits for a run another tick holds instead of skipping its window",
    async () => {
      const query = await savedQuery("live-held", "live-held", [{ field: "trace_type", value: "invocation" }]);
      const run = (await create({ query_steps: [query], evaluator_steps: [exactMatch] }, { is_live: true })).body
        .evaluation;
      const tick = new Date(Math.floor(minutesAgo(40).getTime() / 300_000) * 300_000);
      await trace("live-held", new Date(tick.getTime() - 3 * 60_000), { a: 1, b: 2, correct_answer: "3" }, "3");
      await drainIngestQueue(t.context);

      let release!: () => void;
      let locked!: () => void;
      const held = new Promise<void>((resolve) => (locked = resolve));
      const holder = t.context.db.transaction(async (tx) => {
        await tx.select().from(evaluationRuns).where(eq(evaluationRuns.id, run.id)).for("update");
        locked();
        await new Promise<void>((resolve) => (release = resolve));
      });
      await held;
      const refreshed = refresh(`trigger_interval=5&trigger_datetime=${encodeURIComponent(tick.toISOString())}`);
      // The refresh is waiting for the run's row lock before the holder lets go of it: only
      // PostgreSQL's view of its backends shows that, so it is polled.
      await eventually("the refresh to wait for the run's row lock", async () => {
        const [{ n }] = await rawQuery<{ n: number }>(
          t.context.db,
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        );
        return n > 0;
      });
      release();
      await holder;
      expect((await refreshed).body).toMatchObject({ status: "success", scenarios: 1 });
      expect(await scenarios(run.id)).toHaveLength(1);
      await t.call("POST", `/api/simple/evaluations/${run.id}/stop`, { key });
    },
  );

  it("is ticked by the workers themselves, catching up the minutes since the last tick", async () => {
    const query = await savedQuery("live-worker", "live-worker", [{ field: "trace_type", value: "invocation" }]);
    const res = await create({ query_steps: [query], evaluator_steps: [exactMatch] }, { is_live: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const runId = res.body.evaluation.id;
    await trace("live-worker", minutesAgo(2), { a: 1, b: 1, correct_answer: "2" }, "2");
    await drainIngestQueue(t.context);
    // As if the run had started five minutes ago.
    await t.context.db
      .update(evaluationRuns)
      .set({ tickedAt: minutesAgo(5) })
      .where(eq(evaluationRuns.id, runId));
    const ticking = startWorker(t, { liveTickMs: 100 });
    try {
      const scored = await settled(
        t,
        key,
        runId,
        (e) => e.progress.cells_total > 0 && e.progress.cells_done === e.progress.cells_total,
      );
      expect(scored.progress.steps).toMatchObject({ [Object.keys(scored.progress.steps)[0]]: { success: 1 } });
      expect(scored.data.status).toBe("running");
    } finally {
      await ticking.stop();
    }
  });
});
