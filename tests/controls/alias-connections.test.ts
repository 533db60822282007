import { afterAll, beforeAll, expect, it } from "vitest";
import { loadConfig } from "@/server/core/config";
import { createContextFrom } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { createTestApp, type TestApp } from "../helpers/test-app";

/**
 * An alias entry may go through a stored connection (the Settings form offers them): the API
 * takes one of the right provider, a custom provider as `custom`, and refuses in words a slug that
 * names nothing, a plain secret or another provider's key. The picker's allowlist question, and
 * a model price's audit entries, over the same project.
 */
let t: TestApp;
let owner: ReturnType<typeof createCaller>;
beforeAll(async () => {
  // The custom provider's URL is on loopback, which the egress guard refuses unless allowed.
  t = await createTestApp({ egressAllowlist: loadConfig({ EGRESS_ALLOWLIST: "127.0.0.1" }).egressAllowlist });
  const p = await t.newProject();
  owner = createCaller(
    createContextFrom(t.context, { principal: { projectId: p.projectId, userId: p.userId, role: "owner" } }),
  );
  await owner.connections.create({
    header: { name: "Team OpenAI" },
    secret: { kind: "provider_key", data: { kind: "openai", provider: { key: "sk-team-openai-0000" } } },
  });
  await owner.connections.create({
    header: { name: "Local llama" },
    secret: {
      kind: "custom_provider",
      data: { kind: "custom", provider: { url: "http://127.0.0.1:9/v1" }, models: [{ slug: "llama-3" }] },
    },
  });
  await owner.connections.create({
    header: { name: "Plain token" },
    secret: { kind: "secret", data: { value: "a-plain-value" } },
  });
});
afterAll(() => t.close());

it("takes entries through stored connections and refuses one that cannot be reached, in words", async () => {
  const slugs = Object.fromEntries(
    [...(await owner.connections.list()), ...(await owner.connections.secrets())].map((c) => [c.header.name, c.slug]),
  );
  const alias = await owner.controls.aliases.create({
    name: "team-fallbacks",
    entries: [
      { provider: "openai", model: "gpt-5-mini", connection: slugs["Team OpenAI"] },
      { provider: "custom", model: "llama-3", connection: slugs["Local llama"] },
      { provider: "anthropic", model: "claude-haiku-4-5" },
    ],
    attempt_timeout_ms: 10_000,
  });
  expect(alias.entries.map((e) => e.connection)).toEqual([slugs["Team OpenAI"], slugs["Local llama"], undefined]);

  const refused = async (entries: unknown[]) => {
    const error = await owner.controls.aliases
      .create({ name: "bad", entries: entries as never, attempt_timeout_ms: 10_000 })
      .then(
        () => undefined,
        (e: { message: string; code?: string }) => e,
      );
    // A 400 on the wire: tRPC's BAD_REQUEST.
    expect(error?.code).toBe("BAD_REQUEST");
    return error!.message;
  };
  expect(await refused([{ provider: "openai", model: "gpt-5-mini", connection: "nobody" }])).toBe(
    'Entry 1 (openai/gpt-5-mini) names "nobody", which is no stored connection of this project; add it under Settings → Connections',
  );
  expect(await refused([{ provider: "openai", model: "x", connection: slugs["Plain token"] }])).toContain(
    "a plain secret, not a model connection",
  );
  expect(await refused([{ provider: "anthropic", model: "claude", connection: slugs["Team OpenAI"] }])).toBe(
    'Entry 1 (anthropic/claude): the connection "Team OpenAI" is a openai connection, not anthropic',
  );
  expect(await refused([{ provider: "custom", model: "llama-3" }])).toContain("name it");
  expect((await owner.controls.aliases.list()).map((a) => a.name)).toEqual(["team-fallbacks"]);
});

it("says which models the project's allowlist refuses, and why", async () => {
  expect(await owner.controls.refusedModels({ models: ["openai/gpt-5-mini"] })).toEqual({});
  await owner.controls.allowlists.create({ scope: "project", patterns: ["anthropic/*"] });
  expect(await owner.controls.refusedModels({ models: ["openai/gpt-5-mini", "anthropic/claude-haiku-4-5"] })).toEqual({
    "openai/gpt-5-mini": { owner: "the project's model allowlist", patterns: ["anthropic/*"] },
  });
});

it("records a model price's setting, change and removal in the audit log, named by its model", async () => {
  const set = await owner.pricing.set({
    provider: "custom",
    model: "llama-3",
    usd_per_million_tokens: { prompt: 0.5, completion: 1 },
  });
  await owner.pricing.set({
    provider: "custom",
    model: "LLAMA-3",
    usd_per_million_tokens: { prompt: 0.7, completion: 1 },
  });
  await owner.pricing.delete({ id: set.id });
  const { entries } = await owner.audit.list({ limit: 50 });
  const prices = entries.filter((e) => e.target.type === "model_price").reverse();
  expect(prices.map((e) => e.action)).toEqual(["model_price.created", "model_price.updated", "model_price.deleted"]);
  expect(prices[1]).toMatchObject({
    target: { id: set.id },
    before: { name: "custom/llama-3", usd_per_million_tokens: { prompt: 0.5 } },
    after: { name: "custom/LLAMA-3", usd_per_million_tokens: { prompt: 0.7 } },
  });
});
