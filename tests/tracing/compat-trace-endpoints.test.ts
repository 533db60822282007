import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, processQueue, setupTracing, spanId, traceId, type TracingCtx } from "./helpers";

let c: TracingCtx;
beforeAll(async () => {
  c = await setupTracing();
});
afterAll(() => c.t.close());

const at = (s: number) => `2026-08-01T00:00:${String(s).padStart(2, "0")}Z`;

describe("POST /traces/ingest", () => {
  it("queues a batch of traces in the tree form and answers 202 with their ids; GET on the path is 405", async () => {
    const [a, b] = [traceId(), traceId()];
    const res = await c.t.call("POST", "/api/traces/ingest", {
      key: c.key,
      body: {
        traces: [
          {
            trace_id: a,
            spans: {
              root: {
                span_id: spanId(),
                start_time: at(1),
                spans: { child: { span_id: spanId(), start_time: at(2) } },
              },
            },
          },
          { trace_id: b, spans: { only: { span_id: spanId(), start_time: at(3) } } },
        ],
      },
    });
    expectStatus(res, 202);
    expect(res.body).toEqual({ count: 2, trace_ids: [a, b] });
    await processQueue(c);
    const fetched = await c.t.call("GET", `/api/traces/${a}`, { key: c.key });
    expect(fetched.body.trace.spans.root.spans.child).toBeDefined();
    expect((await c.t.call("GET", `/api/traces/${b}`, { key: c.key })).body.count).toBe(1);
    expectStatus(await c.t.call("GET", "/api/traces/ingest", { key: c.key }), 405);
  });

  it("refuses an empty or missing list with 400", async () => {
    expectStatus(await c.t.call("POST", "/api/traces/ingest", { key: c.key, body: { traces: [] } }), 400);
    expectStatus(await c.t.call("POST", "/api/traces/ingest", { key: c.key, body: {} }), 400);
    expectStatus(
      await c.t.call("POST", "/api/traces/ingest", { key: c.key, body: { traces: [{ trace_id: traceId() }] } }),
      422,
    );
  });
});

describe("/simple/traces/{id}", () => {
  it("reads, edits, queries and deletes a simple trace", async () => {
    const invocation = { trace_id: traceId(), span_id: spanId() };
    const created = await c.t.call("POST", "/api/simple/traces/", {
      key: c.key,
      body: {
        trace: {
          origin: "human",
          data: { outputs: { score: 3 } },
          references: { evaluator: { slug: "stars" } },
          links: { invocation },
          tags: { team: "a" },
        },
      },
    });
    expectStatus(created, 202);
    const id = created.body.trace.trace_id;
    expect((await c.t.call("GET", `/api/simple/traces/${id}`, { key: c.key })).body).toEqual({ count: 0 });
    await processQueue(c);

    const read = await c.t.call("GET", `/api/simple/traces/${id}`, { key: c.key });
    expectStatus(read, 200);
    expect(read.body).toEqual({
      count: 1,
      trace: {
        trace_id: id,
        span_id: created.body.trace.span_id,
        origin: "human",
        kind: "adhoc",
        channel: "api",
        data: { outputs: { score: 3 } },
        references: { evaluator: { slug: "stars" } },
        links: { invocation },
        tags: { team: "a" },
      },
    });

    const edited = await c.t.call("PATCH", `/api/simple/traces/${id}`, {
      key: c.key,
      body: { trace: { data: { outputs: { score: 5 } } } },
    });
    expectStatus(edited, 200);
    expectStatus(
      await c.t.call("PATCH", `/api/simple/traces/${id}`, { key: c.key, body: { trace: { origin: "auto" } } }),
      422,
    );
    await processQueue(c);
    const after = await c.t.call("GET", `/api/simple/traces/${id}`, { key: c.key });
    expect(after.body.trace).toEqual({ ...read.body.trace, data: { outputs: { score: 5 } } });

    // Another annotation of another invocation, and a plain (non-simple) trace, are not found.
    await c.t.call("POST", "/api/simple/traces/", {
      key: c.key,
      body: { trace: { data: { x: 1 }, links: { invocation: { trace_id: traceId(), span_id: spanId() } } } },
    });
    await c.t.call("POST", "/api/tracing/spans/ingest", {
      key: c.key,
      body: { spans: [{ trace_id: traceId(), span_id: spanId(), start_time: at(4) }] },
    });
    await processQueue(c);
    const byLink = await c.t.call("POST", "/api/simple/traces/query", {
      key: c.key,
      body: { trace: { links: { invocation } } },
    });
    expectStatus(byLink, 200);
    expect(byLink.body.traces.map((t: { trace_id: string }) => t.trace_id)).toEqual([id]);
    const byReference = await c.t.call("POST", "/api/simple/traces/query", {
      key: c.key,
      body: { trace: { references: { evaluator: { slug: "stars" } }, origin: "human" } },
    });
    expect(byReference.body.traces.map((t: { trace_id: string }) => t.trace_id)).toEqual([id]);
    expect((await c.t.call("POST", "/api/simple/traces/query", { key: c.key, body: {} })).body.count).toBe(2);

    const deleted = await c.t.call("DELETE", `/api/simple/traces/${id}`, { key: c.key });
    // The reference's simple router answers 200 (its span-level DELETE answers 202).
    expectStatus(deleted, 200);
    expect(deleted.body).toEqual({ count: 1, link: { trace_id: id, span_id: created.body.trace.span_id } });
    await processQueue(c);
    expect((await c.t.call("GET", `/api/simple/traces/${id}`, { key: c.key })).body).toEqual({ count: 0 });
    expectStatus(
      await c.t.call("PATCH", `/api/simple/traces/${id}`, { key: c.key, body: { trace: { data: {} } } }),
      404,
    );
  });
});

describe("/simple/traces as the reference's annotation clients use it", () => {
  it("answers links in the shape they were sent, and keeps links naming an entity by id", async () => {
    const invocation = { trace_id: traceId(), span_id: spanId() };
    const testcase = { id: "0190a000-0000-7000-8000-000000000001" };
    const named = await c.t.call("POST", "/api/simple/traces/", {
      key: c.key,
      body: { trace: { origin: "human", data: { outputs: { ok: true } }, links: { invocation, testcase } } },
    });
    expectStatus(named, 202);
    expect(named.body.trace.links).toEqual({ invocation, testcase });
    const listed = await c.t.call("POST", "/api/simple/traces/", {
      key: c.key,
      body: { trace: { data: { outputs: { ok: false } }, links: [invocation] } },
    });
    expect(listed.body.trace.links).toEqual([invocation]);
    expectStatus(
      await c.t.call("POST", "/api/simple/traces/", {
        key: c.key,
        body: { trace: { data: {}, links: { testcase: {} } } },
      }),
      422,
    );
    await processQueue(c);
    const read = await c.t.call("GET", `/api/simple/traces/${named.body.trace.trace_id}`, { key: c.key });
    expect(read.body.trace.links).toEqual({ invocation, testcase });

    const byEntity = await c.t.call("POST", "/api/simple/traces/query", {
      key: c.key,
      body: { trace: { links: { testcase } } },
    });
    expectStatus(byEntity, 200);
    expect(byEntity.body.traces.map((t: { trace_id: string }) => t.trace_id)).toEqual([named.body.trace.trace_id]);
    const bySpan = await c.t.call("POST", "/api/simple/traces/query", {
      key: c.key,
      body: { trace: { links: [invocation] } },
    });
    expect(bySpan.body.count).toBe(2);
  });

  it("filters on trace.tags and trace.meta, and reads traces by their own ids with top-level links", async () => {
    const make = (tags: Record<string, unknown>, meta: Record<string, unknown>) =>
      c.t.call("POST", "/api/simple/traces/", { key: c.key, body: { trace: { data: { x: 1 }, tags, meta } } });
    const a = (await make({ team: "tags-a", tier: 1 }, { source: "meta-a" })).body.trace;
    const b = (await make({ team: "tags-b" }, { source: "meta-a" })).body.trace;
    await processQueue(c);
    const ids = (res: { body: { traces: { trace_id: string }[] } }) => res.body.traces.map((t) => t.trace_id).sort();
    const byTag = await c.t.call("POST", "/api/simple/traces/query", {
      key: c.key,
      body: { trace: { tags: { team: "tags-a" } } },
    });
    expectStatus(byTag, 200);
    expect(ids(byTag)).toEqual([a.trace_id]);
    const byMeta = await c.t.call("POST", "/api/simple/traces/query", {
      key: c.key,
      body: { trace: { meta: { source: "meta-a" } } },
    });
    expect(ids(byMeta)).toEqual([a.trace_id, b.trace_id].sort());
    const own = await c.t.call("POST", "/api/simple/traces/query", {
      key: c.key,
      body: { links: [{ trace_id: b.trace_id, span_id: b.span_id }] },
    });
    expect(ids(own)).toEqual([b.trace_id]);
    const mismatched = await c.t.call("POST", "/api/simple/traces/query", {
      key: c.key,
      body: { links: [{ trace_id: b.trace_id, span_id: a.span_id }] },
    });
    expect(mismatched.body.count).toBe(0);
  });
});
