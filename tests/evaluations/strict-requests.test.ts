import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { createEntity } from "./eval-fixtures";

/**
 * Evaluation request bodies are strict: a misspelled or misplaced option is a 422 naming the key
 * and where it was, on every family of routes; what the reference implementation's clients send
 * (every key its request models declare, and a record read back as an edit) is taken.
 */

let t: TestApp;
let key: string;
let userId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ key, userId } = await t.newProject());
});
afterAll(() => t.close());

const call = (method: string, path: string, body?: unknown) => t.call(method, path, { key, body });
const ok = async (method: string, path: string, body?: unknown) => {
  const res = await call(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
};

const ID = "01a20dea-a7f9-75a3-82a6-6b784c4f370f";
const run = "/api/evaluations/runs";
const simple = `/api/simple/evaluations/${ID}`;

/** [route, body, the path of the object holding the key, the key]. */
const UNKNOWN: [string, string, unknown, string, string][] = [
  ["POST", `${run}/`, { runs: [{ name: "r" }], dry_run: true }, "", "dry_run"],
  ["POST", `${run}/`, { runs: [{ flags: { is_lve: true } }] }, "runs[0].flags", "is_lve"],
  ["POST", `${run}/`, { runs: [{ data: { concurrency: { batchsize: 2 } } }] }, "runs[0].data.concurrency", "batchsize"],
  [
    "POST",
    `${run}/`,
    { runs: [{ data: { steps: [{ key: "i", type: "input", refs: {} }] } }] },
    "runs[0].data.steps[0]",
    "refs",
  ],
  ["PATCH", `${run}/`, { runs: [{ id: ID, repeats: 2 }] }, "runs[0]", "repeats"],
  ["PATCH", `${run}/${ID}`, { run: { data: { repeat: 2 } } }, "run.data", "repeat"],
  ["POST", `${run}/query`, { run: { tag: { a: 1 } } }, "run", "tag"],
  ["POST", `${run}/query`, { run: { flags: { is_lve: true } } }, "run.flags", "is_lve"],
  ["POST", `${run}/query`, { run: {}, windowing: { cursor: ID } }, "windowing", "cursor"],
  ["POST", `${run}/close`, { run_ids: [ID], status: "success" }, "", "status"],
  ["DELETE", `${run}/`, { run_ids: [ID], force: true }, "", "force"],
  ["POST", `${run}/compare`, { run_ids: [ID, ID], baseline: ID }, "", "baseline"],
  ["POST", "/api/evaluations/scenarios/", { scenarios: [{ run_id: ID, state: "x" }] }, "scenarios[0]", "state"],
  ["PATCH", `/api/evaluations/scenarios/${ID}`, { scenario: { stauts: "success" } }, "scenario", "stauts"],
  ["POST", "/api/evaluations/scenarios/query", { scenario: { runs: [ID] } }, "scenario", "runs"],
  [
    "POST",
    "/api/evaluations/results/",
    { results: [{ run_id: ID, scenario_id: ID, step_key: "s", repeat: 1 }] },
    "results[0]",
    "repeat",
  ],
  [
    "PUT",
    "/api/evaluations/results/",
    { results: [{ run_id: ID, scenario_id: ID, step_key: "s", data: { output: 1 } }] },
    "results[0].data",
    "output",
  ],
  ["POST", "/api/evaluations/results/query", { result: { step: "s" } }, "result", "step"],
  ["POST", "/api/evaluations/metrics/", { metrics: [{ run_id: ID, scenario: ID }] }, "metrics[0]", "scenario"],
  ["POST", "/api/evaluations/metrics/query", { metric: { run_id: ID } }, "", "metric"],
  ["POST", "/api/evaluations/metrics/refresh", { metrics: { run: ID } }, "metrics", "run"],
  ["POST", "/api/evaluations/queues/", { queues: [{ run_id: ID, data: { users: [] } }] }, "queues[0].data", "users"],
  ["PATCH", `/api/evaluations/queues/${ID}`, { queue: { flags: { is_defualt: true } } }, "queue.flags", "is_defualt"],
  ["POST", "/api/evaluations/queues/query", { queue: { archived: true } }, "queue", "archived"],
  ["POST", `/api/evaluations/queues/${ID}/scenarios/query`, { scenario: { ids: [ID] } }, "scenario", "ids"],
  ["POST", "/api/simple/evaluations/", { evaluation: { data: { repeat: 2 } } }, "evaluation.data", "repeat"],
  ["POST", "/api/simple/evaluations/", { evaluation: { flags: { live: true } } }, "evaluation.flags", "live"],
  ["PATCH", simple, { evaluation: { name: "x" }, restart: true }, "", "restart"],
  ["POST", "/api/simple/evaluations/query", { evaluation: { status: "running" } }, "evaluation", "status"],
  ["POST", `${simple}/process`, { scenario_ids: [ID], options: { overwrite: true } }, "", "options"],
  ["POST", `${simple}/probe`, { overwrite: true }, "", "overwrite"],
  [
    "POST",
    `${simple}/populate`,
    { results: [{ run_id: ID, scenario_id: ID, step_key: "s", outputs: 1 }] },
    "results[0]",
    "outputs",
  ],
  ["POST", `${simple}/scenarios/add`, { count: 1, interval: 5 }, "", "interval"],
  ["POST", `${simple}/steps/add`, { steps: [{ key: "i", type: "input", origins: "auto" }] }, "steps[0]", "origins"],
  ["POST", `${simple}/repeats/set`, { repeats: 2, overwrite: true }, "", "overwrite"],
  ["POST", "/api/simple/queues/", { queue: { data: { kind: "traces", sources: [] } } }, "queue.data", "sources"],
  [
    "POST",
    "/api/simple/queues/",
    { queue: { data: { kind: "traces", settings: { batchSize: 2 } } } },
    "queue.data.settings",
    "batchSize",
  ],
  ["POST", "/api/simple/queues/query", { queue: { queue_id: ID } }, "queue", "queue_id"],
  ["POST", `/api/simple/queues/${ID}/traces/`, { trace_ids: ["a".repeat(32)], dedupe: false }, "", "dedupe"],
];

describe("an unknown key is a 422 naming it and its path", () => {
  for (const [method, path, body, where, unknown] of UNKNOWN) {
    it(`${method} ${path.replace(ID, "{id}")}: ${where ? `${where}.` : ""}${unknown}`, async () => {
      const res = await call(method, path, body);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.code).toBe("validation_error");
      expect(res.body.errors).toContainEqual({ path: where, message: expect.stringContaining(`"${unknown}"`) });
      expect(res.body.detail).toContain(unknown);
    });
  }
});

describe("a key the reference takes for behaviour this service lacks is refused as unsupported", () => {
  it("flags.is_cached: true (reusing traces by hash), on runs and simple evaluations; false is taken", async () => {
    for (const [path, body, where] of [
      [`${run}/`, { runs: [{ flags: { is_cached: true } }] }, "runs[0].flags.is_cached"],
      ["/api/simple/evaluations/", { evaluation: { flags: { is_cached: true } } }, "evaluation.flags.is_cached"],
    ] as const) {
      const res = await call("POST", path, body);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ path: where, message: expect.stringContaining("not supported") }]);
    }
    const { runs } = await ok("POST", `${run}/`, { runs: [{ flags: { is_cached: false } }] });
    expect(runs[0].flags.is_cached).toBe(false);
  });

  it("a simple queue's status: it is created running", async () => {
    const res = await call("POST", "/api/simple/queues/", { queue: { status: "pending", data: { kind: "traces" } } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: "queue.status", message: expect.stringContaining("created running") }]);
  });
});

/** The lifecycle and version keys every record the reference answers carries. */
const ECHO = {
  version: "2025-07-14",
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
  deleted_at: null,
  created_by_id: ID,
  updated_by_id: ID,
  deleted_by_id: null,
};
const WINDOWING = {
  newest: "2100-01-01T00:00:00Z",
  oldest: "2000-01-01T00:00:00Z",
  limit: 50,
  order: "descending",
  interval: 60,
  rate: 1,
};

describe("what the reference's clients send is taken", () => {
  it("runs, scenarios, results, metrics and queues: every declared key, and each record read back as its edit", async () => {
    const steps = [
      {
        key: "input",
        type: "input",
        origin: "custom",
        references: { testset_revision: { id: ID, slug: "ts", version: "1" } },
      },
      {
        key: "human",
        type: "annotation",
        origin: "human",
        references: { evaluator_revision: { id: ID } },
        inputs: [{ key: "input" }],
        schemas: { outputs: { type: "object", properties: { score: { type: "number" } } } },
      },
    ];
    const { runs } = await ok("POST", `${run}/`, {
      runs: [
        {
          ...ECHO,
          id: ID,
          name: "every key",
          description: "d",
          status: "pending",
          flags: {
            is_live: false,
            is_active: false,
            is_closed: false,
            is_cached: false,
            is_split: true,
            // Derived: the reference overwrites a planted value.
            is_queue: true,
            has_queries: true,
            has_testsets: false,
            has_traces: false,
            has_testcases: false,
            has_evaluators: false,
            has_custom: false,
            has_human: false,
            has_auto: false,
          },
          tags: { strict: "yes" },
          meta: { m: 1 },
          data: {
            steps,
            repeats: 2,
            concurrency: { batch_size: 3, max_retries: 1, retry_delay: 0.5 },
            mappings: [{ column: { kind: "annotation", name: "score" }, step: { key: "human", path: "data.score" } }],
          },
        },
      ],
    });
    const created = runs[0];
    expect(created.id).not.toBe(ID);
    expect(created.flags).toMatchObject({ is_split: true, has_queries: false, has_testsets: true, has_human: true });
    expect(created.data).toMatchObject({
      repeats: 2,
      concurrency: { batch_size: 3, max_retries: 1, retry_delay: 0.5 },
    });

    // An edit echoing the run it read, with one change.
    const read = (await ok("GET", `${run}/${created.id}`)).run;
    const edited = (await ok("PATCH", `${run}/${created.id}`, { run: { ...read, description: "edited" } })).run;
    expect(edited).toMatchObject({ description: "edited", flags: read.flags, data: read.data });
    expect((await ok("PATCH", `${run}/`, { runs: [{ ...edited, name: "bulk" }] })).runs[0].name).toBe("bulk");
    const found = await ok("POST", `${run}/query`, {
      run: {
        ids: [created.id],
        name: "bulk",
        description: "edited",
        flags: { is_split: true, has_human: true, is_live: null },
        tags: { strict: "yes" },
        meta: { m: 1 },
        status: "pending",
        statuses: ["pending"],
        references: [{ testset_revision: { id: ID } }],
      },
      windowing: WINDOWING,
    });
    expect(found.runs.map((r: { id: string }) => r.id)).toEqual([created.id]);

    // Scenarios: create with every key, then the client's close of a scenario (§8.4): the whole record back.
    const { scenarios } = await ok("POST", "/api/evaluations/scenarios/", {
      scenarios: [
        {
          ...ECHO,
          id: ID,
          run_id: created.id,
          status: "running",
          interval: 1,
          timestamp: "2026-01-01T00:00:00Z",
          flags: { seen: true },
          tags: { t: 1 },
          meta: { lane: "a" },
        },
      ],
    });
    const scenario = scenarios[0];
    const closed = (
      await ok("PATCH", `/api/evaluations/scenarios/${scenario.id}`, { scenario: { ...scenario, status: "success" } })
    ).scenario;
    expect(closed).toMatchObject({ status: "success", run_id: created.id, meta: { lane: "a" } });
    expect((await ok("PATCH", "/api/evaluations/scenarios/", { scenarios: [closed] })).count).toBe(1);
    const scenarioFilter = {
      ids: [scenario.id],
      run_id: created.id,
      run_ids: [created.id],
      status: "success",
      statuses: ["success"],
      interval: 1,
      intervals: [1],
      timestamp: "2026-01-01T00:00:00Z",
      timestamps: ["2026-01-01T00:00:00Z"],
      tags: { t: 1 },
      flags: { seen: true },
      meta: { lane: "a" },
    };
    expect((await ok("POST", "/api/evaluations/scenarios/query", { scenario: scenarioFilter })).count).toBe(1);
    // meta filters: another lane finds nothing.
    const otherLane = { scenario: { run_id: created.id, meta: { lane: "b" } } };
    expect((await ok("POST", "/api/evaluations/scenarios/query", otherLane)).count).toBe(0);

    // Results: every key, the web client's span_id among them; a result read back is upserted again.
    const result = {
      ...ECHO,
      id: ID,
      run_id: created.id,
      scenario_id: scenario.id,
      step_key: "human",
      repeat_idx: 1,
      status: "success",
      trace_id: "0af7651916cd43dd8448eb211c80319c",
      span_id: "b7ad6b7169203331",
      testcase_id: ID,
      hash_id: "h",
      error: null,
      interval: 1,
      timestamp: "2026-01-01T00:00:00Z",
      flags: { ok: true },
      tags: { t: 1 },
      meta: { by: "client" },
      data: { outputs: { score: 1 } },
    };
    const written = (await ok("POST", "/api/evaluations/results/", { results: [result] })).results[0];
    expect(written.id).not.toBe(ID);
    const again = (
      await ok("PUT", "/api/evaluations/results/", {
        // What this service answers beside the reference's fields comes back too.
        results: [{ ...written, status: "failure", data: { ...written.data, latency_ms: 12, attempts: 1 } }],
      })
    ).results[0];
    expect(again).toMatchObject({ id: written.id, status: "failure" });
    const resultFilter = {
      ...scenarioFilter,
      ids: [written.id],
      status: "failure",
      statuses: ["failure"],
      flags: { ok: true },
      meta: { by: "client" },
      scenario_id: scenario.id,
      scenario_ids: [scenario.id],
      step_key: "human",
      step_keys: ["human"],
      repeat_idx: 1,
      repeat_idxs: [1],
    };
    expect((await ok("POST", "/api/evaluations/results/query", { result: resultFilter })).count).toBe(1);

    // Metrics: every key; a row read back is upserted again; the query's meta filters.
    const metric = (
      await ok("POST", "/api/evaluations/metrics/", {
        metrics: [
          {
            ...ECHO,
            id: ID,
            run_id: created.id,
            scenario_id: scenario.id,
            status: "success",
            data: { score: 1 },
            flags: { f: true },
            tags: { t: 1 },
            meta: { kind: "hand" },
          },
        ],
      })
    ).metrics[0];
    await ok("PATCH", "/api/evaluations/metrics/", { metrics: [{ ...metric, data: { score: 2 } }] });
    const metricsFilter = {
      ids: [metric.id],
      run_id: created.id,
      run_ids: [created.id],
      scenario_id: scenario.id,
      scenario_ids: true,
      timestamps: false,
      status: "success",
      statuses: ["success"],
      tags: { t: 1 },
      flags: { f: true },
      meta: { kind: "hand" },
    };
    const metrics = await ok("POST", "/api/evaluations/metrics/query", {
      metrics: metricsFilter,
      windowing: WINDOWING,
    });
    expect(metrics.metrics.map((m: { data: unknown }) => m.data)).toEqual([{ score: 2 }]);
    const byOtherMeta = { metrics: { run_id: created.id, meta: { kind: "computed" } } };
    expect((await ok("POST", "/api/evaluations/metrics/query", byOtherMeta)).count).toBe(0);
    await ok("POST", "/api/evaluations/metrics/refresh", {
      metrics: {
        run_id: created.id,
        run_ids: [created.id],
        scenario_id: scenario.id,
        scenario_ids: [scenario.id],
        timestamp: "2026-01-01T00:00:00Z",
        timestamps: ["2026-01-01T00:00:00Z"],
        interval: 1,
      },
    });

    // Queues: every key; a queue read back as its edit; a query by every filter.
    const queue = (
      await ok("POST", "/api/evaluations/queues/", {
        queues: [
          {
            ...ECHO,
            id: ID,
            run_id: created.id,
            name: "q",
            description: "d",
            status: "running",
            flags: { is_default: false, is_sequential: true },
            tags: { t: 1 },
            meta: { team: "a" },
            data: {
              user_ids: [[userId]],
              scenario_ids: [scenario.id],
              step_keys: ["human"],
              batch_size: 5,
              batch_offset: 0,
            },
          },
        ],
      })
    ).queues[0];
    const readQueue = (await ok("GET", `/api/evaluations/queues/${queue.id}`)).queue;
    expect(
      (await ok("PATCH", `/api/evaluations/queues/${queue.id}`, { queue: { ...readQueue, name: "q2" } })).queue,
    ).toMatchObject({
      name: "q2",
      run_id: created.id,
    });
    const queueFilter = {
      ids: [queue.id],
      run_id: created.id,
      run_ids: [created.id],
      user_id: userId,
      user_ids: [userId],
      flags: { is_default: false, is_sequential: true },
      include_archived: false,
      name: "q2",
      description: "d",
      tags: { t: 1 },
      meta: { team: "a" },
    };
    expect(
      (await ok("POST", "/api/evaluations/queues/query", { queue: queueFilter, windowing: WINDOWING })).count,
    ).toBe(1);
    await ok("POST", `/api/evaluations/queues/${queue.id}/scenarios/query`, {
      queue: { id: queue.id, user_id: userId, user_ids: [userId] },
      scenario: { status: "success", statuses: ["success"] },
      windowing: WINDOWING,
    });
  });

  it("an edit that echoes another run's id as run_id is refused, not dropped", async () => {
    const [a, b] = (await ok("POST", `${run}/`, { runs: [{ name: "a" }, { name: "b" }] })).runs;
    const scenario = (await ok("POST", "/api/evaluations/scenarios/", { scenarios: [{ run_id: a.id }] })).scenarios[0];
    const moved = await call("PATCH", `/api/evaluations/scenarios/${scenario.id}`, {
      scenario: { ...scenario, run_id: b.id },
    });
    expect(moved.status).toBe(422);
    expect(moved.body.detail).toContain(`belongs to run ${a.id}`);
    const queue = (await ok("POST", "/api/evaluations/queues/", { queues: [{ run_id: a.id }] })).queues[0];
    const movedQueue = await call("PATCH", "/api/evaluations/queues/", { queues: [{ ...queue, run_id: b.id }] });
    expect(movedQueue.status).toBe(422);
    expect(movedQueue.body.errors).toEqual([{ path: "run_id", message: expect.stringContaining(a.id) }]);
  });

  it("simple evaluations and queues: every declared key, and an evaluation read back as its edit", async () => {
    const testset = (
      await createEntity(t, key, "testsets", "testset", { slug: "strict-rows", data: { testcases: [{ q: "1" }] } })
    ).revision_id;
    const evaluator = (
      await createEntity(t, key, "evaluators", "evaluator", {
        slug: "strict-exact",
        data: { uri: "svc:builtin:auto_exact_match:v0", parameters: { correct_answer_key: "q" } },
      })
    ).revision_id;
    // data.status running: the client runs it (the reference SDK's loop), so nothing here executes.
    const created = (
      await ok("POST", "/api/simple/evaluations/", {
        evaluation: {
          ...ECHO,
          id: ID,
          name: "every key",
          description: "d",
          flags: {
            is_live: false,
            is_active: true,
            is_closed: false,
            is_cached: false,
            is_split: false,
            has_auto: false,
          },
          tags: { t: 1 },
          meta: { m: 1 },
          data: {
            status: "running",
            query_steps: [],
            testset_steps: [testset],
            application_steps: {},
            evaluator_steps: { [evaluator]: "auto" },
            repeats: 2,
            concurrency: { batch_size: 2, max_retries: 0, retry_delay: 1 },
          },
        },
      })
    ).evaluation;
    expect(created).toMatchObject({ flags: { has_auto: true }, data: { status: "running", repeats: 2 } });
    await ok("POST", `/api/simple/evaluations/${created.id}/stop`);
    const read = (await ok("GET", `/api/simple/evaluations/${created.id}`)).evaluation;
    const edited = (
      await ok("PATCH", `/api/simple/evaluations/${created.id}`, { evaluation: { ...ECHO, ...read, name: "edited" } })
    ).evaluation;
    expect(edited).toMatchObject({ name: "edited", data: { evaluator_steps: { [evaluator]: "auto" }, repeats: 2 } });
    const query = {
      ids: [created.id],
      name: "edited",
      description: "d",
      flags: { has_testsets: true, is_live: false },
      tags: { t: 1 },
      meta: { m: 1 },
    };
    expect((await ok("POST", "/api/simple/evaluations/query", { evaluation: query, windowing: WINDOWING })).count).toBe(
      1,
    );

    const queue = (
      await ok("POST", "/api/simple/queues/", {
        queue: {
          ...ECHO,
          id: ID,
          name: "people",
          description: "d",
          status: "running",
          flags: { is_default: true, is_sequential: true },
          tags: { t: 1 },
          meta: { team: "a" },
          data: {
            kind: "traces",
            evaluators: [evaluator],
            repeats: 2,
            assignments: [[userId], [userId]],
            settings: { batch_size: 5, batch_offset: 0 },
          },
        },
      })
    ).queue;
    // The flags are derived (settings make it sequential, scoping makes it not the default), not as sent.
    expect(queue).toMatchObject({ flags: { is_default: false, is_sequential: true }, data: { repeats: 2 } });
    const queueQuery = {
      kind: "traces",
      queue_ids: [queue.id],
      run_id: queue.run_id,
      run_ids: [queue.run_id],
      user_id: userId,
      user_ids: [userId],
      name: "people",
      description: "d",
      tags: { t: 1 },
      meta: { team: "a" },
    };
    expect((await ok("POST", "/api/simple/queues/query", { queue: queueQuery, windowing: WINDOWING })).count).toBe(1);
  });
});
