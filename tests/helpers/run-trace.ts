import { drainIngestQueue } from "@/server/tracing";
import type { TestApp } from "./test-app";

export interface SpanNode {
  span_id: string;
  span_name: string;
  parent_id?: string;
  start_time: string;
  end_time: string;
  status_code?: string;
  status_message?: string;
  attributes?: Record<string, any>;
  events?: Array<{ name: string; timestamp: string; attributes?: Record<string, any> }>;
}

/**
 * A trace's spans once `expected` of them went through the ingest queue (an agent run's spans
 * are queued after it ends), flattened and ordered by start time.
 */
export async function traceSpans(app: TestApp, key: string, traceId: string, expected = 1): Promise<SpanNode[]> {
  let spans: SpanNode[] = [];
  for (let i = 0; i < 100; i++) {
    await drainIngestQueue(app.context);
    const res = await app.call("GET", `/api/traces/${traceId}`, { key });
    spans = res.status === 200 && res.body.count > 0 ? spansOf(res.body) : [];
    if (spans.length >= expected) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (spans.length < expected) throw new Error(`trace ${traceId} has ${spans.length} spans, not ${expected}`);
  // Ties (a root, its turn and its first model call start together) go parents first, then by end.
  const rank = (s: SpanNode) => (s.span_name.startsWith("invoke_agent") ? 0 : s.span_name.startsWith("turn ") ? 1 : 2);
  const time = (iso: string) => Date.parse(iso);
  return spans.sort(
    (a, b) => time(a.start_time) - time(b.start_time) || rank(a) - rank(b) || time(a.end_time) - time(b.end_time),
  );
}

/** Every span of a fetched trace, whatever the nesting shape (`T`: the fields a caller reads). */
export function spansOf<T = SpanNode>(value: unknown): T[] {
  if (!value || typeof value !== "object") return [];
  const out: T[] = [];
  const node = value as Record<string, unknown>;
  if (typeof node.span_id === "string" && typeof node.span_name === "string") out.push(node as T);
  for (const child of Object.values(node)) if (child && typeof child === "object") out.push(...spansOf<T>(child));
  return out;
}

/** A span attribute by its dotted name (the trace store nests `gen_ai.tool.name` as objects). */
export function attribute(span: SpanNode, name: string): unknown {
  let value: unknown = span.attributes;
  for (const part of name.split(".")) value = (value as Record<string, unknown> | undefined)?.[part];
  return value;
}
