import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStatus, setup, uniq, type Ctx } from "./helpers";

// The compat API keeps applications and evaluators as workflows with a role flag; its clients
// create `POST /workflows/` with `flags.is_application` and use the result as an application.
let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

const ROLE = { is_application: true, is_evaluator: false, is_snippet: false };

async function flaggedWorkflow(flags: Record<string, boolean> = ROLE) {
  const slug = uniq("wf");
  const created = await c.t.call("POST", "/api/workflows/", {
    key: c.key,
    body: { workflow: { slug, name: slug, flags, tags: { marker: slug } } },
  });
  expectStatus(created, 200);
  const workflow = created.body.workflow;
  const variant = await c.t.call("POST", "/api/workflows/variants/", {
    key: c.key,
    body: { workflow_variant: { slug: uniq("wfv"), flags, workflow_id: workflow.id } },
  });
  expectStatus(variant, 200);
  const committed = await c.t.call("POST", "/api/workflows/revisions/commit", {
    key: c.key,
    body: {
      workflow_revision: {
        slug: uniq("wfr"),
        flags: { is_custom: true },
        data: { uri: "agenta:custom:mock:v0", parameters: { n: 1 } },
        workflow_id: workflow.id,
        workflow_variant_id: variant.body.workflow_variant.id,
      },
    },
  });
  expectStatus(committed, 200);
  return { workflow, variant: variant.body.workflow_variant, revision: committed.body.workflow_revision };
}

describe("role flags on workflows", () => {
  it("accepts flags.is_application on POST /api/workflows/ and keeps it on every workflow read", async () => {
    const { workflow, revision } = await flaggedWorkflow();
    expect(workflow.flags).toEqual(ROLE);
    const read = await c.t.call("GET", `/api/workflows/${workflow.id}`, { key: c.key });
    expect(read.body.workflow.flags).toEqual(ROLE);
    const query = await c.t.call("POST", "/api/workflows/query", {
      key: c.key,
      body: { workflow: { flags: { is_application: true }, tags: { marker: workflow.slug } } },
    });
    expect(query.body.workflows.map((w: { id: string }) => w.id)).toEqual([workflow.id]);
    expect(revision.version).toBe("1");
  });

  it("makes the workflow visible as the application it says it is: fetch, query, retrieve and log", async () => {
    const { workflow, variant, revision } = await flaggedWorkflow();
    const fetched = await c.t.call("GET", `/api/applications/${workflow.id}`, { key: c.key });
    expectStatus(fetched, 200);
    expect(fetched.body.application).toMatchObject({ id: workflow.id, slug: workflow.slug });
    expect(fetched.body.application.flags.is_application).toBe(true);

    const queried = await c.t.call("POST", "/api/applications/query", {
      key: c.key,
      body: { application: { flags: { is_application: true }, tags: { marker: workflow.slug } } },
    });
    expect(queried.body.applications.map((a: { id: string }) => a.id)).toEqual([workflow.id]);

    const bySlug = await c.t.call("POST", "/api/applications/revisions/retrieve", {
      key: c.key,
      body: { application_ref: { slug: workflow.slug } },
    });
    expectStatus(bySlug, 200);
    expect(bySlug.body.application_revision).toMatchObject({
      id: revision.id,
      application_id: workflow.id,
      application_variant_id: variant.id,
      data: { uri: "agenta:custom:mock:v0" },
    });
    const byRevision = await c.t.call("GET", `/api/applications/revisions/${revision.id}`, { key: c.key });
    expect(byRevision.body.application_revision.id).toBe(revision.id);
    const variants = await c.t.call("POST", "/api/applications/variants/query", {
      key: c.key,
      body: { application_refs: [{ id: workflow.id }] },
    });
    expect(variants.body.application_variants.map((v: { id: string }) => v.id)).toEqual([variant.id]);
  });

  it("commits through /api/applications/ to the flagged workflow, which /api/workflows/ then sees", async () => {
    const { workflow, variant } = await flaggedWorkflow();
    const committed = await c.t.call("POST", "/api/applications/revisions/commit", {
      key: c.key,
      body: {
        application_revision_commit: { application_variant_id: variant.id, data: { parameters: { n: 2 } } },
      },
    });
    expectStatus(committed, 200);
    expect(committed.body.application_revision.version).toBe("2");
    const latest = await c.t.call("POST", "/api/workflows/revisions/retrieve", {
      key: c.key,
      body: { workflow_variant_ref: { id: variant.id } },
    });
    expect(latest.body.workflow_revision).toMatchObject({ version: "2", data: { parameters: { n: 2 } } });
    const second = await c.t.call("POST", "/api/applications/variants/", {
      key: c.key,
      body: { application_variant: { application_id: workflow.id, slug: uniq("second") } },
    });
    expectStatus(second, 200);
    const seen = await c.t.call("GET", `/api/workflows/variants/${second.body.application_variant.id}`, { key: c.key });
    expectStatus(seen, 200);
  });

  it("is_evaluator (in flags or top-level, the legacy form) makes a workflow an evaluator too", async () => {
    const { workflow } = await flaggedWorkflow({ is_application: false, is_evaluator: true });
    expect((await c.t.call("GET", `/api/evaluators/${workflow.id}`, { key: c.key })).body.evaluator.id).toBe(
      workflow.id,
    );
    expect((await c.t.call("GET", `/api/applications/${workflow.id}`, { key: c.key })).body.count).toBe(0);
    const legacy = await c.t.call("POST", "/api/workflows/", {
      key: c.key,
      body: { workflow: { slug: uniq("leg"), is_evaluator: true } },
    });
    expectStatus(legacy, 200);
    expect(legacy.body.workflow.flags).toEqual({ is_evaluator: true });
    const asEvaluator = await c.t.call("GET", `/api/evaluators/${legacy.body.workflow.id}`, { key: c.key });
    expect(asEvaluator.body.evaluator.flags.is_evaluator).toBe(true);
  });

  it("a plain workflow stays out of the applications; an application's own slug wins over a flagged workflow's", async () => {
    const plain = await c.t.call("POST", "/api/workflows/", {
      key: c.key,
      body: { workflow: { slug: uniq("plain"), is_evaluator: false } },
    });
    expectStatus(plain, 200);
    expect((await c.t.call("GET", `/api/applications/${plain.body.workflow.id}`, { key: c.key })).body.count).toBe(0);

    const { workflow } = await flaggedWorkflow();
    const own = await c.t.call("POST", "/api/simple/applications/", {
      key: c.key,
      body: { application: { slug: workflow.slug, data: { parameters: { own: true } } } },
    });
    expectStatus(own, 200);
    const retrieved = await c.t.call("POST", "/api/applications/revisions/retrieve", {
      key: c.key,
      body: { application_ref: { slug: workflow.slug } },
    });
    expect(retrieved.body.application_revision.data).toEqual({ parameters: { own: true } });
  });

  it("switching the flag off in a PUT takes the workflow out of the applications", async () => {
    const { workflow } = await flaggedWorkflow();
    expectStatus(
      await c.t.call("PUT", `/api/workflows/${workflow.id}`, {
        key: c.key,
        body: { workflow: { flags: { is_application: false } } },
      }),
      200,
    );
    expect((await c.t.call("GET", `/api/applications/${workflow.id}`, { key: c.key })).body.count).toBe(0);
  });
});
