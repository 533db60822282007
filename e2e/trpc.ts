import { expect, type APIRequestContext } from "@playwright/test";

/** Calls a tRPC query over HTTP the way the playground's client does (GET, superjson envelope). */
export async function query<T = any>(request: APIRequestContext, path: string, input?: unknown): Promise<T> {
  const search = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
  const response = await request.get(`/api/trpc/${path}${search}`);
  const body = await response.json();
  expect(response.ok(), `${path}: ${JSON.stringify(body)}`).toBe(true);
  return body.result.data.json as T;
}

/**
 * Waits until a trace whose content contains `text` is stored: a run's trace reaches the store
 * through the ingest worker moments after the run's answer, and a list is read once per visit.
 */
export async function traceStored(request: APIRequestContext, text: string): Promise<void> {
  await expect
    .poll(async () => (await query<{ traces: unknown[] }>(request, "traces.list", { text })).traces.length, {
      timeout: 60_000,
    })
    .toBeGreaterThan(0);
}

/** Calls a tRPC mutation over HTTP the way the playground's client does (superjson envelope). */
export async function mutate<T = any>(request: APIRequestContext, path: string, input: unknown): Promise<T> {
  const response = await request.post(`/api/trpc/${path}`, { data: { json: input } });
  const body = await response.json();
  expect(response.ok(), `${path}: ${JSON.stringify(body)}`).toBe(true);
  return body.result.data.json as T;
}
