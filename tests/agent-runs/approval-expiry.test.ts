import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { tables } from "@/server/db";
import { loadWorkspace } from "@/server/sandbox";
import { anotherInstance, type AppInstance } from "../helpers/app-instance";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { askingAgent as agent, WRITE_CALL as WRITE } from "./asking-agent";

/**
 * Approvals wait in the database: the answer may come days later, on another process; past
 * AGENT_APPROVAL_TTL_MS it is refused and the model is told. Time passes on the app's injected
 * clock (`context.now`, shared by the second instance), as it would between the two requests.
 */
let app: TestApp;
let other: AppInstance;
let model: ScriptedModelServer;
let account: Awaited<ReturnType<TestApp["newProject"]>>;
const DAY = 24 * 3_600_000;

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({ providerEnv: { openai: { key: "sk-approval", baseUrl: model.baseUrl } } });
  other = await anotherInstance(app);
  account = await app.newProject();
});
afterAll(async () => {
  await other.close();
  await app.close();
  await model.close();
});

const invoke = (on: { call: TestApp["call"] }, sessionId: string, messages: unknown[]) =>
  on.call("POST", "/services/agent/v0/invoke", {
    key: account.key,
    body: { session_id: sessionId, data: { inputs: { messages }, parameters: { agent } } },
  });
const answer = (approvalId: string) => [
  { role: "user", content: "save a note" },
  {
    role: "assistant",
    content: [
      { type: "text", text: "Saving." },
      { type: "tool_call", toolCallId: WRITE.id, toolName: "write", input: WRITE.input },
    ],
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
const fileOf = async (sessionId: string) => {
  const entries = await loadWorkspace(app.context.db, account.projectId, sessionId, { maxBytes: 1e6, idleMs: 60_000 });
  const file = entries.find((e) => e.path === "/workspace/notes.txt");
  return file && file.kind === "file" ? Buffer.from(file.base64, "base64").toString() : undefined;
};

/** Pauses a turn for approval, then lets `later` pass on the app's clock. */
async function pausedFor(sessionId: string, later: number): Promise<string> {
  model.script({ kind: "reply", text: "Saving.", toolCalls: [WRITE] });
  const first = await invoke(app, sessionId, [{ role: "user", content: "save a note" }]);
  expect(first.body.data.outputs.stop_reason).toBe("paused");
  const approvalId = first.body.data.outputs.pending_interaction.id as string;
  app.advanceClock(later);
  return approvalId;
}

describe("approvals that wait", () => {
  it("an approval answered a day later on another process runs the call once", async () => {
    const session = `approval-day-${Date.now()}`;
    const approvalId = await pausedFor(session, DAY);
    model.script({ kind: "reply", text: "Saved." });
    const second = await invoke(other, session, answer(approvalId));
    expect(second.status).toBe(200);
    expect(await fileOf(session)).toBe("approved text");
    expect(second.body.data.outputs.messages.at(-1)).toEqual({ role: "assistant", content: "Saved." });
  });

  it("an answer past AGENT_APPROVAL_TTL_MS is refused with a clear message; the tool never runs", async () => {
    const session = `approval-late-${Date.now()}`;
    const approvalId = await pausedFor(session, 8 * DAY);
    model.script({ kind: "reply", text: "It expired; shall I ask again?" });
    const late = await invoke(other, session, answer(approvalId));
    expect(late.status).toBe(200);
    expect(await fileOf(session)).toBeUndefined();
    const result = late.body.data.outputs.messages.find((m: any) => m.role === "tool" && m.is_error);
    expect(result.content).toMatch(
      /approval for "write" came too late: its request expired after 10080 minutes \(AGENT_APPROVAL_TTL_MS\)/,
    );
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain("came too late");
    const [row] = await app.context.db
      .select()
      .from(tables.toolApprovals)
      .where(eq(tables.toolApprovals.id, approvalId));
    expect(row.status).toBe("expired");
  });
});
