import { randomHex } from "@/server/core/ids";

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;
const ZERO_TRACE = /^0+$/;

export interface TraceContext {
  traceId: string;
  /** This run's own span id (the `invoke_agent` span). */
  spanId: string;
  /** The caller's span, when a traceparent came in. */
  parentSpanId?: string;
}

/** W3C trace context: continue an incoming `traceparent`, or start a new trace. */
export function traceContext(traceparent: string | null): TraceContext {
  const spanId = randomHex(8);
  const match = traceparent ? TRACEPARENT.exec(traceparent.trim().toLowerCase()) : null;
  if (match && !ZERO_TRACE.test(match[1]) && !ZERO_TRACE.test(match[2]))
    return { traceId: match[1], spanId, parentSpanId: match[2] };
  return { traceId: randomHex(16), spanId };
}
