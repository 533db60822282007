import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimTriages, triagePass, TRIAGE_LEASE_MS } from "@/server/improve";
import { drainIngestQueue, recordSpans, type SpanInput } from "@/server/tracing";
import { createRunFixture, type RunFixture } from "../helpers/run-fixture";
import type { RecordedRequest, Script } from "../helpers/scripted-model-server";

// Triage against the scripted model server: traces seeded through the trace store's own ingest,
// the worker's pass run by hand (claim, group, finish), the API read back as a client would.

let f: RunFixture;
let other: { key: string; projectId: string };
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join("");
const at = (seconds: number) => new Date(Date.UTC(2026, 10, 20, 12, 0, seconds)).toISOString();

const requestText = (request: RecordedRequest) => JSON.stringify(request.body?.messages ?? request.body?.input ?? "");
const REFUND_MODE = "Answers refunds without the refund policy";

/** The model's grouping: every failure index the prompt shows, in one mode named by `name`. */
function groupingModel(name: (text: string) => string, usage = { input: 2_000, output: 200 }) {
  return (request: RecordedRequest): Script => {
    const text = requestText(request);
    const failures = [...text.matchAll(/\[(\d+)\]\\n/g)].map((m) => Number(m[1]));
    return {
      kind: "reply",
      text: JSON.stringify({
        modes: [
          { name: name(text), description: "The answer promises a refund and never states the policy", failures },
        ],
      }),
      usage,
    };
  };
}

interface SeedTrace {
  agent: string;
  question: string;
  answer: string;
  error?: { type: string; message: string };
  failedTool?: string;
}

/** Writes traces the way a client's spans arrive (recordSpans, then the ingest worker); returns their ids. */
async function seed(traces: SeedTrace[], projectId = f.projectId): Promise<string[]> {
  const spans: SpanInput[] = [];
  const ids: string[] = [];
  traces.forEach((trace, i) => {
    const traceId = hex(32);
    const root = hex(16);
    ids.push(traceId);
    spans.push({
      trace_id: traceId,
      span_id: root,
      span_name: `invoke_agent ${trace.agent}`,
      start_time: at(i),
      end_time: at(i + 1),
      ...(trace.error
        ? {
            status_code: "STATUS_CODE_ERROR",
            status_message: trace.error.message,
            events: [
              {
                name: "exception",
                timestamp: at(i + 1),
                attributes: { "exception.type": trace.error.type, "exception.message": trace.error.message },
              },
            ],
          }
        : {}),
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": trace.agent,
        "ag.meta.run.stop_reason": trace.error ? "error" : "end_turn",
        "ag.data.inputs": { messages: [{ role: "user", content: trace.question }] },
        "ag.data.outputs": trace.answer,
      },
    });
    if (trace.failedTool)
      spans.push({
        trace_id: traceId,
        span_id: hex(16),
        parent_id: root,
        span_name: `execute_tool ${trace.failedTool}`,
        start_time: at(i),
        end_time: at(i + 1),
        status_code: "STATUS_CODE_ERROR",
        status_message: "order service timed out",
        attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": trace.failedTool },
      });
  });
  const db = f.app.context.db;
  for (let i = 0; i < spans.length; i += 500)
    await recordSpans(db, projectId, spans.slice(i, i + 500), { config: f.app.context.config.tracing });
  await drainIngestQueue(f.app.context);
  return ids;
}

const byAgent = (agent: string) => ({
  conditions: [{ field: "attributes", key: "gen_ai.agent.name", value: agent }],
});

async function start(body: Record<string, unknown>, key = f.key) {
  const res = await f.app.call("POST", "/api/improve/triages", { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(res.body.triage.status).toBe("queued");
  return res.body.triage.id as string;
}

async function read(id: string, key = f.key) {
  const res = await f.app.call("GET", `/api/improve/triages/${id}`, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.triage;
}

/** Runs worker passes until the triage has ended (each pass claims what is open and runs it to its end). */
async function finish(id: string) {
  for (let pass = 0; pass < 5; pass++) {
    await triagePass(f.app.context, 10);
    const triage = await read(id);
    if (!["queued", "running"].includes(triage.status)) return triage;
  }
  throw new Error(`triage ${id} did not end`);
}

beforeAll(async () => {
  f = await createRunFixture();
  other = await f.app.newProject("other");
});
afterAll(async () => {
  await f?.close();
});

describe("triage with a model", () => {
  it("names the failing class from the failures it was shown, traced and priced", async () => {
    const ids = await seed(
      Array.from({ length: 7 }, (_, i) => ({
        agent: "support",
        question: `Can I get a refund for order ${100 + i}?`,
        answer: "Sure, refunds are always possible, just ask.",
      })),
    );
    f.model.respondWith(groupingModel((text) => (text.includes("refund for order") ? REFUND_MODE : "Something else")));
    const before = f.model.requests.length;
    const id = await start({
      evidence: { kind: "traces", filter: byAgent("support") },
      model: "openai/gpt-5-mini",
      max_examples_per_mode: 3,
    });
    const triage = await finish(id);
    expect(triage).toMatchObject({
      status: "succeeded",
      method: "model",
      model: "openai/gpt-5-mini",
      progress: { examined: 7, total: 7, batches_done: 1, batches_total: 1 },
    });
    expect(triage.method_note).toBeUndefined();
    expect(triage.failure_modes).toHaveLength(1);
    const [mode] = triage.failure_modes;
    expect(mode).toMatchObject({ name: REFUND_MODE, count: 7, triage_id: id });
    expect(mode.examples).toHaveLength(3);
    for (const example of mode.examples) expect(ids).toContain(example.trace_id);
    expect(mode.examples[0].output).toBe("Sure, refunds are always possible, just ask.");
    // The model saw the failures themselves, in one request of the structured-output call.
    const sent = f.model.requests.slice(before);
    expect(sent).toHaveLength(1);
    for (let i = 0; i < 7; i++) expect(requestText(sent[0])).toContain(`refund for order ${100 + i}`);
    // Priced by the catalog's price of the model, and traced like any model call.
    expect(Number(triage.cost_usd)).toBeGreaterThan(0);
    expect(triage.progress.spend_usd).toBe(triage.cost_usd);
    await drainIngestQueue(f.app.context);
    const traced = await f.app.call("POST", "/api/traces/query", {
      key: f.key,
      body: { filtering: byAgent("improve triage") },
    });
    expect(traced.body.count).toBeGreaterThanOrEqual(1);
    const events = await f.app.call("POST", "/api/events/query", {
      key: f.key,
      body: { event_type: "improve.triages.finished" },
    });
    expect(events.body.events.some((e: any) => e.attributes.triage_id === id)).toBe(true);
    // The mode is readable on its own.
    const one = await f.app.call("GET", `/api/improve/failure-modes/${mode.id}`, { key: f.key });
    expect(one.status).toBe(200);
    expect(one.body.failure_mode).toEqual(mode);
  });

  it("stops at the budget with the batches it has, saying so", async () => {
    await seed(
      Array.from({ length: 250 }, (_, i) => ({ agent: "bulk", question: `question ${i}`, answer: `answer ${i}` })),
    );
    // 100k input tokens a batch: about $0.027 at gpt-5-mini's catalog price.
    f.model.respondWith(groupingModel(() => "Bulk failure", { input: 100_000, output: 1_000 }));
    const before = f.model.requests.length;
    const id = await start({
      evidence: { kind: "traces", filter: byAgent("bulk") },
      model: "openai/gpt-5-mini",
      budget_usd: "0.04",
    });
    const triage = await finish(id);
    expect(f.model.requests.length - before).toBe(1);
    expect(triage).toMatchObject({
      status: "succeeded",
      stop_reason: "budget",
      budget_usd: "0.04",
      progress: { examined: 120, total: 250, batches_done: 1, batches_total: 3 },
    });
    expect(triage.note).toContain("after 1 of 3 batches");
    expect(triage.note).toContain("120 of 250 failures grouped");
    expect(triage.failure_modes).toEqual([expect.objectContaining({ name: "Bulk failure", count: 120 })]);
    expect(Number(triage.cost_usd)).toBeLessThanOrEqual(0.04);
  });
});

describe("triage without a model", () => {
  it("groups by error class, tool and stop reason and says so", async () => {
    await seed([
      ...Array.from({ length: 3 }, (_, i) => ({
        agent: "ops",
        question: `where is order ${i}?`,
        answer: "I could not look it up.",
        failedTool: "lookup_order",
      })),
      ...Array.from({ length: 2 }, (_, i) => ({
        agent: "ops",
        question: `cancel order ${i}`,
        answer: "",
        error: { type: "RateLimitError", message: "429 from the provider" },
      })),
    ]);
    const id = await start({ evidence: { kind: "traces", filter: byAgent("ops") } });
    const triage = await finish(id);
    expect(triage.method).toBe("heuristic");
    expect(triage.method_note).toBe("No model configured: grouped by evaluator, error class, tool and stop reason");
    expect(triage.cost_usd).toBe("0");
    const modes = triage.failure_modes.map((m: any) => ({ name: m.name, count: m.count, signature: m.signature }));
    expect(modes).toEqual([
      { name: "Tool lookup_order fails", count: 3, signature: { tool: "lookup_order" } },
      {
        name: "RateLimitError errors, Stops on error",
        count: 2,
        signature: { error_class: "RateLimitError", stop_reason: "error" },
      },
    ]);
    expect(triage.failure_modes[1].examples[0].feedback).toBe("429 from the provider");
  });

  it("resumes after its worker dies: the lease runs out and another pass finishes it once", async () => {
    await seed([{ agent: "crash", question: "q", answer: "a", failedTool: "search" }]);
    const id = await start({ evidence: { kind: "traces", filter: byAgent("crash") } });
    // A worker claims it and dies before doing anything.
    const [claimed] = await claimTriages(f.app.context.db, f.app.context.now(), 10);
    expect(claimed.id).toBe(id);
    expect((await read(id)).status).toBe("running");
    // While the lease holds, nobody else takes it.
    await triagePass(f.app.context, 10);
    expect((await read(id)).status).toBe("running");
    f.app.advanceClock(TRIAGE_LEASE_MS + 1_000);
    const triage = await finish(id);
    expect(triage).toMatchObject({ status: "succeeded", failure_modes: [{ count: 1, signature: { tool: "search" } }] });
    const [row] = await rowsOf(sql`select attempts from improve_triages where id = ${id}`);
    expect(row.attempts).toBe(2);
  });

  it("a cancelled triage is not run, and cancelling it again is a 409", async () => {
    const id = await start({ evidence: { kind: "traces", filter: byAgent("nobody") } });
    const cancelled = await f.app.call("POST", `/api/improve/triages/${id}/cancel`, { key: f.key });
    expect(cancelled.status).toBe(202);
    await triagePass(f.app.context, 10);
    expect(await read(id)).toMatchObject({ status: "cancelled", failure_modes: [] });
    const again = await f.app.call("POST", `/api/improve/triages/${id}/cancel`, { key: f.key });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("triage_ended");
  });
});

/** Rows of a statement on either driver (postgres.js answers an array, PGlite `{rows}`). */
async function rowsOf(query: ReturnType<typeof sql>): Promise<any[]> {
  const result: any = await f.app.context.db.execute(query);
  return Array.isArray(result) ? result : result.rows;
}

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

/** An evaluation run a person reviewed: each answer annotated as failing, with the answer it should have been. */
async function reviewedRun(
  rows: { question: string; answer: string; correction?: string; score: number; comment: string }[],
) {
  const call = async (method: string, path: string, body: unknown) => {
    const res = await f.app.call(method, path, { key: f.key, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const { runs } = await call("POST", "/api/evaluations/runs/", {
    runs: [{ name: "reviewed", data: { steps: STEPS } }],
  });
  const run = runs[0].id;
  const { scenarios } = await call("POST", "/api/evaluations/scenarios/", {
    scenarios: rows.map(() => ({ run_id: run })),
  });
  for (const [i, row] of rows.entries())
    await f.app.context.db.execute(
      sql`update evaluation_scenarios set inputs = ${JSON.stringify({ question: row.question })}::jsonb where id = ${scenarios[i].id}`,
    );
  await call("POST", "/api/evaluations/results/", {
    results: rows.flatMap((row, i) => [
      {
        run_id: run,
        scenario_id: scenarios[i].id,
        step_key: "invocation",
        status: "success",
        data: { outputs: row.answer },
      },
      {
        run_id: run,
        scenario_id: scenarios[i].id,
        step_key: "human",
        status: "success",
        meta: { annotated_by: "reviewer" },
        data: {
          outputs: {
            score: row.score,
            comment: row.comment,
            ...(row.correction ? { correction: row.correction } : {}),
          },
        },
      },
    ]),
  });
  return run as string;
}

describe("failure modes become testsets and evaluators", () => {
  let modeId: string;

  it("annotations evidence: the corrections become the testset's expected outputs, then a new revision", async () => {
    const run = await reviewedRun([
      {
        question: "Can I return shoes after 40 days?",
        answer: "Yes, refunds are always possible.",
        correction: "No: returns are accepted within 30 days of purchase.",
        score: 1,
        comment: "ignores the 30-day policy",
      },
      {
        question: "Refund for a gift card?",
        answer: "Of course, refunds are always possible.",
        correction: "Gift cards cannot be refunded.",
        score: 2,
        comment: "ignores the gift card rule",
      },
    ]);
    const viaRun = await start({ evidence: { kind: "evaluation_run", run_id: run, below: 0.5 } });
    expect((await finish(viaRun)).failure_modes[0]).toMatchObject({ count: 2, signature: { evaluator: "human" } });

    const id = await start({ evidence: { kind: "annotations" } });
    const triage = await finish(id);
    const mode = triage.failure_modes.find((m: any) => m.signature.evaluator === "human");
    expect(mode).toMatchObject({ name: "Fails human", count: 2 });
    expect(mode.examples[0]).toMatchObject({
      input: { question: "Can I return shoes after 40 days?" },
      output: "Yes, refunds are always possible.",
      feedback: "ignores the 30-day policy",
      expected: "No: returns are accepted within 30 days of purchase.",
    });
    modeId = mode.id;

    const made = await f.app.call("POST", `/api/improve/failure-modes/${modeId}/testset`, {
      key: f.key,
      body: { name: "Refund policy failures" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.testset_revision).toMatchObject({ version: "1", testcases: 2 });
    const testsetId = made.body.testset_revision.testset_id;
    const first = await f.app.call("GET", `/api/simple/testsets/${testsetId}`, { key: f.key });
    const rows = first.body.testset.data.testcases.map((t: any) => t.data);
    expect(rows).toEqual([
      {
        question: "Can I return shoes after 40 days?",
        correct_answer: "No: returns are accepted within 30 days of purchase.",
      },
      { question: "Refund for a gift card?", correct_answer: "Gift cards cannot be refunded." },
    ]);

    const revised = await f.app.call("POST", `/api/improve/failure-modes/${modeId}/testset`, {
      key: f.key,
      body: { testset_id: testsetId },
    });
    expect(revised.status).toBe(201);
    expect(revised.body.testset_revision).toMatchObject({ testset_id: testsetId, version: "2", testcases: 2 });
    const second = await f.app.call("GET", `/api/simple/testsets/${testsetId}`, { key: f.key });
    expect(second.body.testset.data.testcases).toHaveLength(4);
  });

  it("proposes an LLM judge, a regex and a code check as evaluator revisions", async () => {
    const judge = await f.app.call("POST", `/api/improve/failure-modes/${modeId}/evaluator`, {
      key: f.key,
      body: { kind: "llm_judge" },
    });
    expect(judge.status, JSON.stringify(judge.body)).toBe(201);
    const stored = await f.app.call("GET", `/api/simple/evaluators/${judge.body.evaluator.evaluator_id}`, {
      key: f.key,
    });
    const data = stored.body.evaluator.data;
    expect(data.uri).toBe("svc:builtin:auto_ai_critique:v0");
    expect(data.parameters.prompt_template[0].content).toContain("Fails human");
    expect(data.parameters.prompt_template[0].content).toContain("ignores the 30-day policy");
    expect(data.parameters.prompt_template[1].content).toContain("{{outputs}}");

    const regex = await f.app.call("POST", `/api/improve/failure-modes/${modeId}/evaluator`, {
      key: f.key,
      body: { kind: "regex" },
    });
    expect(regex.status, JSON.stringify(regex.body)).toBe(201);
    expect(regex.body.evaluator.summary).toContain("refunds are always possible");
    const pattern = (
      await f.app.call("GET", `/api/simple/evaluators/${regex.body.evaluator.evaluator_id}`, { key: f.key })
    ).body.evaluator.data.parameters.regex_pattern;
    expect(new RegExp(pattern, "i").test("Sure, Refunds are always possible!")).toBe(true);
    expect(new RegExp(pattern, "i").test("Refunds within 30 days of purchase.")).toBe(false);

    const code = await f.app.call("POST", `/api/improve/failure-modes/${modeId}/evaluator`, {
      key: f.key,
      body: { kind: "code" },
    });
    expect(code.status).toBe(201);
    expect(code.body.evaluator.kind).toBe("code");
  });
});

describe("bad input and scoping", () => {
  it("answers 4xx naming what is wrong", async () => {
    const post = (body: unknown) => f.app.call("POST", "/api/improve/triages", { key: f.key, body });
    const unknownRun = await post({
      evidence: { kind: "evaluation_run", run_id: "01a20dea-a7f9-75a3-82a6-6b784c4f3799" },
    });
    expect(unknownRun.status).toBe(404);
    const both = await post({
      evidence: { kind: "traces", run_id: "01a20dea-a7f9-75a3-82a6-6b784c4f3799", filter: {} },
    });
    expect(both.status).toBe(422);
    const unknownMonitor = await post({
      evidence: { kind: "monitor_alert", monitor_id: "01a20dea-a7f9-75a3-82a6-6b784c4f3799" },
    });
    expect(unknownMonitor.status).toBe(404);
    const badFilter = await post({ evidence: { kind: "traces", filter: { operator: "xor" } } });
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.code).toBe("invalid_filtering");
    expect((await post({ evidence: { kind: "traces" }, budget_usd: "lots" })).status).toBe(422);
    const badModel = await post({ evidence: { kind: "traces" }, model: "nowhere/model-x" });
    expect(badModel.status).toBe(400);
    expect(badModel.body.detail).toContain('model "nowhere/model-x"');
    expect(
      (await f.app.call("GET", "/api/improve/triages/01a20dea-a7f9-75a3-82a6-6b784c4f3799", { key: f.key })).status,
    ).toBe(404);
    expect(
      (
        await f.app.call("POST", "/api/improve/failure-modes/01a20dea-a7f9-75a3-82a6-6b784c4f3799/evaluator", {
          key: f.key,
          body: { kind: "regex" },
        })
      ).status,
    ).toBe(404);
  });

  it("a regex needs a phrase the examples share", async () => {
    await seed([
      { agent: "varied", question: "a", answer: "the moon is made of cheese", failedTool: "t" },
      { agent: "varied", question: "b", answer: "seven bridges of königsberg", failedTool: "t" },
    ]);
    const triage = await finish(await start({ evidence: { kind: "traces", filter: byAgent("varied") } }));
    const res = await f.app.call("POST", `/api/improve/failure-modes/${triage.failure_modes[0].id}/evaluator`, {
      key: f.key,
      body: { kind: "regex" },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("no_common_pattern");
  });

  it("another project sees none of it", async () => {
    const list = await f.app.call("GET", "/api/improve/triages?limit=2", { key: f.key });
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(2);
    expect(list.body.next_cursor).toBeDefined();
    const next = await f.app.call("GET", `/api/improve/triages?limit=2&cursor=${list.body.next_cursor}`, {
      key: f.key,
    });
    expect(next.body.triages[0].id < list.body.triages[1].id).toBe(true);
    const theirs = await f.app.call("GET", "/api/improve/triages", { key: other.key });
    expect(theirs.body).toEqual({ count: 0, triages: [] });
    const mine = list.body.triages[0];
    expect((await f.app.call("GET", `/api/improve/triages/${mine.id}`, { key: other.key })).status).toBe(404);
    expect((await f.app.call("POST", `/api/improve/triages/${mine.id}/cancel`, { key: other.key })).status).toBe(404);
    // Their traces evidence finds none of ours.
    const id = await start({ evidence: { kind: "traces", filter: byAgent("support") } }, other.key);
    await triagePass(f.app.context, 10);
    const res = await f.app.call("GET", `/api/improve/triages/${id}`, { key: other.key });
    expect(res.body.triage).toMatchObject({ status: "succeeded", failure_modes: [], progress: { total: 0 } });
  });
});
