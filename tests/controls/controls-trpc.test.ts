import { afterAll, beforeAll, expect, it } from "vitest";
import { createContextFrom } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let owner: ReturnType<typeof createCaller>;
let viewer: ReturnType<typeof createCaller>;
beforeAll(async () => {
  t = await createTestApp();
  const p = await t.newProject();
  const as = (role: "owner" | "viewer") =>
    createCaller(createContextFrom(t.context, { principal: { projectId: p.projectId, userId: p.userId, role } }));
  owner = as("owner");
  viewer = as("viewer");
});
afterAll(() => t.close());

it("the Settings sections' router: owners add and remove each control, everyone reads them, budgets carry their spend", async () => {
  const budget = await owner.controls.budgets.create({
    name: "monthly",
    scope: "project",
    window: "month",
    time_zone: "Europe/Paris",
    limit_usd: 50,
    warn_percent: 80,
  });
  expect(budget).toMatchObject({ name: "monthly", spent_usd: 0, time_zone: "Europe/Paris" });
  await owner.controls.rateLimits.create({ scope: "api_key", requests_per_minute: 60 });
  await owner.controls.allowlists.create({ scope: "project", patterns: ["anthropic/*"] });
  const alias = await owner.controls.aliases.create({
    name: "support-default",
    entries: [
      { provider: "anthropic", model: "claude-haiku-4-5", weight: 3 },
      { provider: "openai", model: "gpt-5-mini", weight: 1 },
    ],
    attempt_timeout_ms: 10_000,
  });

  expect((await viewer.controls.budgets.list()).map((b) => b.name)).toEqual(["monthly"]);
  expect((await viewer.controls.rateLimits.list())[0]).toMatchObject({ scope: "api_key", requests_per_minute: 60 });
  expect((await viewer.controls.allowlists.list())[0].patterns).toEqual(["anthropic/*"]);
  expect((await viewer.controls.aliases.list())[0].entries).toHaveLength(2);

  await expect(viewer.controls.budgets.delete({ id: budget.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
  const changed = await owner.controls.budgets.update({
    id: budget.id,
    control: { name: "monthly", scope: "project", window: "week", time_zone: "UTC", limit_usd: 10, warn_percent: 50 },
  });
  expect(changed).toMatchObject({ window: "week", limit_usd: 10 });
  await owner.controls.aliases.delete({ id: alias.id });
  expect(await viewer.controls.aliases.list()).toEqual([]);
});
