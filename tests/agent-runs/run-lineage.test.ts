import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { tables } from "@/server/db";
import { attribute, traceSpans } from "../helpers/run-trace";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { askingAgent as agent, WRITE_CALL as WRITE } from "./asking-agent";

/**
 * Approval lineage: the turn that answers a paused run's approval request is a run of its own
 * that names the run it continues, in its record (the runs API), its stream (header, UI `start`
 * metadata) and its trace (under the paused run's root unless the caller sent a traceparent).
 */
let app: TestApp;
let model: ScriptedModelServer;
let account: Awaited<ReturnType<TestApp["newProject"]>>;

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({ providerEnv: { openai: { key: "sk-lineage", baseUrl: model.baseUrl } } });
  account = await app.newProject();
});
afterAll(async () => {
  await app.close();
  await model.close();
});

const invoke = (sessionId: string, messages: unknown[], headers: Record<string, string> = {}) =>
  app.call("POST", "/services/agent/v0/invoke", {
    key: account.key,
    headers,
    body: { session_id: sessionId, data: { inputs: { messages }, parameters: { agent } } },
  });
const answer = (approvalId: string) => [
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
];
let sessions = 0;

/** A turn paused for approval of a write: its run, trace and approval request. */
async function paused() {
  const sessionId = `lineage-${Date.now()}-${++sessions}`;
  model.script({ kind: "reply", text: "Saving.", toolCalls: [WRITE] });
  const res = await invoke(sessionId, [{ role: "user", content: "save a note" }]);
  expect(res.body.data.outputs.stop_reason).toBe("paused");
  return {
    sessionId,
    runId: res.headers.get("x-svc-run-id")!,
    traceId: res.headers.get("x-svc-trace-id")!,
    approvalId: res.body.data.outputs.pending_interaction.id as string,
  };
}

const spanIdOf = (traceparent: string | null) => traceparent!.split("-")[2];

describe("a turn that answers a paused run continues it", () => {
  it("names the paused run in its record, its stream and its trace, under the paused run's root", async () => {
    const first = await paused();
    const [approval] = await app.context.db
      .select()
      .from(tables.toolApprovals)
      .where(eq(tables.toolApprovals.id, first.approvalId));
    expect(approval.runId).toBe(first.runId);

    model.script({ kind: "reply", text: "Saved." });
    const second = await invoke(first.sessionId, answer(first.approvalId));
    expect(second.status).toBe(200);
    expect(second.body.data.outputs.messages.at(-1)).toEqual({ role: "assistant", content: "Saved." });
    const runId = second.headers.get("x-svc-run-id")!;
    expect(runId).not.toBe(first.runId);
    expect(second.headers.get("x-svc-continues-run-id")).toBe(first.runId);

    const fetched = await app.call("GET", `/services/agent/v0/runs/${runId}`, { key: account.key });
    expect(fetched.body.run).toMatchObject({ continues_run_id: first.runId });
    const listed = await app.call("GET", `/services/agent/v0/runs?session_id=${first.sessionId}`, { key: account.key });
    expect(listed.body.runs.map((r: any) => [r.id, r.continues_run_id])).toEqual([
      [runId, first.runId],
      [first.runId, null],
    ]);

    // The UI Message Stream of the continuing run says it in its opening metadata.
    const replay = await app.call("GET", `/services/agent/v0/runs/${runId}/events`, {
      key: account.key,
      headers: { accept: "text/event-stream", "x-svc-messages-format": "ui_sdk" },
    });
    expect(replay.headers.get("x-svc-continues-run-id")).toBe(first.runId);
    const start = (replay.body as string)
      .split("\n")
      .filter((line) => line.startsWith("data: {"))
      .map((line) => JSON.parse(line.slice(6)))
      .find((chunk) => chunk.type === "start");
    expect(start.messageMetadata).toEqual({ sessionId: first.sessionId, continuesRunId: first.runId });

    // One trace: the continuing run's root is a child of the paused run's root.
    expect(second.headers.get("x-svc-trace-id")).toBe(first.traceId);
    const spans = await traceSpans(app, account.key, first.traceId, 7);
    const roots = spans.filter((s) => s.span_name.startsWith("invoke_agent"));
    expect(roots).toHaveLength(2);
    expect(roots[0].parent_id ?? null).toBeNull();
    expect(roots[1]).toMatchObject({
      span_id: spanIdOf(second.headers.get("traceparent")),
      parent_id: roots[0].span_id,
    });
    expect(attribute(roots[1], "ag.meta.run.continues_run_id")).toBe(first.runId);
    expect(attribute(roots[0], "ag.meta.run.continues_run_id")).toBeUndefined();
    const write = spans.find((s) => s.span_name === "execute_tool write")!;
    expect(attribute(write, "ag.meta.tool.approved")).toBe(true);
  });

  it("a caller's traceparent keeps the caller's trace; the run still names the run it continues", async () => {
    const first = await paused();
    const callerTrace = randomBytes(16).toString("hex");
    const callerSpan = randomBytes(8).toString("hex");
    model.script({ kind: "reply", text: "Saved." });
    const second = await invoke(first.sessionId, answer(first.approvalId), {
      traceparent: `00-${callerTrace}-${callerSpan}-01`,
    });
    expect(second.headers.get("x-svc-trace-id")).toBe(callerTrace);
    expect(second.headers.get("x-svc-continues-run-id")).toBe(first.runId);
    const spans = await traceSpans(app, account.key, callerTrace, 4);
    const [root] = spans.filter((s) => s.span_name.startsWith("invoke_agent"));
    expect(root.parent_id).toBe(callerSpan);
    expect(attribute(root, "ag.meta.run.continues_run_id")).toBe(first.runId);
    // The paused run's trace keeps its own run only.
    const pausedSpans = await traceSpans(app, account.key, first.traceId, 3);
    expect(pausedSpans.filter((s) => s.span_name.startsWith("invoke_agent"))).toHaveLength(1);
  });

  it("an answer naming no request of this session continues nothing", async () => {
    const first = await paused();
    model.script({ kind: "reply", text: "Saved." });
    const forged = await invoke(first.sessionId, answer("apr_forged"));
    expect(forged.status).toBe(200);
    expect(forged.headers.get("x-svc-continues-run-id")).toBeNull();
    expect(forged.headers.get("x-svc-trace-id")).not.toBe(first.traceId);
    // Another session cannot claim the paused run either.
    const elsewhere = await invoke(`${first.sessionId}-other`, answer(first.approvalId));
    expect(elsewhere.headers.get("x-svc-continues-run-id")).toBeNull();
    const run = await app.call("GET", `/services/agent/v0/runs/${forged.headers.get("x-svc-run-id")}`, {
      key: account.key,
    });
    expect(run.body.run.continues_run_id).toBeNull();
  });
});
