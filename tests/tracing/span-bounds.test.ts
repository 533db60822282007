import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawQuery } from "@/server/db";
import { dropExpiredPartitions, listPartitions } from "@/server/tracing/store/partitions";
import { expectStatus, ingest, processQueue, setupTracing, spanId, traceId, type TracingCtx } from "./helpers";

const DAY = 86_400_000;
const dashed = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/**
 * Reads by trace id and by session id take their time range from trace_bounds / session_bounds
 * (server/tracing/store/span-bounds.ts) and read only the partitions of spans it covers: they must
 * still find every span of a trace or session whose spans lie in several partitions, and sent
 * in several requests.
 */
describe("trace and session bounds", () => {
  let c: TracingCtx;
  // Daily partitions: yesterday's last second and today's first are in two of them.
  const midnight = Math.floor(Date.now() / DAY) * DAY;
  const before = new Date(midnight - 1000).toISOString();
  const after = new Date(midnight + 1000).toISOString();

  beforeAll(async () => {
    c = await setupTracing({
      tracing: { maxBodyBytes: 10 << 20, maxBacklogSpans: 100_000, partitionPeriod: "day", retentionDays: 30 },
    });
  });
  afterAll(() => c.t.close());

  const bounds = async (table: "trace_bounds" | "session_bounds", key: string, id: string) =>
    rawQuery<{ first_start: string; last_start: string }>(
      c.t.context.db,
      `select to_json(first_start) #>> '{}' as first_start, to_json(last_start) #>> '{}' as last_start
         from ${table} where project_id = $1::uuid and ${key}::text = $2`,
      [c.projectId, id],
    );

  it("a trace across a partition boundary, sent in two requests, is fetched whole", async () => {
    const t = traceId();
    const root = spanId();
    expectStatus(
      await ingest(c, { spans: [{ trace_id: t, span_id: root, span_name: "root", start_time: before }] }),
      202,
    );
    await processQueue(c);
    const child = { trace_id: t, span_id: spanId(), parent_id: root, span_name: "child", start_time: after };
    expectStatus(await ingest(c, { spans: [child] }), 202);
    await processQueue(c);

    const partitions = await listPartitions(c.t.context.db);
    const holding = (iso: string) => partitions.find((p) => p.from <= Date.parse(iso) && Date.parse(iso) < p.to)?.name;
    expect(holding(before)).not.toBe(holding(after));

    const fetched = await c.t.call("GET", `/api/traces/${t}`, { key: c.key });
    expectStatus(fetched, 200);
    expect(fetched.body.count).toBe(1);
    expect(fetched.body.trace.spans.root.spans.child).toBeDefined();
    const [row] = await bounds("trace_bounds", "trace_id", dashed(t));
    expect([Date.parse(row.first_start), Date.parse(row.last_start)]).toEqual([Date.parse(before), Date.parse(after)]);

    // The same read through the query language (trace_id is) and a list of ids.
    const queried = await c.t.call("POST", "/api/traces/query", {
      key: c.key,
      body: { filtering: { conditions: [{ field: "trace_id", value: t }] } },
    });
    expectStatus(queried, 200);
    expect(queried.body.traces).toHaveLength(1);
    expect(queried.body.traces[0].spans.root.spans.child).toBeDefined();
  });

  it("a session's traces on both sides of a boundary are found, by is and by in; an unknown session finds none", async () => {
    const session = `bounds-session-${Date.now()}`;
    const [a, b] = [traceId(), traceId()];
    expectStatus(
      await ingest(c, {
        spans: [{ trace_id: a, span_id: spanId(), span_name: "first", start_time: before, session_id: session }],
      }),
      202,
    );
    await processQueue(c);
    expectStatus(
      await ingest(c, {
        spans: [{ trace_id: b, span_id: spanId(), span_name: "second", start_time: after, session_id: session }],
      }),
      202,
    );
    await processQueue(c);
    const [row] = await bounds("session_bounds", "session_id", session);
    expect([Date.parse(row.first_start), Date.parse(row.last_start)]).toEqual([Date.parse(before), Date.parse(after)]);

    const query = async (condition: Record<string, unknown>, focus: "trace" | "span" = "trace") => {
      const res = await c.t.call("POST", focus === "trace" ? "/api/traces/query" : "/api/spans/query", {
        key: c.key,
        body: { filtering: { operator: "and", conditions: [condition] } },
      });
      expectStatus(res, 200);
      return res.body;
    };
    const ids = (body: { traces: { trace_id: string }[] }) => body.traces.map((x) => x.trace_id).sort();
    expect(ids(await query({ field: "session_id", value: session }))).toEqual([a, b].sort());
    expect(ids(await query({ field: "session_id", operator: "in", value: [session, "no-such-session"] }))).toEqual(
      [a, b].sort(),
    );
    expect((await query({ field: "session_id", value: session }, "span")).spans).toHaveLength(2);
    expect((await query({ field: "session_id", value: "no-such-session" })).traces).toEqual([]);
    // A session and a trace id together: the ranges intersect, the trace is still found.
    const both = await c.t.call("POST", "/api/traces/query", {
      key: c.key,
      body: {
        filtering: {
          conditions: [
            { field: "session_id", value: session },
            { field: "trace_id", value: b },
          ],
        },
      },
    });
    expect(ids(both.body)).toEqual([b]);
    // Under `or`, nothing is required: the read is not bounded, and both still match.
    const either = await c.t.call("POST", "/api/traces/query", {
      key: c.key,
      body: {
        filtering: {
          operator: "or",
          conditions: [
            { field: "session_id", value: "no-such-session" },
            { field: "trace_id", value: a },
          ],
        },
      },
    });
    expect(ids(either.body)).toEqual([a]);
  });

  it("a span re-sent with a later start moves the trace's range; a deleted trace forgets it and can be sent again", async () => {
    const created = await c.t.call("POST", "/api/simple/traces/", {
      key: c.key,
      body: { trace: { origin: "human", data: { outputs: { answer: 1 } } } },
    });
    expectStatus(created, 202);
    await processQueue(c);
    const t = created.body.trace.trace_id as string;
    const [row] = await bounds("trace_bounds", "trace_id", dashed(t));
    expect(row).toBeDefined();
    expectStatus(await c.t.call("DELETE", `/api/simple/traces/${t}`, { key: c.key }), 200);
    expect(await bounds("trace_bounds", "trace_id", dashed(t))).toEqual([]);
    expect((await c.t.call("GET", `/api/traces/${t}`, { key: c.key })).body).toEqual({ count: 0 });

    const span = { trace_id: t, span_id: spanId(), span_name: "again", start_time: before };
    expectStatus(await ingest(c, { spans: [span] }), 202);
    await processQueue(c);
    expectStatus(await ingest(c, { spans: [{ ...span, start_time: after }] }), 202);
    await processQueue(c);
    const fetched = await c.t.call("GET", `/api/traces/${t}`, { key: c.key });
    expect(fetched.body.count).toBe(1);
    expect(Date.parse(fetched.body.trace.spans.again.start_time)).toBe(Date.parse(after));
    const [moved] = await bounds("trace_bounds", "trace_id", dashed(t));
    expect(Date.parse(moved.last_start)).toBe(Date.parse(after));
  });

  it("dropping partitions past the retention horizon forgets the bounds that end before them", async () => {
    const db = c.t.context.db;
    const count = async (table: string) =>
      (
        await rawQuery<{ n: number }>(db, `select count(*)::int as n from ${table} where project_id = $1::uuid`, [
          c.projectId,
        ])
      )[0].n;
    expect(await count("trace_bounds")).toBeGreaterThan(0);
    expect(await count("session_bounds")).toBeGreaterThan(0);
    // Seen from 40 days ahead with a 30-day horizon, every partition holding these spans is past it.
    const dropped = await dropExpiredPartitions(db, 30, Date.now() + 40 * DAY);
    expect(dropped.length).toBeGreaterThan(0);
    expect(await count("trace_bounds")).toBe(0);
    expect(await count("session_bounds")).toBe(0);
  });
});
