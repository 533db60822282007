import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { traceWire } from "@/server/tracing/wire";
import { events, expectStatus, ingest, processQueue, setupTracing, spanId, traceId, type TracingCtx } from "./helpers";

let c: TracingCtx;
const prefix = `cmp_${Math.random().toString(36).slice(2, 8)}`;
const ids = { a: traceId(), b: traceId(), c: traceId(), linked: traceId(), target: traceId() };
const spansOf: Record<string, string> = {};
/** When the fixture's spans were placed (seconds): they start 180, 120, 60 and 30 s before it. */
let fixedAt = 0;

beforeAll(async () => {
  c = await setupTracing();
  const now = (fixedAt = Math.floor(Date.now() / 1000));
  const span = (
    t: string,
    name: string,
    start: number,
    attributes: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ) => {
    const s = spanId();
    spansOf[name] = s;
    return {
      trace_id: t,
      span_id: s,
      span_name: name,
      span_kind: "SPAN_KIND_SERVER",
      start_time: start,
      end_time: start + 60,
      status_code: "STATUS_CODE_OK",
      attributes,
      ...extra,
    };
  };
  const res = await ingest(c, {
    spans: [
      span(
        ids.a,
        `${prefix}_jan_15`,
        now - 180,
        {
          tags: { created_at: "2024-01-15T10:30:00Z" },
          score: 1,
          "ag.type.span": "chat",
          "ag.data.inputs.text": "the quick brown fox",
        },
        { session_id: "sess-1" },
      ),
      span(ids.b, `${prefix}_jan_20`, now - 120, {
        tags: { created_at: "2024-01-20T10:30:00Z" },
        score: 5,
        "ag.type.span": "tool",
        "ag.references.application.slug": "my-app",
      }),
      span(
        ids.c,
        `${prefix}_jan_25`,
        now - 60,
        { tags: { created_at: "2024-01-25T10:30:00Z" }, score: 10, "ag.type.span": "chat" },
        { status_code: "STATUS_CODE_ERROR" },
      ),
      span(
        ids.linked,
        `${prefix}_annotation`,
        now - 30,
        { "ag.data.outputs.score": 5 },
        { links: [{ trace_id: ids.target, span_id: "abcdef1234567890", attributes: { key: "invocation" } }] },
      ),
    ],
  });
  expectStatus(res, 202);
  await processQueue(c);
});
afterAll(() => c.t.close());

const scoped = (condition: Record<string, unknown>, focus: "span" | "trace" = "span") => ({
  formatting: { focus },
  filtering: {
    operator: "and",
    conditions: [{ field: "span_name", operator: "startswith", value: prefix }, condition],
  },
});

async function spanNames(body: unknown): Promise<string[]> {
  const res = await c.t.call("POST", "/api/spans/query", { key: c.key, body });
  expectStatus(res, 200);
  return res.body.spans.map((s: { span_name: string }) => s.span_name.replace(`${prefix}_`, "")).sort();
}

describe("filtering", () => {
  it("string comparisons on an attribute are lexicographic (the reference's cases)", async () => {
    const cmp = (operator: string, value: string) =>
      spanNames(scoped({ field: "attributes", key: "tags.created_at", operator, value }));
    expect(await cmp("gt", "2024-01-15T10:30:00Z")).toEqual(["jan_20", "jan_25"]);
    expect(await cmp("gte", "2024-01-20T10:30:00Z")).toEqual(["jan_20", "jan_25"]);
    expect(await cmp("lt", "2024-01-25T10:30:00Z")).toEqual(["jan_15", "jan_20"]);
    expect(await cmp("lte", "2024-01-15T10:30:00Z")).toEqual(["jan_15"]);
    const range = await spanNames({
      filtering: {
        operator: "and",
        conditions: [
          { field: "span_name", operator: "startswith", value: prefix },
          { field: "attributes", key: "tags.created_at", operator: "gte", value: "2024-01-15T10:30:00Z" },
          { field: "attributes", key: "tags.created_at", operator: "lt", value: "2024-01-25T10:30:00Z" },
        ],
      },
    });
    expect(range).toEqual(["jan_15", "jan_20"]);
  });

  it("numeric comparisons, btwn, containment (is), in and existence on attributes", async () => {
    expect(await spanNames(scoped({ field: "attributes", key: "score", operator: "gt", value: 4 }))).toEqual([
      "jan_20",
      "jan_25",
    ]);
    expect(await spanNames(scoped({ field: "attributes", key: "score", operator: "btwn", value: [2, 9] }))).toEqual([
      "jan_20",
    ]);
    expect(await spanNames(scoped({ field: "attributes", key: "score", value: 10 }))).toEqual(["jan_25"]);
    expect(await spanNames(scoped({ field: "attributes", key: "score", operator: "in", value: [1, 10] }))).toEqual([
      "jan_15",
      "jan_25",
    ]);
    expect(await spanNames(scoped({ field: "attributes", key: "score", operator: "not_exists" }))).toEqual([
      "annotation",
    ]);
    expect(
      await spanNames(
        scoped({ field: "attributes", key: "ag.data.inputs.text", operator: "contains", value: "BROWN" }),
      ),
    ).toEqual(["jan_15"]);
    expect(
      await spanNames(
        scoped({
          field: "attributes",
          key: "ag.data.inputs.text",
          operator: "contains",
          value: "BROWN",
          options: { case_sensitive: true },
        }),
      ),
    ).toEqual([]);
  });

  it("columns: enums, strings, ids, times, existence", async () => {
    expect(await spanNames(scoped({ field: "span_type", operator: "in", value: ["chat"] }))).toEqual([
      "jan_15",
      "jan_25",
    ]);
    expect(await spanNames(scoped({ field: "status_code", value: "ERROR" }))).toEqual(["jan_25"]);
    expect(await spanNames(scoped({ field: "session_id", operator: "exists" }))).toEqual(["jan_15"]);
    expect(await spanNames(scoped({ field: "trace_id", operator: "in", value: [ids.a, ids.b] }))).toEqual([
      "jan_15",
      "jan_20",
    ]);
    expect(
      await spanNames(scoped({ field: "span_id", operator: "is_not", value: spansOf[`${prefix}_jan_15`] })),
    ).toEqual(["annotation", "jan_20", "jan_25"]);
    expect(await spanNames(scoped({ field: "span_name", operator: "matches", value: "jan_(15|25)$" }))).toEqual([
      "jan_15",
      "jan_25",
    ]);
    expect(await spanNames(scoped({ field: "span_name", operator: "endswith", value: "_20" }))).toEqual(["jan_20"]);
    // The window around the fixture's own times, not the clock's: the test may start minutes later.
    const now = fixedAt * 1000;
    expect(
      await spanNames(
        scoped({
          field: "start_time",
          operator: "btwn",
          value: [new Date(now - 150_000).toISOString(), new Date(now - 45_000).toISOString()],
        }),
      ),
    ).toEqual(["jan_20", "jan_25"]);
  });

  it("links and references: partial objects with in, dict keys with has, existence", async () => {
    expect(await spanNames(scoped({ field: "links", operator: "in", value: [{ trace_id: ids.target }] }))).toEqual([
      "annotation",
    ]);
    expect(
      await spanNames(scoped({ field: "links", operator: "has", key: "attributes.key", value: "invocation" })),
    ).toEqual(["annotation"]);
    expect(await spanNames(scoped({ field: "links", operator: "exists" }))).toEqual(["annotation"]);
    expect(await spanNames(scoped({ field: "references", operator: "in", value: [{ slug: "my-app" }] }))).toEqual([
      "jan_20",
    ]);
  });

  it("full-text content search", async () => {
    expect(await spanNames(scoped({ field: "content", operator: "contains", value: "quick fox" }))).toEqual(["jan_15"]);
  });

  it("logical operators nest: or, not, nand, nor", async () => {
    const a = { field: "span_name", operator: "endswith", value: "_15" };
    const b = { field: "span_name", operator: "endswith", value: "_25" };
    const within = (inner: Record<string, unknown>) => ({
      filtering: {
        operator: "and",
        conditions: [{ field: "span_name", operator: "startswith", value: prefix }, inner],
      },
    });
    expect(await spanNames(within({ operator: "or", conditions: [a, b] }))).toEqual(["jan_15", "jan_25"]);
    expect(await spanNames(within({ operator: "not", conditions: [a] }))).toEqual(["annotation", "jan_20", "jan_25"]);
    expect(await spanNames(within({ operator: "nor", conditions: [a, b] }))).toEqual(["annotation", "jan_20"]);
    expect(
      await spanNames(within({ operator: "nand", conditions: [a, { field: "span_type", value: "chat" }] })),
    ).toEqual(["annotation", "jan_20", "jan_25"]);
  });

  it("invalid conditions are 400 with the reference's messages", async () => {
    const bad = async (condition: Record<string, unknown>) => {
      const res = await c.t.call("POST", "/api/traces/query", {
        key: c.key,
        body: { filtering: { conditions: [condition] } },
      });
      expectStatus(res, 400);
      return res.body.detail as string;
    };
    expect(await bad({ field: "trace_id", operator: "startswith", value: "ab" })).toBe(
      "'trace_id' only supports comparison and list operators.",
    );
    expect(await bad({ field: "span_type", operator: "gt", value: "x" })).toBe(
      "'span_type' only supports comparison and list operators.",
    );
    expect(await bad({ field: "links", operator: "is", value: "x" })).toBe(
      "'links' only supports list, dict and existence operators.",
    );
    expect(await bad({ field: "content", operator: "is", value: "x" })).toBe(
      "'content' only supports the contains operator.",
    );
    expect(await bad({ field: "attributes", operator: "is", value: 1 })).toMatch(/needs a key/);
    expect(await bad({ field: "trace_id", value: "not-an-id" })).toMatch(/not a valid id/);
    expect(await bad({ field: "nope", value: 1 })).toMatch(/not a field that can be filtered/);
    expect(await bad({ field: "span_name", operator: "frobnicate", value: 1 })).toMatch(/not an operator/);
    const not = await c.t.call("POST", "/api/traces/query", {
      key: c.key,
      body: { filtering: { operator: "not", conditions: [] } },
    });
    expect(not.body.detail).toBe("'not' takes exactly one condition.");
  });
});

describe("trace focus, windowing and events", () => {
  it("returns whole traces newest first, pages with windowing.next, and emits traces.queried", async () => {
    const filtering = { conditions: [{ field: "span_name", operator: "startswith", value: prefix }] };
    const first = await c.t.call("POST", "/api/traces/query", {
      key: c.key,
      body: { filtering, windowing: { limit: 3 } },
    });
    expectStatus(first, 200);
    expect(first.body.traces.map((t: { trace_id: string }) => t.trace_id)).toEqual([ids.linked, ids.c, ids.b]);
    expect(first.body.windowing.next).toBeTypeOf("string");
    const second = await c.t.call("POST", "/api/traces/query", {
      key: c.key,
      body: { filtering, windowing: { limit: 3, next: first.body.windowing.next } },
    });
    expect(second.body.traces.map((t: { trace_id: string }) => t.trace_id)).toEqual([ids.a]);
    expect(second.body.windowing).toBeUndefined();
    const ascending = await c.t.call("POST", "/api/traces/query", {
      key: c.key,
      body: { filtering, windowing: { order: "ascending", limit: 2 } },
    });
    expect(ascending.body.traces.map((t: { trace_id: string }) => t.trace_id)).toEqual([ids.a, ids.b]);

    const queried = await events(c, "traces.queried");
    expect(
      queried.some(
        (e) => e.attributes.count === 3 && e.attributes.user_id === c.userId && e.attributes.trace_ids.length === 3,
      ),
    ).toBe(true);
    const before = queried.length;
    const none = await c.t.call("POST", "/api/traces/query", {
      key: c.key,
      body: { filtering: { conditions: [{ field: "span_name", value: "no such span" }] } },
    });
    expect(none.body).toEqual({ count: 0, traces: [] });
    expect((await events(c, "traces.queried")).length).toBe(before);
  });

  it("span focus pages too, and a query without a window still stops at the default limit with a cursor", async () => {
    const many = await setupTracing();
    try {
      const t = traceId();
      const spans = Array.from({ length: 105 }, (_, i) => ({
        trace_id: traceId(),
        span_id: spanId(),
        span_name: `s${i}`,
        start_time: Date.now() - i * 1000,
      }));
      spans[0].trace_id = t;
      expectStatus(await ingest(many, { spans }), 202);
      await processQueue(many);
      const page = await many.t.call("POST", "/api/traces/query", { key: many.key, body: {} });
      expect(page.body.count).toBe(100);
      expect(page.body.traces[0].trace_id).toBe(t);
      const rest = await many.t.call("POST", "/api/traces/query", {
        key: many.key,
        body: { windowing: { next: page.body.windowing.next } },
      });
      expect(rest.body.count).toBe(5);
      const seen = new Set<string>();
      let next: string | undefined;
      do {
        const res = await many.t.call("POST", "/api/spans/query", {
          key: many.key,
          body: { windowing: { limit: 40, ...(next ? { next } : {}) } },
        });
        for (const s of res.body.spans) seen.add(s.span_id);
        next = res.body.windowing?.next;
      } while (next);
      expect(seen.size).toBe(105);
      const bad = await many.t.call("POST", "/api/spans/query", {
        key: many.key,
        body: { windowing: { next: "garbage" } },
      });
      expectStatus(bad, 400);
    } finally {
      await many.t.close();
    }
  });
});

// What a client asks of a page is answered or refused, never quietly answered with something else.
describe("no silent answers: page size, reference cursors, focus, span ids", () => {
  const byPrefix = { conditions: [{ field: "span_name", operator: "startswith", value: prefix }] };
  const traceIds = (res: { body: { traces: { trace_id: string }[] } }) => res.body.traces.map((t) => t.trace_id);
  const at = (secondsBefore: number) => new Date((fixedAt - secondsBefore) * 1000).toISOString();

  it("a limit above the maximum page is a 400 naming the maximum, on every query route", async () => {
    for (const [path, body] of [
      ["/api/traces/query", { windowing: { limit: 5000 } }],
      ["/api/spans/query", { windowing: { limit: 5000 } }],
      ["/api/tracing/spans/query", { limit: 5000 }],
    ] as const) {
      const res = await c.t.call("POST", path, { key: c.key, body });
      expectStatus(res, 400);
      expect(res.body.code).toBe("invalid_windowing");
      expect(res.body.detail).toMatch(/at most 1000/);
    }
    const most = await c.t.call("POST", "/api/traces/query", {
      key: c.key,
      body: { filtering: byPrefix, windowing: { limit: 1000 } },
    });
    expectStatus(most, 200);
    expect(most.body.count).toBe(4);
  });

  it("a trace id as next pages on after that trace ranked at newest (oldest ascending), as the reference's clients page", async () => {
    const first = await c.t.call("POST", "/api/traces/query", {
      key: c.key,
      body: { filtering: byPrefix, windowing: { limit: 2 } },
    });
    expect(traceIds(first)).toEqual([ids.linked, ids.c]);
    for (const next of [
      ids.c,
      `${ids.c.slice(0, 8)}-${ids.c.slice(8, 12)}-${ids.c.slice(12, 16)}-${ids.c.slice(16, 20)}-${ids.c.slice(20)}`,
    ]) {
      const second = await c.t.call("POST", "/api/traces/query", {
        key: c.key,
        body: { filtering: byPrefix, windowing: { limit: 2, newest: at(60), next } },
      });
      expectStatus(second, 200);
      expect(traceIds(second)).toEqual([ids.b, ids.a]);
    }
    const ascending = await c.t.call("POST", "/api/traces/query", {
      key: c.key,
      body: { filtering: byPrefix, windowing: { order: "ascending", limit: 2, oldest: at(120), next: ids.b } },
    });
    expect(traceIds(ascending)).toEqual([ids.c, ids.linked]);

    const alone = await c.t.call("POST", "/api/traces/query", {
      key: c.key,
      body: { filtering: byPrefix, windowing: { limit: 2, next: ids.c } },
    });
    expectStatus(alone, 400);
    expect(alone.body.detail).toMatch(/'windowing.newest'/);
    const spans = await c.t.call("POST", "/api/spans/query", {
      key: c.key,
      body: { filtering: byPrefix, windowing: { newest: at(60), next: ids.c } },
    });
    expectStatus(spans, 400);
  });

  it("traces ranked at the same time are paged by trace id with a trace id cursor, none skipped or repeated", async () => {
    const other = await c.t.newProject("ties");
    const start = fixedAt - 300;
    const tied = [traceId(), traceId(), traceId()].sort().reverse();
    const older = traceId();
    const span = (t: string, s: number) => ({ trace_id: t, span_id: spanId(), span_name: "tie", start_time: s });
    expectStatus(
      await ingest(c, { spans: [...tied.map((t) => span(t, start)), span(older, start - 10)] }, other.key),
      202,
    );
    await processQueue(c);
    const page = (windowing: Record<string, unknown>) =>
      c.t.call("POST", "/api/traces/query", { key: other.key, body: { windowing } });
    const first = await page({ limit: 2 });
    expect(traceIds(first)).toEqual(tied.slice(0, 2));
    const second = await page({ limit: 2, newest: new Date(start * 1000).toISOString(), next: tied[1] });
    expect(traceIds(second)).toEqual([tied[2], older]);
  });

  it("/traces/query answers traces whatever formatting.focus says, as the reference's does", async () => {
    const res = await c.t.call("POST", "/api/traces/query", {
      key: c.key,
      body: { filtering: byPrefix, formatting: { focus: "span" }, windowing: { limit: 2 } },
    });
    expectStatus(res, 200);
    expect(res.body.spans).toBeUndefined();
    expect(traceIds(res)).toEqual([ids.linked, ids.c]);
  });

  it("a span sent with a 128-bit id is shown whole, and the published span schema says so", async () => {
    const t = traceId();
    const wide = "0123456789abcdef" + spanId();
    expectStatus(
      await ingest(c, {
        spans: [
          { trace_id: t, span_id: wide, span_name: "wide", start_time: fixedAt },
          { trace_id: t, span_id: spanId(), parent_id: wide, span_name: "child", start_time: fixedAt },
        ],
      }),
      202,
    );
    await processQueue(c);
    const res = await c.t.call("GET", `/api/traces/${t}`, { key: c.key });
    expectStatus(res, 200);
    expect(res.body.trace.spans.wide.span_id).toBe(wide);
    expect(res.body.trace.spans.wide.spans.child.parent_id).toBe(wide);
    expect(traceWire.safeParse(res.body.trace).error).toBeUndefined();
  });
});
