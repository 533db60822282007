import { expect } from "vitest";
import { drainIngestQueue } from "@/server/tracing";
import { createTestApp, type TestApp, type TestResponse } from "../helpers/test-app";

export interface AnalyticsCtx {
  t: TestApp;
  key: string;
  projectId: string;
  userId: string;
}

export async function setupAnalytics(): Promise<AnalyticsCtx> {
  const t = await createTestApp();
  return { t, ...(await t.newProject("analytics")) };
}

export function expectStatus(res: TestResponse, status: number): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
}

let seq = 0;
const hex = (n: number) =>
  (Date.now().toString(16) + (++seq).toString(16).padStart(8, "0") + "0".repeat(32)).slice(0, n);
export const newTraceId = () => hex(24) + Math.random().toString(16).slice(2, 10).padEnd(8, "0");
export const newSpanId = () =>
  (Math.random().toString(16).slice(2, 10) + (++seq).toString(16).padStart(8, "0")).slice(0, 16);

export interface RunSpec {
  agent: string;
  model: string;
  provider?: string;
  revision?: string;
  environment?: string;
  user?: string;
  start: string;
  durationMs: number;
  error?: boolean;
  tokens?: Record<string, number>;
  costs?: Record<string, number>;
  ttftMs?: number;
  attributes?: Record<string, unknown>;
}

/** A run as an agent run records it: an `invoke_agent` root with references, a `chat` child with usage. */
export function runSpans(run: RunSpec, traceId = newTraceId()) {
  const rootId = newSpanId();
  const start = Date.parse(run.start);
  const end = new Date(start + run.durationMs).toISOString();
  const status = run.error ? "STATUS_CODE_ERROR" : "STATUS_CODE_OK";
  const model = { "gen_ai.request.model": run.model, "gen_ai.provider.name": run.provider ?? "openai" };
  const root = {
    trace_id: traceId,
    span_id: rootId,
    span_name: `invoke_agent ${run.agent}`,
    start_time: run.start,
    end_time: end,
    status_code: status,
    ...(run.user ? { user_id: run.user } : {}),
    attributes: {
      "gen_ai.operation.name": "invoke_agent",
      ...model,
      "ag.references.workflow.id": run.agent,
      ...(run.revision ? { "ag.references.workflow_revision.id": run.revision } : {}),
      ...(run.environment ? { "ag.references.environment.slug": run.environment } : {}),
      ...run.attributes,
    },
  };
  const chat = {
    trace_id: traceId,
    span_id: newSpanId(),
    parent_id: rootId,
    span_name: `chat ${run.model}`,
    start_time: run.start,
    end_time: end,
    status_code: status,
    attributes: {
      "gen_ai.operation.name": "chat",
      ...model,
      ...Object.fromEntries(
        Object.entries(run.tokens ?? {}).map(([k, v]) => [`ag.metrics.tokens.incremental.${k}`, v]),
      ),
      ...Object.fromEntries(Object.entries(run.costs ?? {}).map(([k, v]) => [`ag.metrics.costs.incremental.${k}`, v])),
      ...(run.ttftMs !== undefined ? { "ai.response.msToFirstChunk": run.ttftMs } : {}),
    },
  };
  return { traceId, rootId, root, chat, spans: [root, chat] };
}

export async function ingestSpans(c: AnalyticsCtx, spans: unknown[]): Promise<void> {
  const res = await c.t.call("POST", "/api/tracing/spans/ingest", { key: c.key, body: { spans } });
  expectStatus(res, 202);
  expect(res.body.dropped).toBeUndefined();
  await drainIngestQueue(c.t.context);
}

export async function analytics(c: AnalyticsCtx, body: unknown, key = c.key) {
  return c.t.call("POST", "/api/analytics/query", { key, body });
}
