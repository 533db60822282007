import { expect, type APIRequestContext } from "@playwright/test";

/** Calls a tRPC mutation over HTTP the way the playground's client does (superjson envelope). */
export async function mutate<T = any>(request: APIRequestContext, path: string, input: unknown): Promise<T> {
  const response = await request.post(`/api/trpc/${path}`, { data: { json: input } });
  const body = await response.json();
  expect(response.ok(), `${path}: ${JSON.stringify(body)}`).toBe(true);
  return body.result.data.json as T;
}
