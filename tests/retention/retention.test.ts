import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/server/auth";
import { rawQuery } from "@/server/db";
import { RETENTION_KINDS, retentionPass } from "@/server/retention";
import { drainIngestQueue, recordSpans } from "@/server/tracing";
import { createCaller, createContextFrom } from "@/server/trpc";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { countRows, DAY_MS, plantAged } from "./plant";

let t: TestApp;
let key: string;
let projectId: string;
let owner: Principal;
let agentId: string;
const callerFor = (principal: Principal) => createCaller(createContextFrom(t.context, { principal }));
const THIRTY_DAYS = {
  traces_days: 30,
  runs_days: 30,
  chat_sessions_days: 30,
  evaluation_results_days: 30,
  events_days: 30,
};

beforeAll(async () => {
  t = await createTestApp();
  const p = await t.newProject("retention");
  key = p.key;
  projectId = p.projectId;
  owner = { projectId, userId: p.userId, role: "owner" };
  agentId = (await callerFor(owner).agents.create({ name: "Kept a while" })).agent.id;
});
afterAll(() => t.close());

describe("retention settings API", () => {
  it("keeps everything by default", async () => {
    const r = await t.call("GET", "/api/retention/settings", { key });
    expect(r.status).toBe(200);
    expect(r.body.retention).toEqual({
      traces_days: null,
      runs_days: null,
      chat_sessions_days: null,
      evaluation_results_days: null,
      events_days: null,
    });
  });

  it("refuses bad values with a 4xx naming the field, and stores nothing", async () => {
    const bad: [unknown, RegExp][] = [
      [{ ...THIRTY_DAYS, runs_days: 0 }, /runs_days/],
      [{ ...THIRTY_DAYS, events_days: 1.5 }, /events_days/],
      [{ ...THIRTY_DAYS, traces_days: "30" }, /traces_days/],
      [{ ...THIRTY_DAYS, chat_sessions_days: 100_000 }, /chat_sessions_days/],
      [{ runs_days: 30 }, /traces_days/],
      [{ ...THIRTY_DAYS, spans_days: 3 }, /spans_days/],
    ];
    for (const [body, named] of bad) {
      const r = await t.call("PUT", "/api/retention/settings", { key, body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(r.body), JSON.stringify(body)).toMatch(named);
    }
    // Longer than the server's own partition drop would be a promise it cannot keep.
    const config = t.context.config;
    t.context.config = { ...config, tracing: { ...config.tracing, retentionDays: 10 } };
    try {
      const r = await t.call("PUT", "/api/retention/settings", { key, body: THIRTY_DAYS });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: "retention_exceeds_server" });
      expect(r.body.detail).toMatch(/traces_days.*10 days/);
    } finally {
      t.context.config = config;
    }
    expect((await t.call("GET", "/api/retention/settings", { key })).body.retention.runs_days).toBeNull();
    await expect(callerFor({ ...owner, role: "member" }).retention.set(THIRTY_DAYS)).rejects.toBeInstanceOf(TRPCError);
  });

  it("stores a change, answers it back, and audits it once with before and after", async () => {
    const r = await t.call("PUT", "/api/retention/settings", { key, body: { ...THIRTY_DAYS, events_days: null } });
    expect(r.status).toBe(200);
    expect((await t.call("GET", "/api/retention/settings", { key })).body.retention).toEqual({
      ...THIRTY_DAYS,
      events_days: null,
    });
    const audit = await t.call("GET", "/api/audit?action=retention_settings.updated", { key });
    expect(audit.body.audit_entries).toHaveLength(1);
    expect(audit.body.audit_entries[0]).toMatchObject({
      target: { type: "retention_settings", id: projectId },
      before: { runs_days: null },
      after: { runs_days: 30, events_days: null },
    });
    expect(audit.body.audit_entries[0].actor.type).toBe("api_key");
  });
});

describe("retention workers", () => {
  it("delete exactly what is past its age, in bounded batches, while writes go on", async () => {
    expect((await t.call("PUT", "/api/retention/settings", { key, body: THIRTY_DAYS })).status).toBe(200);
    const other = await t.newProject("untouched");
    const otherAgent = (
      await callerFor({ projectId: other.projectId, userId: other.userId, role: "owner" }).agents.create({ name: "x" })
    ).agent.id;
    const now = t.context.now().getTime();
    const old = [];
    for (let i = 0; i < 3; i++)
      old.push(await plantAged(t.context.db, projectId, agentId, new Date(now - 31 * DAY_MS)));
    const young = await plantAged(t.context.db, projectId, agentId, new Date(now - 29 * DAY_MS));
    // Another project without retention keeps its old rows.
    await plantAged(t.context.db, other.projectId, otherAgent, new Date(now - 400 * DAY_MS));
    const span = (i: number, ageDays: number) => ({
      trace_id: (ageDays * 1000 + i + 1).toString(16).padStart(32, "0"),
      span_id: (i + 1).toString(16).padStart(16, "0"),
      span_name: `s${i}`,
      start_time: new Date(now - ageDays * DAY_MS).toISOString(),
      end_time: new Date(now - ageDays * DAY_MS + 1000).toISOString(),
    });
    await recordSpans(
      t.context.db,
      projectId,
      [...Array.from({ length: 25 }, (_, i) => span(i, 31)), ...Array.from({ length: 4 }, (_, i) => span(i, 29))],
      { config: t.context.config.tracing },
    );
    // A span of the project without retention in the old spans' partition: it is kept, so the
    // partition is not dropped and the old spans are deleted by rows.
    await recordSpans(t.context.db, other.projectId, [span(0, 31)], { config: t.context.config.tracing });
    await drainIngestQueue(t.context);
    const before = await countRows(t.context.db, projectId);
    expect(before).toMatchObject({ spans: 29, runs: 4, run_events: 8, chat_sessions: 4, results: 4, deliveries: 4 });

    // A writer keeps adding current rows of every kind between the passes.
    let writes = 0;
    const write = async () => {
      await plantAged(t.context.db, projectId, agentId, new Date());
      await recordSpans(t.context.db, projectId, [span(100 + writes, 0)], { config: t.context.config.tracing });
      await drainIngestQueue(t.context);
      writes++;
    };
    const BATCH = 7;
    const passes: Record<string, number[]> = {};
    for (const kind of RETENTION_KINDS) {
      passes[kind.name] = [];
      for (;;) {
        const [deleted] = await Promise.all([retentionPass(t.context, kind, { batch: BATCH }), write()]);
        passes[kind.name].push(deleted);
        if (deleted === 0) break;
      }
    }
    // One statement per project and pass, each at most a batch: 25 old spans take 7, 7, 7, 4; then
    // the 25 old traces' bounds rows (trace_bounds) the same way, and no session bounds.
    expect(passes.traces).toEqual([7, 7, 7, 4, 7, 7, 7, 4, 0]);
    // Children first: the 6 log batches (7 is a batch), then the 3 runs.
    expect(passes.runs).toEqual([6, 3, 0]);
    expect(passes["chat-sessions"]).toEqual([3, 0]);
    expect(passes["evaluation-results"]).toEqual([3, 3, 0]);
    expect(passes.events).toEqual([3, 3, 0]);

    const after = await countRows(t.context.db, projectId);
    expect(after).toEqual({
      spans: 4 + writes,
      runs: 1 + writes,
      run_events: 2 * (1 + writes),
      chat_sessions: 1 + writes,
      // The evaluation and its summary stay; its scenarios and results go.
      evaluations: 4 + writes,
      scenarios: 1 + writes,
      results: 1 + writes,
      // The agent's commit event is recent (and not yet fanned out).
      events: before.events - 3 + writes,
      deliveries: 1 + writes,
    });
    const gone = await rawQuery<{ n: number }>(
      t.context.db,
      `select (select count(*) from agent_runs where id = any($1::text[]))
            + (select count(*) from chat_sessions where id = any($2::text[]))
            + (select count(*) from events where id = any($3::uuid[])) as n`,
      [old.map((o) => o.runId), old.map((o) => o.sessionId), old.map((o) => o.eventId)],
    );
    expect(Number(gone[0].n)).toBe(0);
    expect(await countRows(t.context.db, other.projectId)).toMatchObject({
      runs: 1,
      chat_sessions: 1,
      results: 1,
      deliveries: 1,
    });

    // Two days later the young rows are past 30 days too (the clock is injected, nothing waits).
    t.advanceClock(2 * DAY_MS);
    for (const kind of RETENTION_KINDS) while ((await retentionPass(t.context, kind)) > 0);
    const [left] = await rawQuery<{ n: number }>(
      t.context.db,
      `select count(*)::int as n from agent_runs where id = $1`,
      [young.runId],
    );
    expect(left.n).toBe(0);
    expect((await countRows(t.context.db, projectId)).spans).toBe(writes);
  });
});

describe("retention by partition", () => {
  it("drops a spans partition whose every project is past its horizon, and deletes by rows where one is not", async () => {
    const traces = RETENTION_KINDS.find((k) => k.name === "traces")!;
    const limited = await Promise.all(["limited-a", "limited-b"].map((name) => t.newProject(name)));
    for (const p of limited)
      await callerFor({ projectId: p.projectId, userId: p.userId, role: "owner" }).retention.set({
        ...THIRTY_DAYS,
        traces_days: 20,
      });
    const keeper = await t.newProject("keeps-spans");
    const now = t.context.now().getTime();
    const at = (days: number) => new Date(now - days * DAY_MS);
    const spanAt = (days: number, i: number) => ({
      trace_id: (900_000 + days * 100 + i).toString(16).padStart(32, "0"),
      span_id: (i + 1).toString(16).padStart(16, "0"),
      span_name: `aged ${days}`,
      start_time: at(days).toISOString(),
      end_time: new Date(at(days).getTime() + 1000).toISOString(),
    });
    const record = (projectId: string, spans: ReturnType<typeof spanAt>[]) =>
      recordSpans(t.context.db, projectId, spans, { config: t.context.config.tracing });
    // 60 days old: only the two limited projects; 80 days old: one of them and the keeper.
    await record(limited[0].projectId, [spanAt(60, 0), spanAt(60, 1), spanAt(80, 0), spanAt(5, 0)]);
    await record(limited[1].projectId, [spanAt(60, 2)]);
    await record(keeper.projectId, [spanAt(80, 1)]);
    await drainIngestQueue(t.context);
    const partitionOf = async (days: number) => {
      const [row] = await rawQuery<{ name: string | null }>(
        t.context.db,
        `select (select c.relname::text from pg_inherits i join pg_class c on c.oid = i.inhrelid
           where i.inhparent = 'public.spans'::regclass
             and $1::timestamptz >= (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \\(''([^'']+)''\\)'))[1]::timestamptz
             and $1::timestamptz < (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \\(''([^'']+)''\\)'))[1]::timestamptz) as name`,
        [at(days).toISOString()],
      );
      return row.name;
    };
    const spansOf = async (projectId: string) =>
      (
        await rawQuery<{ name: string }>(
          t.context.db,
          `select span_name as name from spans where project_id = $1 order by span_name`,
          [projectId],
        )
      ).map((r) => r.name);
    const sixty = await partitionOf(60);
    expect(sixty).not.toBeNull();
    expect(await partitionOf(80)).not.toBeNull();

    while ((await retentionPass(t.context, traces)) > 0);
    // The 60-day partition went whole; the 80-day one stays for the keeper, without the limited span.
    expect(await partitionOf(60)).toBeNull();
    expect(await partitionOf(80)).not.toBeNull();
    expect(await spansOf(limited[0].projectId)).toEqual(["aged 5"]);
    expect(await spansOf(limited[1].projectId)).toEqual([]);
    expect(await spansOf(keeper.projectId)).toEqual(["aged 80"]);
    // A span arriving late for the dropped period gets its partition again.
    await record(keeper.projectId, [spanAt(60, 3)]);
    await drainIngestQueue(t.context);
    expect(await spansOf(keeper.projectId)).toEqual(["aged 60", "aged 80"]);
  });
});

describe.skipIf(process.env.DATABASE_URL === undefined)("retention beside a writer (PostgreSQL)", () => {
  it("skips a row a writer holds instead of waiting for it, and deletes it once the writer is done", async () => {
    const p = await t.newProject("held");
    const principal: Principal = { projectId: p.projectId, userId: p.userId, role: "owner" };
    await callerFor(principal).retention.set({ ...THIRTY_DAYS, traces_days: null });
    const agent = (await callerFor(principal).agents.create({ name: "held" })).agent.id;
    const old = new Date(t.context.now().getTime() - 40 * DAY_MS);
    const held = await plantAged(t.context.db, p.projectId, agent, old);
    const free = await plantAged(t.context.db, p.projectId, agent, old);
    const sessions = RETENTION_KINDS.find((k) => k.name === "chat-sessions")!;
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const writer = t.context.db.transaction(async (tx) => {
      await rawQuery(tx, `select 1 from chat_sessions where project_id = $1 and id = $2 for update`, [
        p.projectId,
        held.sessionId,
      ]);
      locked();
      await new Promise<void>((resolve) => (release = resolve));
      await rawQuery(tx, `update chat_sessions set title = 'still writing' where project_id = $1 and id = $2`, [
        p.projectId,
        held.sessionId,
      ]);
    });
    await isLocked;
    // The pass ends while the writer still holds its row: it was skipped, not waited for.
    expect(await retentionPass(t.context, sessions)).toBe(1);
    const ids = async () =>
      (
        await rawQuery<{ id: string }>(t.context.db, `select id from chat_sessions where project_id = $1`, [
          p.projectId,
        ])
      ).map((r) => r.id);
    expect(await ids()).toEqual([held.sessionId]);
    expect(await ids()).not.toContain(free.sessionId);
    release();
    await writer;
    expect(await retentionPass(t.context, sessions)).toBe(1);
    expect(await ids()).toEqual([]);
  });
});
