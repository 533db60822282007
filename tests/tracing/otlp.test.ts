import { gzipSync } from "node:zlib";
import { SpanKind, SpanStatusCode, context, trace } from "@opentelemetry/api";
import { ExportResultCode } from "@opentelemetry/core";
import { OTLPTraceExporter as HttpJsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { CompressionAlgorithm } from "@opentelemetry/otlp-exporter-base";
import * as otlpRoot from "@opentelemetry/otlp-transformer/build/src/generated/root";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveOnLoopback, type RunningServer } from "../helpers/http-server";
import { expectStatus, processQueue, setupTracing, spanId, traceId, type TracingCtx } from "./helpers";

const root = otlpRoot as any;
const v1 = root.opentelemetry.proto.collector.trace.v1;

let c: TracingCtx;
let server: RunningServer;
beforeAll(async () => {
  c = await setupTracing();
  server = await serveOnLoopback(c.t.handle);
});
afterAll(async () => {
  await server.close();
  await c.t.close();
});

/** Spans made by the real OpenTelemetry SDK: an agent run with a model call (GenAI conventions) and an AI SDK call. */
function recordAgentRun(): { spans: ReadableSpan[]; traceId: string } {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": "otlp-test", "deployment.environment": "test" }),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  const tracer = provider.getTracer("test-scope", "1.2.3");
  const agent = tracer.startSpan("invoke_agent helper", {
    kind: SpanKind.SERVER,
    attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "helper" },
  });
  const ctx = trace.setSpan(context.active(), agent);
  const chat = tracer.startSpan(
    "chat gpt-5",
    {
      kind: SpanKind.CLIENT,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-5",
        "gen_ai.request.temperature": 0.2,
        "gen_ai.usage.input_tokens": 2000,
        "gen_ai.usage.output_tokens": 300,
        "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: "hi" }] }]),
        "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "hello" }] }]),
      },
    },
    ctx,
  );
  chat.end();
  const sdk = tracer.startSpan(
    "ai.generateText.doGenerate",
    {
      attributes: {
        "ai.operationId": "ai.generateText.doGenerate",
        "ai.model.id": "claude-haiku-4-5",
        "ai.model.provider": "anthropic.messages",
        "ai.prompt.messages": JSON.stringify([{ role: "user", content: "2+2?" }]),
        "ai.response.text": "4",
        "ai.response.finishReason": "stop",
        "ai.usage.inputTokens": 10,
        "ai.usage.outputTokens": 2,
      },
    },
    ctx,
  );
  sdk.recordException(new Error("transient"));
  sdk.setStatus({ code: SpanStatusCode.ERROR, message: "it failed once" });
  sdk.end();
  agent.end();
  return { spans: memory.getFinishedSpans(), traceId: agent.spanContext().traceId };
}

function exportWith(
  exporter: { export(spans: ReadableSpan[], cb: (r: { code: number; error?: Error }) => void): void },
  spans: ReadableSpan[],
) {
  return new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(spans, resolve));
}

describe("OTLP/HTTP with the OpenTelemetry JS SDK's exporters", () => {
  const cases = [
    {
      name: "protobuf",
      make: (compression: CompressionAlgorithm) =>
        new ProtoExporter({
          url: `${server.origin}/api/otlp/v1/traces`,
          headers: { Authorization: `ApiKey ${c.key}` },
          compression,
        }),
    },
    {
      name: "JSON",
      make: (compression: CompressionAlgorithm) =>
        new HttpJsonExporter({
          url: `${server.origin}/api/otlp/v1/traces`,
          headers: { Authorization: `ApiKey ${c.key}` },
          compression,
        }),
    },
  ];
  for (const { name, make } of cases) {
    for (const compression of [CompressionAlgorithm.NONE, CompressionAlgorithm.GZIP]) {
      it(`${name}, compression ${compression}: the exporter succeeds and the trace is stored with its resource, scope and GenAI fields`, async () => {
        const run = recordAgentRun();
        const exporter = make(compression);
        const result = await exportWith(exporter, run.spans);
        expect(result.error?.message).toBeUndefined();
        expect(result.code).toBe(ExportResultCode.SUCCESS);
        await exporter.shutdown();
        await processQueue(c);

        const res = await c.t.call("GET", `/api/traces/${run.traceId}`, { key: c.key });
        expectStatus(res, 200);
        const agent = res.body.trace.spans["invoke_agent helper"];
        expect(agent.span_type).toBe("agent");
        expect(agent.span_kind).toBe("SPAN_KIND_SERVER");
        expect(agent.resource.attributes["service.name"]).toBe("otlp-test");
        expect(agent.resource.scope).toEqual({ name: "test-scope", version: "1.2.3" });
        expect(agent.attributes.ag.meta.agent.name).toBe("helper");

        const chat = agent.spans["chat gpt-5"];
        expect(chat.span_type).toBe("chat");
        expect(chat.span_kind).toBe("SPAN_KIND_CLIENT");
        expect(chat.attributes.gen_ai.request.model).toBe("gpt-5");
        expect(chat.attributes.ag.meta.request.model).toBe("gpt-5");
        expect(chat.attributes.ag.data.parameters).toEqual({ temperature: 0.2 });
        expect(chat.attributes.ag.data.inputs.messages[0].role).toBe("user");
        expect(chat.attributes.ag.data.outputs.messages[0].parts[0].content).toBe("hello");
        // Content is moved into ag.data (stored once); small attributes stay as they came too.
        expect(chat.attributes.gen_ai.input).toBeUndefined();
        expect(chat.attributes.gen_ai.output).toBeUndefined();
        expect(chat.attributes.gen_ai.usage.input_tokens).toBe(2000);
        expect(chat.attributes.ag.metrics.tokens.incremental).toEqual({ prompt: 2000, completion: 300, total: 2300 });
        expect(chat.attributes.ag.metrics.costs.incremental.total).toBeCloseTo((2000 * 1.25 + 300 * 10) / 1e6, 12);

        const sdk = agent.spans["ai.generateText.doGenerate"];
        expect(sdk.span_type).toBe("chat");
        expect(sdk.status_code).toBe("STATUS_CODE_ERROR");
        expect(sdk.status_message).toBe("it failed once");
        expect(sdk.attributes.ag.meta.system).toBe("anthropic");
        expect(sdk.attributes.ag.data.inputs.messages).toEqual([{ role: "user", content: "2+2?" }]);
        expect(sdk.attributes.ag.data.outputs).toBe("4");
        expect(sdk.attributes.ag.meta.response.finish_reasons).toEqual(["stop"]);
        expect(sdk.exception.message).toBe("transient");

        // Roll-up: the agent span totals both model calls and counts the error.
        expect(agent.attributes.ag.metrics.tokens.cumulative).toEqual({ prompt: 2010, completion: 302, total: 2312 });
        expect(agent.attributes.ag.metrics.errors.cumulative).toBe(1);
      });
    }
  }
});

function otlpJsonBody(spans: Record<string, unknown>[]) {
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: "raw" } }] },
        scopeSpans: [{ scope: { name: "raw" }, spans }],
      },
    ],
  };
}

function rawSpan(t: string, s: string, extra: Record<string, unknown> = {}) {
  const now = BigInt(Date.now()) * 1_000_000n;
  return {
    traceId: t,
    spanId: s,
    name: "raw",
    kind: 1,
    startTimeUnixNano: String(now),
    endTimeUnixNano: String(now + 5_000_000n),
    ...extra,
  };
}

async function post(body: Uint8Array | string, headers: Record<string, string>, key: string | null = c.key) {
  const response = await c.t.handle(
    new Request("http://localhost/api/otlp/v1/traces", {
      method: "POST",
      headers: { ...(key ? { authorization: `ApiKey ${key}` } : {}), ...headers },
      body: body as BodyInit,
    }),
  );
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("OTLP/HTTP edge cases", () => {
  it("JSON: keeps the valid spans of a batch and reports the malformed ones in partialSuccess", async () => {
    const t = traceId();
    const good = spanId();
    const res = await post(JSON.stringify(otlpJsonBody([rawSpan(t, good), rawSpan(t, spanId(), { kind: 999 })])), {
      "content-type": "application/json",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    const body = JSON.parse(res.bytes.toString());
    expect(body.partialSuccess.rejectedSpans).toBe("1");
    expect(body.partialSuccess.errorMessage).toMatch(/span_kind/);
    await processQueue(c);
    const fetched = await c.t.call("GET", `/api/traces/${t}`, { key: c.key });
    expect(fetched.body.trace.spans.raw.span_id).toBe(good);
    expect(fetched.body.trace.spans.raw.resource.attributes["service.name"]).toBe("raw");
  });

  it("protobuf: a kind-999 span is rejected in partial_success; gzip is recognised by its magic bytes without Content-Encoding", async () => {
    const t = traceId();
    const toBytes = (hex: string) => Buffer.from(hex, "hex");
    const message = v1.ExportTraceServiceRequest.fromObject({
      resourceSpans: [
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: "pb" } }] },
          scopeSpans: [
            {
              scope: { name: "pb" },
              spans: [
                { ...rawSpan(t, spanId()), traceId: toBytes(t), spanId: toBytes(spanId()) },
                { ...rawSpan(t, spanId()), traceId: toBytes(t), spanId: toBytes(spanId()), kind: 999 },
              ],
            },
          ],
        },
      ],
    });
    const bytes = gzipSync(v1.ExportTraceServiceRequest.encode(message).finish());
    const res = await post(bytes, { "content-type": "application/x-protobuf" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-protobuf");
    const decoded = v1.ExportTraceServiceResponse.toObject(v1.ExportTraceServiceResponse.decode(res.bytes), {
      longs: String,
    });
    expect(decoded.partialSuccess.rejectedSpans).toBe("1");
    await processQueue(c);
    const fetched = await c.t.call("GET", `/api/traces/${t}`, { key: c.key });
    expect(fetched.body.count).toBe(1);
  });

  it("413 past the size limit (compressed and decompressed), 415 for another content type, 400 for bytes that do not decode, 401 without a key", async () => {
    const small = await setupTracing({
      tracing: { maxBodyBytes: 2048, maxBacklogSpans: 1000, partitionPeriod: "week" },
    });
    try {
      const spans = Array.from({ length: 40 }, () => rawSpan(traceId(), spanId()));
      const big = JSON.stringify(otlpJsonBody(spans));
      const call = (body: Uint8Array | string, headers: Record<string, string>) =>
        small.t.handle(
          new Request("http://localhost/api/otlp/v1/traces", {
            method: "POST",
            headers: { authorization: `ApiKey ${small.key}`, ...headers },
            body: body as BodyInit,
          }),
        );
      expect((await call(big, { "content-type": "application/json" })).status).toBe(413);
      const bomb = gzipSync(Buffer.alloc(1_000_000, 0x20));
      expect(bomb.length).toBeLessThan(2048);
      expect((await call(bomb, { "content-type": "application/json", "content-encoding": "gzip" })).status).toBe(413);
    } finally {
      await small.t.close();
    }
    expect((await post("x", { "content-type": "text/plain" })).status).toBe(415);
    expect(
      (await post(Buffer.from([0xff, 0xff, 0xff, 0x01]), { "content-type": "application/x-protobuf" })).status,
    ).toBe(400);
    expect((await post("{}", { "content-type": "application/json" }, null)).status).toBe(401);
    const ready = await c.t.call("GET", "/api/otlp/v1/traces");
    expect(ready.body).toEqual({ status: "ready" });
  });
});
