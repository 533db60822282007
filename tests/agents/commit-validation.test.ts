import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp();
  key = (await t.newProject()).key;
});
afterAll(() => t.close());

async function newWorkflow(slug: string, agent?: unknown) {
  const res = await t.call("POST", "/api/workflows/", {
    key,
    body: { workflow: { slug, name: slug, ...(agent === undefined ? {} : { data: { parameters: { agent } } }) } },
  });
  return res;
}

function commit(variantId: string, data: unknown) {
  return t.call("POST", "/api/workflows/revisions/commit", {
    key,
    body: { workflow_revision_commit: { workflow_variant_id: variantId, message: "edit", data } },
  });
}

describe("agent template at commit", () => {
  it("stores a valid template as sent (defaults are not written)", async () => {
    const agent = { instructions: { agents_md: "Be brief." }, llm: { model: "openai/gpt-5-mini" } };
    const res = await newWorkflow("as-sent", agent);
    expect(res.status).toBe(200);
    expect(res.body.workflow_revision.data.parameters.agent).toEqual(agent);
  });

  it("rejects an invalid template with 400, every problem with its path, and stores nothing", async () => {
    const created = await newWorkflow("invalid");
    // Created without data, the workflow has no variant yet: make one, as a client would.
    const variant = await t.call("POST", "/api/workflows/variants/", {
      key,
      body: { workflow_variant: { workflow_id: created.body.workflow.id, slug: "main" } },
    });
    const variantId = variant.body.workflow_variant.id;
    const res = await commit(variantId, {
      parameters: {
        agent: { model: "gpt-5", harness: "core_harness", runner: { permissions: { default: "sometimes" } } },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("invalid_agent_template");
    const byPath = Object.fromEntries(
      res.body.errors.map((e: { path: string; message: string }) => [e.path, e.message]),
    );
    expect(byPath["data.parameters.agent.model"]).toContain("llm.model");
    expect(byPath["data.parameters.agent.harness"]).toContain("kind");
    expect(byPath["data.parameters.agent.runner.permissions.default"]).toMatch(/allow_reads/);
    const log = await t.call("POST", "/api/workflows/revisions/log", {
      key,
      body: { workflow: { workflow_variant_id: variantId } },
    });
    expect(log.body.count).toBe(0);
    const events = await t.call("POST", "/api/events/query", {
      key,
      body: { event_type: "workflows.revisions.committed" },
    });
    expect(
      events.body.events.filter(
        (e: { attributes: { references: { workflow: { slug: string } } } }) =>
          e.attributes.references.workflow.slug === "invalid",
      ),
    ).toEqual([]);
  });

  it("drops a permission on a builtin tool and reports it as a warning", async () => {
    const res = await newWorkflow("builtin-permission", {
      tools: [{ type: "builtin", name: "bash", permission: "deny" }],
    });
    expect(res.status).toBe(200);
    expect(res.body.warnings).toHaveLength(1);
    expect(res.body.warnings[0]).toContain("tools[0].permission");
    expect(res.body.workflow_revision.data.parameters.agent.tools).toEqual([{ type: "builtin", name: "bash" }]);
  });

  it("leaves workflows without an agent template alone", async () => {
    const res = await t.call("POST", "/api/workflows/", {
      key,
      body: { workflow: { slug: "plain", data: { parameters: { anything: 1 } } } },
    });
    expect(res.status).toBe(200);
  });
});

describe("embeds in tools and skills", () => {
  it("resolves embedded tool and skill entries before validating", async () => {
    await t.call("POST", "/api/workflows/", {
      key,
      body: {
        workflow: {
          slug: "shared-tools",
          data: {
            parameters: {
              lookup: { type: "client", name: "lookup", description: "Look a thing up" },
              skill: { name: "summarise", description: "Summarise text", body: "Summarise the input in one line." },
            },
          },
        },
      },
    });
    const embed = (path: string) => ({
      "@svc.embed": { "@svc.references": { workflow: { slug: "shared-tools" } }, "@svc.selector": { path } },
    });
    const agent = { tools: [embed("parameters.lookup")], skills: [embed("parameters.skill")] };
    const res = await newWorkflow("uses-embeds", agent);
    expect(res.status).toBe(200);
    expect(res.body.workflow_revision.data.parameters.agent).toEqual(agent);

    const resolved = await t.call("POST", "/api/workflows/revisions/resolve", {
      key,
      body: { workflow_ref: { slug: "uses-embeds" } },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body.workflow_revision.data.parameters.agent.tools[0]).toEqual({
      type: "client",
      name: "lookup",
      description: "Look a thing up",
    });
    expect(resolved.body.workflow_revision.data.parameters.agent.skills[0].name).toBe("summarise");
    expect(resolved.body.resolution_info.embeds).toHaveLength(2);
  });

  it("validates what an embed resolves to", async () => {
    await t.call("POST", "/api/workflows/", {
      key,
      body: { workflow: { slug: "bad-tools", data: { parameters: { tool: { type: "client" } } } } },
    });
    const res = await newWorkflow("uses-bad-embed", {
      tools: [
        {
          "@svc.embed": {
            "@svc.references": { workflow: { slug: "bad-tools" } },
            "@svc.selector": { path: "parameters.tool" },
          },
        },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain("data.parameters.agent.tools[0].name");
  });

  it("answers 404 naming a missing embed target", async () => {
    const res = await newWorkflow("uses-missing", {
      tools: [
        {
          "@svc.embed": {
            "@svc.references": { workflow: { slug: "nowhere" } },
            "@svc.selector": { path: "parameters.tool" },
          },
        },
      ],
    });
    expect(res.status).toBe(404);
    expect(res.body.detail).toContain("nowhere");
  });
});
