import { describe, expect, it } from "vitest";
import { parseSpanId, parseTraceId, spanIdToWire, traceIdToWire } from "./ids";
import { parseTracingRequest } from "./parse-request";
import { totalTrace } from "./trace-totals";
import { microsToIso, parseTimestamp } from "./timestamps";

describe("ids", () => {
  it("accepts hex, dashed UUIDs and 0x; doubles 16-hex span ids and shows them as 16 hex again", () => {
    const hex = "f5a2efb40895881e938e2ebc070beca8";
    const dashed = "f5a2efb4-0895-881e-938e-2ebc070beca8";
    expect(parseTraceId(hex)).toBe(dashed);
    expect(parseTraceId(dashed.toUpperCase())).toBe(dashed);
    expect(parseTraceId(`0x${hex}`)).toBe(dashed);
    expect(parseTraceId("abc")).toBeUndefined();
    expect(parseSpanId("15f3df0731995245")).toBe("15f3df07-3199-5245-15f3-df0731995245");
    expect(spanIdToWire(parseSpanId("15f3df0731995245")!)).toBe("15f3df0731995245");
    expect(spanIdToWire(dashed)).toBe(hex);
    expect(traceIdToWire(dashed)).toBe(hex);
  });
});

describe("timestamps", () => {
  it("classifies integers by digit count and keeps microseconds; other lengths are errors", () => {
    const us = Date.UTC(2026, 3, 16, 18, 18, 18) * 1000;
    expect(parseTimestamp(us / 1e6)).toBe(us);
    expect(parseTimestamp(us / 1e3)).toBe(us);
    expect(parseTimestamp(us)).toBe(us);
    expect(parseTimestamp(`${us}000`)).toBe(us);
    expect(parseTimestamp(123456)).toBeUndefined();
    expect(parseTimestamp("2026-04-16T18:18:18.491929Z")).toBe(us + 491_929);
    expect(parseTimestamp("2026-04-16 20:18:18.5+02")).toBe(us + 500_000);
    expect(microsToIso(us + 491_929)).toBe("2026-04-16T18:18:18.491929Z");
  });
});

describe("older Agenta SDKs' span type", () => {
  const span = (type: Record<string, unknown>) =>
    parseTracingRequest({
      spans: [
        {
          trace_id: "f5a2efb40895881e938e2ebc070beca8",
          span_id: "abcdef1234567890",
          span_name: "s",
          start_time: 1670000000,
          attributes: { ag: { type } },
        },
      ],
    }).spans[0];

  it("reads ag.type.node as ag.type.span, as the reference's adapter does; a span type also sent wins", () => {
    const node = span({ node: "workflow" });
    expect(node.span_type).toBe("workflow");
    expect((node.attributes.ag as Record<string, any>).unsupported).toBeUndefined();
    expect(span({ node: "workflow", span: "tool" }).span_type).toBe("tool");
  });
});

describe("the reference's messy spans", () => {
  const parsed = parseTracingRequest({
    spans: [
      {
        trace_id: "f5a2efb40895881e938e2ebc070beca8",
        span_id: "abcdef1234567890",
        span_name: "parent_span",
        span_kind: "SPAN_KIND_SERVER",
        start_time: 1670000000,
        end_time: 1680000000,
        status_code: "STATUS_CODE_OK",
        attributes: {
          ag: {
            type: { trace: "unknown", span: "unknown", extra_type: "x" },
            data: { inputs: '{"text": "hello"}', outputs: "world", extra_data: 42 },
            metrics: {
              duration: { acc: 12.5 },
              tokens: { acc: { total: 100 } },
              costs: { unit: { total: 0.02 } },
              extra_metric: { acc: 999 },
            },
            references: { testcase: { id: "t-1", slug: "not a slug!" } },
            custom: "oops",
          },
          "some.more.array.0": "array-value-0",
        },
        events: [
          { name: "some-event", timestamp: 1675000000, attributes: { "some.attribute": "some-value" } },
          { name: "exception", timestamp: 1675000001, attributes: { message: "PANIC!", type: "NotImplementedError" } },
        ],
      },
      {
        trace_id: "f5a2efb40895881e938e2ebc070beca8",
        span_id: "1234567890abcdef",
        parent_id: "abcdef1234567890",
        span_name: "child_span",
        start_time: 1672500000,
        end_time: 1677500000,
      },
    ],
  });
  const [parent, child] = parsed.spans;

  it("parses both, keeps known ag keys and quarantines the rest in ag.unsupported", () => {
    expect(parsed.dropped).toEqual([]);
    const ag = parent.attributes.ag as Record<string, any>;
    expect(ag.unsupported).toEqual({
      type: { extra_type: "x" },
      data: { extra_data: 42 },
      metrics: { extra_metric: { acc: 999 } },
      custom: "oops",
    });
    expect(ag.data.inputs).toEqual({ text: "hello" });
    expect(ag.data.outputs).toBe("world");
    expect(ag.references.testcase).toEqual({ id: "t-1", slug: null });
    expect(parent.attributes.some).toEqual({ more: { array: { "0": "array-value-0" } } });
  });

  it("renames legacy metrics, counts exception events, and infers the trace type", () => {
    const metrics = (parent.attributes.ag as Record<string, any>).metrics;
    expect(metrics.tokens).toEqual({ cumulative: { total: 100 }, incremental: { total: 100 } });
    expect(metrics.costs.incremental).toEqual({ total: 0.02 });
    expect(metrics.errors.incremental).toBe(1);
    expect(metrics.duration.cumulative).toBe(10_000_000_000);
    expect(parent.exception).toMatchObject({ message: "PANIC!", type: "NotImplementedError" });
    expect(parent.span_type).toBe("unknown");
    expect(child.span_type).toBe("task");
    expect(parent.trace_type).toBe("invocation");
    expect(child.parent_id).toBe(parent.span_id);
  });

  it("rolls totals up from children to parents", () => {
    const nodes = [
      { span_id: "p", parent_id: null, attributes: { ag: { metrics: { tokens: { incremental: { total: 1 } } } } } },
      {
        span_id: "c1",
        parent_id: "p",
        attributes: { ag: { metrics: { tokens: { incremental: { total: 2 } }, errors: { incremental: 1 } } } },
      },
      { span_id: "c2", parent_id: "c1", attributes: { ag: { metrics: { costs: { incremental: { total: 0.5 } } } } } },
      { span_id: "loop", parent_id: "loop", attributes: {} },
    ];
    const changed = totalTrace(nodes);
    expect(changed).toEqual(new Set(["p", "c1", "c2"]));
    expect((nodes[0].attributes as any).ag.metrics).toMatchObject({
      tokens: { cumulative: { total: 3 } },
      costs: { cumulative: { total: 0.5 } },
      errors: { cumulative: 1 },
    });
    expect(totalTrace(nodes).size).toBe(0);
  });

  it("annotation when any span of the trace has links, an empty list included", () => {
    const annotated = parseTracingRequest({
      spans: [{ trace_id: "f5a2efb40895881e938e2ebc070beca8", span_id: "abcdef1234567890", links: [] }],
    });
    expect(annotated.spans[0].trace_type).toBe("annotation");
  });
});
