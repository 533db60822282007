import { expect } from "vitest";
import { drainEvents } from "@/server/events/emit";
import { drainIngestQueue } from "@/server/tracing/ingest/worker";
import { createTestApp, type TestApp, type TestResponse } from "../helpers/test-app";

export interface TracingCtx {
  t: TestApp;
  key: string;
  projectId: string;
  userId: string;
}

export async function setupTracing(overrides: Parameters<typeof createTestApp>[0] = {}): Promise<TracingCtx> {
  const t = await createTestApp(overrides);
  return { t, ...(await t.newProject("tracing")) };
}

export function expectStatus(res: TestResponse, status: number): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
}

/** Runs the ingest worker until the queue is empty: what the background worker does, now. */
export async function processQueue(c: TracingCtx): Promise<number> {
  return drainIngestQueue(c.t.context);
}

let seq = 0;
/** A fresh 32-hex trace id and 16-hex span ids. */
export function traceId(): string {
  return (Date.now().toString(16) + (++seq).toString(16).padStart(6, "0") + Math.random().toString(16).slice(2))
    .padEnd(32, "0")
    .slice(0, 32);
}
export function spanId(): string {
  return (Math.random().toString(16).slice(2) + (++seq).toString(16) + "0000000000000000").slice(0, 16);
}

export async function ingest(c: TracingCtx, body: unknown, key = c.key) {
  return c.t.call("POST", "/api/tracing/spans/ingest", { key, body });
}

export async function events(c: TracingCtx, type: string) {
  await drainEvents(c.t.context.db);
  const res = await c.t.call("POST", "/api/events/query", { key: c.key, body: { event_type: type } });
  expectStatus(res, 200);
  return res.body.events as { attributes: Record<string, any> }[];
}
