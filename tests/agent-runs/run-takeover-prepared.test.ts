import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { startBackgroundRun } from "@/server/agent-runs";
import { sweepExpiredRuns } from "@/server/agent-runs/runs/run-sweep";
import { promptApplicationRun } from "@/server/openai-compat";
import { tables } from "@/server/db";
import { chooseArm } from "@/server/versioning";
import { runsRecorded } from "../helpers/after-runs";
import { attribute, traceSpans } from "../helpers/run-trace";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { askingAgent, WRITE_CALL as WRITE } from "./asking-agent";
import { rewindToDeadProcess } from "./dead-process";

/**
 * A run taken over after a crash runs as it was started: what its start was given besides the
 * body (a prompt application's sampling and name, a split environment's sticky key) and the usage
 * of the paused run it continues. Each run here ends, then is rewound to what a process that died
 * right after recording it leaves (as interactions-respond.test.ts does), and the sweep takes it over.
 */
let app: TestApp;
let model: ScriptedModelServer;
let account: Awaited<ReturnType<TestApp["newProject"]>>;

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({ providerEnv: { openai: { key: "sk-prepared", baseUrl: model.baseUrl } } });
  account = await app.newProject();
});
afterAll(async () => {
  await app.close();
  await model.close();
});

const principal = () => ({ projectId: account.projectId, userId: account.userId, role: account.role });

/** The sweep takes the run over; its end is awaited and its record read. */
async function takenOver(runId: string) {
  expect(await sweepExpiredRuns(app.context, 10, new Date())).toBe(1);
  await runsRecorded(app.context);
  const res = await app.call("GET", `/services/agent/v0/runs/${runId}`, { key: account.key });
  expect(res.body.run).toMatchObject({ status: "finished" });
  expect(res.body.events.filter((e: any) => e.type === "data" && e.data.name === "run_taken_over")).toHaveLength(1);
  return res.body;
}

describe("a run taken over runs as it was started", () => {
  it("a prompt application's background run keeps its sampling and its name", async () => {
    const prompt = {
      messages: [{ role: "user", content: "Summarise {{topic}}." }],
      llm_config: { model: "openai/gpt-4o-mini", temperature: 0.2, max_tokens: 321 },
    };
    const created = await app.call("POST", "/api/applications/", {
      key: account.key,
      body: { application: { slug: "digest", name: "Digest", data: { parameters: { prompt } } } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    // What an automation firing of the application starts (server/automations `firingRun`).
    const run = await promptApplicationRun(
      app.context.db,
      principal(),
      { artifact: { slug: "digest" } },
      { topic: "the inbox" },
      { target: "references.application", variables: "input.inputs" },
    );
    const body = {
      session_id: `prompt-${Date.now()}`,
      data: { inputs: { messages: run.messages }, parameters: { agent: run.template } },
    };
    model.script({ kind: "reply", text: "Inbox: quiet." });
    const started = await startBackgroundRun(app.context, principal(), body, "automation", undefined, {
      sampling: run.sampling,
      agent: run.agent,
    });
    await runsRecorded(app.context);
    await rewindToDeadProcess(app.context.db, started.runId);

    model.script({ kind: "reply", text: "Inbox: still quiet." });
    const asked = model.requests.length;
    await takenOver(started.runId);
    expect(model.requests.length).toBe(asked + 1);
    expect(model.requests.at(-1)!.body).toMatchObject({
      model: "gpt-4o-mini",
      temperature: 0.2,
      max_output_tokens: 321,
    });
    const spans = await traceSpans(app, account.key, started.traceId, 3);
    const root = spans.find((s) => s.span_name.startsWith("invoke_agent"))!;
    expect(root.span_name).toBe("invoke_agent digest");
    expect(attribute(root, "ag.meta.run.takeovers")).toBe(1);
  });

  it("a split environment's run stays on the side its sticky key chose, not the session's", async () => {
    const agent = (text: string) => ({
      instructions: { agents_md: text },
      llm: { model: "openai/gpt-5-mini" },
      tools: [],
    });
    const created = await app.call("POST", "/api/workflows/", {
      key: account.key,
      body: { workflow: { slug: "splitter", name: "Splitter", data: { parameters: { agent: agent("arm one") } } } },
    });
    const ids = [created.body.workflow_revision.id as string];
    const second = await app.call("POST", "/api/workflows/revisions/commit", {
      key: account.key,
      body: {
        workflow_revision_commit: {
          workflow_variant_id: created.body.workflow_variant.id,
          data: { parameters: { agent: agent("arm two") } },
        },
      },
    });
    ids.push(second.body.workflow_revision.id);
    const deployed = await app.call("POST", "/api/workflows/revisions/deploy", {
      key: account.key,
      body: { workflow_revision_ref: { id: ids[0] }, environment_ref: { slug: "production" } },
    });
    const arms = [
      { weight: 50, workflow_revision: { id: ids[1] } },
      { weight: 50, workflow_revision: { id: ids[0] } },
    ];
    const split = await app.call("POST", "/api/environments/revisions/commit", {
      key: account.key,
      body: {
        environment_revision_commit: {
          environment_variant_id: deployed.body.environment_revision.environment_variant_id,
          delta: { splits: { "splitter.revision": arms } },
        },
      },
    });
    expect(split.status, JSON.stringify(split.body)).toBe(200);
    const envId = deployed.body.environment_revision.environment_id;
    const armOf = (value: string) =>
      chooseArm(
        arms.map((arm) => ({ weight: arm.weight, id: arm.workflow_revision.id })),
        `${envId}:splitter.revision`,
        value,
      ).id;
    const session = `split-${Date.now()}`;
    let splitKey = "user-0";
    for (let n = 1; armOf(splitKey) === armOf(session); n++) splitKey = `user-${n}`;
    const textOf = (revision: string) => (revision === ids[0] ? "arm one" : "arm two");
    const body = {
      session_id: session,
      references: { workflow: { slug: "splitter" }, environment: { slug: "production" } },
      data: { inputs: { messages: [{ role: "user", content: "hi" }] } },
    };

    // Both starts that take a sticky key: invoke's X-Svc-Split-Key and a background start's (A2A's context id).
    model.script({ kind: "reply", text: "ok" });
    const invoked = await app.call("POST", "/services/agent/v0/invoke", {
      key: account.key,
      headers: { "x-svc-split-key": splitKey },
      body: { ...body, flags: { background: true } },
    });
    expect(invoked.status, JSON.stringify(invoked.body)).toBe(202);
    model.script({ kind: "reply", text: "ok" });
    const started = await startBackgroundRun(app.context, principal(), body, "a2a", undefined, { splitKey });
    await runsRecorded(app.context);
    for (const runId of [invoked.body.run_id as string, started.runId]) {
      const run = await app.call("GET", `/services/agent/v0/runs/${runId}`, { key: account.key });
      expect(run.body.run.agent.references.workflow_revision.id).toBe(armOf(splitKey));
      await rewindToDeadProcess(app.context.db, runId);
      model.script({ kind: "reply", text: "ok again" });
      await takenOver(runId);
      expect(JSON.stringify(model.requests.at(-1)!.body)).toContain(textOf(armOf(splitKey)));
    }
  });

  it("a continuation's usage still includes the paused run's", async () => {
    const sessionId = `usage-${Date.now()}`;
    model.script({ kind: "reply", text: "Saving.", toolCalls: [WRITE], usage: { input: 100, output: 20 } });
    const paused = await app.call("POST", "/services/agent/v0/invoke", {
      key: account.key,
      body: {
        session_id: sessionId,
        data: { inputs: { messages: [{ role: "user", content: "save a note" }] }, parameters: { agent: askingAgent } },
      },
    });
    expect(paused.body.data.outputs.stop_reason).toBe("paused");
    const approvalId = paused.body.data.outputs.pending_interaction.id as string;
    model.script({ kind: "reply", text: "Saved.", usage: { input: 7, output: 3 } });
    const answered = await app.call("POST", `/api/sessions/interactions/${approvalId}/respond`, {
      key: account.key,
      body: { answer: { approved: true } },
    });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    const continuation = answered.body.interaction.data.response.run_id as string;
    await runsRecorded(app.context);
    const first = await app.call("GET", `/services/agent/v0/runs/${continuation}`, { key: account.key });
    expect(first.body.run.usage).toMatchObject({ input: 107, output: 23, total: 130 });

    await app.context.db
      .update(tables.toolApprovals)
      .set({ status: "responding" })
      .where(eq(tables.toolApprovals.id, approvalId));
    await rewindToDeadProcess(app.context.db, continuation);
    model.script({ kind: "reply", text: "Saved after all.", usage: { input: 7, output: 3 } });
    const run = await takenOver(continuation);
    expect(run.run).toMatchObject({ continues_run_id: paused.headers.get("x-svc-run-id") });
    expect(run.run.usage).toMatchObject({ input: 107, output: 23, total: 130 });
  });
});
