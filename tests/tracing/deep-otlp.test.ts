import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as otlpRoot from "@opentelemetry/otlp-transformer/build/src/generated/root";
import { jsonDepthWithin, MAX_JSON_DEPTH, scanJsonDepth } from "@/server/core/json-depth";
import { decodeOtlp } from "@/server/tracing/otlp/decode";
import { scanOtlpProtobufDepth } from "@/server/tracing/otlp/protobuf-depth";
import { deepOtlpJson, deepOtlpProtobuf } from "../helpers/deep-otlp";
import { setupTracing, type TracingCtx } from "./helpers";

// A body nested 20,000 levels deep is refused from its first bytes, in both encodings: the scan
// stops a few kilobytes in, before protobufjs or JSON.parse would walk (and the event loop wait
// for) the whole body. Time is measured by `npm run bench -- otlp-depth`; here, the work.

const v1 = ((otlpRoot as any).default ?? otlpRoot).opentelemetry.proto.collector.trace.v1;
let c: TracingCtx;
beforeAll(async () => {
  c = await setupTracing();
});
afterAll(() => c.t.close());

const bodies = {
  protobuf: (levels: number) => deepOtlpProtobuf(levels),
  json: (levels: number) => Buffer.from(deepOtlpJson(levels)),
};

describe.each(["protobuf", "json"] as const)("a deeply nested OTLP %s body", (encoding) => {
  const contentType = encoding === "json" ? "application/json" : "application/x-protobuf";
  const scan = encoding === "json" ? scanJsonDepth : scanOtlpProtobufDepth;

  it("20,000 kvlist levels: 400 too_deep over HTTP, decided within the first few kilobytes", async () => {
    const body = bodies[encoding](20_000);
    const res = await c.t.handle(
      new Request("http://localhost/api/otlp/v1/traces", {
        method: "POST",
        headers: { authorization: `ApiKey ${c.key}`, "content-type": contentType },
        body: new Uint8Array(body),
      }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "too_deep" });
    const { tooDeep, bytesRead } = scan(body);
    expect(tooDeep).toBe(true);
    // The limit (128 JSON levels) is passed about 32 kvlist levels in: a few KB of a body of
    // 300 KB (protobuf) or 1 MB (JSON), whatever its full depth.
    expect(bytesRead).toBeLessThan(8 * 1024);
    expect(body.length).toBeGreaterThan(290_000);
    // Ten times deeper, about as little read (protobuf's outer length prefixes grow by a byte).
    expect(scan(bodies[encoding](200_000)).bytesRead).toBeLessThan(bytesRead + 200);
  });

  it("refuses at exactly the depth the decoded object would be refused at, and accepts the rest", () => {
    let firstRefused: number | undefined;
    for (let levels = 20; levels <= 40 && firstRefused === undefined; levels++) {
      const body = bodies[encoding](levels);
      const decoded = v1.ExportTraceServiceRequest.toObject(
        v1.ExportTraceServiceRequest.decode(deepOtlpProtobuf(levels)),
        {
          longs: String,
          bytes: Array,
          defaults: false,
          arrays: true,
        },
      );
      const scanned = scan(body);
      expect(scanned.tooDeep).toBe(!jsonDepthWithin(encoding === "json" ? JSON.parse(body.toString()) : decoded));
      if (scanned.tooDeep) firstRefused = levels;
      else {
        expect(scanned.bytesRead).toBe(body.length);
        expect(() => decodeOtlp(body, encoding)).not.toThrow();
      }
    }
    expect(firstRefused).toBeDefined();
  });
});

it("the protobuf scan knows every message field of a trace request: a full one reads to its end", () => {
  const kv = (key: string, value: unknown) => ({ key, value });
  const attributes = [
    kv("s", { stringValue: "x" }),
    kv("b", { boolValue: true }),
    kv("i", { intValue: 7 }),
    kv("d", { doubleValue: 1.5 }),
    kv("by", { bytesValue: Buffer.from("raw") }),
    kv("a", {
      arrayValue: { values: [{ stringValue: "y" }, { kvlistValue: { values: [kv("n", { intValue: 1 })] } }] },
    }),
  ];
  const message = v1.ExportTraceServiceRequest.fromObject({
    resourceSpans: [
      {
        resource: { attributes, droppedAttributesCount: 1, entityRefs: [{ type: "service", idKeys: ["a"] }] },
        schemaUrl: "https://example.com",
        scopeSpans: [
          {
            scope: { name: "lib", version: "1", attributes },
            spans: [
              {
                traceId: Buffer.alloc(16, 1),
                spanId: Buffer.alloc(8, 2),
                parentSpanId: Buffer.alloc(8, 3),
                traceState: "k=v",
                flags: 1,
                name: "full",
                kind: 2,
                startTimeUnixNano: 1,
                endTimeUnixNano: 2,
                attributes,
                events: [{ timeUnixNano: 1, name: "e", attributes }],
                links: [{ traceId: Buffer.alloc(16, 4), spanId: Buffer.alloc(8, 5), attributes, flags: 1 }],
                status: { code: 2, message: "bad" },
              },
            ],
          },
        ],
      },
    ],
  });
  const body = v1.ExportTraceServiceRequest.encode(message).finish();
  const decoded = v1.ExportTraceServiceRequest.toObject(v1.ExportTraceServiceRequest.decode(body), {
    longs: String,
    bytes: Array,
    defaults: false,
    arrays: true,
  });
  // The deepest path is the kvlist inside the array attribute of an event: 15 JSON levels.
  let depth = 1;
  while (!jsonDepthWithin(decoded, depth)) depth++;
  expect(scanOtlpProtobufDepth(body, MAX_JSON_DEPTH)).toEqual({ tooDeep: false, bytesRead: body.length });
  // The scan counts message nesting, which the decoded object has at least (bytes add a level).
  expect(scanOtlpProtobufDepth(body, depth).tooDeep).toBe(false);
  expect(scanOtlpProtobufDepth(body, depth - 2).tooDeep).toBe(true);
});

it("the JSON scan counts brackets outside strings only", () => {
  const text = JSON.stringify({ a: ["[{", { b: '"]}\\"[' }], c: [[[]]] });
  expect(scanJsonDepth(Buffer.from(text), 4)).toEqual({ tooDeep: false, bytesRead: text.length });
  expect(scanJsonDepth(Buffer.from(text), 3).tooDeep).toBe(true);
  expect(jsonDepthWithin(JSON.parse(text), 4)).toBe(true);
  expect(jsonDepthWithin(JSON.parse(text), 3)).toBe(false);
});
