/** A span of a fetched trace, flattened for the tree and the waterfall. */
export interface SpanRow {
  spanId: string;
  name: string;
  type: string;
  depth: number;
  /** Milliseconds from the trace's first start. */
  offsetMs: number;
  durationMs: number;
  error: boolean;
  statusMessage?: string;
  attributes: Record<string, unknown>;
  span: Record<string, unknown>;
}

export interface TraceSummary {
  rows: SpanRow[];
  durationMs: number;
  /** Rolled up over the roots (tracing stores cumulative metrics per span). */
  tokens: { input: number; output: number; total: number };
  cost?: number;
  errors: number;
}

type WireSpan = Record<string, unknown> & { spans?: Record<string, WireSpan | WireSpan[]> };

const ms = (iso: unknown) =>
  typeof iso === "string" ? Date.parse(iso) + Number(/\.\d{3}(\d{3})Z$/.exec(iso)?.[1] ?? 0) / 1000 : NaN;

function children(node: Record<string, WireSpan | WireSpan[]> | undefined): WireSpan[] {
  return Object.values(node ?? {})
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .sort((a, b) => ms(a.start_time) - ms(b.start_time));
}

function metric(span: WireSpan, name: "tokens" | "costs"): Record<string, number> | undefined {
  const value = (
    ((span.attributes as Record<string, unknown> | undefined)?.ag as Record<string, unknown> | undefined)?.metrics as
      Record<string, unknown> | undefined
  )?.[name] as { cumulative?: Record<string, number> } | undefined;
  return value?.cumulative;
}

/** The wire tree (`{spans: {<name>: span | span[]}}`, children under `spans`) in depth-first order. */
export function flattenTrace(trace: { spans: Record<string, WireSpan | WireSpan[]> }): TraceSummary {
  const roots = children(trace.spans);
  const all: Array<{ span: WireSpan; depth: number }> = [];
  const walk = (span: WireSpan, depth: number) => {
    all.push({ span, depth });
    for (const child of children(span.spans)) walk(child, depth + 1);
  };
  for (const root of roots) walk(root, 0);
  const start = Math.min(...all.map(({ span }) => ms(span.start_time)));
  const end = Math.max(...all.map(({ span }) => ms(span.end_time)));
  const rows = all.map(({ span, depth }): SpanRow => {
    const { spans: _children, ...rest } = span;
    return {
      spanId: String(span.span_id),
      name: String(span.span_name),
      type: String(span.span_type ?? "unknown"),
      depth,
      offsetMs: ms(span.start_time) - start,
      durationMs: Math.max(0, ms(span.end_time) - ms(span.start_time)),
      error: span.status_code === "STATUS_CODE_ERROR",
      statusMessage: typeof span.status_message === "string" ? span.status_message : undefined,
      attributes: (span.attributes as Record<string, unknown>) ?? {},
      span: rest,
    };
  });
  const tokens = { input: 0, output: 0, total: 0 };
  let cost: number | undefined;
  for (const root of roots) {
    const t = metric(root, "tokens");
    tokens.input += t?.prompt ?? 0;
    tokens.output += t?.completion ?? 0;
    tokens.total += t?.total ?? (t?.prompt ?? 0) + (t?.completion ?? 0);
    const c = metric(root, "costs")?.total;
    if (c !== undefined) cost = (cost ?? 0) + c;
  }
  // A model call without a price leaves the trace's cost unknown: a partial sum would read as the whole.
  const unpriced = rows.some((r) => {
    const pricing = (r.attributes.ag as { meta?: { pricing?: { source?: string } } } | undefined)?.meta?.pricing;
    return pricing?.source === "none";
  });
  return {
    rows,
    durationMs: Math.max(0, end - start),
    tokens,
    cost: unpriced ? undefined : cost,
    errors: rows.filter((r) => r.error).length,
  };
}
