import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/server/auth";
import { createCaller, createContextFrom } from "@/server/trpc";
import type { RunWire } from "@/server/agent-runs";
import { runsRecorded } from "../helpers/after-runs";
import { HttpClient } from "../helpers/http-client";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let model: ScriptedModelServer;

const callerFor = (principal?: Principal) => createCaller(createContextFrom(t.context, { principal }));

interface Project {
  key: string;
  owner: Principal;
  agentId: string;
  variantId: string;
}

/** A project with one committed agent on the scripted model. */
async function projectWithAgent(name: string): Promise<Project> {
  const { key, projectId, userId } = await t.newProject(name);
  const owner: Principal = { projectId, userId, role: "owner" };
  const created = await callerFor(owner).agents.create({ name });
  await callerFor(owner).agents.commit({
    variantId: created.variant.id,
    template: { llm: { provider: "openai", model: "gpt-5-mini" } },
    message: "plain",
  });
  return { key, owner, agentId: created.agent.id, variantId: created.variant.id };
}

/** One real turn through the invoke API (batch answer): the stored agent, or an inline template. */
async function turn(project: Project, sessionId: string, inline = false) {
  const agent = inline
    ? { data: { inputs, parameters: { agent: { llm: { provider: "openai", model: "gpt-5-mini" } } } } }
    : { references: { workflow_variant: { id: project.variantId } }, data: { inputs } };
  return t.call("POST", "/services/agent/v0/invoke", { key: project.key, body: { session_id: sessionId, ...agent } });
}
const inputs = { messages: [{ role: "user", content: "hello" }] };

let a: Project;
let b: Project;

beforeAll(async () => {
  model = await startScriptedModelServer();
  t = await createTestApp({ providerEnv: { openai: { key: "sk-runs-list", baseUrl: model.baseUrl } } });
  a = await projectWithAgent("Refund bot");
  b = await projectWithAgent("Other bot");
});
afterAll(async () => {
  await t.close();
  await model.close();
});

describe("tRPC runs.list", () => {
  it("lists an agent's runs from real turns, newest first, with status, stop reason, usage, cost, trace and session", async () => {
    model.script({ kind: "reply", text: "One.", usage: { input: 1000, output: 200 } });
    expect((await turn(a, "s-first")).status).toBe(200);
    model.script({ kind: "status", status: 500 });
    await turn(a, "s-failed");
    model.script({ kind: "reply", text: "Three.", usage: { input: 10, output: 5 } });
    expect((await turn(a, "s-third")).status).toBe(200);
    // An inline template's run has no agent: it is not in the agent's list.
    model.script({ kind: "reply", text: "Inline." });
    expect((await turn(a, "s-inline", true)).status).toBe(200);
    // A batch answer goes out once its run's end is recorded: the list has every run, ended, at once.

    const { runs, next } = await callerFor(a.owner).runs.list({ agentId: a.agentId });
    expect(next).toBeNull();
    expect(runs.map((r) => r.session_id)).toEqual(["s-third", "s-failed", "s-first"]);
    expect(runs.map((r) => r.status)).toEqual(["finished", "failed", "finished"]);
    const first = runs[2];
    expect(first.stop_reason).toBe("stop");
    expect(first.usage).toMatchObject({ input: 1000, output: 200, total: 1200 });
    // gpt-5-mini: 0.25 and 2 USD per million tokens.
    expect(first.usage!.cost).toBeCloseTo(1000 * 0.25e-6 + 200 * 2e-6, 10);
    expect(first.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(first.duration_ms).toBeGreaterThanOrEqual(0);
    expect(first.ended_at).not.toBeNull();
    expect(first.agent.references).toMatchObject({ workflow_variant: { id: a.variantId } });
    expect(runs.map((r) => r.origin)).toEqual(["invoke", "invoke", "invoke"]);
    expect(runs[1].stop_reason).toBe("error");
    expect(runs[1].error).toBeTruthy();
  });

  it("filters by status and pages with the cursor, without gaps or repeats", async () => {
    const caller = callerFor(a.owner);
    const failed = await caller.runs.list({ agentId: a.agentId, status: ["failed"] });
    expect(failed.runs.map((r) => r.session_id)).toEqual(["s-failed"]);
    const either = await caller.runs.list({ agentId: a.agentId, status: ["failed", "running"] });
    expect(either.runs.map((r) => r.session_id)).toEqual(["s-failed"]);
    expect((await caller.runs.list({ agentId: a.agentId, status: ["paused"] })).runs).toEqual([]);

    const page1 = await caller.runs.list({ agentId: a.agentId, limit: 2 });
    expect(page1.runs.map((r) => r.session_id)).toEqual(["s-third", "s-failed"]);
    expect(page1.next).toBe(page1.runs[1].id);
    const page2 = await caller.runs.list({ agentId: a.agentId, limit: 2, cursor: page1.next, direction: "forward" });
    expect(page2.runs.map((r) => r.session_id)).toEqual(["s-first"]);
    expect(page2.next).toBeNull();
  });

  it("is scoped to the caller's project: another project's agent id lists nothing, and its runs stay its own", async () => {
    model.script({ kind: "reply", text: "Theirs." });
    expect((await turn(b, "s-b")).status).toBe(200);
    expect((await callerFor(a.owner).runs.list({ agentId: b.agentId })).runs).toEqual([]);
    expect((await callerFor(b.owner).runs.list({ agentId: b.agentId })).runs.map((r) => r.session_id)).toEqual(["s-b"]);
    expect((await callerFor(b.owner).runs.list({ agentId: a.agentId })).runs).toEqual([]);
  });

  it("a viewer may read; nobody signed in may not; bad input is refused", async () => {
    const viewer: Principal = { ...a.owner, role: "viewer" };
    expect((await callerFor(viewer).runs.list({ agentId: a.agentId })).runs).toHaveLength(3);

    const refused = async (promise: Promise<unknown>) => {
      const error = await promise.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TRPCError);
      return (error as TRPCError).code;
    };
    expect(await refused(callerFor().runs.list({ agentId: a.agentId }))).toBe("UNAUTHORIZED");
    expect(await refused(callerFor(a.owner).runs.list({ agentId: "not-a-uuid" }))).toBe("UNPROCESSABLE_CONTENT");
    expect(await refused(callerFor(a.owner).runs.list({ agentId: a.agentId, status: ["done" as "finished"] }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
    expect(await refused(callerFor(a.owner).runs.list({ agentId: a.agentId, limit: 1000 }))).toBe(
      "UNPROCESSABLE_CONTENT",
    );
  });
});

describe("the playground's runs in an agent's list", () => {
  let server: RunningServer;
  let person: HttpClient;
  let agentId: string;
  let variantId: string;
  let otherAgentId: string;

  beforeAll(async () => {
    server = await serveOverHttp(t);
    person = new HttpClient(server.origin);
    const signedUp = await person.send("POST", "/api/accounts/owner", {
      body: { name: "Ada", email: "ada-runs@example.com", password: "correct horse battery" },
    });
    expect(signedUp.status).toBe(201);
    const created = await person.mutate("agents.create", { name: "Drafted" });
    agentId = created.data.agent.id;
    variantId = created.data.variant.id;
    await person.mutate("agents.commit", {
      variantId,
      template: { llm: { provider: "openai", model: "gpt-5-mini" } },
      message: "plain",
    });
    otherAgentId = (await person.mutate("agents.create", { name: "Elsewhere" })).data.agent.id;
  });
  afterAll(async () => {
    await server.close();
  });

  const draft = { llm: { provider: "openai", model: "gpt-5-mini" } };
  const userMessage = (text: string) => ({ id: `u-${text}`, role: "user", parts: [{ type: "text", text }] });
  /** A chat turn as the editor's chat sends it: the session stored under its agent, then the turn. */
  async function chatTurn(sessionId: string, owner: string, target: { agent?: object; variantId?: string }) {
    await person.mutate("chatSessions.save", { id: sessionId, agentId: owner, messages: [userMessage(sessionId)] });
    const r = await person.send("POST", "/api/playground/invoke", {
      body: {
        session_id: sessionId,
        ...(target.variantId ? { references: { workflow_variant: { id: target.variantId } } } : {}),
        data: {
          inputs: { messages: [userMessage(sessionId)] },
          ...(target.agent ? { parameters: { agent: target.agent } } : {}),
        },
      },
      headers: { "x-svc-messages-format": "ui_sdk" },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
  /** The agent's runs, once every run this process drives has recorded its end (awaited). */
  async function listed(id: string) {
    await runsRecorded(t.context);
    const { runs } = (await person.query("runs.list", { agentId: id })).data as { runs: RunWire[] };
    expect(runs.filter((run) => run.status === "running")).toEqual([]);
    return runs;
  }

  it("lists the draft chat's runs (inline template, no agent id) beside the committed ones, by origin", async () => {
    model.script({ kind: "reply", text: "Draft answer." });
    await chatTurn("draft-session", agentId, { agent: draft });
    model.script({ kind: "reply", text: "Committed answer." });
    await chatTurn("variant-session", agentId, { variantId });
    // Not drafts of this agent: another agent's draft chat, and an inline run over the API.
    model.script({ kind: "reply", text: "Other draft." });
    await chatTurn("other-draft", otherAgentId, { agent: draft });
    const apiKey = (await person.mutate("apiKeys.create", { name: "script" })).data;
    model.script({ kind: "reply", text: "Over the API." });
    const overApi = await t.call("POST", "/services/agent/v0/invoke", {
      key: apiKey.key,
      body: { session_id: "draft-session", data: { inputs, parameters: { agent: draft } } },
    });
    expect(overApi.status).toBe(200);

    const runs = await listed(agentId);
    expect(runs.map((run) => [run.session_id, run.origin, run.agent.references === null])).toEqual([
      ["variant-session", "playground", false],
      ["draft-session", "playground", true],
    ]);
    expect(runs[1]).toMatchObject({ status: "finished", parent_run_id: null });
    expect((await listed(otherAgentId)).map((run) => run.session_id)).toEqual(["other-draft"]);
  });
});
