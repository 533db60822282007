import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluationMetrics, evaluationResults, evaluationScenarios } from "@/server/db/schema";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import {
  ADDER_PROMPT,
  ADDITIONS,
  arithmeticModel,
  createEntity,
  evaluationApp,
  startWorker,
  settled,
} from "./eval-fixtures";

// An exact-match evaluator computes in the worker's process: it is scored from the output in
// memory and recorded with its invocation. A mock evaluator is not (it could wait): its cell is
// released and run as before. Both must land with the invocation's trace, once each.
let t: TestApp;
let model: ScriptedModelServer;
let worker: { stop(): Promise<void> };
let key: string;
let prompt: string;
let exact: string;
let mock: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  // Every fifth sum is wrong, so the exact match has failures to score.
  model.respondWith(arithmeticModel((a) => a % 5 === 0));
  t = await evaluationApp(model);
  ({ key } = await t.newProject());
  worker = startWorker(t);
  prompt = (
    await createEntity(t, key, "applications", "application", {
      slug: "adder",
      data: ADDER_PROMPT,
    })
  ).revision_id;
  exact = (
    await createEntity(t, key, "evaluators", "evaluator", {
      slug: "exact",
      data: { uri: "svc:builtin:auto_exact_match:v0", parameters: {} },
    })
  ).revision_id;
  mock = (
    await createEntity(t, key, "evaluators", "evaluator", {
      slug: "later",
      data: { uri: "svc:custom:mock:v0", parameters: { key: "delay", kwargs: { seconds: 0.01, then: "pass" } } },
    })
  ).revision_id;
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await model.close();
});

async function run(flags: Record<string, boolean>) {
  const res = await t.call("POST", "/api/simple/evaluations/", {
    key,
    body: {
      evaluation: {
        flags,
        data: {
          testcases: ADDITIONS.slice(0, 10),
          application_steps: [prompt],
          evaluator_steps: [exact, mock],
          repeats: 2,
          concurrency: { batch_size: 3 },
        },
      },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = res.body.evaluation.id;
  const done = await settled(t, key, id);
  const cells = await t.context.db.select().from(evaluationResults).where(eq(evaluationResults.runId, id));
  const scenarios = await t.context.db.select().from(evaluationScenarios).where(eq(evaluationScenarios.runId, id));
  const metrics = await t.context.db.select().from(evaluationMetrics).where(eq(evaluationMetrics.runId, id));
  return { done, cells, scenarios, metrics };
}

describe("evaluators that compute in the worker's process", () => {
  for (const split of [true, false]) {
    it(`are recorded with their invocation, linked to its trace, once each (${split ? "each repeat invoked" : "one invocation scored per repeat"})`, async () => {
      const { done, cells, scenarios, metrics } = await run({ is_split: split });
      expect(done.data.status).toBe("success");
      const byStep = (prefix: string) => cells.filter((c) => c.stepKey.startsWith(prefix));
      const invocations = byStep("application-");
      const evaluatorKeys = [...new Set(cells.map((c) => c.stepKey).filter((k) => k.startsWith("evaluator-")))];
      expect(evaluatorKeys).toHaveLength(2);
      // Split: an invocation per repeat; otherwise repeat 0's output is scored for every repeat.
      expect(invocations).toHaveLength(split ? 20 : 10);
      for (const key of evaluatorKeys) {
        const scored = cells.filter((c) => c.stepKey === key);
        expect(scored).toHaveLength(20);
        for (const cell of scored) {
          const invocation = invocations.find(
            (i) => i.scenarioId === cell.scenarioId && i.repeatIdx === (split ? cell.repeatIdx : 0),
          )!;
          expect(cell).toMatchObject({ status: "success", attempts: 1, leaseToken: null, dueAt: null });
          expect(cell.traceId).toBe(invocation.traceId);
          expect(cell.traceId).toBeTruthy();
        }
      }
      // Which of the two is the exact match: the one whose outputs say success per sum.
      const exactKey = evaluatorKeys.find((k) =>
        cells.some((c) => c.stepKey === k && (c.outputs as { success?: boolean }).success === false),
      )!;
      for (const cell of cells.filter((c) => c.stepKey === exactKey)) {
        // Written by the invocation's own record statement (its time), not by a pass of its own.
        const invocation = invocations.find(
          (i) => i.scenarioId === cell.scenarioId && i.repeatIdx === (split ? cell.repeatIdx : 0),
        )!;
        expect(cell.updatedAt).toEqual(invocation.updatedAt);
        const scenario = scenarios.find((s) => s.id === cell.scenarioId)!;
        const a = (scenario.inputs as { a: number }).a;
        expect((cell.outputs as { success: boolean }).success).toBe(a % 5 !== 0);
      }
      // The mock's cells ran after their invocation was recorded, each on its own.
      for (const cell of cells.filter((c) => c.stepKey !== exactKey && c.stepKey.startsWith("evaluator-"))) {
        const invocation = invocations.find(
          (i) => i.scenarioId === cell.scenarioId && i.repeatIdx === (split ? cell.repeatIdx : 0),
        )!;
        expect(cell.updatedAt!.getTime()).toBeGreaterThan(invocation.updatedAt!.getTime());
      }
      // Every scenario settled, with its metrics (the one write after the record).
      expect(scenarios.map((s) => s.status)).toEqual(Array(10).fill("success"));
      expect(metrics.filter((m) => m.scenarioId !== null)).toHaveLength(10);
      const global = metrics.find((m) => m.scenarioId === null)!;
      expect(JSON.stringify(global.data)).toContain(exactKey);
    });
  }
});
