import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawQuery } from "@/server/db";
import { actorIdsSql } from "@/server/tracing/actor-ids";
import { expectStatus, ingest, processQueue, setupTracing, spanId, traceId, type TracingCtx } from "./helpers";

let c: TracingCtx;
let other: { key: string; projectId: string };
beforeAll(async () => {
  c = await setupTracing();
  other = await c.t.newProject("other");
});
afterAll(() => c.t.close());

const at = (m: number, s = 0) => `2026-08-02T00:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}Z`;

describe("GET /spans/", () => {
  it("answers spans by trace and span id, {count: 0} on a miss, nothing to another project", async () => {
    const t = traceId();
    const [root, child] = [spanId(), spanId()];
    expectStatus(
      await ingest(c, {
        spans: [
          { trace_id: t, span_id: root, span_name: "root", start_time: at(1), end_time: at(2) },
          { trace_id: t, span_id: child, parent_id: root, span_name: "child", start_time: at(1, 5), end_time: at(2) },
        ],
      }),
      202,
    );
    await processQueue(c);
    const one = await c.t.call("GET", `/api/spans/${t}/${child}`, { key: c.key });
    expectStatus(one, 200);
    expect(one.body.count).toBe(1);
    expect(one.body.span).toMatchObject({ trace_id: t, span_id: child, span_name: "child" });
    expect((await c.t.call("GET", `/api/spans/${t}/${spanId()}`, { key: c.key })).body).toEqual({ count: 0 });
    expect((await c.t.call("GET", `/api/spans/${t}/${child}`, { key: other.key })).body).toEqual({ count: 0 });

    const all = await c.t.call("GET", `/api/spans/?trace_id=${t}`, { key: c.key });
    expectStatus(all, 200);
    expect(all.body.spans.map((s: { span_id: string }) => s.span_id)).toEqual([root, child]);
    const named = await c.t.call("GET", `/api/spans/?trace_id=${t}&span_id=${root}`, { key: c.key });
    expect(named.body).toMatchObject({ count: 1, spans: [{ span_id: root }] });
    expect((await c.t.call("GET", `/api/spans/?trace_ids=${t}`, { key: other.key })).body).toEqual({
      count: 0,
      spans: [],
    });
  });

  it("refuses bad or missing ids with a 400 naming them", async () => {
    const missing = await c.t.call("GET", `/api/spans/?span_id=${spanId()}`, { key: c.key });
    expectStatus(missing, 400);
    expect(JSON.stringify(missing.body)).toContain("trace_id");
    const badSpan = await c.t.call("GET", `/api/spans/${traceId()}/xyz`, { key: c.key });
    expectStatus(badSpan, 400);
    expect(JSON.stringify(badSpan.body)).toContain("span_id");
    expectStatus(await c.t.call("GET", `/api/spans/nothex/${spanId()}`, { key: c.key }), 400);
  });
});

describe("POST /spans/sessions/query, /spans/users/query", () => {
  let p: TracingCtx;
  beforeAll(async () => {
    p = { ...c, ...(await c.t.newProject("sessions")) };
    const span = (t: string, m: number, attributes: Record<string, unknown>, parent?: string) => ({
      trace_id: t,
      span_id: spanId(),
      parent_id: parent ?? null,
      span_name: "s",
      start_time: at(m),
      end_time: at(m, 30),
      attributes,
    });
    const [t1, t2, t3] = [traceId(), traceId(), traceId()];
    const root = span(t3, 5, {});
    // s1 first at 1, s2 at 2 and 6, s3 (a child span only) at 3, s4 at 4 (tied with s5 at 4).
    expectStatus(
      await ingest(p, {
        spans: [
          span(t1, 1, { "ag.session.id": "s1", "ag.user.id": "u1" }),
          span(t2, 2, { "ag.session.id": "s2", "ag.user.id": "u2" }),
          span(traceId(), 6, { "ag.session.id": "s2" }),
          root,
          span(t3, 3, { "ag.session.id": "s3" }, root.span_id),
          span(traceId(), 4, { "ag.session.id": "s4" }),
          span(traceId(), 4, { "ag.session.id": "s5" }),
        ],
      }),
      202,
    );
    await processQueue(p);
  });

  const sessions = (body: unknown, key = p.key, path = "/api/spans/sessions/query") =>
    c.t.call("POST", path, { key, body });

  it("lists distinct ids by first activity, newest first, any span carrying one; scoped to the project", async () => {
    const res = await sessions({});
    expectStatus(res, 200);
    expect(res.body).toEqual({ count: 5, session_ids: ["s5", "s4", "s3", "s2", "s1"] });
    expect((await sessions({ realtime: true })).body.session_ids).toEqual(["s2", "s5", "s4", "s3", "s1"]);
    expect((await sessions({}, p.key, "/api/tracing/sessions/query")).body.count).toBe(5);
    expect((await sessions({}, other.key)).body).toEqual({ count: 0, session_ids: [] });
    const users = await c.t.call("POST", "/api/spans/users/query", { key: p.key, body: {} });
    expect(users.body).toEqual({ count: 2, user_ids: ["u2", "u1"] });
    expect((await c.t.call("POST", "/api/tracing/users/query", { key: other.key, body: {} })).body.count).toBe(0);
  });

  it("pages with the returned windowing, without skipping ties or repeating ids", async () => {
    const seen: string[] = [];
    // limit 1: s5 and s4 share their activity time, across the first page's end.
    let windowing: Record<string, unknown> | undefined = { limit: 1, newest: at(30) };
    for (let i = 0; i < 10 && windowing; i++) {
      const res = await sessions({ windowing });
      expectStatus(res, 200);
      seen.push(...res.body.session_ids);
      if (res.body.windowing) expect(res.body.windowing).toMatchObject({ limit: 1, order: "descending" });
      windowing = res.body.windowing;
    }
    expect(seen).toEqual(["s5", "s4", "s3", "s2", "s1"]);
    const asc = await sessions({ windowing: { limit: 2, order: "ascending", oldest: at(0) } });
    expect(asc.body.session_ids).toEqual(["s1", "s2"]);
    expect(asc.body.windowing).toMatchObject({ oldest: "2026-08-02T00:02:00.000000Z", order: "ascending" });
    const next = await sessions({ windowing: asc.body.windowing });
    expect(next.body.session_ids).toEqual(["s3", "s4"]);
  });

  it("reads only the spans naming an id (the partial index of drizzle/0052), not every span", async () => {
    for (const kind of ["session", "user"] as const) {
      const page = { realtime: false, ascending: false, limit: 10 };
      for (const s of [
        actorIdsSql(p.projectId, kind, page),
        actorIdsSql(p.projectId, kind, { ...page, oldest: at(0), newest: at(30) }),
      ]) {
        // Without a sequential scan to fall back on, the key index is the cheapest way only if the
        // statement's condition implies its predicate; else the project's time index is taken.
        const plan = await p.t.context.db.transaction(async (tx) => {
          await rawQuery(tx, "set local enable_seqscan = off");
          return rawQuery<Record<string, string>>(tx, `explain ${s.text}`, s.params);
        });
        const parts = await rawQuery<{ name: string }>(
          p.t.context.db,
          `select inhrelid::regclass::text as name from pg_inherits where inhparent = $1::regclass`,
          ["spans_actor_key_idx"],
        );
        const text = plan.map((r) => Object.values(r)[0]).join("\n");
        expect(parts.length).toBeGreaterThan(0);
        expect(
          parts.some((part) => text.includes(part.name)),
          text,
        ).toBe(true);
        expect(text).not.toMatch(/Seq Scan on spans/);
      }
    }
  });

  it("refuses bad windowing or unknown fields with a 4xx", async () => {
    expectStatus(await sessions({ windowing: { limit: "x" } }), 400);
    expectStatus(await sessions({ windowing: { next: "garbage" } }), 400);
    // The reference answers every id for a limit of 0: never one id instead.
    expectStatus(await sessions({ windowing: { limit: 0 } }), 400);
    expectStatus(await sessions({ filtering: {} }), 422);
  });
});

describe("POST /traces/, PUT and DELETE /traces/{id}", () => {
  it("creates, replaces and deletes one trace, 202 {count, trace_id}; another project cannot delete it", async () => {
    const t = traceId();
    const created = await c.t.call("POST", "/api/traces/", {
      key: c.key,
      body: { trace: { trace_id: t, spans: { first: { span_id: spanId(), start_time: at(10), end_time: at(11) } } } },
    });
    expectStatus(created, 202);
    expect(created.body).toEqual({ count: 1, trace_id: t });
    await processQueue(c);
    expect(Object.keys((await c.t.call("GET", `/api/traces/${t}`, { key: c.key })).body.trace.spans)).toEqual([
      "first",
    ]);

    const replaced = await c.t.call("PUT", `/api/traces/${t}`, {
      key: c.key,
      body: { trace: { trace_id: t, spans: { second: { span_id: spanId(), start_time: at(12), end_time: at(13) } } } },
    });
    expectStatus(replaced, 202);
    expect(replaced.body).toEqual({ count: 1, trace_id: t });
    await processQueue(c);
    expect(Object.keys((await c.t.call("GET", `/api/traces/${t}`, { key: c.key })).body.trace.spans)).toEqual([
      "second",
    ]);

    const mismatch = await c.t.call("PUT", `/api/traces/${traceId()}`, {
      key: c.key,
      body: { trace: { trace_id: t, spans: { x: { span_id: spanId(), start_time: at(14) } } } },
    });
    expectStatus(mismatch, 400);
    expect(mismatch.body.code ?? JSON.stringify(mismatch.body)).toContain("trace_id_mismatch");

    expect((await c.t.call("DELETE", `/api/traces/${t}`, { key: other.key })).body).toEqual({ count: 0, trace_id: t });
    expect((await c.t.call("GET", `/api/traces/${t}`, { key: c.key })).body.count).toBe(1);
    const deleted = await c.t.call("DELETE", `/api/traces/${t}`, { key: c.key });
    expectStatus(deleted, 202);
    expect(deleted.body).toEqual({ count: 1, trace_id: t });
    expect((await c.t.call("GET", `/api/traces/${t}`, { key: c.key })).body).toEqual({ count: 0 });
    expect((await c.t.call("DELETE", `/api/traces/${t}`, { key: c.key })).body).toEqual({ count: 0, trace_id: t });
  });

  it("refuses a body without a trace, a bad trace id, or a bad path id with a 4xx", async () => {
    expectStatus(await c.t.call("POST", "/api/traces/", { key: c.key, body: { spans: [] } }), 422);
    expectStatus(
      await c.t.call("POST", "/api/traces/", { key: c.key, body: { trace: { trace_id: "nope", spans: {} } } }),
      400,
    );
    expectStatus(await c.t.call("DELETE", "/api/traces/nope", { key: c.key }), 400);
    expectStatus(await c.t.call("PUT", "/api/traces/nope", { key: c.key, body: { trace: { spans: {} } } }), 400);
  });
});
