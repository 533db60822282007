import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordSpans } from "@/server/tracing";
import { expectStatus, processQueue, setupTracing, spanId, traceId, type TracingCtx } from "./helpers";

let c: TracingCtx;
beforeAll(async () => {
  c = await setupTracing();
});
afterAll(() => c.t.close());

const at = (s: number) => `2026-08-01T00:00:${String(s).padStart(2, "0")}Z`;

describe("deprecated single-trace endpoints", () => {
  it("POST /tracing/traces/ takes exactly one trace", async () => {
    const t = traceId();
    const ok = await c.t.call("POST", "/api/tracing/traces/", {
      key: c.key,
      body: { spans: [{ trace_id: t, span_id: spanId(), start_time: at(1) }] },
    });
    expectStatus(ok, 202);
    expect(ok.body.count).toBe(1);
    const two = await c.t.call("POST", "/api/tracing/traces/", {
      key: c.key,
      body: {
        spans: [
          { trace_id: traceId(), span_id: spanId() },
          { trace_id: traceId(), span_id: spanId() },
        ],
      },
    });
    expectStatus(two, 400);
    expect(two.body.code).toBe("not_one_trace");
    expectStatus(await c.t.call("POST", "/api/tracing/traces/", { key: c.key, body: {} }), 400);
  });

  it("PUT /tracing/traces/{id} replaces the trace's spans; a path id other than the payload's, or two traces, is 400", async () => {
    const t = traceId();
    const [a, b, x] = [spanId(), spanId(), spanId()];
    await c.t.call("POST", "/api/tracing/spans/ingest", {
      key: c.key,
      body: {
        spans: [
          { trace_id: t, span_id: a, span_name: "a", start_time: at(1) },
          { trace_id: t, span_id: b, span_name: "b", parent_id: a, start_time: at(2) },
        ],
      },
    });
    await processQueue(c);
    const put = await c.t.call("PUT", `/api/tracing/traces/${t}`, {
      key: c.key,
      body: {
        spans: [
          { trace_id: t, span_id: a, span_name: "a2", start_time: at(1) },
          { trace_id: t, span_id: x, span_name: "x", parent_id: a, start_time: at(3) },
        ],
      },
    });
    expectStatus(put, 202);
    expect(put.body.count).toBe(2);
    await processQueue(c);
    const fetched = await c.t.call("GET", `/api/traces/${t}`, { key: c.key });
    expect(Object.keys(fetched.body.trace.spans)).toEqual(["a2"]);
    expect(Object.keys(fetched.body.trace.spans.a2.spans)).toEqual(["x"]);

    const mismatch = await c.t.call("PUT", `/api/tracing/traces/${traceId()}`, {
      key: c.key,
      body: { spans: [{ trace_id: t, span_id: a }] },
    });
    expectStatus(mismatch, 400);
    expect(mismatch.body.code).toBe("trace_id_mismatch");
    const two = await c.t.call("PUT", `/api/tracing/traces/${t}`, {
      key: c.key,
      body: {
        spans: [
          { trace_id: t, span_id: a },
          { trace_id: traceId(), span_id: b },
        ],
      },
    });
    expectStatus(two, 400);
    expect(two.body.code).toBe("not_one_trace");
    // Dashed UUID form of the same id is the same trace.
    const dashed = `${t.slice(0, 8)}-${t.slice(8, 12)}-${t.slice(12, 16)}-${t.slice(16, 20)}-${t.slice(20)}`;
    expectStatus(
      await c.t.call("PUT", `/api/tracing/traces/${dashed}`, {
        key: c.key,
        body: { spans: [{ trace_id: `0x${t}`, span_id: a, start_time: at(1) }] },
      }),
      202,
    );
  });
});

describe("simple traces", () => {
  it("POST /simple/traces/ makes one annotation span with flags, references and named links", async () => {
    const target = { trace_id: traceId(), span_id: spanId() };
    const res = await c.t.call("POST", "/api/simple/traces/", {
      key: c.key,
      body: {
        trace: {
          origin: "human",
          kind: "adhoc",
          channel: "api",
          data: { outputs: { score: 5 } },
          references: { evaluator: { slug: "user-feedback" } },
          links: { invocation: target },
        },
      },
    });
    expectStatus(res, 202);
    expect(res.body.count).toBe(1);
    await processQueue(c);
    const fetched = await c.t.call("GET", `/api/traces/${res.body.trace.trace_id}`, { key: c.key });
    const span = fetched.body.trace.spans["user-feedback"];
    expect(span.trace_type).toBe("annotation");
    expect(span.span_type).toBe("task");
    expect(span.attributes.ag.flags).toEqual({ origin: "human", kind: "adhoc", channel: "api" });
    expect(span.attributes.ag.data.outputs).toEqual({ score: 5 });
    expect(span.links).toEqual([{ ...target, attributes: { key: "invocation" } }]);
    expect(span.references).toEqual([{ slug: "user-feedback", attributes: { key: "evaluator" } }]);
    expectStatus(
      await c.t.call("POST", "/api/simple/traces/", { key: c.key, body: { trace: { origin: "human" } } }),
      422,
    );
  });
});

describe("recordSpans (the agent runtime's door)", () => {
  it("writes through the same durable queue, maps gen_ai attributes, and redacts planted secrets everywhere", async () => {
    const secret = "sk-test-PLANTED-SECRET-123456";
    const t = traceId();
    const root = spanId();
    const result = await recordSpans(
      c.t.context.db,
      c.projectId,
      [
        {
          trace_id: t,
          span_id: root,
          span_name: "invoke_agent helper",
          start_time: at(1),
          end_time: at(9),
          session_id: "session-1",
          attributes: {
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": "helper",
            "ag.references.workflow_revision.id": "rev-1",
          },
        },
        {
          trace_id: t,
          span_id: spanId(),
          parent_id: root,
          span_name: "chat gpt-5",
          start_time: at(2),
          end_time: at(3),
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": "gpt-5",
            "gen_ai.usage.input_tokens": 10,
            "gen_ai.usage.output_tokens": 2,
            "gen_ai.input.messages": JSON.stringify([{ role: "user", content: `my key is ${secret}` }]),
            [`header.${secret}`]: "x",
          },
          events: [{ name: "log", timestamp: at(2), attributes: { line: `Authorization: Bearer ${secret}` } }],
        },
      ],
      { config: c.t.context.config.tracing, redact: [secret] },
    );
    expect(result).toEqual({ count: 2, dropped: [] });
    await processQueue(c);
    const fetched = await c.t.call("GET", `/api/traces/${t}`, { key: c.key });
    expect(JSON.stringify(fetched.body)).not.toContain(secret);
    const agent = fetched.body.trace.spans["invoke_agent helper"];
    expect(agent.span_type).toBe("agent");
    expect(agent.session_id).toBe("session-1");
    expect(agent.references).toEqual([{ id: "rev-1", attributes: { key: "workflow_revision" } }]);
    expect(agent.attributes.ag.metrics.tokens.cumulative.total).toBe(12);
    const chat = agent.spans["chat gpt-5"];
    expect(chat.attributes.ag.data.inputs.messages[0].content).toBe("my key is [REDACTED]");
  });
});

describe("the reference's deprecated read and delete routes", () => {
  it("GET /tracing/traces/{id} answers a map keyed by trace id; DELETE queues a hard delete and answers the removed links", async () => {
    const t = traceId();
    const s = spanId();
    await c.t.call("POST", "/api/tracing/spans/ingest", {
      key: c.key,
      body: { spans: [{ trace_id: t, span_id: s, span_name: "only", start_time: at(5) }] },
    });
    await processQueue(c);
    const got = await c.t.call("GET", `/api/tracing/traces/${t}`, { key: c.key });
    expectStatus(got, 200);
    expect(got.body.count).toBe(1);
    expect(got.body.traces[t].spans.only.span_id).toBe(s);
    expectStatus(await c.t.call("GET", "/api/tracing/traces/xyz", { key: c.key }), 400);

    const deleted = await c.t.call("DELETE", `/api/tracing/traces/${t}`, { key: c.key });
    expectStatus(deleted, 202);
    expect(deleted.body).toEqual({ count: 1, links: [{ trace_id: t, span_id: s }] });
    await processQueue(c);
    expect((await c.t.call("GET", `/api/tracing/traces/${t}`, { key: c.key })).body).toEqual({ count: 0 });
    expect((await c.t.call("DELETE", `/api/tracing/traces/${t}`, { key: c.key })).body).toEqual({
      count: 0,
      links: [],
    });
  });

  it("POST /tracing/spans/query takes flat keys, with filter as an object or a JSON string", async () => {
    const t = traceId();
    const name = `legacy_${Math.random().toString(36).slice(2, 8)}`;
    await c.t.call("POST", "/api/tracing/spans/ingest", {
      key: c.key,
      body: {
        spans: [
          { trace_id: t, span_id: spanId(), span_name: name, start_time: at(7) },
          { trace_id: t, span_id: spanId(), span_name: name, start_time: at(8) },
        ],
      },
    });
    await processQueue(c);
    const filter = { conditions: [{ field: "span_name", operator: "is", value: name }] };
    const spans = await c.t.call("POST", "/api/tracing/spans/query", { key: c.key, body: { focus: "span", filter } });
    expectStatus(spans, 200);
    expect(spans.body.count).toBe(2);
    const traces = await c.t.call("POST", "/api/tracing/spans/query", {
      key: c.key,
      body: { filter: JSON.stringify(filter), limit: "10" },
    });
    expect(traces.body.count).toBe(1);
    expect(Object.keys(traces.body.traces)).toEqual([t]);
    const viaQueryString = await c.t.call(
      "POST",
      `/api/tracing/spans/query?focus=span&filter=${encodeURIComponent(JSON.stringify(filter))}`,
      { key: c.key, body: {} },
    );
    expect(viaQueryString.body.count).toBe(2);
  });

  it("refuses the OpenTelemetry format (not served) instead of answering in its own, on both query routes", async () => {
    const legacy = await c.t.call("POST", "/api/tracing/spans/query", {
      key: c.key,
      body: { format: "opentelemetry" },
    });
    expectStatus(legacy, 400);
    expect(legacy.body.detail).toContain("OpenTelemetry format is not served");
    const query = await c.t.call("POST", "/api/traces/query", {
      key: c.key,
      body: { formatting: { format: "opentelemetry" } },
    });
    expectStatus(query, 422);
    expect(JSON.stringify(query.body.errors)).toContain('only \\"agenta\\" is served');
    expectStatus(
      await c.t.call("POST", "/api/traces/query", { key: c.key, body: { formatting: { format: "agenta" } } }),
      200,
    );
  });
});
