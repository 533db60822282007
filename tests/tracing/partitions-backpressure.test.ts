import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  dropExpiredPartitions,
  ensurePartitions,
  listPartitions,
  periodStart,
} from "@/server/tracing/store/partitions";
import { expectStatus, ingest, processQueue, setupTracing, spanId, traceId, type TracingCtx } from "./helpers";

const DAY = 86_400_000;

describe("partitions and retention", () => {
  let c: TracingCtx;
  beforeAll(async () => {
    c = await setupTracing({
      tracing: { maxBodyBytes: 10 << 20, maxBacklogSpans: 100_000, partitionPeriod: "week", retentionDays: 30 },
    });
  });
  afterAll(() => c.t.close());

  it("weekly partitions start on Monday (UTC); daily ones at midnight", () => {
    const wednesday = Date.UTC(2026, 10, 18, 15, 30);
    expect(new Date(periodStart(wednesday, "week")).toISOString()).toBe("2026-11-16T00:00:00.000Z");
    expect(new Date(periodStart(wednesday, "day")).toISOString()).toBe("2026-11-18T00:00:00.000Z");
  });

  it("the worker creates the partitions a batch needs; spans outside the accepted window are reported, not stored", async () => {
    const now = Date.now();
    const t = traceId();
    const res = await ingest(c, {
      spans: [
        { trace_id: t, span_id: spanId(), span_name: "recent", start_time: new Date(now - 20 * DAY).toISOString() },
        { trace_id: t, span_id: spanId(), span_name: "now", start_time: new Date(now).toISOString() },
        {
          trace_id: t,
          span_id: "1111111111111111",
          span_name: "too old",
          start_time: new Date(now - 60 * DAY).toISOString(),
        },
        {
          trace_id: t,
          span_id: "2222222222222222",
          span_name: "future",
          start_time: new Date(now + 30 * DAY).toISOString(),
        },
      ],
    });
    expectStatus(res, 202);
    expect(res.body.count).toBe(2);
    expect(res.body.dropped).toEqual([
      { span_id: "1111111111111111", reason: "start_time is older than the retention period (30 days)" },
      { span_id: "2222222222222222", reason: "start_time is more than 7 days in the future" },
    ]);
    await processQueue(c);
    const partitions = await listPartitions(c.t.context.db);
    const covers = (ms: number) => partitions.some((p) => p.from <= ms && ms < p.to);
    expect(covers(now - 20 * DAY)).toBe(true);
    expect(covers(now)).toBe(true);
    expect(partitions.every((p) => new Date(p.from).getUTCDay() === 1 && p.to - p.from === 7 * DAY)).toBe(true);
    expect((await c.t.call("GET", `/api/traces/${t}`, { key: c.key })).body.count).toBe(1);
  });

  it("retention drops whole partitions past the horizon and keeps the rest", async () => {
    const db = c.t.context.db;
    const old = Date.now() - 100 * DAY;
    await ensurePartitions(db, db, c.t.context.dbKind, [old], "week");
    expect((await listPartitions(db)).some((p) => p.from <= old && old < p.to)).toBe(true);
    const dropped = await dropExpiredPartitions(db, 30);
    expect(dropped.length).toBeGreaterThanOrEqual(1);
    const left = await listPartitions(db);
    expect(left.some((p) => p.from <= old && old < p.to)).toBe(false);
    expect(left.every((p) => p.to > Date.now() - 30 * DAY)).toBe(true);
  });

  it("a change of period fits new partitions around the existing ones", async () => {
    const db = c.t.context.db;
    const monday = periodStart(Date.now() + 3 * 7 * DAY, "week");
    await ensurePartitions(db, db, c.t.context.dbKind, [monday + 2 * DAY], "week");
    // Daily partitions for the days around that week: the week's own days are already covered.
    await ensurePartitions(db, db, c.t.context.dbKind, [monday - DAY / 2, monday + 7 * DAY + DAY / 2], "day");
    const partitions = (await listPartitions(db)).filter((p) => p.from >= monday - DAY && p.to <= monday + 8 * DAY);
    expect(partitions.map((p) => (p.to - p.from) / DAY)).toEqual([1, 7, 1]);
  });
});

describe("backpressure", () => {
  let c: TracingCtx;
  beforeAll(async () => {
    c = await setupTracing({ tracing: { maxBodyBytes: 10 << 20, maxBacklogSpans: 5, partitionPeriod: "week" } });
  });
  afterAll(() => c.t.close());

  it("answers 429 with Retry-After once the queue holds the limit, and accepts again when it has drained", async () => {
    const batch = (n: number) => ({
      spans: Array.from({ length: n }, () => ({ trace_id: traceId(), span_id: spanId() })),
    });
    expectStatus(await ingest(c, batch(5)), 202);
    const refused = await ingest(c, batch(1));
    expectStatus(refused, 429);
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(refused.body.code).toBe("ingest_backlog_full");
    const otlp = await c.t.handle(
      new Request("http://localhost/api/otlp/v1/traces", {
        method: "POST",
        headers: { authorization: `ApiKey ${c.key}`, "content-type": "application/json" },
        body: JSON.stringify({
          resourceSpans: [
            {
              scopeSpans: [
                {
                  spans: [
                    {
                      traceId: traceId(),
                      spanId: spanId(),
                      name: "x",
                      startTimeUnixNano: String(BigInt(Date.now()) * 1_000_000n),
                    },
                  ],
                },
              ],
            },
          ],
        }),
      }),
    );
    expect(otlp.status).toBe(429);
    expect(otlp.headers.get("retry-after")).toBe("2");
    expect(await processQueue(c)).toBe(5);
    expectStatus(await ingest(c, batch(1)), 202);
  });
});
