import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawQuery } from "@/server/db";
import { MAX_ATTEMPTS } from "@/server/tracing/ingest/backlog";
import { expectStatus, ingest, processQueue, setupTracing, spanId, traceId, type TracingCtx } from "../tracing/helpers";

// Items 3 and 5 of the hardening issue: text PostgreSQL cannot store (NUL, lone surrogates) in a
// span's name, attribute key or value, by JSON ingest or OTLP, is made storable before the 202 and
// every acknowledged span is stored; a queued row that fails anyway is split so its good spans
// survive; deep nesting is a 400, never a 500.
let c: TracingCtx;
beforeAll(async () => {
  c = await setupTracing();
});
afterAll(() => c.t.close());

const LONE = "\uD800";
const HOSTILE = [`nul\0inside`, `lone${LONE}surrogate`, `low\uDC00first`, `\0`, `both\0${LONE}`];

async function storedSpans(trace: string): Promise<{ span_name: string; attributes: unknown }[]> {
  return rawQuery(
    c.t.context.db,
    `select span_name, attributes from spans where project_id = $1::uuid and trace_id = $2::uuid order by span_name`,
    [c.projectId, trace],
  );
}

const now = () => new Date().toISOString();

describe("unstorable text in spans", () => {
  it("JSON ingest: 20 spans, hostile text in names, keys and values, all 20 acknowledged and stored", async () => {
    const t = traceId();
    const spans = Array.from({ length: 20 }, (_, i) => {
      const hostile = HOSTILE[i % HOSTILE.length];
      return i % 4 === 0
        ? {
            trace_id: t,
            span_id: spanId(),
            span_name: `s${String(i).padStart(2, "0")} ${hostile}`,
            start_time: now(),
            attributes: { [`k${hostile}`]: hostile, nested: { deep: [hostile] } },
          }
        : {
            trace_id: t,
            span_id: spanId(),
            span_name: `s${String(i).padStart(2, "0")}`,
            start_time: now(),
            attributes: { fine: "text" },
          };
    });
    const res = await ingest(c, { spans });
    expectStatus(res, 202);
    expect(res.body.count).toBe(20);
    await processQueue(c);
    const stored = await storedSpans(t);
    expect(stored).toHaveLength(20);
    expect(stored[0].span_name).toBe("s00 nulinside");
    expect(JSON.stringify(stored)).not.toContain("\\u0000");
    expect(JSON.stringify(stored)).toContain("lone\uFFFDsurrogate");
  });

  it("OTLP JSON: hostile attribute keys, values and span names are stored, none lost", async () => {
    const t = traceId();
    const nanos = String(Date.now() * 1_000_000);
    const spans = HOSTILE.map((hostile, i) => ({
      traceId: t,
      spanId: spanId(),
      name: `o${i} ${hostile}`,
      startTimeUnixNano: nanos,
      endTimeUnixNano: nanos,
      attributes: [
        { key: `key ${hostile}`, value: { stringValue: hostile } },
        { key: "list", value: { arrayValue: { values: [{ stringValue: hostile }] } } },
      ],
    }));
    const res = await c.t.call("POST", "/api/otlp/v1/traces", {
      key: c.key,
      rawBody: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }),
      headers: { "content-type": "application/json" },
    });
    expectStatus(res, 200);
    expect(res.body).toEqual({});
    await processQueue(c);
    expect(await storedSpans(t)).toHaveLength(HOSTILE.length);
  });

  it("a queued row whose one span cannot be written is split: its 19 good spans are stored, the bad one set aside", async () => {
    const t = traceId();
    const good = Array.from({ length: 19 }, () => ({
      trace_id: t,
      span_id: spanId(),
      span_name: "good",
      start_time: now(),
    }));
    const res = await ingest(c, { spans: good });
    expectStatus(res, 202);
    // A span the worker cannot write, queued with the good ones as one row (as a producer that
    // did not sanitize, or any failure no check foresaw, would leave it): its name holds NUL.
    const [row] = await rawQuery<{ id: string; payload: string }>(
      c.t.context.db,
      `select id::text as id, payload from span_ingest where project_id = $1::uuid order by id desc limit 1`,
      [c.projectId],
    );
    const spans = JSON.parse(row.payload);
    const bad = {
      ...spans[0],
      span_id: "00000000-0000-0000-0000-00000000beef".replace(/^.{8}/, spans[0].span_id.slice(0, 8)),
      span_name: "bad\\u0000name",
    };
    const payload = JSON.stringify([...spans, bad]).replace("bad\\\\u0000name", "bad\\u0000name");
    await rawQuery(c.t.context.db, `update span_ingest set payload = $2::text, span_count = 20 where id = $1::bigint`, [
      row.id,
      payload,
    ]);
    for (let pass = 0; pass < MAX_ATTEMPTS + 2; pass++) await processQueue(c);
    expect((await storedSpans(t)).filter((s) => s.span_name === "good")).toHaveLength(19);
    const aside = await rawQuery<{ span_count: number; attempts: number; last_error: string }>(
      c.t.context.db,
      `select span_count, attempts, last_error from span_ingest where project_id = $1::uuid`,
      [c.projectId],
    );
    expect(aside).toHaveLength(1);
    expect(aside[0]).toMatchObject({ span_count: 1, attempts: MAX_ATTEMPTS });
    expect(aside[0].last_error).toMatch(/\\u0000|unicode|0x00/i);
  });

  it("deeply nested OTLP values (kvlist and array, 1,000 levels) and JSON bodies are a 400 too_deep, not a 500", async () => {
    let kv: unknown = { stringValue: "leaf" };
    let arr: unknown = { stringValue: "leaf" };
    for (let i = 0; i < 1000; i++) {
      kv = { kvlistValue: { values: [{ key: "k", value: kv }] } };
      arr = { arrayValue: { values: [arr] } };
    }
    for (const value of [kv, arr]) {
      const body = {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: traceId(),
                    spanId: spanId(),
                    name: "deep",
                    startTimeUnixNano: "1",
                    attributes: [{ key: "a", value }],
                  },
                ],
              },
            ],
          },
        ],
      };
      const res = await c.t.call("POST", "/api/otlp/v1/traces", {
        key: c.key,
        rawBody: JSON.stringify(body),
        headers: { "content-type": "application/json" },
      });
      expectStatus(res, 400);
      expect(res.body.code).toBe("too_deep");
    }
    let deep: unknown = "leaf";
    for (let i = 0; i < 3000; i++) deep = { a: deep };
    const json = await ingest(c, {
      spans: [{ trace_id: traceId(), span_id: spanId(), span_name: "deep", start_time: now(), attributes: { deep } }],
    });
    expectStatus(json, 400);
    expect(json.body.code).toBe("too_deep");
    const routed = await c.t.call("POST", "/api/keys", { key: c.key, body: { name: deep } });
    expectStatus(routed, 400);
    expect(routed.body.code).toBe("too_deep");
  });

  it("a deeply nested OTLP protobuf body is a 400 too_deep", async () => {
    const otlpRoot = (await import("@opentelemetry/otlp-transformer/build/src/generated/root")) as any;
    const v1 = (otlpRoot.default ?? otlpRoot).opentelemetry.proto.collector.trace.v1;
    let value: unknown = { stringValue: "leaf" };
    for (let i = 0; i < 1000; i++) value = { kvlistValue: { values: [{ key: "k", value }] } };
    const message = v1.ExportTraceServiceRequest.fromObject({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: Buffer.alloc(16, 1),
                  spanId: Buffer.alloc(8, 2),
                  name: "deep",
                  attributes: [{ key: "a", value }],
                },
              ],
            },
          ],
        },
      ],
    });
    const body = Buffer.from(v1.ExportTraceServiceRequest.encode(message).finish());
    const res = await c.t.handle(
      new Request("http://localhost/api/otlp/v1/traces", {
        method: "POST",
        headers: { authorization: `ApiKey ${c.key}`, "content-type": "application/x-protobuf" },
        body,
      }),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe("too_deep");
  });
});
