import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { drivenRunsEnded, startBackgroundRun } from "@/server/agent-runs";
import { sweepExpiredRuns } from "@/server/agent-runs/runs/run-sweep";
import { ApprovalStore, CLAIM_LEASE_MS } from "@/server/agent-runs/permissions/approval-store";
import { newId } from "@/server/core/ids";
import { tables } from "@/server/db";
import { loadWorkspace } from "@/server/sandbox";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { within } from "../helpers/within";
import { askingAgent as agent, WRITE_CALL as WRITE } from "./asking-agent";
import { rewindToDeadProcess } from "./dead-process";

/**
 * Answering a paused run's approval out of band (`POST /api/sessions/interactions/{id}/respond`):
 * nobody re-posts the conversation; the paused run is continued as a background run of its
 * session, exactly as an in-band answer would continue it, and exactly one answer wins.
 */
let app: TestApp;
let model: ScriptedModelServer;
let account: Awaited<ReturnType<TestApp["newProject"]>>;
let stranger: Awaited<ReturnType<TestApp["newProject"]>>;

beforeAll(async () => {
  model = await startScriptedModelServer();
  app = await createTestApp({ providerEnv: { openai: { key: "sk-interactions", baseUrl: model.baseUrl } } });
  account = await app.newProject();
  stranger = await app.newProject();
});
afterAll(async () => {
  await app.close();
  await model.close();
});

let sessions = 0;

const respond = (id: string, body: unknown, key = account.key) =>
  app.call("POST", `/api/sessions/interactions/${id}/respond`, { key, body });
const runsEnded = () => within(30_000, "the continuation to end", drivenRunsEnded(app.context.db));
const fileOf = async (sessionId: string) => {
  const entries = await loadWorkspace(app.context.db, account.projectId, sessionId, { maxBytes: 1e6, idleMs: 60_000 });
  const file = entries.find((e) => e.path === "/workspace/notes.txt");
  return file && file.kind === "file" ? Buffer.from(file.base64, "base64").toString() : undefined;
};

/** A turn paused on the approval of a write, as an automation's run nobody watches would be. */
async function paused() {
  const sessionId = `interaction-${Date.now()}-${++sessions}`;
  model.script({ kind: "reply", text: "Saving.", toolCalls: [WRITE] });
  const res = await app.call("POST", "/services/agent/v0/invoke", {
    key: account.key,
    body: {
      session_id: sessionId,
      data: { inputs: { messages: [{ role: "user", content: "save a note" }] }, parameters: { agent } },
    },
  });
  expect(res.body.data.outputs.stop_reason).toBe("paused");
  return {
    sessionId,
    runId: res.headers.get("x-svc-run-id")!,
    approvalId: res.body.data.outputs.pending_interaction.id as string,
  };
}

describe("out-of-band approval answers", () => {
  it("shows the pending request as an interaction, by id and by query", async () => {
    const { sessionId, runId, approvalId } = await paused();
    const one = await app.call("GET", `/api/sessions/interactions/${approvalId}`, { key: account.key });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      count: 1,
      interaction: {
        id: approvalId,
        session_id: sessionId,
        kind: "user_approval",
        status: "pending",
        run_id: runId,
        data: { request: { tool: "write", args: WRITE.input, tool_call_id: WRITE.id } },
        created_at: expect.any(String),
        expires_at: expect.any(String),
      },
    });
    const query = (body: unknown) => app.call("POST", "/api/sessions/interactions/query", { key: account.key, body });
    const actionable = await query({ query: { session_id: sessionId, actionable_only: true } });
    expect(actionable.status).toBe(200);
    expect(actionable.body).toEqual({ count: 1, interactions: [one.body.interaction] });
    expect((await query({ query: { session_id: sessionId, kind: "user_input" } })).body.count).toBe(0);
    expect((await query({ query: { session_id: sessionId, status: "resolved" } })).body.count).toBe(0);
    const elsewhere = await app.call("POST", "/api/sessions/interactions/query", {
      key: stranger.key,
      body: { query: { session_id: sessionId } },
    });
    expect(elsewhere.body.count).toBe(0);
  });

  it("an approval runs the tool in a background run that continues the paused one, and finishes", async () => {
    const { sessionId, runId, approvalId } = await paused();
    model.script({ kind: "reply", text: "Saved." });
    const res = await respond(approvalId, {
      answer: { approved: true, tool_call_id: WRITE.id, message: "Thanks, carry on." },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      count: 1,
      interaction: expect.objectContaining({
        id: approvalId,
        status: "responded",
        run_id: runId,
        data: {
          request: { tool: "write", args: WRITE.input, tool_call_id: WRITE.id },
          response: {
            approved: true,
            tool_call_id: WRITE.id,
            message: "Thanks, carry on.",
            run_id: expect.any(String),
          },
        },
      }),
    });
    const continuation = res.body.interaction.data.response.run_id as string;
    await runsEnded();
    const run = await app.call("GET", `/services/agent/v0/runs/${continuation}`, { key: account.key });
    expect(run.status).toBe(200);
    expect(run.body.run).toMatchObject({
      status: "finished",
      session_id: sessionId,
      background: true,
      continues_run_id: runId,
    });
    expect(run.body.outputs.messages.at(-1)).toEqual({ role: "assistant", content: "Saved." });
    expect(await fileOf(sessionId)).toBe("approved text");
    // The model was asked once more, with the tool's real result and the trailing message.
    const sent = JSON.stringify(model.requests.at(-1)!.body);
    expect(sent).toContain("Thanks, carry on.");
    expect(sent).not.toContain(approvalId);
    const [row] = await app.context.db
      .select()
      .from(tables.toolApprovals)
      .where(eq(tables.toolApprovals.id, approvalId));
    expect(row.status).toBe("responded");
    // Read back, by id and by query, it names the run continuing with the answer (the verdict is not stored).
    const after = await app.call("GET", `/api/sessions/interactions/${approvalId}`, { key: account.key });
    expect(after.body.interaction).toMatchObject({ status: "responded", run_id: runId });
    expect(after.body.interaction.data.response).toEqual({ tool_call_id: WRITE.id, run_id: continuation });
    const queried = await app.call("POST", "/api/sessions/interactions/query", {
      key: account.key,
      body: { query: { session_id: sessionId, status: "responded" } },
    });
    expect(queried.body).toEqual({ count: 1, interactions: [after.body.interaction] });
  });

  it("a denial becomes the denied result; the tool never runs", async () => {
    const { sessionId, approvalId } = await paused();
    model.script({ kind: "reply", text: "Understood, not saving." });
    const res = await respond(approvalId, { answer: { approved: false } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.interaction.data.response).toEqual({
      approved: false,
      tool_call_id: WRITE.id,
      run_id: expect.any(String),
    });
    await runsEnded();
    const run = await app.call("GET", `/services/agent/v0/runs/${res.body.interaction.data.response.run_id}`, {
      key: account.key,
    });
    expect(run.body.run.status).toBe("finished");
    expect(run.body.events).toContainEqual(
      expect.objectContaining({ type: "tool_result", data: expect.objectContaining({ id: WRITE.id, denied: true }) }),
    );
    expect(run.body.outputs.messages.at(-1)).toEqual({ role: "assistant", content: "Understood, not saving." });
    expect(await fileOf(sessionId)).toBeUndefined();
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain("denied");
    const [row] = await app.context.db
      .select()
      .from(tables.toolApprovals)
      .where(eq(tables.toolApprovals.id, approvalId));
    expect(row.status).toBe("responded");
  });

  it("exactly one answer wins: a second respond is 409; an in-band replay of the answer asks anew", async () => {
    const { sessionId, approvalId } = await paused();
    model.script({ kind: "reply", text: "Saved." });
    const first = await respond(approvalId, { answer: { approved: true } });
    expect(first.status).toBe(200);
    const continuation = first.body.interaction.data.response.run_id as string;
    const again = await respond(approvalId, { answer: { approved: false } });
    expect(again.status).toBe(409);
    // Named: the run that continues with the first answer, being processed or done by now.
    expect(again.body).toMatchObject({
      code: "interaction_not_pending",
      detail: expect.stringMatching(new RegExp(`^Interaction is no longer pending: .*run ${continuation}`)),
      run_id: continuation,
    });
    await runsEnded();
    const late = await respond(approvalId, { answer: { approved: true } });
    expect(late.status).toBe(409);
    expect(late.body).toEqual({
      code: "interaction_not_pending",
      detail: `Interaction is no longer pending: it was answered; run ${continuation} continued with the answer`,
      run_id: continuation,
    });
    // The same answer sent in band no longer counts: the call is asked about again, not run twice.
    const asked = model.requests.length;
    const replay = await app.call("POST", "/services/agent/v0/invoke", {
      key: account.key,
      body: {
        session_id: sessionId,
        data: {
          inputs: {
            messages: [
              { role: "user", content: "save a note" },
              {
                role: "assistant",
                content: [{ type: "tool_call", toolCallId: WRITE.id, toolName: "write", input: WRITE.input }],
              },
              {
                role: "tool",
                content: [
                  { type: "tool_result", tool_call_id: WRITE.id, approved: true, interaction_token: approvalId },
                ],
              },
            ],
          },
          parameters: { agent },
        },
      },
    });
    expect(replay.body.data.outputs.stop_reason).toBe("paused");
    expect(replay.body.data.outputs.pending_interaction.id).not.toBe(approvalId);
    expect(model.requests.length).toBe(asked);
  });

  it("the continuation has the paused run's origin: an automation's run is continued as one", async () => {
    const { runId, approvalId } = await paused();
    // The run as an automation's firing would have started it (origin is all that differs here).
    await app.context.db.update(tables.agentRuns).set({ origin: "automation" }).where(eq(tables.agentRuns.id, runId));
    model.script({ kind: "reply", text: "Saved." });
    const res = await respond(approvalId, { answer: { approved: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const continuation = res.body.interaction.data.response.run_id as string;
    await runsEnded();
    const listed = await app.call("GET", "/services/agent/v0/runs?origin=automation", { key: account.key });
    expect(listed.body.runs.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining([runId, continuation]));
    const run = await app.call("GET", `/services/agent/v0/runs/${continuation}`, { key: account.key });
    expect(run.body.run).toMatchObject({ origin: "automation", status: "finished", continues_run_id: runId });
  });

  it("a claim whose process died before its run was recorded is taken up again after CLAIM_LEASE_MS, with the run id minted at the claim", async () => {
    const { sessionId, approvalId } = await paused();
    // What a process that died right after its claim leaves: the row `responding`, naming a run never recorded.
    const minted = newId();
    const approvals = new ApprovalStore(
      app.context.db,
      account.projectId,
      sessionId,
      app.context.config.agentRuns.approvalTtlMs,
      app.context.now,
    );
    expect(await approvals.claim(approvalId, minted)).toBeDefined();
    const early = await respond(approvalId, { answer: { approved: true } });
    expect(early.status).toBe(409);
    expect(early.body.detail).toMatch(
      new RegExp(`starting run ${minted}; if that run is not recorded by .*, the request may be answered again`),
    );
    expect(early.body.run_id).toBe(minted);
    // Claimed, its run not recorded yet: it is shown answered, naming the run the claim minted.
    const claimed = await app.call("GET", `/api/sessions/interactions/${approvalId}`, { key: account.key });
    expect(claimed.body.interaction).toMatchObject({ status: "responded", data: { response: { run_id: minted } } });
    app.advanceClock(CLAIM_LEASE_MS + 1_000);
    model.script({ kind: "reply", text: "Saved." });
    const res = await respond(approvalId, { answer: { approved: true, message: "Go on." } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.interaction.data.response.run_id).toBe(minted);
    await runsEnded();
    const run = await app.call("GET", `/services/agent/v0/runs/${minted}`, { key: account.key });
    expect(run.body.run).toMatchObject({ status: "finished", session_id: sessionId });
    expect(await fileOf(sessionId)).toBe("approved text");
    const [row] = await app.context.db
      .select()
      .from(tables.toolApprovals)
      .where(eq(tables.toolApprovals.id, approvalId));
    expect(row.status).toBe("responded");
  });

  it("while the claim's run is recorded, a respond is 409 naming it; its takeover after a crash settles the answer", async () => {
    const { sessionId, approvalId } = await paused();
    model.script({ kind: "reply", text: "Saved." });
    const first = await respond(approvalId, { answer: { approved: true } });
    const continuation = first.body.interaction.data.response.run_id as string;
    await runsEnded();
    // Rewound to what a process that died right after recording the continuation leaves: the
    // claim, the run's row with its recorded request and an expired lease, nothing logged.
    const { db } = app.context;
    await db.update(tables.toolApprovals).set({ status: "responding" }).where(eq(tables.toolApprovals.id, approvalId));
    await rewindToDeadProcess(db, continuation);
    app.advanceClock(CLAIM_LEASE_MS + 1_000);
    const busy = await respond(approvalId, { answer: { approved: false } });
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual({
      code: "interaction_not_pending",
      detail: `Interaction is no longer pending: its answer is being processed by run ${continuation}`,
      run_id: continuation,
    });

    const asked = model.requests.length;
    model.script({ kind: "reply", text: "Saved after all." });
    // By the real clock: the app's was moved past the claim's lease, and the run's new lease is real time.
    expect(await sweepExpiredRuns(app.context, 10, new Date())).toBe(1);
    await runsEnded();
    const run = await app.call("GET", `/services/agent/v0/runs/${continuation}`, { key: account.key });
    expect(run.body.run).toMatchObject({ status: "finished", session_id: sessionId });
    // The approved call ran, once, in the takeover; nothing was asked anew.
    const results = run.body.events.filter((e: any) => e.type === "tool_result" && e.data.id === WRITE.id);
    expect(results.map((e: any) => e.data.output)).toEqual(["wrote 13 bytes to notes.txt"]);
    expect(run.body.events.filter((e: any) => e.type === "interaction_request")).toHaveLength(0);
    expect(run.body.outputs.messages.at(-1)).toEqual({ role: "assistant", content: "Saved after all." });
    expect(model.requests.length).toBe(asked + 1);
    const [row] = await db.select().from(tables.toolApprovals).where(eq(tables.toolApprovals.id, approvalId));
    expect(row.status).toBe("responded");
  });

  it("a run id is started once: a second start of it begins nothing and answers that run", async () => {
    const principal = { projectId: account.projectId, userId: account.userId, role: account.role };
    const body = {
      session_id: `once-${Date.now()}`,
      data: { inputs: { messages: [{ role: "user" as const, content: "hello" }] }, parameters: { agent } },
    };
    const asked = model.requests.length;
    model.script({ kind: "reply", text: "Once." });
    const runId = newId();
    const starts = await Promise.all([
      startBackgroundRun(app.context, principal, body, "invoke", runId),
      startBackgroundRun(app.context, principal, body, "invoke", runId),
    ]);
    expect(starts.map((s) => s.runId)).toEqual([runId, runId]);
    expect(starts.filter((s) => s.startedBefore)).toHaveLength(1);
    await runsEnded();
    expect(model.requests.length).toBe(asked + 1);
    const run = await app.call("GET", `/services/agent/v0/runs/${runId}`, { key: account.key });
    expect(run.body.run.status).toBe("finished");
    expect(run.body.outputs.messages.at(-1)).toEqual({ role: "assistant", content: "Once." });
  });

  it("a request past AGENT_APPROVAL_TTL_MS is 409 and shows as cancelled", async () => {
    const { approvalId } = await paused();
    app.advanceClock(8 * 24 * 3_600_000);
    const late = await respond(approvalId, { answer: { approved: true } });
    expect(late.status).toBe(409);
    // No run continues with an answer: none is named.
    expect(late.body).toEqual({ code: "interaction_not_pending", detail: "Interaction is no longer pending" });
    const shown = await app.call("GET", `/api/sessions/interactions/${approvalId}`, { key: account.key });
    expect(shown.body.interaction.status).toBe("cancelled");
  });

  it("an unknown id and another project's request are 404; a bad body names the field", async () => {
    const { approvalId } = await paused();
    const unknown = await respond("apr_nope", { answer: { approved: true } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("interaction_not_found");
    expect((await respond(approvalId, { answer: { approved: true } }, stranger.key)).status).toBe(404);
    expect((await app.call("GET", `/api/sessions/interactions/${approvalId}`, { key: stranger.key })).status).toBe(404);
    const bad = await respond(approvalId, { answer: { approved: "yes" } });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    expect(JSON.stringify(bad.body.errors)).toContain("answer.approved");
    const wrongCall = await respond(approvalId, { answer: { approved: true, tool_call_id: "call_other" } });
    expect(wrongCall.status).toBe(400);
    expect(JSON.stringify(wrongCall.body.errors)).toContain("answer.tool_call_id");
    // Refusals left the request open.
    const open = await app.call("GET", `/api/sessions/interactions/${approvalId}`, { key: account.key });
    expect(open.body.interaction.status).toBe("pending");
  });
});
