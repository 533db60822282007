import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/server/auth";
import { rawQuery } from "@/server/db";
import { drainIngestQueue, recordSpans } from "@/server/tracing";
import { createCaller, createContextFrom } from "@/server/trpc";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let model: ScriptedModelServer;
let key: string;
let projectId: string;
let owner: Principal;
let agentId: string;
let variantId: string;
const callerFor = (principal: Principal) => createCaller(createContextFrom(t.context, { principal }));
const MARK = `planted-${Date.now()}`;

beforeAll(async () => {
  model = await startScriptedModelServer();
  t = await createTestApp({ providerEnv: { openai: { key: "sk-deletion", baseUrl: model.baseUrl } } });
  const p = await t.newProject("deletion");
  key = p.key;
  projectId = p.projectId;
  owner = { projectId, userId: p.userId, role: "owner" };
  const created = await callerFor(owner).agents.create({ name: "Forgetful" });
  agentId = created.agent.id;
  variantId = created.variant.id;
  await callerFor(owner).agents.commit({
    variantId,
    template: { llm: { provider: "openai", model: "gpt-5-mini" } },
    message: "plain",
  });
});
afterAll(async () => {
  await t.close();
  await model.close();
});

/** A stored chat session and two real turns in it (the run records, event logs and traces). */
async function chatWithTurns(sessionId: string, secret: string) {
  const text = `My secret is ${secret}`;
  await callerFor(owner).chatSessions.save({
    id: sessionId,
    agentId,
    messages: [{ id: `u-${sessionId}`, role: "user", parts: [{ type: "text", text }] }],
  });
  for (let turn = 0; turn < 2; turn++) {
    model.script({ kind: "reply", text: `I will remember ${secret}` });
    const r = await t.call("POST", "/services/agent/v0/invoke", {
      key,
      body: {
        session_id: sessionId,
        references: { workflow_variant: { id: variantId } },
        data: { inputs: { messages: [{ role: "user", content: text }] } },
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
}

/** Every table (and span partition) whose rows, as text, contain `needle`, with their counts. */
async function tablesHolding(needle: string): Promise<Record<string, number>> {
  const tables = await rawQuery<{ name: string }>(
    t.context.db,
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition`,
  );
  const found: Record<string, number> = {};
  for (const { name } of tables) {
    const [{ n }] = await rawQuery<{ n: number }>(
      t.context.db,
      `select count(*)::int as n from "${name}" x where strpos(x::text, $1) > 0`,
      [needle],
    );
    if (n > 0) found[name] = n;
  }
  return found;
}

async function runsOf(sessionId: string) {
  await drainIngestQueue(t.context);
  return rawQuery<{ id: string; trace_id: string }>(
    t.context.db,
    `select id, trace_id from agent_runs where project_id = $1 and session_id = $2`,
    [projectId, sessionId],
  );
}

describe("deleting a chat session's data", () => {
  it("leaves no trace of the session in any table; the other session stays; the deletion is audited with counts", async () => {
    const doomed = `chat-doomed-${Date.now()}`;
    const kept = `chat-kept-${Date.now()}`;
    await chatWithTurns(doomed, `${MARK}-doomed`);
    await chatWithTurns(kept, `${MARK}-kept`);
    const runs = await runsOf(doomed);
    expect(runs).toHaveLength(2);
    // A read of one of its traces: an event naming the trace.
    expect((await t.call("GET", `/api/traces/${runs[0].trace_id}`, { key })).status).toBe(200);
    // Before: the session's text is in the chat session, the runs' requests, the spans; its runs'
    // ids in their event logs and events.
    expect(Object.keys(await tablesHolding(`${MARK}-doomed`))).toEqual(
      expect.arrayContaining(["chat_sessions", "agent_runs", "spans"]),
    );
    expect(Object.keys(await tablesHolding(runs[0].id))).toEqual(
      expect.arrayContaining(["agent_runs", "agent_run_events", "events"]),
    );

    const r = await t.call("POST", "/api/retention/delete-session", { key, body: { session_id: doomed } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const deleted = r.body.data_deletion.deleted;
    expect(r.body.data_deletion.target).toEqual({ type: "chat_session", id: doomed });
    // The answer names every kind, in this order (each owning area erases its own rows).
    expect(Object.keys(deleted)).toEqual([
      "spans",
      "queued_span_uploads",
      "run_event_batches",
      "runs",
      "chat_sessions",
      "tool_approvals",
      "sandbox_workspaces",
      "openai_responses",
      "events",
      "webhook_deliveries",
      "automation_firings_cleared",
    ]);
    expect(deleted).toMatchObject({ chat_sessions: 1, runs: 2 });
    expect(deleted.spans).toBeGreaterThan(0);
    expect(deleted.run_event_batches).toBeGreaterThan(0);
    // Two run ends and the trace read.
    expect(deleted.events).toBeGreaterThanOrEqual(3);

    expect(await tablesHolding(`${MARK}-doomed`)).toEqual({});
    for (const run of runs) {
      expect(await tablesHolding(run.id), run.id).toEqual({});
      expect(await tablesHolding(run.trace_id), run.trace_id).toEqual({});
    }
    // The session id itself is left only in the audit entry that records the deletion.
    expect(await tablesHolding(doomed)).toEqual({ audit_log: 1 });

    expect(Object.keys(await tablesHolding(`${MARK}-kept`))).toEqual(
      expect.arrayContaining(["chat_sessions", "agent_runs", "spans"]),
    );
    expect(await runsOf(kept)).toHaveLength(2);

    const audit = await t.call("GET", "/api/audit?action=data.deleted", { key });
    expect(audit.body.audit_entries).toHaveLength(1);
    expect(audit.body.audit_entries[0]).toMatchObject({
      target: { type: "chat_session", id: doomed },
      actor: { type: "api_key" },
      after: { deleted },
    });
    // Deleting it again finds nothing and says so.
    const again = await t.call("POST", "/api/retention/delete-session", { key, body: { session_id: doomed } });
    expect(again.status).toBe(200);
    expect(Object.values(again.body.data_deletion.deleted).every((n) => n === 0)).toBe(true);
  });

  it("refuses a request without a session id with a 4xx", async () => {
    const r = await t.call("POST", "/api/retention/delete-session", { key, body: { session: "x" } });
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body)).toMatch(/session_id/);
  });
});

describe("deleting a user's data", () => {
  it("removes the traces whose root names the user id, their sessions' other traces, and the user's roll-ups", async () => {
    const now = Date.now();
    const span = (trace: number, extra: Record<string, unknown>) => ({
      trace_id: trace.toString(16).padStart(32, "0"),
      span_id: trace.toString(16).padStart(16, "0"),
      span_name: "app.turn",
      start_time: new Date(now - 1000).toISOString(),
      end_time: new Date(now).toISOString(),
      attributes: { ag: { data: { inputs: { text: `${MARK}-trace-${trace}` } } } },
      ...extra,
    });
    await recordSpans(
      t.context.db,
      projectId,
      [
        span(0xa1, { user_id: "end-user-42", session_id: "app-session-9" }),
        // The same conversation, this trace without the user id.
        span(0xa2, { session_id: "app-session-9" }),
        span(0xa3, { user_id: "end-user-7", session_id: "app-session-1" }),
      ],
      { config: t.context.config.tracing, rollups: true },
    );
    await drainIngestQueue(t.context);
    const rollups = () =>
      rawQuery<{ n: number }>(
        t.context.db,
        `select count(*)::int as n from span_rollups where project_id = $1 and user_id = 'end-user-42'`,
        [projectId],
      );

    const spansByDetail = async () => {
      const rows = await rawQuery<{ detail: number; spans: number }>(
        t.context.db,
        `select detail, sum(spans)::int as spans from span_rollups where project_id = $1 and grain = 'day' group by detail`,
        [projectId],
      );
      return Object.fromEntries(rows.map((r) => [r.detail, r.spans])) as Record<number, number>;
    };
    const before = await spansByDetail();
    expect(before[2]).toBe(before[1]);

    const r = await t.call("POST", "/api/retention/delete-user", { key, body: { user_id: "end-user-42" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // The user's trace is one roll-up row per grain (quarter, hour, day).
    expect(r.body.data_deletion.deleted).toMatchObject({ spans: 2, runs: 0, chat_sessions: 0, analytics_rollups: 3 });
    expect(await tablesHolding(`${MARK}-trace-161`)).toEqual({});
    expect(await tablesHolding(`${MARK}-trace-162`)).toEqual({});
    expect(await tablesHolding(`${MARK}-trace-163`)).toEqual({ spans: 1 });
    expect((await rollups())[0].n).toBe(0);
    // What the user's rows counted is also gone from the rows summed over users (detail 2).
    const after = await spansByDetail();
    expect(after[2]).toBe(after[1]);
    expect(after[2]).toBe(before[2] - 1);
    expect(await tablesHolding("end-user-42")).toEqual({ audit_log: 1 });
  });

  it("an account's id deletes the chat sessions it created and the runs it started", async () => {
    const before = await runsOf((await rawQuery<{ id: string }>(t.context.db, `select id from chat_sessions`))[0].id);
    expect(before).toHaveLength(2);
    const r = await t.call("POST", "/api/retention/delete-user", { key, body: { user_id: owner.userId } });
    expect(r.status).toBe(200);
    expect(r.body.data_deletion.deleted).toMatchObject({ chat_sessions: 1, runs: 2 });
    expect(await tablesHolding(`${MARK}-kept`)).toEqual({});
    const audit = await t.call("GET", "/api/audit?action=data.deleted", { key });
    expect(audit.body.audit_entries.map((e: { target: { type: string } }) => e.target.type)).toEqual([
      "user",
      "user",
      "chat_session",
      "chat_session",
    ]);
  });
});
