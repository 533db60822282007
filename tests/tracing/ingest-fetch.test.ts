import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, expectStatus, ingest, processQueue, setupTracing, spanId, traceId, type TracingCtx } from "./helpers";

let c: TracingCtx;
beforeAll(async () => {
  c = await setupTracing();
});
afterAll(() => c.t.close());

describe("span ingest and fetch", () => {
  it("accepts a flat list with 202, queues durably, and the worker makes the trace fetchable as a tree", async () => {
    const t = traceId();
    const root = spanId();
    const child = spanId();
    const res = await ingest(c, {
      spans: [
        {
          trace_id: t,
          span_id: root,
          span_name: "agent",
          start_time: "2026-04-16T18:18:18.491929Z",
          end_time: "2026-04-16T18:18:20Z",
          attributes: { "ag.type.span": "agent", "ag.session.id": "s1", "ag.user.id": "u1" },
        },
        {
          trace_id: t,
          span_id: child,
          parent_id: root,
          span_name: "chat",
          start_time: 1776363499000,
          end_time: 1776363499500,
          attributes: {
            "ag.type.span": "chat",
            "ag.metrics.tokens.incremental.prompt": 10,
            "ag.metrics.tokens.incremental.completion": 5,
          },
        },
      ],
    });
    expectStatus(res, 202);
    expect(res.body).toEqual({
      count: 2,
      links: [
        { trace_id: t, span_id: root },
        { trace_id: t, span_id: child },
      ],
    });

    const before = await c.t.call("GET", `/api/traces/${t}`, { key: c.key });
    expect(before.body).toEqual({ count: 0 });
    expect(await processQueue(c)).toBe(2);

    const fetched = await c.t.call("GET", `/api/traces/${t}`, { key: c.key });
    expectStatus(fetched, 200);
    expect(fetched.body.count).toBe(1);
    const agent = fetched.body.trace.spans.agent;
    expect(fetched.body.trace.trace_id).toBe(t);
    expect(agent.span_id).toBe(root);
    expect(agent.session_id).toBe("s1");
    expect(agent.user_id).toBe("u1");
    expect(agent.start_time).toBe("2026-04-16T18:18:18.491929Z");
    expect(agent.trace_type).toBe("invocation");
    expect(agent.attributes.ag.metrics.tokens.cumulative).toEqual({ prompt: 10, completion: 5 });
    const chat = agent.spans.chat;
    expect(chat.parent_id).toBe(root);
    expect(chat.span_type).toBe("chat");
    expect(chat.attributes.ag.metrics.duration.cumulative).toBe(500);
  });

  it("reports spans that do not parse in `dropped` and keeps the rest", async () => {
    const t = traceId();
    const good = spanId();
    const res = await ingest(c, {
      spans: [
        { trace_id: t, span_id: good, span_name: "ok", start_time: 1776363499 },
        { trace_id: "nothex", span_id: spanId() },
        { trace_id: t, span_id: "abc", start_time: 1776363499 },
        { trace_id: t, span_id: spanId(), start_time: 123456 },
        { trace_id: t, span_id: spanId(), span_kind: "SPAN_KIND_WEIRD" },
      ],
    });
    expectStatus(res, 202);
    expect(res.body.count).toBe(1);
    expect(res.body.dropped.map((d: { index: number }) => d.index)).toEqual([1, 2, 3, 4]);
    expect(res.body.dropped[0].reason).toMatch(/trace_id/);
    expect(res.body.dropped[2].reason).toMatch(/start_time/);
  });

  it("accepts the nested traces tree, with lists of same-named siblings at every level", async () => {
    const t = traceId();
    const root = spanId();
    const res = await ingest(c, {
      traces: {
        [t]: {
          spans: {
            workflow: {
              span_id: root,
              start_time: "2026-05-01T10:00:00Z",
              end_time: "2026-05-01T10:00:01Z",
              spans: {
                step: [
                  { span_id: spanId(), start_time: "2026-05-01T10:00:00.100Z" },
                  { span_id: spanId(), start_time: "2026-05-01T10:00:00.200Z" },
                ],
              },
            },
          },
        },
      },
    });
    expectStatus(res, 202);
    expect(res.body.count).toBe(3);
    await processQueue(c);
    const fetched = await c.t.call("GET", `/api/traces/${t}`, { key: c.key });
    expect(fetched.body.trace.spans.workflow.spans.step).toHaveLength(2);
    expect(fetched.body.trace.spans.workflow.spans.step[0].parent_id).toBe(root);
  });

  it("answers count 0 for a body with neither spans nor traces, 422 for a body that is not an object", async () => {
    expect((await ingest(c, {})).body).toEqual({ count: 0, links: [] });
    expectStatus(await ingest(c, [1, 2]), 422);
    expectStatus(await ingest(c, { spans: "x" }), 422);
    const bad = await c.t.call("POST", "/api/tracing/spans/ingest", {
      key: c.key,
      rawBody: "{nope",
      headers: { "content-type": "application/json" },
    });
    expectStatus(bad, 400);
  });

  it("re-ingesting a span replaces it, even with another start time (another partition)", async () => {
    const t = traceId();
    const s = spanId();
    await ingest(c, { spans: [{ trace_id: t, span_id: s, span_name: "first", start_time: "2026-03-02T00:00:00Z" }] });
    await processQueue(c);
    await ingest(c, { spans: [{ trace_id: t, span_id: s, span_name: "second", start_time: "2026-04-20T00:00:00Z" }] });
    await processQueue(c);
    const fetched = await c.t.call("GET", `/api/traces/${t}`, { key: c.key });
    expect(Object.keys(fetched.body.trace.spans)).toEqual(["second"]);
  });

  it("rolls tokens, cost and errors up from children to parents across batches", async () => {
    const t = traceId();
    const root = spanId();
    const mid = spanId();
    const leafA = spanId();
    const leafB = spanId();
    const at = (s: number) => `2026-06-01T00:00:0${s}Z`;
    // Children first, parent later, in three requests.
    await ingest(c, {
      spans: [
        {
          trace_id: t,
          span_id: leafA,
          parent_id: mid,
          span_name: "chat gpt-5",
          start_time: at(2),
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": "gpt-5",
            "gen_ai.provider.name": "openai",
            "gen_ai.usage.input_tokens": 1000,
            "gen_ai.usage.output_tokens": 100,
          },
        },
      ],
    });
    await processQueue(c);
    await ingest(c, {
      spans: [
        {
          trace_id: t,
          span_id: leafB,
          parent_id: mid,
          span_name: "tool",
          start_time: at(3),
          events: [{ name: "exception", timestamp: at(3), attributes: { message: "boom", type: "E" } }],
        },
      ],
    });
    await processQueue(c);
    await ingest(c, {
      spans: [
        { trace_id: t, span_id: root, span_name: "root", start_time: at(1) },
        { trace_id: t, span_id: mid, parent_id: root, span_name: "turn", start_time: at(1) },
      ],
    });
    await processQueue(c);
    const fetched = await c.t.call("GET", `/api/traces/${t}`, { key: c.key });
    const rootSpan = fetched.body.trace.spans.root;
    const metrics = rootSpan.attributes.ag.metrics;
    expect(metrics.tokens.cumulative).toEqual({ prompt: 1000, completion: 100, total: 1100 });
    expect(metrics.costs.cumulative.total).toBeCloseTo((1000 * 1.25 + 100 * 10) / 1e6, 12);
    expect(metrics.errors.cumulative).toBe(1);
    expect(rootSpan.spans.turn.spans.tool.exception.message).toBe("boom");
  });

  it("lists traces by repeated or comma-separated ids, newest first, and emits traces.fetched", async () => {
    const a = traceId();
    const b = traceId();
    await ingest(c, {
      spans: [
        { trace_id: a, span_id: spanId(), start_time: "2026-07-01T00:00:00Z" },
        { trace_id: b, span_id: spanId(), start_time: "2026-07-02T00:00:00Z" },
      ],
    });
    await processQueue(c);
    const repeated = await c.t.call("GET", `/api/traces/?trace_id=${a}&trace_id=${b}`, { key: c.key });
    expectStatus(repeated, 200);
    expect(repeated.body.traces.map((x: { trace_id: string }) => x.trace_id)).toEqual([b, a]);
    const csv = await c.t.call("GET", `/api/traces/?trace_ids=${a},${b}`, { key: c.key });
    expect(csv.body.count).toBe(2);
    expectStatus(await c.t.call("GET", "/api/traces/", { key: c.key }), 400);
    expectStatus(await c.t.call("GET", "/api/traces/?trace_id=zzz", { key: c.key }), 400);
    expectStatus(await c.t.call("GET", "/api/traces/zzz", { key: c.key }), 400);
    expectStatus(await c.t.call("GET", "/api/traces/query", { key: c.key }), 405);

    const fetched = await events(c, "traces.fetched");
    const listEvent = fetched.find((e) => Array.isArray(e.attributes.trace_ids) && e.attributes.trace_ids.includes(a));
    expect(listEvent?.attributes).toMatchObject({ count: 2, user_id: c.userId });
    const unknown = traceId();
    await c.t.call("GET", `/api/traces/?trace_id=${unknown}`, { key: c.key });
    const after = await events(c, "traces.fetched");
    expect(after.some((e) => JSON.stringify(e.attributes).includes(unknown))).toBe(false);
  });

  it("keeps projects apart", async () => {
    const t = traceId();
    await ingest(c, { spans: [{ trace_id: t, span_id: spanId(), start_time: "2026-07-01T00:00:00Z" }] });
    await processQueue(c);
    const other = await c.t.newProject("other");
    expect((await c.t.call("GET", `/api/traces/${t}`, { key: other.key })).body).toEqual({ count: 0 });
  });
});
