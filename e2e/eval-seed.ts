import { expect, type APIRequestContext } from "@playwright/test";
import { mutate } from "./trpc";

/**
 * Evaluation fixtures through the public API (an API key made with the owner's session):
 * testsets, evaluators and runs are created the way a script would, not through other pages.
 */
export async function apiClient(request: APIRequestContext) {
  const { key } = await mutate(request, "apiKeys.create", { name: `evaluations ${Date.now()}` });
  const headers = { authorization: `ApiKey ${key}` };
  const post = async (path: string, data: unknown) => {
    const response = await request.post(path, { headers, data });
    const body = await response.json();
    expect(response.status(), `${path}: ${JSON.stringify(body)}`).toBe(200);
    return body;
  };
  const get = async (path: string) => (await request.get(path, { headers })).json();
  return {
    post,
    get,
    /** Creates an artifact with its first revision through the simple API. */
    async create(domain: "testsets" | "evaluators", one: string, body: Record<string, unknown>) {
      return (await post(`/api/simple/${domain}/`, { [one]: body }))[one] as { id: string; revision_id: string };
    },
    /** Starts a simple evaluation and waits until `done` holds for it. */
    async evaluate(data: Record<string, unknown>, done: (evaluation: any) => boolean, name = "e2e evaluation") {
      const { evaluation } = await post("/api/simple/evaluations/", { evaluation: { name, data } });
      let current = evaluation;
      await expect
        .poll(
          async () => {
            current = (await get(`/api/simple/evaluations/${evaluation.id}`)).evaluation;
            return done(current);
          },
          { timeout: 60_000, intervals: [250] },
        )
        .toBe(true);
      return current;
    },
  };
}

export const finished = (e: any) => ["success", "errors", "failure"].includes(e?.data?.status);
