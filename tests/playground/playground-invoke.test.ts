import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveRunRowsWritten } from "@/server/agent-runs";
import { tables } from "@/server/db";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { HttpClient } from "../helpers/http-client";
import { within } from "../helpers/within";

let t: TestApp;
let server: RunningServer;
let model: ScriptedModelServer;
let owner: HttpClient;

const agent = { llm: { provider: "openai", model: "gpt-5-mini" }, tools: [] };
const body = {
  session_id: "chat-1",
  flags: { stream: true },
  data: {
    inputs: { messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] }] },
    parameters: { agent },
  },
};
const uiHeaders = { "x-svc-messages-format": "ui_sdk", accept: "text/event-stream" };

beforeAll(async () => {
  model = await startScriptedModelServer();
  t = await createTestApp({ providerEnv: { openai: { key: "sk-playground", baseUrl: model.baseUrl } } });
  server = await serveOverHttp(t);
  owner = new HttpClient(server.origin);
  const created = await owner.send("POST", "/api/accounts/owner", {
    body: { name: "Ada", email: "ada@example.com", password: "correct horse battery" },
  });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await server.close();
  await t.close();
  await model.close();
});

describe("POST /api/playground/invoke", () => {
  it("streams a UI message turn for the signed-in user, with the trace id in the finish part", async () => {
    model.script({ kind: "reply", text: "Hello from the model." });
    const r = await owner.send("POST", "/api/playground/invoke", { body, headers: uiHeaders });
    expect(r.status).toBe(200);
    const frames = String(r.body)
      .split("\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => JSON.parse(l.slice(6)));
    expect(
      frames
        .filter((f) => f.type === "text-delta")
        .map((f) => f.delta)
        .join(""),
    ).toBe("Hello from the model.");
    expect(frames.at(-1)).toMatchObject({
      type: "finish",
      messageMetadata: { traceId: expect.stringMatching(/^[0-9a-f]{32}$/) },
    });
  });

  it("refuses a visitor without a session with 401, before the model is called", async () => {
    const before = model.requests.length;
    const r = await new HttpClient(server.origin).send("POST", "/api/playground/invoke", { body, headers: uiHeaders });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("not_signed_in");
    expect(model.requests.length).toBe(before);
  });

  it("refuses a cross-site page riding on the cookie", async () => {
    const r = await owner.send("POST", "/api/playground/invoke", {
      body,
      headers: uiHeaders,
      origin: "https://evil.example",
    });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("cross_site_request");
  });

  it("refuses a viewer: running the model is a change", async () => {
    const invite = await owner.mutate("members.invite", { role: "viewer" });
    const viewer = new HttpClient(server.origin);
    const created = await viewer.send("POST", "/api/accounts/sign-up", {
      body: { name: "Vi", email: "vi@example.com", password: "another long password", invite_token: invite.data.token },
    });
    expect(created.status).toBe(201);
    const r = await viewer.send("POST", "/api/playground/invoke", { body, headers: uiHeaders });
    expect(r.status).toBe(403);
  });

  it("names the field of a bad body with 422", async () => {
    const r = await owner.send("POST", "/api/playground/invoke", {
      body: { session_id: "bad id!" },
      headers: uiHeaders,
    });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].path).toBe("session_id");
  });

  it("resumes a running turn for the signed-in user (useChat resume: true), 204 once nothing runs, and Stop cancels it", async () => {
    const deltas = (text: string) =>
      text
        .split("\n")
        .filter((l) => l.startsWith("data: {"))
        .map((l) => JSON.parse(l.slice(6)))
        .filter((f) => f.type === "text-delta")
        .map((f) => f.delta)
        .join("");
    model.script({ kind: "reply", text: "slowly but surely", chunks: 6, frameDelayMs: 80 });
    const sent = owner.send("POST", "/api/playground/invoke", {
      body: { ...body, session_id: "chat-resume" },
      headers: uiHeaders,
    });
    await model.nextRequest();
    const resumed = await owner.send("GET", "/api/playground/invoke/chat-resume/stream");
    expect(resumed.status).toBe(200);
    expect(String(resumed.body)).toMatch(/data: \[DONE\]\n\n$/);
    expect(deltas(String(resumed.body))).toBe("slowly but surely");
    expect(deltas(String((await sent).body))).toBe("slowly but surely");
    expect((await owner.send("GET", "/api/playground/invoke/chat-resume/stream")).status).toBe(204);

    model.script({ kind: "hang" });
    const hanging = owner.send("POST", "/api/playground/invoke", {
      body: { ...body, session_id: "chat-stop" },
      headers: uiHeaders,
    });
    await model.nextRequest();
    // The run's row is written with its first event batch, a few milliseconds after the start: written now.
    await within(5_000, "the running run's row", liveRunRowsWritten(t.context.db));
    const [run] = await t.context.db
      .select({ id: tables.agentRuns.id })
      .from(tables.agentRuns)
      .where(eq(tables.agentRuns.sessionId, "chat-stop"));
    expect(run, "the run of chat-stop").toBeDefined();
    const stopped = await owner.send("POST", `/api/playground/runs/${run.id}/cancel`);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ id: run.id, status: "cancelled" });
    await hanging;
  });
});
