import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOfTrace } from "@/server/chat-sessions";
import { runsRecorded } from "../helpers/after-runs";
import { HttpClient } from "../helpers/http-client";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let server: RunningServer;
let model: ScriptedModelServer;
let owner: HttpClient;
let viewer: HttpClient;
let agentId: string;
let variantId: string;

const userMessage = (id: string, text: string) => ({ id, role: "user", parts: [{ type: "text", text }] });
const assistantMessage = (id: string, text: string) => ({
  id,
  role: "assistant",
  parts: [{ type: "step-start" }, { type: "text", text, state: "done" }],
});

beforeAll(async () => {
  model = await startScriptedModelServer();
  t = await createTestApp({ providerEnv: { openai: { key: "sk-sessions", baseUrl: model.baseUrl } } });
  server = await serveOverHttp(t);
  owner = new HttpClient(server.origin);
  expect(
    (
      await owner.send("POST", "/api/accounts/owner", {
        body: { name: "Ada", email: "ada@example.com", password: "correct horse battery" },
      })
    ).status,
  ).toBe(201);
  const invite = await owner.mutate("members.invite", { role: "viewer" });
  viewer = new HttpClient(server.origin);
  expect(
    (
      await viewer.send("POST", "/api/accounts/sign-up", {
        body: {
          name: "Vi",
          email: "vi@example.com",
          password: "another long password",
          invite_token: invite.data.token,
        },
      })
    ).status,
  ).toBe(201);
  const created = await owner.mutate("agents.create", { name: "Session keeper" });
  agentId = created.data.agent.id;
  variantId = created.data.variant.id;
});
afterAll(async () => {
  await server.close();
  await t.close();
  await model.close();
});

describe("chat sessions, kept per agent on the server", () => {
  it("a saved session is listed under its agent, named by its first message, and reopens with its messages", async () => {
    const messages = [userMessage("u1", "  What is the\ncapital of France?  "), assistantMessage("a1", "Paris.")];
    const saved = await owner.mutate("chatSessions.save", { id: "s-first", agentId, variantId, messages });
    expect(saved.status).toBe(200);
    expect(saved.data).toMatchObject({ id: "s-first", title: "What is the capital of France?", messageCount: 2 });

    // The next turn replaces the messages; the list puts the most recent first.
    await owner.mutate("chatSessions.save", { id: "s-second", agentId, messages: [userMessage("u9", "Another chat")] });
    const longer = [...messages, userMessage("u2", "And Spain?"), assistantMessage("a2", "Madrid.")];
    expect(
      (await owner.mutate("chatSessions.save", { id: "s-first", agentId, variantId, messages: longer })).status,
    ).toBe(200);

    const list = await owner.query("chatSessions.list", { agentId });
    expect(list.data.map((s: { id: string }) => s.id)).toEqual(["s-first", "s-second"]);
    expect(list.data[0]).toMatchObject({ messageCount: 4, variantId });
    expect(list.data[0]).not.toHaveProperty("messages");

    const reopened = await owner.query("chatSessions.get", { id: "s-first" });
    expect(reopened.data.messages).toEqual(longer);
  });

  it("viewers read sessions but cannot save them; unknown agents, bad ids and oversized sessions are clear 4xx", async () => {
    expect((await viewer.query("chatSessions.list", { agentId })).data).toHaveLength(2);
    expect((await viewer.query("chatSessions.get", { id: "s-first" })).data.title).toBe(
      "What is the capital of France?",
    );
    expect(
      (await viewer.mutate("chatSessions.save", { id: "s-viewer", agentId, messages: [userMessage("u", "hi")] }))
        .status,
    ).toBe(403);

    const unknownAgent = await owner.mutate("chatSessions.save", {
      id: "s-x",
      agentId: "0190f0f0-0000-7000-8000-000000000000",
      messages: [userMessage("u", "hi")],
    });
    expect(unknownAgent.status).toBe(404);
    expect(unknownAgent.error?.message).toContain("not found");

    const badId = await owner.mutate("chatSessions.save", {
      id: "has spaces/slash",
      agentId,
      messages: [userMessage("u", "hi")],
    });
    expect(badId.status).toBe(422);

    const huge = await owner.mutate("chatSessions.save", {
      id: "s-huge",
      agentId,
      messages: [userMessage("u", "x".repeat(2_100_000))],
    });
    expect(huge.status).toBe(400);
    expect(huge.error?.message).toContain("at most 2000000");

    expect((await owner.query("chatSessions.get", { id: "never-saved" })).data).toBeNull();
  });

  it("another project sees none of them", async () => {
    expect((await owner.mutate("account.createProject", { name: "Elsewhere" })).status).toBe(200);
    expect((await owner.query("chatSessions.get", { id: "s-first" })).data).toBeNull();
    expect((await owner.query("chatSessions.list", { agentId })).data).toEqual([]);
    expect(
      (await owner.mutate("chatSessions.save", { id: "s-first", agentId, messages: [userMessage("u", "hijack")] }))
        .status,
    ).toBe(404);
  });
});

describe("a run read back from its trace", () => {
  it("gives its session, agent references and conversation (user text, the model's reply, the tool call) in the chat's message shape", async () => {
    const fresh = owner;
    const agent = (await fresh.mutate("agents.create", { name: "Tracer" })).data;
    const template = {
      llm: { provider: "openai", model: "gpt-5-mini" },
      tools: [
        {
          type: "client",
          name: "pick_color",
          description: "Ask the user",
          input_schema: { type: "object", properties: { hint: { type: "string" } } },
        },
      ],
    };
    const commit = await fresh.mutate("agents.commit", {
      variantId: agent.variant.id,
      template,
      message: "with a client tool",
    });
    expect(commit.status).toBe(200);

    model.script({
      kind: "reply",
      text: "Let me ask.",
      toolCalls: [{ id: "call_7", name: "pick_color", input: { hint: "warm" } }],
    });
    const body = {
      session_id: "s-traced",
      flags: { stream: true },
      references: { workflow_variant: { id: agent.variant.id } },
      data: { inputs: { messages: [userMessage("u1", "Pick a colour")] } },
    };
    const r = await fresh.send("POST", "/api/playground/invoke", {
      body,
      headers: { "x-svc-messages-format": "ui_sdk", accept: "text/event-stream" },
    });
    expect(r.status).toBe(200);
    const finish = String(r.body)
      .split("\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => JSON.parse(l.slice(6)))
      .find((f) => f.type === "finish");
    const traceId = finish.messageMetadata.traceId as string;

    await runsRecorded(t.context);
    const trace: Parameters<typeof runOfTrace>[0] | undefined = (await fresh.query("traces.get", { traceId })).data
      ?.trace;
    expect(trace, `trace ${traceId}`).toBeDefined();
    const run = runOfTrace(trace!);
    expect(run).toMatchObject({
      traceId,
      sessionId: "s-traced",
      agentId: agent.agent.id,
      variantId: agent.variant.id,
      revisionId: commit.data.revision.id,
    });
    expect(run!.messages).toEqual([
      { id: "trace-in-0", role: "user", parts: [{ type: "text", text: "Pick a colour" }] },
      {
        id: "trace-out",
        role: "assistant",
        parts: [
          { type: "step-start" },
          { type: "text", text: "Let me ask.", state: "done" },
          { type: "tool-pick_color", toolCallId: "call_7", state: "input-available", input: { hint: "warm" } },
        ],
      },
    ]);
  });
});
