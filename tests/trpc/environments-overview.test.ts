import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContextFrom } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let caller: ReturnType<typeof createCaller>;
let userId: string;
beforeAll(async () => {
  t = await createTestApp();
  const p = await t.newProject();
  userId = p.userId;
  caller = createCaller(
    createContextFrom(t.context, { principal: { projectId: p.projectId, userId: p.userId, role: "owner" } }),
  );
});
afterAll(() => t.close());

describe("environments overview and deploy log", () => {
  it("says what each environment runs, since when, and lists one agent's deploys with what changed", async () => {
    const a = await caller.agents.create({ name: "Alpha" });
    const b = await caller.agents.create({ name: "Beta" });
    const template = (a.revision.data as { parameters: { agent: Record<string, unknown> } }).parameters.agent;
    const a2 = await caller.agents.commit({
      variantId: a.variant.id,
      template: { ...template, instructions: { agents_md: "v2" } },
    });

    await caller.agents.deploy({ revisionId: a.revision.id, environment: "staging", message: "first" });
    await caller.agents.deploy({ revisionId: b.revision.id, environment: "staging" });
    await caller.agents.deploy({ revisionId: a2.revision.id, environment: "staging", message: "second" });
    // Redeploying the same revision changes nothing: "since" stays on the deploy that changed it.
    await caller.agents.deploy({ revisionId: a2.revision.id, environment: "staging", message: "again" });

    const overview = await caller.environments.overview();
    expect(overview.map((e) => e.slug).sort()).toEqual(["development", "production", "staging"]);
    const staging = overview.find((e) => e.slug === "staging")!;
    expect(staging.revision?.version).toBe("4");
    expect(
      staging.deployments.map((d) => [d.key, d.artifact.name, d.revision.version, d.since?.version, d.since?.message]),
    ).toEqual([
      ["alpha.revision", "Alpha", "2", "3", "second"],
      ["beta.revision", "Beta", "1", "2", expect.any(String)],
    ]);
    expect(overview.find((e) => e.slug === "production")!.deployments).toEqual([]);

    const all = await caller.environments.deploys({ environment: "staging" });
    expect(all.items.map((i) => i.revision.version)).toEqual(["4", "3", "2", "1"]);
    expect(all.items[0].changes).toEqual([]);

    const page1 = await caller.environments.deploys({ environment: "staging", artifactId: a.agent.id, limit: 1 });
    expect(page1.items.map((i) => i.revision.message)).toEqual(["second"]);
    expect(page1.items[0].changes).toEqual([
      expect.objectContaining({
        key: "alpha.revision",
        action: "updated",
        before: expect.objectContaining({ revision: expect.objectContaining({ version: "1" }) }),
        after: expect.objectContaining({ artifact: expect.objectContaining({ name: "Alpha" }) }),
      }),
    ]);
    const page2 = await caller.environments.deploys({
      environment: "staging",
      artifactId: a.agent.id,
      limit: 1,
      cursor: page1.next,
    });
    expect(page2.items.map((i) => [i.revision.message, i.changes[0].action])).toEqual([["first", "created"]]);
    expect(page2.next).toBeUndefined();

    await expect(caller.environments.deploys({ environment: "nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });

    const authors = await caller.agents.authors({ ids: [userId, "00000000-0000-7000-8000-000000000000"] });
    expect(authors.map((m) => m.id)).toEqual([userId]);
  });
});
