import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveRunRowsWritten } from "@/server/agent-runs";
import { loadConfig } from "@/server/core/config";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { runsRecorded } from "../helpers/after-runs";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { within } from "../helpers/within";

/**
 * Where runs come from (`origin`) and the tree they make: a reference tool's workflow run is a
 * child run naming the run whose tool call started it.
 */
let app: TestApp;
let model: ScriptedModelServer;
let key: string;
let helperRevisionId: string;

const llm = { provider: "openai", model: "gpt-5-mini" };
const allow = { permissions: { default: "allow" } };
const caller = {
  llm,
  runner: allow,
  tools: [
    {
      type: "reference",
      slug: "helper",
      description: "Asks the helper",
      input_schema: { type: "object", properties: { question: { type: "string" } }, required: ["question"] },
    },
  ],
};
let sessions = 0;

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({
    agentRuns: { ...loadConfig({}).agentRuns, maxRetries: 0 },
    providerEnv: { openai: { key: "sk-origins", baseUrl: model.baseUrl } },
  });
  ({ key } = await app.newProject());
  const created = await app.call("POST", "/api/workflows/", {
    key,
    body: { workflow: { slug: "helper", name: "helper", data: { parameters: { agent: { llm, runner: allow } } } } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  helperRevisionId = created.body.workflow_revision.id;
});
afterAll(async () => {
  await app.close();
  await model.close();
});

/** A batch invoke of the calling agent; answers once the turn is over (the run's end follows). */
async function invokeCaller(text = "ask the helper") {
  return app.call("POST", "/services/agent/v0/invoke", {
    key,
    body: {
      session_id: `origins-${++sessions}`,
      data: { inputs: { messages: [{ role: "user", content: text }] }, parameters: { agent: caller } },
    },
  });
}

async function runs(query: string) {
  const res = await app.call("GET", `/services/agent/v0/runs?${query}`, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.runs as Array<{ id: string; origin: string; parent_run_id: string | null; status: string }>;
}

/** The run once its end is recorded (awaited: the runs this process drives), read once. */
async function ended(runId: string) {
  await runsRecorded(app.context);
  const res = await app.call("GET", `/services/agent/v0/runs/${runId}`, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.run.status, `run ${runId}`).not.toBe("running");
  return res.body;
}

describe("nested runs are child runs of the run that called them", () => {
  it("a reference tool's workflow run names its parent, shares its trace, and is listed under it, not at the top", async () => {
    model.script(
      { kind: "reply", toolCalls: [{ id: "ref_1", name: "helper", input: { question: "what is 2+2?" } }] },
      { kind: "reply", text: "four", usage: { input: 7, output: 1 } },
      { kind: "reply", text: "The helper says four." },
    );
    const res = await invokeCaller();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const parentId = res.headers.get("x-svc-run-id")!;
    const parent = await ended(parentId);
    expect(parent.run).toMatchObject({ origin: "invoke", parent_run_id: null, status: "finished" });

    const children = await runs(`parent_run_id=${parentId}`);
    expect(children).toHaveLength(1);
    const child = await ended(children[0].id);
    expect(child.run).toMatchObject({
      origin: "nested",
      parent_run_id: parentId,
      status: "finished",
      trace_id: parent.run.trace_id,
      usage: { input: 7, output: 1 },
      agent: { references: { workflow_revision: { id: helperRevisionId } } },
    });
    expect(child.run.session_id).not.toBe(parent.run.session_id);
    expect(child.outputs.messages).toEqual([{ role: "assistant", content: "four" }]);

    // By default a list holds the roots of the trees; include_nested lists every run.
    const top = (await runs("limit=200")).map((run) => run.id);
    expect(top).toContain(parentId);
    expect(top).not.toContain(child.run.id);
    const all = (await runs("include_nested=true&limit=200")).map((run) => run.id);
    expect(all).toEqual(expect.arrayContaining([parentId, child.run.id]));
    expect((await runs("include_nested=true&origin=nested&limit=200")).map((run) => run.id)).toEqual([child.run.id]);
    expect((await runs("origin=invoke&limit=200")).map((run) => run.id)).toContain(parentId);
    expect(await runs("origin=playground,openai")).toEqual([]);
  });

  it("cancelling the parent stops the nested run and its model request; the child is recorded cancelled", async () => {
    model.script(
      { kind: "reply", toolCalls: [{ id: "ref_2", name: "helper", input: { question: "slow?" } }] },
      { kind: "hang" },
    );
    const before = model.requests.length;
    const closed = model.nextAbort();
    const answer = invokeCaller("ask slowly");
    // The caller's model call, then the nested run's, which hangs.
    await within(10_000, "the caller's and the nested run's model calls", model.requestsReceived(before + 2));
    // A run's row is written with its first batch of events, a moment after it starts: written now.
    await within(10_000, "the running runs' rows", liveRunRowsWritten(app.context.db));
    const [parent] = await runs("origin=invoke&status=running");
    expect(parent, "the running caller").toBeDefined();
    const [child] = await runs(`parent_run_id=${parent.id}&status=running`);
    expect(child, "the running nested run").toBeDefined();
    const cancelled = await app.call("POST", `/services/agent/v0/runs/${parent.id}/cancel`, { key });
    expect(cancelled.body).toMatchObject({ status: "cancelled" });
    await closed;
    expect((await ended(child.id)).run).toMatchObject({ origin: "nested", status: "cancelled" });
    await answer;
  });

  it("refuses filters it does not know with a 4xx", async () => {
    for (const query of ["origin=cron", "parent_run_id=not-a-run", "include_nested=yes"]) {
      const res = await app.call("GET", `/services/agent/v0/runs?${query}`, { key });
      expect(res.status, query).toBe(422);
    }
  });
});
