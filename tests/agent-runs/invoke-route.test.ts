import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { checkUiChunks, ndjsonData, sseData } from "../helpers/ui-stream-check";
import { checkNativeRules } from "../helpers/invoke-client";

let app: TestApp;
let model: ScriptedModelServer;
let key: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  const base = loadConfig({});
  app = await createTestApp({
    providerEnv: { openai: { key: "sk-route", baseUrl: model.baseUrl } },
    agentRuns: { ...base.agentRuns, firstTokenMs: 400, keepaliveMs: 40 },
  });
  ({ key } = await app.newProject());
});
afterAll(async () => {
  await app.close();
  await model.close();
});

const inline = (
  agent: unknown = { llm: { provider: "openai", model: "gpt-5-mini" }, tools: [] },
  messages: unknown[] = [{ role: "user", content: "hi" }],
) => ({
  data: { inputs: { messages }, parameters: { agent } },
});
const invoke = (body: unknown, headers: Record<string, string> = {}) =>
  app.call("POST", "/services/agent/v0/invoke", { key, body, headers });

describe("negotiation and errors before the first byte", () => {
  it("refuses an Accept it does not serve with 406 and a bad messages format with 400, as JSON", async () => {
    const res = await invoke(inline(), { accept: "text/html" });
    expect(res.status).toBe(406);
    expect(res.body).toMatchObject({ code: "not_acceptable" });
    const bad = await invoke(inline(), { accept: "text/event-stream", "x-svc-messages-format": "vercel" });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toContain("application/json");
    expect(bad.body.detail).toContain("x-svc-messages-format");
  });

  it("needs a key", async () => {
    const res = await app.call("POST", "/services/agent/v0/invoke", {
      body: inline(),
      headers: { accept: "text/event-stream" },
    });
    expect(res.status).toBe(401);
  });

  it("validates an inline template exactly as a commit does: 400 invalid_agent_template with every path", async () => {
    const res = await invoke(inline({ model: "gpt-5", harness: "core_harness" }), { accept: "text/event-stream" });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("invalid_agent_template");
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "data.parameters.agent.harness",
      "data.parameters.agent.model",
    ]);
  });

  it("names the field of a malformed body and of a bad session id", async () => {
    const res = await invoke({ ...inline(), session_id: "has spaces" });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].path).toBe("session_id");
    const blocks = await invoke(inline(undefined, [{ role: "user", content: [{ type: "video" }] }]));
    expect(blocks.status).toBe(400);
    expect(blocks.body.detail).toContain("data.inputs.messages[0].content[0].type");
    const none = await invoke(inline(undefined, [{ content: "no role" }]));
    expect(none.status).toBe(400);
    expect(none.body.code).toBe("no_messages");
  });

  it("refuses what this deployment cannot run, before streaming", async () => {
    // A gateway tool without a configured gateway provider is refused, naming the variable to set.
    const gateway = await invoke(
      inline({
        llm: { provider: "openai", model: "gpt-5-mini" },
        tools: [{ type: "gateway", provider: "composio", integration: "gmail", action: "SEND_EMAIL", connection: "c" }],
      }),
      { accept: "text/event-stream" },
    );
    expect(gateway.status).toBe(400);
    expect(gateway.body).toMatchObject({ code: "gateway_not_configured" });
    expect(gateway.body.detail).toContain('gateway tool "gmail/SEND_EMAIL"');
    expect(gateway.body.detail).toContain("COMPOSIO_API_KEY");
    const external = await invoke(
      inline({ llm: { provider: "openai", model: "gpt-5-mini" }, tools: [], harness: { kind: "external_harness" } }),
    );
    expect(external.status).toBe(400);
    expect(external.body.code).toBe("harness_not_enabled");
    expect(external.body.detail).toContain("EXTERNAL_HARNESS=enabled");
    const noKey = await invoke(inline({ llm: { provider: "anthropic", model: "claude-haiku-4-5" }, tools: [] }), {
      accept: "text/event-stream",
    });
    expect(noKey.status).toBe(400);
    expect(noKey.body.detail).toContain('model "claude-haiku-4-5"');
    expect(noKey.body.detail).toContain("ANTHROPIC_API_KEY");
    const inferred = await invoke(inline({ llm: { model: "mystery-model" }, tools: [] }));
    expect(inferred.body.code).toBe("unresolved_provider");
    const daytona = await invoke(
      inline({ llm: { provider: "openai", model: "gpt-5-mini" }, tools: [], sandbox: { kind: "daytona_sandbox" } }),
    );
    expect(daytona.status).toBe(403);
  });
});

describe("references", () => {
  it("runs a committed agent by revision id, by workflow slug, and reports unknown (404) and ambiguous (400) references", async () => {
    model.script({ kind: "reply", text: "from the revision" });
    const created = await app.call("POST", "/api/workflows/", {
      key,
      body: {
        workflow: {
          slug: "greeter",
          name: "Greeter",
          data: {
            parameters: {
              agent: {
                instructions: { agents_md: "Greet in French." },
                llm: { model: "openai/gpt-5-mini" },
                tools: [],
              },
            },
          },
        },
      },
    });
    expect(created.status).toBe(200);
    const revisionId = created.body.workflow_revision.id;
    const byId = await invoke({
      references: { workflow_revision: { id: revisionId } },
      data: { inputs: { messages: [{ role: "user", content: "hi" }] } },
    });
    expect(byId.status).toBe(200);
    expect(byId.body.data.outputs.messages).toEqual([{ role: "assistant", content: "from the revision" }]);
    expect(model.requests.at(-1)!.body.input[0].content).toContain("Greet in French.");
    const bySlug = await invoke({
      references: { workflow: { slug: "greeter" } },
      data: { inputs: { messages: [{ role: "user", content: "hi" }] } },
    });
    expect(bySlug.status).toBe(200);
    const unknown = await invoke(
      {
        references: { workflow: { slug: "nobody" } },
        data: { inputs: { messages: [{ role: "user", content: "hi" }] } },
      },
      { accept: "text/event-stream" },
    );
    expect(unknown.status).toBe(404);
    const ambiguous = await invoke({
      references: { workflow_revision: { version: "2" } },
      data: { inputs: { messages: [{ role: "user", content: "hi" }] } },
    });
    expect(ambiguous.status).toBe(400);
    const missing = await invoke({ data: { inputs: { messages: [{ role: "user", content: "hi" }] } } });
    expect(missing.body.code).toBe("missing_agent");
  });
});

describe("flags.resolve", () => {
  it("resolves embeds in the template by default, and with resolve: false names the unresolved embed", async () => {
    const prompts = await app.call("POST", "/api/workflows/", {
      key,
      body: {
        workflow: {
          slug: "house-style",
          name: "House style",
          data: { parameters: { style: "Answer like a pirate." } },
        },
      },
    });
    expect(prompts.status).toBe(200);
    const embedded = {
      llm: { provider: "openai", model: "gpt-5-mini" },
      tools: [],
      instructions: {
        agents_md: {
          "@svc.embed": {
            "@svc.references": { workflow: { slug: "house-style" } },
            "@svc.selector": { path: "parameters.style" },
          },
        },
      },
    };
    model.script({ kind: "reply", text: "Arr." });
    const resolved = await invoke(inline(embedded));
    expect(resolved.status).toBe(200);
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain("Answer like a pirate.");

    const raw = await invoke({ ...inline(embedded), flags: { resolve: false } });
    expect(raw.status).toBe(400);
    expect(raw.body.code).toBe("invalid_agent_template");
    expect(raw.body.errors.map((e: { path: string }) => e.path)).toContain(
      "data.parameters.agent.instructions.agents_md",
    );
  });
});

describe("the run", () => {
  it("echoes a given session id, continues an incoming traceparent, and stream defaults to SSE with flags.stream", async () => {
    model.script({ kind: "reply", text: "ok" });
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const res = await invoke(
      { ...inline(), session_id: "chat:42", flags: { stream: true } },
      { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, "x-svc-messages-format": "ui_sdk" },
    );
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.headers.get("x-svc-session-id")).toBe("chat:42");
    expect(res.headers.get("x-svc-trace-id")).toBe(traceId);
    expect(res.headers.get("traceparent")).toMatch(new RegExp(`^00-${traceId}-(?!00f067aa0ba902b7)[0-9a-f]{16}-01$`));
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    const { frames } = sseData(res.body);
    await checkUiChunks(frames);
    expect(frames[0]).toMatchObject({ type: "start", messageMetadata: { sessionId: "chat:42" } });
    expect(frames.at(-1)).toMatchObject({ type: "finish", messageMetadata: { traceId } });
    model.script({ kind: "reply", text: "ok" });
    const batch = await invoke({ ...inline(), session_id: "chat:42" }, { "x-svc-messages-format": "native" });
    expect(batch.body).toMatchObject({
      version: "2025.07.14",
      status: { code: 200, message: "Success" },
      session_id: "chat:42",
    });
    expect(batch.body.span_id).toMatch(/^[0-9a-f]{16}$/);
    expect(batch.headers.get("traceparent")).toContain(batch.body.span_id);
    // A turn that failed after it began says so in its status, not only in data.outputs.errors.
    model.script({ kind: "error-event", text: "partial" });
    const failed = await invoke(inline());
    expect(failed.status).toBe(200);
    expect(failed.body.data.outputs.errors?.length).toBeGreaterThan(0);
    expect(failed.body.status).toEqual({ code: 500, message: failed.body.data.outputs.errors[0] });
    // A client that keeps its session in a header (the body has none) stays in it.
    model.script({ kind: "reply", text: "ok" });
    const byHeader = await invoke(inline(), { "x-svc-session-id": "chat:43" });
    expect(byHeader.headers.get("x-svc-session-id")).toBe("chat:43");
    expect(byHeader.body).toMatchObject({ session_id: "chat:43" });
    const forced = await invoke(inline(), { "x-svc-session-control": "force" });
    expect(forced.status).toBe(406);
    expect(forced.body).toMatchObject({ code: "force_not_supported", detail: "flags.force is not supported yet" });
  });

  it("builds the system prompt from the base prompt (or extras.system), AGENTS.md and append_system, and passes llm.extras", async () => {
    model.script({ kind: "reply", text: "ok" });
    await invoke(
      inline({
        instructions: { agents_md: "Always answer in haiku." },
        llm: { provider: "openai", model: "gpt-5-mini", extras: { reasoning_effort: "low" } },
        harness: { extras: { system: "You are Basho.", append_system: "Sign with a brush." } },
        tools: [],
      }),
    );
    const sent = model.requests.at(-1)!.body;
    expect(sent.input[0]).toEqual({
      role: "developer",
      content: "You are Basho.\n\n# AGENTS.md\n\nAlways answer in haiku.\n\nSign with a brush.",
    });
    expect(sent.reasoning).toEqual({ effort: "low" });
    expect(sent.input.at(-1)).toEqual({ role: "user", content: [{ type: "input_text", text: "hi" }] });
  });

  it("keeps an idle SSE stream alive with comments and stops a model that never answers at the first-token limit", async () => {
    model.script({ kind: "hang" });
    const res = await invoke(inline(), { accept: "text/event-stream" });
    const { frames, comments } = sseData(res.body);
    expect(comments.length).toBeGreaterThan(0);
    expect(comments[0]).toBe(": keepalive");
    const events = (frames as Array<{ type: string; data: any }>).map((f) => ({ type: f.type, ...f.data }));
    checkNativeRules(events as never);
    expect(events.find((e) => e.type === "error")?.message).toContain("AGENT_FIRST_TOKEN_TIMEOUT_MS");
    expect(events.at(-1)).toMatchObject({ type: "done", stopReason: "error" });
  });

  it("a user who writes on instead of answering a client tool gets a reply, not an error", async () => {
    model.script({ kind: "reply", text: "Hi again." });
    const messages = [
      { id: "u1", role: "user", parts: [{ type: "text", text: "pick a colour" }] },
      {
        id: "a1",
        role: "assistant",
        parts: [{ type: "tool-pick", toolCallId: "call_p", state: "input-available", input: {} }],
      },
      { id: "u2", role: "user", parts: [{ type: "text", text: "never mind, just say hi" }] },
    ];
    const res = await invoke(
      inline({ llm: { provider: "openai", model: "gpt-5-mini" }, tools: [{ type: "client", name: "pick" }] }, messages),
      { "x-svc-messages-format": "ui_sdk" },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.outputs.stop_reason).toBe("stop");
    expect(JSON.stringify(model.requests.at(-1)!.body.input)).not.toContain("call_p");
  });

  it("NDJSON lines carry the same native frames", async () => {
    model.script({ kind: "reply", text: "line by line" });
    const res = await invoke(inline(), { accept: "application/jsonl" });
    expect(res.headers.get("content-type")).toBe("application/x-ndjson");
    const lines = ndjsonData(res.body) as Array<{ type: string }>;
    expect(lines.map((l) => l.type)).toEqual([
      "message_start",
      "message_delta",
      "message_delta",
      "message_delta",
      "message_end",
      "usage",
      "done",
    ]);
  });
});
