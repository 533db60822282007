import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, processQueue, spanId, traceId, type TracingCtx, setupTracing } from "./helpers";

// The reference's annotation-query acceptance flow, as its clients run it: three annotations
// over two invocations and two evaluators, then /simple/traces/query by top-level links (the
// annotations' own ids), trace.links (named map or list), references, tags, meta and origin.
let c: TracingCtx;
const invocation1 = { trace_id: traceId(), span_id: spanId() };
const invocation2 = { trace_id: traceId(), span_id: spanId() };
const created: { trace_id: string; span_id: string }[] = [];

const annotate = async (trace: Record<string, unknown>) => {
  const res = await c.t.call("POST", "/api/simple/traces/", { key: c.key, body: { trace } });
  expectStatus(res, 202);
  created.push({ trace_id: res.body.trace.trace_id, span_id: res.body.trace.span_id });
};
const query = async (body: unknown) => {
  const res = await c.t.call("POST", "/api/simple/traces/query", { key: c.key, body });
  expectStatus(res, 200);
  return res.body as { count: number; traces: { trace_id: string; span_id: string; links: unknown }[] };
};

beforeAll(async () => {
  c = await setupTracing();
  const outputs = (n: number) => ({ outputs: { integer: n, object: { aloha: "mahalo" } } });
  await annotate({
    origin: "custom",
    kind: "adhoc",
    channel: "api",
    data: outputs(42),
    tags: { tag1: "value1", tag2: "value2" },
    meta: { meta1: "value1", meta2: "value2" },
    references: { evaluator: { slug: "eval-one" } },
    links: { invocation: invocation1 },
  });
  await annotate({
    origin: "human",
    kind: "eval",
    channel: "web",
    data: outputs(43),
    tags: { tag1: "value1", tag2: "value3" },
    meta: { meta1: "value1", meta2: "value3" },
    references: { evaluator: { slug: "eval-one" } },
    links: { invocation: invocation2 },
  });
  await annotate({
    origin: "auto",
    kind: "eval",
    channel: "sdk",
    data: outputs(44),
    tags: { tag1: "value3", tag2: "value2" },
    meta: { meta1: "value3", meta2: "value2" },
    references: { evaluator: { slug: "eval-two" } },
    links: [invocation1],
  });
  await processQueue(c);
});
afterAll(() => c.t.close());

describe("/simple/traces/query as the reference's annotation clients use it", () => {
  it("an empty query answers all three; top-level links read annotations by their own ids", async () => {
    expect((await query({})).count).toBe(3);
    const one = await query({ links: [created[0]] });
    expect(one.count).toBe(1);
    expect(one.traces[0]).toMatchObject(created[0]);
    expect((await query({ links: [created[1], created[2]] })).count).toBe(2);
  });

  it("trace.links finds the annotations of an invocation, as a named map or a list, each link in its sent shape", async () => {
    const byMap = await query({ trace: { links: { invocation: invocation1 } } });
    expect(byMap.count).toBe(2);
    const shapes = Object.fromEntries(byMap.traces.map((t) => [t.trace_id, t.links]));
    expect(shapes[created[0].trace_id]).toEqual({ invocation: invocation1 });
    expect(shapes[created[2].trace_id]).toEqual([invocation1]);
    expect((await query({ trace: { links: [invocation1] } })).count).toBe(2);
  });

  it("references, tags, meta and origin filter as in the reference", async () => {
    expect((await query({ trace: { references: { evaluator: { slug: "eval-one" } } } })).count).toBe(2);
    expect((await query({ trace: { tags: { tag1: "value1" } } })).count).toBe(2);
    expect((await query({ trace: { tags: { tag2: "value2" } } })).count).toBe(2);
    expect((await query({ trace: { tags: { tag1: "value3" } } })).count).toBe(1);
    expect((await query({ trace: { meta: { meta1: "value1" } } })).count).toBe(2);
    expect((await query({ trace: { meta: { meta2: "value3" } } })).count).toBe(1);
    expect((await query({ trace: { origin: "custom" } })).count).toBe(1);
    expect((await query({ trace: { origin: "human" } })).count).toBe(1);
  });
});
