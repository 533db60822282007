import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainIngestQueue } from "@/server/tracing";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { serveOverHttp } from "../helpers/http-server";
import type { TestApp } from "../helpers/test-app";
import { ADDER_PROMPT, arithmeticModel, createEntity, evaluationApp, startWorker, settled } from "./eval-fixtures";

let t: TestApp;
let model: ScriptedModelServer;
let key: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  model.respondWith(arithmeticModel());
  t = await evaluationApp(model);
  ({ key } = await t.newProject());
});
afterAll(async () => {
  await t.close();
  await model.close();
});

const call = async (method: string, path: string, body?: unknown, status = 200) => {
  const res = await t.call(method, path, { key, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
};

const STEPS = [
  {
    key: "input",
    type: "input",
    origin: "custom",
    references: { testset: { id: "01a20dea-a7f9-75a3-82a6-6b784c4f370f" } },
  },
  {
    key: "invocation",
    type: "invocation",
    origin: "auto",
    references: { application: { id: "01a20dea-a7f9-75a3-82a6-6b784c4f3701" } },
    inputs: [{ key: "input" }],
  },
  {
    key: "human",
    type: "annotation",
    origin: "human",
    references: { evaluator_revision: { id: "01a20dea-a7f9-75a3-82a6-6b784c4f3702" } },
  },
];

describe("the low-level evaluation API", () => {
  it("runs: create (pending, derived flags), query by tag and flags, close and open in bulk, delete", async () => {
    const { runs } = await call("POST", "/api/evaluations/runs/", {
      runs: [
        {
          name: "A",
          tags: { marker: "m1" },
          meta: { m: 1 },
          data: {
            steps: STEPS,
            mappings: [
              { column: { kind: "evaluator", name: "Score" }, step: { key: "human", path: "data.outputs.score" } },
            ],
          },
        },
        { name: "B", tags: { marker: "m1" }, flags: { is_active: true } },
      ],
    });
    expect(runs.map((r: any) => r.flags.is_active)).toEqual([false, true]);
    expect(runs[0]).toMatchObject({
      status: "pending",
      version: "2025-07-14",
      flags: { has_testsets: false, has_evaluators: true, has_human: true, is_closed: false },
      data: { steps: [{ key: "input" }, { key: "invocation" }, { key: "human" }], repeats: 1 },
    });
    expect((await call("POST", "/api/evaluations/runs/query", { run: { tags: { marker: "m1" } } })).count).toBe(2);
    // Several references match the runs that carry all of them, not any one.
    const byReferences = (...references: unknown[]) =>
      call("POST", "/api/evaluations/runs/query", { run: { tags: { marker: "m1" }, references } });
    expect((await byReferences(STEPS[0].references, STEPS[1].references)).runs.map((r: any) => r.name)).toEqual(["A"]);
    expect(
      (await byReferences(STEPS[0].references, { application: { id: "01a20dea-a7f9-75a3-82a6-6b784c4f37ff" } })).count,
    ).toBe(0);
    const page = await call("POST", "/api/evaluations/runs/query", {
      run: { tags: { marker: "m1" } },
      windowing: { limit: 1 },
    });
    expect(page).toMatchObject({ count: 1, runs: [{ name: "B" }], windowing: { next: runs[1].id } });
    const closed = await call("POST", "/api/evaluations/runs/close", { run_ids: [runs[1].id, runs[0].id] });
    expect(closed.runs.map((r: any) => r.id)).toEqual([runs[0].id, runs[1].id].sort());
    expect(
      (
        await call("POST", "/api/evaluations/runs/query", {
          run: { flags: { is_closed: true }, tags: { marker: "m1" } },
        })
      ).count,
    ).toBe(2);
    await call("POST", "/api/evaluations/runs/open", { run_ids: [runs[0].id, runs[1].id] });
    const edited = await call("PATCH", `/api/evaluations/runs/${runs[0].id}`, {
      run: { status: "success", tags: { marker: "m2" } },
    });
    expect(edited.run).toMatchObject({ status: "success", tags: { marker: "m2" }, meta: { m: 1 } });
    expect(await call("PATCH", `/api/evaluations/runs/${runs[0].id}`, { run: { id: runs[1].id, name: "x" } })).toEqual({
      count: 0,
    });
    expect(await call("DELETE", `/api/evaluations/runs/${runs[1].id}`)).toEqual({ count: 1, run_id: runs[1].id });
    expect(await call("GET", `/api/evaluations/runs/${runs[1].id}`)).toEqual({ count: 0 });
  });

  it("scenarios, results (upsert on scenario x step x repeat) and metrics (three shapes, 422 for both keys)", async () => {
    const { runs } = await call("POST", "/api/evaluations/runs/", {
      runs: [{ name: "cells", data: { steps: STEPS } }],
    });
    const run = runs[0].id;
    const { scenarios } = await call("POST", "/api/evaluations/scenarios/", {
      scenarios: [
        { run_id: run, tags: { k: "v" }, timestamp: "2026-01-01T00:01:00Z", interval: 1 },
        { run_id: run, timestamp: "2026-01-01T00:02:00Z", interval: 1 },
      ],
    });
    expect(scenarios[0]).toMatchObject({ status: "pending", tags: { k: "v" } });
    const first = await call("POST", "/api/evaluations/results/", {
      results: [
        {
          run_id: run,
          scenario_id: scenarios[0].id,
          step_key: "human",
          status: "success",
          trace_id: "t1",
          data: { outputs: { score: 0.5 } },
        },
      ],
    });
    const again = await call("PUT", "/api/evaluations/results/", {
      results: [{ run_id: run, scenario_id: scenarios[0].id, step_key: "human", status: "failure", trace_id: "t2" }],
    });
    expect(again.results[0]).toMatchObject({
      id: first.results[0].id,
      status: "failure",
      trace_id: "t2",
      data: { outputs: { score: 0.5 } },
    });
    const missing = await t.call("POST", "/api/evaluations/results/", {
      key,
      body: { results: [{ run_id: run, scenario_id: "01a20dea-a7f9-75a3-82a6-6b784c4f3709", step_key: "human" }] },
    });
    expect(missing.status).toBe(400);
    expect(
      (
        await call("POST", "/api/evaluations/results/query", {
          result: { run_id: run, step_keys: ["human"], statuses: ["failure"] },
        })
      ).count,
    ).toBe(1);
    expect(
      (await call("POST", "/api/evaluations/scenarios/query", { scenario: { run_ids: [run], tags: { k: "v" } } }))
        .count,
    ).toBe(1);
    // A live run's time buckets: one instant, or several.
    const inBuckets = async (filter: Record<string, unknown>) =>
      (await call("POST", "/api/evaluations/scenarios/query", { scenario: { run_id: run, ...filter } })).scenarios.map(
        (s: any) => s.id,
      );
    expect(await inBuckets({ timestamp: "2026-01-01T00:02:00.000Z" })).toEqual([scenarios[1].id]);
    expect((await inBuckets({ timestamps: ["2026-01-01T00:01:00Z", "2026-01-01T00:02:00Z"] })).sort()).toEqual(
      [scenarios[0].id, scenarios[1].id].sort(),
    );
    expect(await inBuckets({ timestamps: [] })).toEqual([]);
    const resultsAt = await call("POST", "/api/evaluations/results/query", {
      result: { run_id: run, timestamp: "2026-01-01T00:05:00Z" },
    });
    expect(resultsAt.count).toBe(0);

    const global = await call("POST", "/api/evaluations/metrics/", {
      metrics: [{ run_id: run, status: "success", data: { n: 1 } }],
    });
    const upserted = await call("POST", "/api/evaluations/metrics/", {
      metrics: [{ run_id: run, status: "success", data: { n: 2 } }],
    });
    expect(upserted.metrics[0]).toMatchObject({ id: global.metrics[0].id, data: { n: 2 } });
    await call("POST", "/api/evaluations/metrics/", {
      metrics: [
        { run_id: run, scenario_id: scenarios[0].id, data: { n: 3 } },
        { run_id: run, timestamp: "2026-01-01T00:00:00.000Z", interval: 1, data: { n: 4 } },
      ],
    });
    expect(
      (
        await call("POST", "/api/evaluations/metrics/query", { metrics: { run_id: run, timestamps: true } })
      ).metrics.map((m: any) => m.data.n),
    ).toEqual([4]);
    expect(
      (
        await call("POST", "/api/evaluations/metrics/query", { metrics: { run_id: run, scenario_ids: true } })
      ).metrics.map((m: any) => m.data.n),
    ).toEqual([3]);
    const both = await t.call("POST", "/api/evaluations/metrics/", {
      key,
      body: { metrics: [{ run_id: run, scenario_id: scenarios[0].id, timestamp: "2026-01-01T00:00:00.000Z" }] },
    });
    expect(both.status).toBe(422);
    expect((await call("GET", `/api/evaluations/metrics/${global.metrics[0].id}`)).metrics).toHaveLength(1);
    expect((await call("POST", "/api/evaluations/metrics/refresh", { metrics: {} })).count).toBe(0);

    // The reference's annotation flow: the annotation is a trace, and the result names only it.
    const annotation = "0123456789abcdef0123456789abcdef";
    const ingested = await t.call("POST", "/api/tracing/spans/ingest", {
      key,
      body: {
        spans: [
          {
            trace_id: annotation,
            span_id: "0123456789abcdef",
            span_name: "annotation",
            start_time: new Date().toISOString(),
            attributes: { "ag.data.outputs": { score: 0.7 } },
          },
        ],
      },
    });
    expect(ingested.status, JSON.stringify(ingested.body)).toBe(202);
    await drainIngestQueue(t.context);
    await call("POST", "/api/evaluations/results/", {
      results: [
        { run_id: run, scenario_id: scenarios[1].id, step_key: "human", status: "success", trace_id: annotation },
      ],
    });
    const fromTraces = await call("POST", "/api/evaluations/metrics/refresh", {
      metrics: { run_id: run, scenario_ids: [scenarios[1].id] },
    });
    expect(fromTraces.metrics[0].data.human["attributes.svc.data.outputs.score"]).toMatchObject({
      count: 1,
      mean: 0.7,
    });

    // A time window's row, from the cells written in it; a window without cells gives none.
    await call("POST", "/api/evaluations/results/", {
      results: [
        {
          run_id: run,
          scenario_id: scenarios[1].id,
          step_key: "human",
          status: "success",
          timestamp: "2026-01-01T00:02:00Z",
          interval: 1,
          data: { outputs: { score: 0.9 } },
        },
      ],
    });
    const refresh = (metrics: Record<string, unknown>) =>
      call("POST", "/api/evaluations/metrics/refresh", { metrics: { run_id: run, ...metrics } });
    const windowed = await refresh({ timestamps: ["2026-01-01T00:02:00Z"], interval: 1 });
    expect(windowed.metrics).toHaveLength(1);
    expect(windowed.metrics[0]).toMatchObject({ timestamp: "2026-01-01T00:02:00.000Z", interval: 1 });
    expect(windowed.metrics[0].scenario_id).toBeUndefined();
    expect(windowed.metrics[0].data.human["attributes.svc.data.outputs.score"]).toMatchObject({ count: 1, mean: 0.9 });
    expect((await refresh({ timestamp: "2026-01-01T00:09:00Z" })).count).toBe(0);
    expect((await refresh({ timestamps: true })).metrics.map((m: any) => m.timestamp)).toEqual([
      "2026-01-01T00:02:00.000Z",
    ]);
    expect((await refresh({ timestamps: false })).metrics[0].timestamp).toBeUndefined();
  });

  it("slice operations: probe, populate (400 off the run), process (202) re-runs failed cells, prune and refresh (204), scenarios add/remove, steps remove prunes, repeats set", async () => {
    const app = (
      await createEntity(t, key, "applications", "application", {
        slug: "slice-adder",
        data: ADDER_PROMPT,
      })
    ).revision_id;
    const exact = (
      await createEntity(t, key, "evaluators", "evaluator", {
        slug: "slice-exact",
        data: { uri: "svc:builtin:auto_exact_match:v0", parameters: {} },
      })
    ).revision_id;
    model.respondWith(() => ({ kind: "status", status: 400, message: "no" }));
    const worker = startWorker(t);
    try {
      const { evaluation } = await call("POST", "/api/simple/evaluations/", {
        evaluation: {
          data: {
            testcases: [
              { a: 1, b: 2, correct_answer: "3" },
              { a: 2, b: 2, correct_answer: "4" },
            ],
            application_steps: [app],
            evaluator_steps: [exact],
          },
        },
      });
      const id = evaluation.id;
      expect((await settled(t, key, id)).data.status).toBe("errors");
      const all = await call("POST", `/api/simple/evaluations/${id}/probe`, {});
      expect(all.count).toBe(6);
      expect((await call("POST", `/api/simple/evaluations/${id}/probe`, { step_keys: [] })).count).toBe(0);

      model.respondWith(arithmeticModel());
      // Through the production server's node:http door, where writing the empty answer once threw (a 500).
      const server = await serveOverHttp(t);
      try {
        const processed = await fetch(`${server.origin}/api/simple/evaluations/${id}/process`, {
          method: "POST",
          headers: { authorization: `ApiKey ${key}`, "content-type": "application/json" },
          body: "{}",
        });
        expect(processed.status).toBe(202);
        expect(await processed.text()).toBe("");
      } finally {
        await server.close();
      }
      const redone = await settled(t, key, id);
      expect(redone).toMatchObject({ data: { status: "success" }, progress: { cells_done: 6 } });

      const scenarioIds = [...new Set(all.results.map((r: any) => r.scenario_id))] as string[];
      const evaluatorKey = all.results.find((r: any) => r.step_key.startsWith("evaluator-")).step_key;
      const cross = await t.call("POST", `/api/simple/evaluations/${id}/populate`, {
        key,
        body: { results: [{ run_id: scenarioIds[0], scenario_id: scenarioIds[0], step_key: "x" }] },
      });
      expect(cross.status).toBe(400);
      const populated = await call("POST", `/api/simple/evaluations/${id}/populate`, {
        results: [
          {
            run_id: id,
            scenario_id: scenarioIds[0],
            step_key: "human-note",
            status: "success",
            data: { outputs: { note: "ok" } },
          },
        ],
      });
      expect(populated.count).toBe(1);

      await call("POST", `/api/simple/evaluations/${id}/prune`, { step_keys: ["human-note"] }, 204);
      await call("POST", `/api/simple/evaluations/${id}/refresh`, {}, 204);
      const added = await call("POST", `/api/simple/evaluations/${id}/scenarios/add`, {
        count: 2,
        timestamp: "2026-03-04T05:06:07.890Z",
      });
      expect(added.scenarios[0]).toMatchObject({
        status: "running",
        timestamp: "2026-03-04T05:06:00.000Z",
        interval: 1,
      });
      await call(
        "POST",
        `/api/simple/evaluations/${id}/scenarios/remove`,
        { scenario_ids: added.scenarios.map((s: any) => s.id) },
        204,
      );
      expect(
        (
          await t.call("POST", `/api/simple/evaluations/${id}/scenarios/remove`, {
            key,
            body: { scenario_ids: ["01a20dea-a7f9-75a3-82a6-6b784c4f3709"] },
          })
        ).status,
      ).toBe(400);

      const removed = await call("POST", `/api/simple/evaluations/${id}/steps/remove`, { step_keys: [evaluatorKey] });
      expect(removed.run.flags.has_evaluators).toBe(false);
      expect((await call("POST", `/api/simple/evaluations/${id}/probe`, {})).count).toBe(4);
      expect((await call("POST", `/api/simple/evaluations/${id}/repeats/set`, { repeats: 3 })).run.data.repeats).toBe(
        3,
      );
      const renamed = await call("PATCH", `/api/simple/evaluations/${id}`, {
        evaluation: {
          name: "renamed",
          data: {
            testcases: [{ a: 5, b: 5, correct_answer: "10" }],
            application_steps: [app],
            evaluator_steps: [exact],
          },
        },
      });
      expect(renamed.evaluation).toMatchObject({
        name: "renamed",
        data: { application_steps: { [app]: "custom" }, evaluator_steps: { [exact]: "auto" }, repeats: 3 },
      });
      await call("POST", `/api/simple/evaluations/${id}/close`);
      expect(
        (await t.call("POST", `/api/simple/evaluations/${id}/scenarios/add`, { key, body: { count: 1 } })).status,
      ).toBe(409);
    } finally {
      await worker.stop();
    }
  });
});
