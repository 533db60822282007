import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultAgentTemplate } from "@/server/agent-template";
import { DOMAIN_SPECS } from "@/server/domains/specs";
import { deployRevision } from "@/server/domains/environments/deploy";
import { createAgent, forkAgentVariant, listAgents } from "@/server/domains/workflows/agents";
import { commitRevision, restoreRevision, setArtifactArchived, type Scope } from "@/server/versioning";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let scope: Scope;
beforeAll(async () => {
  t = await createTestApp();
  const p = await t.newProject();
  scope = { projectId: p.projectId, userId: p.userId };
});
afterAll(() => t.close());

describe("agents", () => {
  it("creates an agent from the default template and lists it with what each environment runs", async () => {
    const created = await createAgent(t.context.db, scope, { name: "Support Bot" });
    expect(created.commit?.revision.data).toEqual({ parameters: { agent: defaultAgentTemplate() } });
    await createAgent(t.context.db, scope, { name: "Other" });
    await deployRevision(t.context.db, scope, DOMAIN_SPECS.workflows.keys, {
      source: { revision: { id: created.commit!.revision.id } },
      environment: { slug: "staging" },
    });

    const page = await listAgents(t.context.db, scope, { search: "support" });
    expect(page.items).toHaveLength(1);
    const [agent] = page.items;
    expect(agent.artifact.slug).toBe("support-bot");
    expect(agent.latest?.version).toBe(1);
    expect(agent.deployments).toEqual([
      expect.objectContaining({
        environment: "staging",
        key: "support-bot.revision",
        version: "1",
        variantSlug: "default",
      }),
    ]);
  });

  it("refuses a taken slug in an agent's words, naming a free one", async () => {
    const own = await t.newProject();
    const ownScope = { projectId: own.projectId, userId: own.userId };
    await createAgent(t.context.db, ownScope, { name: "Triage", slug: "triage" });
    await createAgent(t.context.db, ownScope, { name: "Triage 2", slug: "triage-2" });
    const refused = await createAgent(t.context.db, ownScope, { name: "Another triage", slug: "triage" }).catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({
      status: 409,
      code: "slug_taken",
      message: 'An agent with slug "triage" already exists in this project; "triage-3" is free',
      errors: [{ path: "slug", message: 'Another agent has this slug; try "triage-3"' }],
    });
    expect(String((refused as Error).message)).not.toMatch(/workflow/);
    await expect(
      createAgent(t.context.db, ownScope, { name: "Another triage", slug: "triage-3" }),
    ).resolves.toBeDefined();
  });

  it("refuses a fork onto a taken variant slug in an agent's words, naming a free one", async () => {
    const own = await t.newProject();
    const ownScope = { projectId: own.projectId, userId: own.userId };
    const created = await createAgent(t.context.db, ownScope, { name: "Forkable" });
    const revisionId = created.commit!.revision.id;
    const fork = await forkAgentVariant(t.context.db, ownScope, { revisionId, name: "Concise answers" });
    expect(fork.variant).toMatchObject({ slug: "concise-answers", name: "Concise answers" });
    expect(fork.commit.revision).toMatchObject({ version: 1, message: "Create agent from the default template" });
    const refused = await forkAgentVariant(t.context.db, ownScope, { revisionId, name: "Concise answers" }).catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({
      status: 409,
      message: 'This agent already has a variant with slug "concise-answers"; "concise-answers-2" is free',
      errors: [{ path: "slug", message: 'Another variant of this agent has this slug; try "concise-answers-2"' }],
    });
  });

  it("gives non-Latin names readable slugs", async () => {
    const own = await t.newProject();
    const created = await createAgent(
      t.context.db,
      { projectId: own.projectId, userId: own.userId },
      { name: "Агент поддержки" },
    );
    expect(created.artifact.slug).toBe("agent-podderzhki");
  });

  it("leaves plain workflows out, hides archived agents unless asked, and pages", async () => {
    const plain = await t.call("POST", "/api/workflows/", {
      key: (await t.newProject()).key,
      body: { workflow: { slug: "x" } },
    });
    expect(plain.status).toBe(200);
    const a = await createAgent(t.context.db, scope, { name: "To archive" });
    await setArtifactArchived(t.context.db, scope, DOMAIN_SPECS.workflows, a.artifact.id, true);
    const visible = await listAgents(t.context.db, scope);
    expect(visible.items.map((i) => i.artifact.slug)).not.toContain("to-archive");
    const all = await listAgents(t.context.db, scope, { includeArchived: true });
    expect(all.items.map((i) => i.artifact.slug)).toContain("to-archive");
    const first = await listAgents(t.context.db, scope, { includeArchived: true, windowing: { limit: 2 } });
    expect(first.items).toHaveLength(2);
    const second = await listAgents(t.context.db, scope, {
      includeArchived: true,
      windowing: { limit: 2, next: first.next },
    });
    expect(second.items).toHaveLength(1);
    expect(second.next).toBeUndefined();
  });

  it("restores an old revision as a new commit naming the source", async () => {
    const created = await createAgent(t.context.db, scope, { name: "Restorable" });
    const first = created.commit!.revision;
    const agent = { ...defaultAgentTemplate(), instructions: { agents_md: "Changed." } };
    await commitRevision(t.context.db, scope, DOMAIN_SPECS.workflows, {
      variantId: created.variant.id,
      data: { parameters: { agent } },
    });
    const restored = await restoreRevision(t.context.db, scope, DOMAIN_SPECS.workflows, first.id);
    expect(restored.revision.version).toBe(3);
    expect(restored.revision.data).toEqual(first.data);
    // Versions, not ids: the message is read by people in the history.
    expect(restored.revision.message).toBe("Restore v1");
  });
});
