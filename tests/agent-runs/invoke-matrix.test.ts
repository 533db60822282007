import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { NO_OUTPUT_MESSAGE } from "@/server/streams";
import { serveOnLoopback, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import {
  ACCEPT,
  invokeOver,
  nativeText,
  type FormatName,
  type Observed,
  type TransportName,
} from "../helpers/invoke-client";

const PLANTED_KEY = "sk-planted-3f9c1e77a2b84d0c";
let app: TestApp;
let live: RunningServer;
let model: ScriptedModelServer;
let key: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({
    // No retries: an upstream 500 would otherwise sleep through the SDK's backoff.
    agentRuns: { ...loadConfig({}).agentRuns, maxRetries: 0 },
    providerEnv: {
      openai: { key: PLANTED_KEY, baseUrl: model.baseUrl },
      anthropic: { key: PLANTED_KEY, baseUrl: model.baseUrl },
    },
  });
  live = await serveOnLoopback(app.handle);
  ({ key } = await app.newProject());
});
afterAll(async () => {
  await live.close();
  await app.close();
  await model.close();
});

const CLIENT_TOOL = {
  type: "client",
  name: "pick_color",
  description: "Ask the user for a color",
  input_schema: { type: "object", properties: { hint: { type: "string" } } },
};
const agent = (provider = "openai", model = "gpt-5-mini", tools: unknown[] = []) => ({
  llm: { provider, model },
  tools,
});
const body = (messages: unknown[], template = agent()) => ({
  data: { inputs: { messages }, parameters: { agent: template } },
});

interface Summary {
  text: string;
  reasoning?: string;
  stop: string;
  errors: string[];
  pending?: { id: string; name: string; input: unknown };
}

/** The same facts read out of any of the six projections. */
function summarise(o: Observed, transport: TransportName, format: FormatName): Summary {
  if (format === "native" && transport !== "batch") {
    const events = o.events!;
    const request = events.find((e) => e.type === "interaction_request");
    const call = request ? events.filter((e) => e.type === "tool_call" && e.id === request.id).at(-1) : undefined;
    return {
      text: nativeText(events),
      reasoning: nativeText(events, "thought"),
      stop: (events.at(-1) as { stopReason: string }).stopReason,
      errors: events.flatMap((e) => (e.type === "error" ? [e.message] : [])),
      pending: call && call.type === "tool_call" ? { id: call.id, name: call.name, input: call.input } : undefined,
    };
  }
  if (format === "native") {
    const outputs = o.batch.data.outputs;
    const tool = outputs.pending_interaction?.tool;
    return {
      text: outputs.messages
        .filter((m: any) => m.role === "assistant")
        .map((m: any) => m.content)
        .join(""),
      stop: outputs.stop_reason,
      errors: outputs.errors ?? [],
      pending: tool ? { id: tool.tool_call_id, name: tool.tool_name, input: tool.input } : undefined,
    };
  }
  const parts = o.message!.parts as any[];
  const toolPart = parts.find((p) => p.type.startsWith("tool-") && p.state === "input-available");
  const fromStream = transport !== "batch";
  return {
    text: parts
      .filter((p) => p.type === "text")
      .map((p) => p.text)
      .join(""),
    reasoning: parts
      .filter((p) => p.type === "reasoning")
      .map((p) => p.text)
      .join(""),
    stop: fromStream ? o.chunks!.at(-1).finishReason : o.batch.data.outputs.stop_reason,
    errors: fromStream
      ? o.chunks!.filter((c) => c.type === "error").map((c) => c.errorText)
      : (o.batch.data.outputs.errors ?? []),
    pending: toolPart ? { id: toolPart.toolCallId, name: toolPart.type.slice(5), input: toolPart.input } : undefined,
  };
}

const combos: Array<[TransportName, FormatName]> = (["batch", "sse", "ndjson"] as const).flatMap((t) =>
  (["native", "ui_sdk"] as const).map((f) => [t, f] as [TransportName, FormatName]),
);
const isUiStream = (t: TransportName, f: FormatName) => f === "ui_sdk" && t !== "batch";

describe.each(combos)("%s x %s", (transport, format) => {
  const run = (payload: unknown, expectedErrors?: string[]) =>
    invokeOver(live.origin, key, transport, format, payload, {
      expectedErrors: isUiStream(transport, format) ? expectedErrors : undefined,
    });

  it("plain text: deltas reassemble exactly, usage and trace id are reported", async () => {
    model.script({
      kind: "reply",
      text: "Hello there, how are you today?",
      usage: { input: 12, output: 8 },
      chunks: 5,
    });
    const o = await run(body([{ role: "user", content: "hi" }]));
    expect(o.status).toBe(200);
    const s = summarise(o, transport, format);
    expect(s).toMatchObject({ text: "Hello there, how are you today?", stop: "stop", errors: [] });
    const traceId = o.headers.get("x-svc-trace-id")!;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(o.headers.get("x-svc-session-id")).toMatch(/^[0-9a-f]{32}$/);
    expect(o.headers.get("x-svc-messages-format")).toBe(format);
    expect(o.headers.get("x-svc-messages-version")).toBe("v1");
    const usage = { input: 12, output: 8, total: 20, cost: (12 * 0.25 + 8 * 2) / 1_000_000 };
    if (o.events) {
      expect(o.events.at(-2)).toEqual({ type: "usage", ...usage });
      expect(o.events.at(-1)).toEqual({ type: "done", stopReason: "stop", traceId });
    }
    if (o.message) expect(o.message.metadata).toEqual({ sessionId: o.headers.get("x-svc-session-id"), usage, traceId });
    if (transport === "batch")
      expect(o.batch).toMatchObject({ trace_id: traceId, session_id: o.headers.get("x-svc-session-id") });
    if (isUiStream(transport, format)) expect(o.headers.get("x-ui-message-stream")).toBe("v1");
  });

  it("reasoning (Anthropic thinking) streams as thought / reasoning blocks before the text", async () => {
    model.script({ kind: "reply", reasoning: "The user greets me; greet back.", text: "Hi!" });
    const o = await run(body([{ role: "user", content: "hello" }], agent("anthropic", "claude-haiku-4-5")));
    const s = summarise(o, transport, format);
    expect(s.text).toBe("Hi!");
    if (s.reasoning !== undefined) expect(s.reasoning).toBe("The user greets me; greet back.");
    expect(s.stop).toBe(format === "native" ? "end_turn" : o.chunks ? "stop" : "end_turn");
  });

  it("a client tool pauses the turn, and the next turn's tool_result resumes it", async () => {
    model.script({
      kind: "reply",
      text: "Let me ask.",
      toolCalls: [{ id: "call_7", name: "pick_color", input: { hint: "warm colours only" } }],
      chunks: 4,
    });
    const template = agent("openai", "gpt-5-mini", [CLIENT_TOOL]);
    const first = await run(body([{ role: "user", content: "choose a colour" }], template));
    const s = summarise(first, transport, format);
    expect(s.pending).toEqual({ id: "call_7", name: "pick_color", input: { hint: "warm colours only" } });
    expect(s.stop).toBe(isUiStream(transport, format) ? "other" : "paused");
    if (transport === "batch" && format === "native")
      expect(first.batch.data.outputs.pending_interaction).toMatchObject({ id: "call_7", kind: "client_tool" });
    const sentTools = model.requests.at(-1)!.body.tools;
    expect(sentTools[0]).toMatchObject({
      type: "function",
      name: "pick_color",
      description: "Ask the user for a color",
    });

    model.script({ kind: "reply", text: "Red it is." });
    const history =
      format === "native"
        ? [
            { role: "user", content: "choose a colour" },
            {
              role: "assistant",
              content: [
                { type: "text", text: "Let me ask." },
                {
                  type: "tool_call",
                  toolCallId: "call_7",
                  toolName: "pick_color",
                  input: { hint: "warm colours only" },
                },
              ],
            },
            {
              role: "tool",
              content: [{ type: "tool_result", tool_call_id: "call_7", tool_name: "pick_color", output: "red" }],
            },
          ]
        : [
            { id: "u1", role: "user", parts: [{ type: "text", text: "choose a colour" }] },
            {
              id: "a1",
              role: "assistant",
              parts: [
                { type: "text", text: "Let me ask." },
                {
                  type: "tool-pick_color",
                  toolCallId: "call_7",
                  state: "output-available",
                  input: { hint: "warm colours only" },
                  output: "red",
                },
              ],
            },
          ];
    const second = await run(body(history, template));
    expect(summarise(second, transport, format)).toMatchObject({ text: "Red it is.", errors: [] });
    if (isUiStream(transport, format)) expect(second.chunks![0]).toMatchObject({ type: "start", messageId: "a1" });
    // OpenAI's Responses API: the replayed call and its output as input items.
    const sent = model.requests.at(-1)!.body.input;
    expect(sent.at(-2)).toEqual({
      type: "function_call",
      call_id: "call_7",
      name: "pick_color",
      arguments: JSON.stringify({ hint: "warm colours only" }),
    });
    expect(sent.at(-1)).toEqual({ type: "function_call_output", call_id: "call_7", output: "red" });
  });

  it("a provider failure becomes a readable error and a proper close, never the key", async () => {
    model.script({ kind: "status", status: 401, message: `Incorrect API key provided: ${PLANTED_KEY}` });
    const message = "The openai key from OPENAI_API_KEY was rejected by the provider: 401. Check the key.";
    const o = await run(body([{ role: "user", content: "hi" }]), [message]);
    expect(summarise(o, transport, format)).toMatchObject({ errors: [message], stop: "error" });
    const wire = JSON.stringify(o.events ?? o.chunks ?? o.batch);
    expect(wire).not.toContain(PLANTED_KEY);
    expect(wire).not.toContain("sk-planted");
  });

  it("a connection lost mid-stream ends the turn with an error after the partial text", async () => {
    model.script({ kind: "break", text: "partial answer" });
    const text = "The connection to the openai provider was lost before the reply finished; retry the turn.";
    const o = await run(body([{ role: "user", content: "hi" }]), [text]);
    const s = summarise(o, transport, format);
    expect(s.errors).toEqual([text]);
    expect(s.stop).toBe("error");
  });

  it("an upstream 500, before or during the reply, ends the turn with a readable error", async () => {
    model.script({ kind: "status", status: 500 });
    const before = 'The openai provider failed with status 500 for model "gpt-5-mini"; retry the turn.';
    const seen = model.requests.length;
    expect(summarise(await run(body([{ role: "user", content: "hi" }]), [before]), transport, format)).toMatchObject({
      errors: [before],
      stop: "error",
    });
    expect(model.requests.length).toBe(seen + 1);
    model.script({ kind: "error-event", text: "half an answ" });
    const during = "The openai provider reported an error in the middle of its reply; retry the turn.";
    const o = await run(body([{ role: "user", content: "hi" }]), [during]);
    expect(summarise(o, transport, format)).toMatchObject({ errors: [during], stop: "error" });
  });

  it("a turn with no content gets the no-output error", async () => {
    model.script({ kind: "reply", text: "" });
    const o = await run(body([{ role: "user", content: "hi" }]), [NO_OUTPUT_MESSAGE]);
    expect(summarise(o, transport, format).errors).toEqual([NO_OUTPUT_MESSAGE]);
  });

  it("with flags.cancel_on_disconnect, a client disconnect aborts the run and the model server sees its socket close", async () => {
    model.script({ kind: "hang" });
    const controller = new AbortController();
    const arrived = model.nextRequest();
    const closed = model.nextAbort();
    const pending = fetch(`${live.origin}/services/agent/v0/invoke`, {
      method: "POST",
      signal: controller.signal,
      headers: {
        authorization: `ApiKey ${key}`,
        "content-type": "application/json",
        accept: ACCEPT[transport],
        "x-svc-messages-format": format,
      },
      body: JSON.stringify({ ...body([{ role: "user", content: "hi" }]), flags: { cancel_on_disconnect: true } }),
    }).catch((error: unknown) => error);
    await arrived;
    controller.abort();
    await closed;
    const outcome = await pending;
    // A stream's headers arrive before the abort, so its body is what fails.
    if (outcome instanceof Response) await expect(outcome.text()).rejects.toThrow();
    else expect(outcome).toBeInstanceOf(Error);
  });
});
