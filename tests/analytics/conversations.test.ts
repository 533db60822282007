import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, ingestSpans, runSpans, setupAnalytics, type AnalyticsCtx } from "./helpers";

// Two sessions of user u1 (s1: two turns, one failing; s2: one turn), one of u2, a run without a session.
const session = (id: string) => ({ "ag.session.id": id });
const runs = [
  runSpans({
    agent: "agent-a",
    model: "m",
    user: "u1",
    start: "2026-01-10T01:00:00.000Z",
    durationMs: 1000,
    attributes: session("s1"),
    tokens: { prompt: 10, completion: 5 },
    costs: { total: 0.25 },
  }),
  runSpans({
    agent: "agent-a",
    model: "m",
    user: "u1",
    start: "2026-01-10T01:05:00.000Z",
    durationMs: 3000,
    error: true,
    attributes: session("s1"),
    tokens: { prompt: 20, completion: 2 },
    costs: { prompt: 0.1, completion: 0.05 },
  }),
  runSpans({
    agent: "agent-b",
    model: "m",
    user: "u1",
    start: "2026-01-10T02:00:00.000Z",
    durationMs: 500,
    attributes: session("s2"),
    tokens: { total: 7 },
  }),
  runSpans({
    agent: "agent-a",
    model: "m",
    user: "u2",
    start: "2026-01-10T03:00:00.000Z",
    durationMs: 2000,
    attributes: session("s3"),
    costs: { total: 1 },
  }),
  runSpans({ agent: "agent-a", model: "m", start: "2026-01-10T04:00:00.000Z", durationMs: 100 }),
];
const window = { oldest: "2026-01-10T00:00:00.000Z", newest: "2026-01-11T00:00:00.000Z" };

let c: AnalyticsCtx;
beforeAll(async () => {
  c = await setupAnalytics();
  await ingestSpans(
    c,
    runs.flatMap((r) => r.spans),
  );
});
afterAll(() => c.t.close());

describe("sessions view (POST /api/analytics/sessions, GET /api/analytics/sessions/{id})", () => {
  it("lists sessions, most recent first, with their turns, errors, latency, cost and tokens", async () => {
    const res = await c.t.call("POST", "/api/analytics/sessions", { key: c.key, body: window });
    expectStatus(res, 200);
    expect(res.body.count).toBe(3);
    expect(res.body.sessions.map((s: { session_id: string }) => s.session_id)).toEqual(["s3", "s2", "s1"]);
    const s1 = res.body.sessions[2];
    expect(s1).toMatchObject({
      session_id: "s1",
      user_ids: ["u1"],
      runs: 2,
      errors: 1,
      first_at: "2026-01-10T01:00:00.000Z",
      last_at: "2026-01-10T01:05:03.000Z",
      latency_ms: { mean: 2000, max: 3000 },
      tokens: 37,
      agents: ["agent-a"],
      scores: { count: 0, verdict_count: 0 },
    });
    expect(s1.cost).toBeCloseTo(0.4, 12);
    expect(res.body.sessions[1]).toMatchObject({ session_id: "s2", tokens: 7, cost: 0, agents: ["agent-b"] });
  });

  it("narrows to one user and to the window; a window that ends before it starts is a 400", async () => {
    const u2 = await c.t.call("POST", "/api/analytics/sessions", { key: c.key, body: { ...window, user: "u2" } });
    expect(u2.body.sessions.map((s: { session_id: string }) => s.session_id)).toEqual(["s3"]);
    const early = await c.t.call("POST", "/api/analytics/sessions", {
      key: c.key,
      body: { oldest: window.oldest, newest: "2026-01-10T01:30:00.000Z" },
    });
    expect(early.body.sessions.map((s: { session_id: string }) => s.session_id)).toEqual(["s1"]);
    const bad = await c.t.call("POST", "/api/analytics/sessions", {
      key: c.key,
      body: { oldest: window.newest, newest: window.oldest },
    });
    expectStatus(bad, 400);
    expect(bad.body.code).toBe("bad_window");
  });

  it("shows a session's turns in order, each with its trace; an unknown session is a 404", async () => {
    const res = await c.t.call("GET", "/api/analytics/sessions/s1", { key: c.key });
    expectStatus(res, 200);
    expect(res.body.turns.map((t: { trace_id: string }) => t.trace_id.replaceAll("-", ""))).toEqual([
      runs[0].traceId,
      runs[1].traceId,
    ]);
    expect(res.body.turns[1]).toMatchObject({
      error: true,
      duration_ms: 3000,
      tokens: 22,
      user_id: "u1",
      agent: "agent-a",
    });
    expect(res.body.turns[1].cost).toBeCloseTo(0.15, 12);
    const missing = await c.t.call("GET", "/api/analytics/sessions/nope", { key: c.key });
    expectStatus(missing, 404);
    expect(missing.body.code).toBe("session_not_found");
  });

  it("is scoped to the caller's project", async () => {
    const other = await c.t.newProject("other");
    const list = await c.t.call("POST", "/api/analytics/sessions", { key: other.key, body: window });
    expect(list.body.count).toBe(0);
    expectStatus(await c.t.call("GET", "/api/analytics/sessions/s1", { key: other.key }), 404);
  });
});

describe("users view (POST /api/analytics/users)", () => {
  it("adds up each user's sessions and runs", async () => {
    const res = await c.t.call("POST", "/api/analytics/users", { key: c.key, body: window });
    expectStatus(res, 200);
    expect(res.body.users.map((u: { user_id: string }) => u.user_id)).toEqual(["u2", "u1"]);
    expect(res.body.users[1]).toMatchObject({
      user_id: "u1",
      sessions: 2,
      runs: 3,
      errors: 1,
      tokens: 44,
      agents: ["agent-a", "agent-b"],
      latency_ms: { mean: 1500, max: 3000 },
    });
    expect(res.body.users[1].cost).toBeCloseTo(0.4, 12);
    expect(res.body.users[0]).toMatchObject({ user_id: "u2", sessions: 1, runs: 1, cost: 1 });
  });
});
