import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller, createContextFrom } from "@/server/trpc";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("tRPC pricing (Settings > Model prices)", () => {
  it("members set and remove a model's price, shared with the REST API; viewers read; bad prices are refused", async () => {
    const { projectId, userId, key } = await t.newProject();
    const as = (role: "member" | "viewer") =>
      createCaller(createContextFrom(t.context, { principal: { projectId, userId, role } }));
    const member = as("member");
    const set = await member.pricing.set({
      provider: "custom",
      model: "my-llama",
      usd_per_million_tokens: { prompt: 0.2, completion: 0.6, cache_read: 0.05 },
    });
    expect(set).toMatchObject({ provider: "custom", model: "my-llama", usd_per_million_tokens: { cache_read: 0.05 } });
    const rest = await t.call("GET", "/api/pricing/prices", { key });
    expect(rest.body.prices.map((p: { id: string }) => p.id)).toEqual([set.id]);
    expect((await as("viewer").pricing.list()).map((p) => p.model)).toEqual(["my-llama"]);
    await expect(as("viewer").pricing.delete({ id: set.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      member.pricing.set({ provider: "custom", model: "x", usd_per_million_tokens: { prompt: -1, completion: 1 } }),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    await member.pricing.delete({ id: set.id });
    expect(await member.pricing.list()).toEqual([]);
  });
});
