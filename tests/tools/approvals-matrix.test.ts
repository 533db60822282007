import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { loadWorkspace } from "@/server/sandbox";
import { invokeOver, type FormatName, type Observed, type TransportName } from "../helpers/invoke-client";
import { serveOnLoopback, type RunningServer } from "../helpers/http-server";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

let app: TestApp;
let live: RunningServer;
let model: ScriptedModelServer;
let key: string;
let projectId: string;

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({
    agentRuns: { ...loadConfig({}).agentRuns, maxRetries: 0 },
    providerEnv: { openai: { key: "sk-tools", baseUrl: model.baseUrl } },
  });
  live = await serveOnLoopback(app.handle);
  ({ key, projectId } = await app.newProject());
});
afterAll(async () => {
  await live.close();
  await app.close();
  await model.close();
});

// The default template's four built-ins under the default policy (allow_reads): write asks.
const agent = {
  llm: { provider: "openai", model: "gpt-5-mini" },
  tools: ["read", "bash", "edit", "write"].map((name) => ({ type: "builtin", name })),
};
const WRITE = { id: "call_w", name: "write", input: { path: "notes.txt", content: "approved text" } };
const body = (sessionId: string, messages: unknown[]) => ({
  session_id: sessionId,
  data: { inputs: { messages }, parameters: { agent } },
});
const combos: Array<[TransportName, FormatName]> = (["batch", "sse", "ndjson"] as const).flatMap((t) =>
  (["native", "ui_sdk"] as const).map((f) => [t, f] as [TransportName, FormatName]),
);

/** The approval request, as each projection carries it. */
function approvalOf(o: Observed, transport: TransportName, format: FormatName): { approvalId: string; stop: string } {
  if (format === "native" && transport !== "batch") {
    const request = o.events!.find((e) => e.type === "interaction_request")!;
    expect(request).toMatchObject({
      kind: "user_approval",
      payload: {
        toolCallId: WRITE.id,
        toolCall: { name: "write", rawInput: WRITE.input },
        availableReplies: ["approve", "deny"],
      },
    });
    return {
      approvalId: (request as { id: string }).id,
      stop: (o.events!.at(-1) as { stopReason: string }).stopReason,
    };
  }
  if (format === "native") {
    const pending = o.batch.data.outputs.pending_interaction;
    expect(pending).toMatchObject({
      kind: "user_approval",
      tool: { tool_call_id: WRITE.id, tool_name: "write", input: WRITE.input },
    });
    return { approvalId: pending.id, stop: o.batch.data.outputs.stop_reason };
  }
  // The latest request: a renewed one (replayed decision) is announced as a fresh tool part.
  const part = (o.message!.parts as any[]).filter((p) => p.type === "tool-write").at(-1);
  expect(part).toMatchObject({ toolCallId: WRITE.id, state: "approval-requested", input: WRITE.input });
  if (o.chunks)
    expect(o.chunks.find((c) => c.type === "tool-approval-request")).toEqual({
      type: "tool-approval-request",
      approvalId: part.approval.id,
      toolCallId: WRITE.id,
    });
  return {
    approvalId: part.approval.id,
    stop: o.chunks ? o.chunks.at(-1).finishReason : o.batch.data.outputs.stop_reason,
  };
}

/** The history that answers the approval, in the format's own shape (the interface contract approval answer). */
function answer(format: FormatName, approvalId: string, approved: boolean, input: unknown = WRITE.input): unknown[] {
  if (format === "native") {
    return [
      { role: "user", content: "save a note" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Saving." },
          { type: "tool_call", toolCallId: WRITE.id, toolName: "write", input },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool_result", tool_call_id: WRITE.id, tool_name: "write", approved, interaction_token: approvalId },
        ],
      },
    ];
  }
  return [
    { id: "u1", role: "user", parts: [{ type: "text", text: "save a note" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "text", text: "Saving." },
        {
          type: "tool-write",
          toolCallId: WRITE.id,
          state: "approval-responded",
          input,
          approval: { id: approvalId, approved },
        },
      ],
    },
  ];
}

const fileOf = async (sessionId: string) => {
  const entries = await loadWorkspace(app.context.db, projectId, sessionId, { maxBytes: 1e6, idleMs: 60_000 });
  const file = entries.find((e) => e.path === "/workspace/notes.txt");
  return file && file.kind === "file" ? Buffer.from(file.base64, "base64").toString() : undefined;
};

describe.each(combos)("%s x %s", (transport, format) => {
  // A UI client reads a resumed turn into the assistant message it sent back (same id).
  const run = (payload: any) => {
    const last = payload.data.inputs.messages.at(-1);
    return invokeOver(live.origin, key, transport, format, payload, {
      continues: format === "ui_sdk" && last.role === "assistant" ? last : undefined,
    });
  };

  it("an ask tool pauses with a user_approval request; approve runs it once and the turn continues; deny tells the model", async () => {
    const session = `appr-${transport}-${format}`;
    model.script({ kind: "reply", text: "Saving.", toolCalls: [WRITE] });
    const first = await run(body(session, [{ role: "user", content: "save a note" }]));
    expect(first.status).toBe(200);
    const { approvalId, stop } = approvalOf(first, transport, format);
    expect(stop).toBe(format === "ui_sdk" && transport !== "batch" ? "other" : "paused");
    expect(await fileOf(session)).toBeUndefined();

    model.script({ kind: "reply", text: "Saved." });
    const second = await run(body(session, answer(format, approvalId, true)));
    expect(second.status).toBe(200);
    expect(await fileOf(session)).toBe("approved text");
    const sent = model.requests.at(-1)!.body.input;
    expect(sent.at(-1)).toEqual({
      type: "function_call_output",
      call_id: WRITE.id,
      output: "wrote 13 bytes to notes.txt",
    });
    if (second.events)
      expect(second.events.filter((e) => e.type === "tool_result")).toEqual([
        { type: "tool_result", id: WRITE.id, output: "wrote 13 bytes to notes.txt", isError: false },
      ]);
    if (second.chunks)
      expect(second.chunks.filter((c) => c.type === "tool-output-available")).toEqual([
        { type: "tool-output-available", toolCallId: WRITE.id, output: "wrote 13 bytes to notes.txt" },
      ]);

    // The same decision sent again is spent: it asks again and the model is not called.
    const before = model.requests.length;
    const replay = await run(body(session, answer(format, approvalId, true)));
    expect(approvalOf(replay, transport, format).approvalId).not.toBe(approvalId);
    expect(model.requests.length).toBe(before);

    // Denied: the model hears it, the tool never runs.
    const denySession = `${session}-deny`;
    model.script({ kind: "reply", text: "Saving.", toolCalls: [WRITE] });
    const paused = approvalOf(
      await run(body(denySession, [{ role: "user", content: "save a note" }])),
      transport,
      format,
    );
    model.script({ kind: "reply", text: "Understood, not saving." });
    const denied = await run(body(denySession, answer(format, paused.approvalId, false)));
    expect(denied.status).toBe(200);
    expect(await fileOf(denySession)).toBeUndefined();
    const output = model.requests.at(-1)!.body.input.at(-1);
    expect(output).toMatchObject({ type: "function_call_output", call_id: WRITE.id });
    expect(JSON.stringify(output.output)).toContain("denied");
    if (denied.chunks) expect(denied.chunks).toContainEqual({ type: "tool-output-denied", toolCallId: WRITE.id });
  });
});
