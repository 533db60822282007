import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawQuery, type Executor } from "@/server/db";
import { evaluationRuns } from "@/server/db/schema";
import { claimCells } from "@/server/evaluations/execution/claim-cells";
import { recordFinal } from "@/server/evaluations/execution/record-final";
import { writeSettledMany } from "@/server/evaluations/execution/settle";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import { adderAndExactMatch, evaluationApp } from "./eval-fixtures";

// The statements every cell costs (its record, its scenario's settle) must find their rows by key
// once the tables' statistics are real, as they are in production: joined to a CTE whose size the
// planner guesses, they once hashed it and scanned every run's cells for one row. The plans are
// read with EXPLAIN, custom and generic (a prepared statement's plan after five executions), on a
// run of 1,200 testcases whose tables were analyzed. No worker runs: the cells stay queued.
let t: TestApp;
let model: ScriptedModelServer;
let runId: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  t = await evaluationApp(model);
  const { key } = await t.newProject();
  const { prompt, exact } = await adderAndExactMatch(t, key);
  const testcases = Array.from({ length: 1200 }, (_, i) => ({ a: i, b: 1, correct_answer: String(i + 1) }));
  const res = await t.call("POST", "/api/simple/evaluations/", {
    key,
    body: { evaluation: { data: { testcases, application_steps: [prompt], evaluator_steps: [exact] } } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  runId = res.body.evaluation.id;
  await rawQuery(t.context.db, "analyze evaluation_results, evaluation_scenarios, evaluation_runs");
});
afterAll(async () => {
  await t.close();
  await model.close();
});

/** An executor that runs nothing: it keeps the statement and parameters the code would send. */
function capturing(): { db: Executor; sent: { text: string; params: unknown[] }[] } {
  const sent: { text: string; params: unknown[] }[] = [];
  const client = {
    // A postgres.js query is queued by `execute()` and awaited (server/db/prepared.ts).
    unsafe: (text: string, params: unknown[]) => {
      sent.push({ text, params });
      const answered = Promise.resolve([]);
      return Object.assign(answered, { execute: () => answered });
    },
  };
  return { db: { $client: client } as unknown as Executor, sent };
}

const literal = (value: unknown) =>
  value === null || value === undefined ? "null" : `'${String(value).replaceAll("'", "''")}'`;

/**
 * The tables of cells and scenarios `statement` reads by a sequential scan, planned `mode`
 * (custom or generic). The runs table holds a row per run: scanning it is the planner's choice.
 */
async function scannedTables(statement: { text: string; params: unknown[] }, mode: "custom" | "generic") {
  return t.context.db.transaction(async (tx) => {
    await rawQuery(tx, `set local plan_cache_mode = force_${mode}_plan`);
    await rawQuery(tx, `prepare hot as ${statement.text}`);
    const rows = await rawQuery<Record<string, unknown>>(
      tx,
      `explain (format json) execute hot(${statement.params.map(literal).join(", ")})`,
    );
    await rawQuery(tx, "deallocate hot");
    const plan = JSON.stringify(rows[0]["QUERY PLAN"]);
    const scans = [...plan.matchAll(/"Node Type":"Seq Scan"[^{}]*?"Relation Name":"(\w+)"/g)].map((m) => m[1]);
    return scans.filter((table) => table === "evaluation_results" || table === "evaluation_scenarios");
  });
}

describe("the hot statements' plans on analyzed tables", () => {
  it("a cell's record, handing the slot its next cell, looks its cells up by key", async () => {
    const [claimed] = await claimCells(t.context.db, 1, 60_000);
    expect(claimed?.run.id).toBe(runId);
    const { db, sent } = capturing();
    await recordFinal(
      db,
      claimed.run,
      claimed.cell,
      claimed.token,
      { status: "success", outputs: [{ role: "assistant", content: "1" }], latencyMs: 3 },
      new Date(),
      { leaseMs: 60_000 },
    );
    expect(sent).toHaveLength(1);
    expect(await scannedTables(sent[0], "generic")).toEqual([]);
    expect(await scannedTables(sent[0], "custom")).toEqual([]);
  });

  it("a batch of settled scenarios locks and writes them by key", async () => {
    const [run] = await t.context.db.select().from(evaluationRuns).where(eq(evaluationRuns.id, runId));
    const scenarios = await rawQuery<{ id: string }>(
      t.context.db,
      "select id::text from evaluation_scenarios where run_id = $1::uuid order by id limit 5",
      [runId],
    );
    const { db, sent } = capturing();
    await writeSettledMany(
      db,
      scenarios.map(({ id }) => ({
        run,
        scenarioId: id,
        cells: [{ step_key: "x", status: "success", outputs: null, latency_ms: 1, tokens: null, cost_usd: null }],
      })),
    );
    expect(sent).toHaveLength(1);
    expect(await scannedTables(sent[0], "generic")).toEqual([]);
    expect(await scannedTables(sent[0], "custom")).toEqual([]);
  });
});
