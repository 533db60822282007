import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, ingest, processQueue, setupTracing, spanId, traceId, type TracingCtx } from "./helpers";

/**
 * A delete answers after the trace is gone (issue: the delete used to be queued, so for about a
 * second the trace was still read and a second delete answered count 1 again). The ingest worker
 * does not run in the background here: anything still queued stays queued until processQueue.
 */
let c: TracingCtx;
beforeAll(async () => {
  c = await setupTracing();
});
afterAll(() => c.t.close());

const window = { oldest: "2026-02-03T00:00:00.000Z", newest: "2026-02-03T02:00:00.000Z", bucket: "hour" };
const runs = async () =>
  (await c.t.call("POST", "/api/analytics/query", { key: c.key, body: { windowing: window } })).body.metrics.count;

async function simpleTrace() {
  const created = await c.t.call("POST", "/api/simple/traces/", {
    key: c.key,
    body: { trace: { origin: "human", data: { outputs: { score: 4 } } } },
  });
  expectStatus(created, 202);
  const { trace_id, span_id } = created.body.trace as { trace_id: string; span_id: string };
  return { trace_id, span_id };
}

describe("DELETE /api/simple/traces/{id}", () => {
  it("is done when it answers: the trace is not read again and a second delete answers count 0", async () => {
    const trace = await simpleTrace();
    await processQueue(c);
    expect((await c.t.call("GET", `/api/simple/traces/${trace.trace_id}`, { key: c.key })).body.count).toBe(1);

    const deleted = await c.t.call("DELETE", `/api/simple/traces/${trace.trace_id}`, { key: c.key });
    expectStatus(deleted, 200);
    expect(deleted.body).toEqual({ count: 1, link: trace });
    // No worker pass in between.
    expect((await c.t.call("GET", `/api/simple/traces/${trace.trace_id}`, { key: c.key })).body).toEqual({ count: 0 });
    const again = await c.t.call("DELETE", `/api/simple/traces/${trace.trace_id}`, { key: c.key });
    expectStatus(again, 200);
    expect(again.body).toEqual({ count: 0 });
    // Nothing queued brings it back.
    await processQueue(c);
    expect((await c.t.call("GET", `/api/simple/traces/${trace.trace_id}`, { key: c.key })).body).toEqual({ count: 0 });
  });

  it("deletes a trace still waiting in the ingest queue, so the worker does not store it afterwards", async () => {
    const trace = await simpleTrace();
    const deleted = await c.t.call("DELETE", `/api/simple/traces/${trace.trace_id}`, { key: c.key });
    expect(deleted.body).toEqual({ count: 1, link: trace });
    await processQueue(c);
    expect((await c.t.call("GET", `/api/simple/traces/${trace.trace_id}`, { key: c.key })).body).toEqual({ count: 0 });
    expect((await c.t.call("DELETE", `/api/simple/traces/${trace.trace_id}`, { key: c.key })).body).toEqual({
      count: 0,
    });
  });

  it("takes only the deleted trace out of an upload queued with others, and out of the analytics roll-up", async () => {
    const [gone, kept, stored] = [traceId(), traceId(), traceId()];
    const span = (trace: string, minute: number) => ({
      trace_id: trace,
      span_id: spanId(),
      span_name: "invoke_agent a",
      start_time: `2026-02-03T00:${String(minute).padStart(2, "0")}:00Z`,
      end_time: `2026-02-03T00:${String(minute).padStart(2, "0")}:01Z`,
      attributes: { "gen_ai.operation.name": "invoke_agent" },
    });
    expectStatus(await ingest(c, { spans: [span(stored, 1)] }), 202);
    await processQueue(c);
    expect(await runs()).toBe(1);

    // One upload holding two traces, still queued, and a stored trace deleted with the worker idle.
    expectStatus(await ingest(c, { spans: [span(gone, 2), span(kept, 3)] }), 202);
    const deleted = await c.t.call("DELETE", `/api/tracing/traces/${gone}`, { key: c.key });
    expectStatus(deleted, 202);
    expect(deleted.body.count).toBe(1);
    expectStatus(await c.t.call("DELETE", `/api/tracing/traces/${stored}`, { key: c.key }), 202);
    expect(await runs()).toBe(0);

    await processQueue(c);
    const read = async (id: string) =>
      (await c.t.call("GET", `/api/tracing/traces/${id}`, { key: c.key })).body.count as number;
    expect([await read(gone), await read(kept), await read(stored)]).toEqual([0, 1, 0]);
    // The roll-up counts the one run left, as a scan of the spans does.
    expect(await runs()).toBe(1);
  });
});
