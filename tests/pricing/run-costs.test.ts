import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { attribute, traceSpans, type SpanNode } from "../helpers/run-trace";
import { startScriptedModelServer, type Script, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { sseData } from "../helpers/ui-stream-check";

/**
 * One turn's cost is one number: the chat's finish metadata, the run record and the trace's model
 * calls agree, each model call costed per usage kind with the project's prices, else the catalog's.
 * Expected costs are worked out by hand from the catalog's list prices (USD per million tokens).
 */
let app: TestApp;
let model: ScriptedModelServer;
let key: string;
const M = 1_000_000;

beforeAll(async () => {
  model = await startScriptedModelServer();
  const { egressAllowlist } = loadConfig({ EGRESS_ALLOWLIST: "127.0.0.1" });
  app = await createTestApp({
    egressAllowlist,
    providerEnv: {
      openai: { key: "sk-openai-env", baseUrl: model.baseUrl },
      anthropic: { key: "sk-anthropic-env", baseUrl: model.baseUrl },
    },
  });
  ({ key } = await app.newProject());
});
afterAll(async () => {
  await app.close();
  await model.close();
});

interface Turn {
  chat: { input: number; output: number; total: number; cost?: number };
  run: { input: number; output: number; total: number; cost?: number };
  calls: SpanNode[];
  traceId: string;
  runId: string;
}

let sessions = 0;

/** One UI-stream turn: what the chat footer reads, the run record, and the trace's model calls. */
async function turn(
  agent: object,
  script: Script,
  sessionId = `cost-${++sessions}`,
  messages?: unknown[],
): Promise<Turn> {
  model.script(script);
  const res = await app.call("POST", "/services/agent/v0/invoke", {
    key,
    headers: { accept: "text/event-stream", "x-svc-messages-format": "ui_sdk" },
    body: {
      session_id: sessionId,
      data: {
        inputs: { messages: messages ?? [{ id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] }] },
        parameters: { agent: { tools: [], ...agent } },
      },
    },
  });
  expect(res.status).toBe(200);
  const finish = sseData(res.body).frames.findLast((f: any) => f.type === "finish") as any;
  const runId = res.headers.get("x-svc-run-id")!;
  const traceId = res.headers.get("x-svc-trace-id")!;
  const spans = await traceSpans(app, key, traceId, 3);
  const run = await app.call("GET", `/services/agent/v0/runs/${runId}`, { key });
  return {
    chat: finish.messageMetadata.usage,
    run: run.body.run.usage,
    calls: spans.filter((s) => s.span_name.startsWith("chat ")),
    traceId,
    runId,
  };
}

const costsOf = (span: SpanNode) => attribute(span, "ag.metrics.costs.incremental") as Record<string, number>;

describe("agent runs cost each model call per usage kind", () => {
  const claude = { llm: { provider: "anthropic", model: "claude-sonnet-4-5" } };

  it("an Anthropic turn that writes the cache (5-minute and 1-hour), then one that reads it", async () => {
    // claude-sonnet-4-5: input 3, 5-minute write 3.75, 1-hour write 6, cache read 0.30, output 15.
    const write = await turn(claude, {
      kind: "reply",
      text: "Cached.",
      usage: { input: 5000, output: 200, cacheWrite: 3000, cacheWrite1h: 1000 },
    });
    const writeCost = (1000 * 3 + 3000 * 3.75 + 1000 * 6 + 200 * 15) / M;
    expect(write.chat.cost).toBeCloseTo(writeCost, 12);
    expect(write.run.cost).toBeCloseTo(writeCost, 12);
    expect(write.chat).toMatchObject({ input: 5000, output: 200, total: 5200 });
    expect(attribute(write.calls[0], "ag.metrics.tokens.incremental")).toEqual({
      prompt: 5000,
      completion: 200,
      total: 5200,
      cache_write: 3000,
      cache_write_1h: 1000,
    });
    expect(costsOf(write.calls[0])).toEqual({
      prompt: expect.closeTo((1000 * 3) / M, 12),
      cache_write: expect.closeTo((3000 * 3.75) / M, 12),
      cache_write_1h: expect.closeTo((1000 * 6) / M, 12),
      completion: expect.closeTo((200 * 15) / M, 12),
      total: expect.closeTo(writeCost, 12),
    });
    expect(attribute(write.calls[0], "ag.meta.pricing")).toEqual({
      source: "catalog",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
    });

    const read = await turn(claude, {
      kind: "reply",
      text: "From the cache.",
      usage: { input: 5100, output: 300, cacheRead: 4000 },
    });
    const readCost = (1100 * 3 + 4000 * 0.3 + 300 * 15) / M;
    expect(read.chat.cost).toBeCloseTo(readCost, 12);
    expect(read.run.cost).toBeCloseTo(readCost, 12);
    expect(costsOf(read.calls[0])).toMatchObject({
      cache_read: expect.closeTo((4000 * 0.3) / M, 12),
      total: expect.closeTo(readCost, 12),
    });
  });

  it("an OpenAI reasoning model with cached input (Responses API)", async () => {
    // gpt-5-mini: input 0.25, cached input 0.025, output 2 (reasoning is output).
    const t = await turn(
      { llm: { provider: "openai", model: "gpt-5-mini" } },
      { kind: "reply", text: "Thought it over.", usage: { input: 4000, output: 900, cacheRead: 2048, reasoning: 600 } },
    );
    const cost = (1952 * 0.25 + 2048 * 0.025 + 300 * 2 + 600 * 2) / M;
    expect(t.chat.cost).toBeCloseTo(cost, 12);
    expect(t.run.cost).toBeCloseTo(cost, 12);
    expect(costsOf(t.calls[0])).toEqual({
      prompt: expect.closeTo((1952 * 0.25) / M, 12),
      cache_read: expect.closeTo((2048 * 0.025) / M, 12),
      completion: expect.closeTo((300 * 2) / M, 12),
      reasoning: expect.closeTo((600 * 2) / M, 12),
      total: expect.closeTo(cost, 12),
    });
  });

  it("a vendor's model name behind a custom provider has no price until the project sets one; then chat, run and trace agree", async () => {
    const custom = await app.call("POST", "/api/vault/v1/secrets/", {
      key,
      body: {
        header: { name: "Gateway" },
        secret: {
          kind: "custom_provider",
          data: { kind: "custom", provider: { url: model.baseUrl }, models: [{ slug: "gpt-4o" }] },
        },
      },
    });
    expect(custom.status).toBe(201);
    const viaGateway = { llm: { model: "gpt-4o", connection: { slug: custom.body.secret.slug } } };
    const usage = { input: 1000, output: 100 };

    const unpriced = await turn(viaGateway, { kind: "reply", text: "hi", usage });
    expect(unpriced.chat).toEqual({ input: 1000, output: 100, total: 1100 });
    expect(unpriced.run.cost).toBeUndefined();
    expect(attribute(unpriced.calls[0], "ag.metrics.costs")).toBeUndefined();
    expect(attribute(unpriced.calls[0], "ag.meta.pricing")).toMatchObject({
      source: "none",
      reason: expect.stringContaining("custom endpoint"),
    });

    const set = await app.call("PUT", "/api/pricing/prices", {
      key,
      body: { provider: "custom", model: "gpt-4o", usd_per_million_tokens: { prompt: 0.4, completion: 1.6 } },
    });
    expect(set.status).toBe(200);
    const priced = await turn(viaGateway, { kind: "reply", text: "hi", usage });
    const cost = (1000 * 0.4 + 100 * 1.6) / M;
    expect(priced.chat.cost).toBeCloseTo(cost, 12);
    expect(priced.run.cost).toBeCloseTo(cost, 12);
    expect(costsOf(priced.calls[0]).total).toBeCloseTo(cost, 12);
    expect(attribute(priced.calls[0], "ag.meta.pricing")).toMatchObject({ source: "project" });
  });

  it("an OpenAI connection at a custom URL is not priced at OpenAI's list price", async () => {
    const own = await app.call("POST", "/api/vault/v1/secrets/", {
      key,
      body: {
        header: { name: "Proxy" },
        secret: { kind: "provider_key", data: { kind: "openai", provider: { key: "sk-proxy", url: model.baseUrl } } },
      },
    });
    expect(own.status).toBe(201);
    const t = await turn(
      { llm: { provider: "openai", model: "gpt-4.1", connection: { slug: own.body.secret.slug } } },
      { kind: "reply", text: "hi" },
    );
    expect(t.chat.cost).toBeUndefined();
    expect(attribute(t.calls[0], "ag.meta.pricing")).toMatchObject({ source: "none" });
    // The project's OpenAI connection: later turns on openai would take it.
    expect((await app.call("DELETE", `/api/vault/v1/secrets/${own.body.secret.id}`, { key })).status).toBe(200);
  });
});

describe("a turn's usage is the sum of its steps", () => {
  const agent = {
    llm: { provider: "openai", model: "gpt-5-mini" },
    tools: [{ type: "builtin", name: "write" }],
  };
  const WRITE = { id: "call_w", name: "write", input: { path: "notes.txt", content: "approved" } };
  const invoke = (sessionId: string, messages: unknown[]) =>
    app.call("POST", "/services/agent/v0/invoke", {
      key,
      body: { session_id: sessionId, data: { inputs: { messages }, parameters: { agent } } },
    });

  it("after an approved tool call, the turn counts both model calls, in the chat, the run and the trace", async () => {
    const sessionId = `approved-${Date.now()}`;
    model.script({ kind: "reply", text: "Saving.", toolCalls: [WRITE], usage: { input: 11, output: 7 } });
    const first = await invoke(sessionId, [{ role: "user", content: "save a note" }]);
    expect(first.body.data.outputs.stop_reason).toBe("paused");
    const approvalId = first.body.data.outputs.pending_interaction.id as string;

    model.script({ kind: "reply", text: "Saved.", usage: { input: 11, output: 7 } });
    const second = await invoke(sessionId, [
      { role: "user", content: "save a note" },
      {
        role: "assistant",
        content: [{ type: "tool_call", toolCallId: WRITE.id, toolName: "write", input: WRITE.input }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool_result",
            tool_call_id: WRITE.id,
            tool_name: "write",
            approved: true,
            interaction_token: approvalId,
          },
        ],
      },
    ]);
    expect(second.status).toBe(200);
    const runId = second.headers.get("x-svc-run-id")!;
    // gpt-5-mini: input 0.25, output 2; two calls of 11 in and 7 out.
    const cost = (2 * (11 * 0.25 + 7 * 2)) / M;

    // What the chat footer reads: the finish metadata of the reply's UI stream.
    const replay = await app.call("GET", `/services/agent/v0/runs/${runId}/events`, {
      key,
      headers: { accept: "text/event-stream", "x-svc-messages-format": "ui_sdk" },
    });
    const finish = sseData(replay.body).frames.findLast((f: any) => f.type === "finish") as any;
    expect(finish.messageMetadata.usage).toEqual({ input: 22, output: 14, total: 36, cost: expect.closeTo(cost, 12) });
    const run = await app.call("GET", `/services/agent/v0/runs/${runId}`, { key });
    expect(run.body.run.usage).toEqual({ input: 22, output: 14, total: 36, cost: expect.closeTo(cost, 12) });

    const spans = await traceSpans(app, key, first.headers.get("x-svc-trace-id")!, 7);
    const calls = spans.filter((s) => s.span_name.startsWith("chat "));
    expect(calls).toHaveLength(2);
    const sum = (path: string) => calls.reduce((total, s) => total + (attribute(s, path) as number), 0);
    expect([sum("ag.metrics.tokens.incremental.prompt"), sum("ag.metrics.tokens.incremental.completion")]).toEqual([
      22, 14,
    ]);
    expect(sum("ag.metrics.costs.incremental.total")).toBeCloseTo(cost, 12);
  });
});
