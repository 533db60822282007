import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluationMetrics, evaluationResults, evaluationRuns, evaluationScenarios } from "@/server/db/schema";
import { settleBatch } from "@/server/evaluations/execution/settle-batch";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import { adderAndExactMatch, ADDITIONS, evaluationApp } from "./eval-fixtures";

// A record that saw other cells of its scenario open hands the batch no cells: the batch reads
// them again and settles the scenario only when none is open (two records of one scenario at
// the same moment each see the other open; the later look must settle it). No worker runs here:
// the cells are written by hand, as the records would have left them.
let t: TestApp;
let model: ScriptedModelServer;
let key: string;
let runId: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  t = await evaluationApp(model);
  ({ key } = await t.newProject());
  const { prompt, exact } = await adderAndExactMatch(t, key);
  const res = await t.call("POST", "/api/simple/evaluations/", {
    key,
    body: {
      evaluation: {
        data: { testcases: ADDITIONS.slice(0, 3), application_steps: [prompt], evaluator_steps: [exact] },
      },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  runId = res.body.evaluation.id;
});
afterAll(async () => {
  await t.close();
  await model.close();
});

describe("the settle batch's second look", () => {
  it("settles a scenario whose cells are all done and leaves one with a cell open", async () => {
    const db = t.context.db;
    const [run] = await db.select().from(evaluationRuns).where(eq(evaluationRuns.id, runId));
    const [done, open, given] = await db
      .select({ id: evaluationScenarios.id })
      .from(evaluationScenarios)
      .where(eq(evaluationScenarios.runId, runId))
      .orderBy(evaluationScenarios.id);
    // Every cell of `done` recorded; `open` keeps one cell queued (its evaluator).
    await db
      .update(evaluationResults)
      .set({
        status: "success",
        outputs: sql`case when ${evaluationResults.stepKey} like 'evaluator-%' then '{"success": true}'::jsonb else '"4"'::jsonb end`,
        latencyMs: 5,
      })
      .where(eq(evaluationResults.scenarioId, done.id));
    await db
      .update(evaluationResults)
      .set({ status: "success" })
      .where(and(eq(evaluationResults.scenarioId, open.id), sql`${evaluationResults.stepKey} not like 'evaluator-%'`));
    const batch = settleBatch(db);
    const settled = await Promise.all([
      batch.add({ run, scenarioId: done.id }),
      batch.add({ run, scenarioId: open.id }),
      // A record that ended its scenario gives the cells; they are written as given.
      batch.add({
        run,
        scenarioId: given.id,
        cells: [{ step_key: "x", status: "failure", outputs: null, latency_ms: 1, tokens: null, cost_usd: null }],
      }),
    ]);
    expect(settled).toEqual([true, false, true]);
    const scenarios = new Map(
      (
        await db
          .select({ id: evaluationScenarios.id, status: evaluationScenarios.status })
          .from(evaluationScenarios)
          .where(eq(evaluationScenarios.runId, runId))
      ).map((s) => [s.id, s.status]),
    );
    expect(scenarios.get(done.id)).toBe("success");
    expect(scenarios.get(open.id)).toBe("running");
    expect(scenarios.get(given.id)).toBe("errors");
    const metrics = await db
      .select({ scenarioId: evaluationMetrics.scenarioId, data: evaluationMetrics.data })
      .from(evaluationMetrics)
      .where(eq(evaluationMetrics.runId, runId));
    expect(metrics.map((m) => m.scenarioId).sort()).toEqual([done.id, given.id].sort());
    expect(JSON.stringify(metrics.find((m) => m.scenarioId === done.id)?.data)).toContain("success");
  });
});
