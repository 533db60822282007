import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContextFrom } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let caller: ReturnType<typeof createCaller>;
beforeAll(async () => {
  t = await createTestApp();
  const p = await t.newProject();
  caller = createCaller(
    createContextFrom(t.context, { principal: { projectId: p.projectId, userId: p.userId, role: "owner" } }),
  );
});
afterAll(() => t.close());

describe("agents router", () => {
  it("runs the editor's flow: create, validate, commit, history, restore, fork, deploy", async () => {
    const created = await caller.agents.create({ name: "Helper" });
    const variantId = created.variant.id;
    const template = {
      ...(created.revision.data as { parameters: { agent: Record<string, unknown> } }).parameters.agent,
    };

    const bad = await caller.agents.validate({ template: { ...template, model: "x" } });
    expect(bad.ok).toBe(false);
    expect(bad.errors[0].path).toBe("model");
    expect((await caller.agents.validate({ template })).ok).toBe(true);

    await expect(caller.agents.commit({ variantId, template: { ...template, model: "x" } })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    const second = await caller.agents.commit({
      variantId,
      template: { ...template, instructions: { agents_md: "v2" } },
      message: "edit",
    });
    expect(second.revision.version).toBe("2");

    const history = await caller.agents.history({ variantId, limit: 1 });
    expect(history.items.map((r) => r.version)).toEqual(["2"]);
    const older = await caller.agents.history({ variantId, limit: 1, cursor: history.next });
    expect(older.items.map((r) => r.version)).toEqual(["1"]);

    const restored = await caller.agents.restore({ revisionId: older.items[0].id });
    expect(restored.version).toBe("3");
    const fork = await caller.agents.fork({ revisionId: second.revision.id, slug: "experiment" });
    expect(fork.variant.slug).toBe("experiment");
    expect(
      (fork.revision.data as { parameters: { agent: { instructions: unknown } } }).parameters.agent.instructions,
    ).toEqual({ agents_md: "v2" });

    await caller.agents.deploy({ revisionId: second.revision.id, environment: "staging" });
    const envs = await caller.environments.list();
    const staging = envs.find((e) => e.slug === "staging")!;
    expect(Object.keys(staging.references)).toEqual(["helper.revision"]);
    const list = await caller.agents.list({});
    expect(list.items[0].deployments).toEqual([expect.objectContaining({ environment: "staging", version: "2" })]);
    const envHistory = await caller.environments.history({ variantId: staging.variantId });
    expect(envHistory.items).toHaveLength(1);
  });
});
