import { and, count, eq, gte, inArray, like, lte, max } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluationResults, evaluationRuns } from "@/server/db/schema";
import { drainEvaluationCells } from "@/server/evaluations";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import {
  ADDITIONS,
  adderAndExactMatch,
  arithmeticModel,
  createEntity,
  ended,
  evaluationApp,
  finished,
  startWorker,
} from "./eval-fixtures";
import { within } from "../helpers/within";

// One project's ordinary use must never stall another's evaluations: runs that wait for people
// (review queues) or for time (live evaluations) take no place in the claim, and a project with
// a long queue of due cells yields the workers' slots to others within a bound counted in cells.
let t: TestApp;
let model: ScriptedModelServer;

beforeAll(async () => {
  model = await startScriptedModelServer();
  model.respondWith(arithmeticModel());
  t = await evaluationApp(model);
});
afterAll(async () => {
  await t.close();
  await model.close();
});

async function evaluate(key: string, data: Record<string, unknown>, flags: Record<string, boolean> = {}) {
  const res = await t.call("POST", "/api/simple/evaluations/", { key, body: { evaluation: { flags, data } } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.evaluation as { id: string };
}

/** Claim rounds (the cron route's bounded pass) until the run finishes, and the cells they claimed. */
async function roundsUntilFinished(key: string, id: string) {
  let rounds = 0;
  let cells = 0;
  for (;;) {
    const { body } = await t.call("GET", `/api/simple/evaluations/${id}`, { key });
    if (finished(body.evaluation)) return { rounds, cells, status: body.evaluation.data.status };
    if (rounds === 20) throw new Error(`not finished after ${rounds} claim rounds: ${JSON.stringify(body)}`);
    rounds++;
    cells += await drainEvaluationCells(t.context, 10);
  }
}

describe("fair claims across projects", () => {
  it("100 runs waiting for people or time in one project take no place: another's run finishes in the same claim rounds as on an empty server", async () => {
    const plain = await t.newProject("plain");
    const { prompt, exact } = await adderAndExactMatch(t, plain.key);
    const plainRun = () =>
      evaluate(plain.key, {
        testcases: ADDITIONS.slice(0, 2),
        application_steps: [prompt],
        evaluator_steps: [exact],
      });
    const empty = await roundsUntilFinished(plain.key, (await plainRun()).id);
    expect(empty).toEqual({ rounds: 1, cells: 2, status: "success" });

    const busy = await t.newProject("busy");
    const review = (
      await createEntity(t, busy.key, "evaluators", "evaluator", {
        slug: "review",
        data: { uri: "svc:custom:feedback:v0", parameters: {} },
      })
    ).revision_id;
    const judge = (
      await createEntity(t, busy.key, "evaluators", "evaluator", {
        slug: "exact",
        data: { uri: "svc:builtin:auto_exact_match:v0", parameters: {} },
      })
    ).revision_id;
    const query = (
      await createEntity(t, busy.key, "queries", "query", {
        slug: "invocations",
        data: { filtering: { operator: "and", conditions: [{ field: "trace_type", value: "invocation" }] } },
      })
    ).revision_id;
    for (let i = 0; i < 80; i++) {
      const res = await t.call("POST", "/api/simple/queues/", {
        key: busy.key,
        body: { queue: { name: `review ${i}`, data: { kind: "traces", evaluators: { [review]: "human" } } } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    for (let i = 0; i < 20; i++)
      await evaluate(busy.key, { query_steps: [query], evaluator_steps: [judge] }, { is_live: true });
    const waiting = await t.context.db
      .select({ n: count() })
      .from(evaluationRuns)
      .where(and(eq(evaluationRuns.projectId, busy.projectId), eq(evaluationRuns.status, "running")));
    expect(waiting[0].n).toBe(100);

    expect(await roundsUntilFinished(plain.key, (await plainRun()).id)).toEqual(empty);
  });

  it("a project with 10,000 due cells on every slot yields to another project's 4 cells within the slots' turns", async () => {
    const concurrency = 4;
    const turnCells = 20;
    const big = await t.newProject("big");
    const small = await t.newProject("small");
    const bigApps = await adderAndExactMatch(t, big.key);
    const smallApps = await adderAndExactMatch(t, small.key);
    const worker = startWorker(t, { concurrency, turnCells, liveTickMs: 0 });
    try {
      const rows = Array.from({ length: 10_000 }, (_, i) => ({ a: i, b: 1, correct_answer: String(i + 1) }));
      const requestsBefore = model.requests.length;
      const bigRun = await evaluate(big.key, {
        testcases: rows,
        application_steps: [bigApps.prompt],
        evaluator_steps: [bigApps.exact],
        // Room for every slot of the worker: only fairness can give the other project one.
        concurrency: { batch_size: 1000 },
      });
      const bigDone = async (from?: Date, to?: Date) =>
        (
          await t.context.db
            .select({ n: count() })
            .from(evaluationResults)
            .where(
              and(
                eq(evaluationResults.runId, bigRun.id),
                // The invocations: each writes its in-process evaluator's cell with it.
                like(evaluationResults.stepKey, "application-%"),
                inArray(evaluationResults.status, ["success", "failure"]),
                from ? gte(evaluationResults.updatedAt, from) : undefined,
                to ? lte(evaluationResults.updatedAt, to) : undefined,
              ),
            )
        )[0].n;
      // Every slot is on the big run, going from cell to cell: a slot calls the model for its next
      // cell once its last is recorded, so with `concurrency` slots, three calls per slot mean at
      // least two cells per slot done.
      await within(30_000, "the big run's first cells", model.requestsReceived(requestsBefore + concurrency * 3));
      expect(await bigDone()).toBeGreaterThanOrEqual(concurrency * 2);

      const smallRun = await evaluate(small.key, {
        testcases: ADDITIONS.slice(0, 2),
        application_steps: [smallApps.prompt],
        evaluator_steps: [smallApps.exact],
      });
      const done = await ended(t, small.key, smallRun.id);
      // Each row's invocation and evaluator cells (its input cell is written at the start).
      expect(done).toMatchObject({ data: { status: "success" }, progress: { cells_done: 6, cells_total: 6 } });

      const [{ startedAt }] = await t.context.db
        .select({ startedAt: evaluationRuns.startedAt })
        .from(evaluationRuns)
        .where(eq(evaluationRuns.id, smallRun.id));
      const [{ last }] = await t.context.db
        .select({ last: max(evaluationResults.updatedAt) })
        .from(evaluationResults)
        .where(eq(evaluationResults.runId, smallRun.id));
      // While the small run waited and ran, each slot finished at most its turn on the big run.
      const meanwhile = await bigDone(startedAt!, last!);
      expect(meanwhile).toBeLessThanOrEqual(concurrency * turnCells);
      expect(await bigDone()).toBeLessThan(rows.length);
    } finally {
      await worker.stop();
    }
  });
});
