import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/server/core/ids";
import { revisions, variants } from "@/server/db/schema";
import { domainKeys, type DomainName } from "@/server/versioning/domains";
import { createArtifact, expectStatus, setup, uniq, type Ctx } from "../versioning/helpers";

// The reference implementation types each domain's revision `data` (its SDK's
// WorkflowRevisionData, TestsetRevisionData, QueryRevisionData, EnvironmentRevisionData) and
// answers 422 for a key the type does not have. Here too, on write only: a stored row that holds
// such a key (written before the check) still reads, and an edit that carries it forward works.

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

const call = (method: string, path: string, body?: unknown) => c.t.call(method, path, { key: c.key, body });

/** Per domain: data the reference accepts (every key its type has), and one key it refuses. */
const CASES: { domain: DomainName; valid: Record<string, unknown> }[] = [
  {
    domain: "workflows",
    valid: {
      version: "2025.07.14",
      uri: "user:custom:my-flow:v1",
      url: "https://example.com/run",
      headers: { "x-team": "a" },
      schemas: { parameters: { type: "object" }, inputs: { type: "object" }, outputs: { type: "object" } },
      runtime: "python",
      script: "def run(): pass",
      parameters: { prompt: "hi" },
    },
  },
  { domain: "applications", valid: { uri: "agenta:builtin:completion:v0", parameters: { prompt: "hi" } } },
  { domain: "evaluators", valid: { uri: "user:custom:judge:v0", schemas: { outputs: { type: "object" } } } },
  { domain: "testsets", valid: { testcases: [{ data: { q: "1" } }] } },
  { domain: "queries", valid: { filtering: { conditions: [] }, windowing: { limit: 10 } } },
  { domain: "environments", valid: { references: {} } },
];

describe("unknown keys of a revision's data are refused with 422 naming the path", () => {
  for (const { domain, valid } of CASES) {
    const keys = domainKeys(domain);
    it(`${domain}: commit, create, the create form and the simple API refuse data.marker; known keys commit`, async () => {
      const { variant } = await createArtifact(c, domain);
      const ok = await call("POST", `/api/${domain}/revisions/commit`, {
        [keys.revision]: { [keys.variantId]: variant.id, data: valid },
      });
      expectStatus(ok, 200);
      const bad = { ...valid, marker: "x" };
      const refused = await call("POST", `/api/${domain}/revisions/commit`, {
        [keys.revision]: { [keys.variantId]: variant.id, data: bad },
      });
      expectStatus(refused, 422);
      expect(refused.body.errors).toEqual([{ path: "data.marker", message: expect.stringContaining("Unknown key") }]);
      expect(refused.body.detail).toContain("data.marker");
      // Nothing was stored: the variant's head is still the valid commit.
      const head = await call("POST", `/api/${domain}/revisions/retrieve`, { [keys.variantRef]: { id: variant.id } });
      expect(head.body[keys.revision].id).toBe(ok.body[keys.revision].id);

      expectStatus(await call("POST", `/api/${domain}/`, { [keys.one]: { slug: uniq("s"), data: bad } }), 422);
      expectStatus(await call("POST", `/api/simple/${domain}/`, { [keys.one]: { slug: uniq("s"), data: bad } }), 422);
      const fresh = await createArtifact(c, domain);
      expectStatus(
        await call("POST", `/api/${domain}/revisions/`, {
          [keys.revision]: { [keys.variantId]: fresh.variant.id, data: bad },
        }),
        422,
      );
    });
  }

  it("several unknown keys are each named", async () => {
    const { variant } = await createArtifact(c, "workflows");
    const res = await call("POST", "/api/workflows/revisions/commit", {
      workflow_revision: { workflow_variant_id: variant.id, data: { parameters: {}, prompt: "x", inputs: {} } },
    });
    expectStatus(res, 422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["data.prompt", "data.inputs"]);
  });

  it("an agent template (parameters.agent) and a human evaluator's scale (schemas.outputs) still commit", async () => {
    const agent = await call("POST", "/api/workflows/", {
      workflow: {
        slug: uniq("agent"),
        data: { parameters: { agent: { llm: { provider: "openai", model: "gpt-5-mini" } } } },
      },
    });
    expectStatus(agent, 200);
    const evaluator = await call("POST", "/api/simple/evaluators/", {
      evaluator: {
        slug: uniq("human"),
        data: { uri: "svc:custom:feedback:v0", schemas: { outputs: { type: "object" } } },
      },
    });
    expectStatus(evaluator, 200);
  });
});

describe("a database made before the check", () => {
  it("a stored revision with a key no domain knows still reads, and edits that carry it forward commit", async () => {
    const { artifact, variant } = await createArtifact(c, "applications");
    // What the service stored before this change: any top-level key, as sent.
    const oldId = newId();
    await c.t.context.db.insert(revisions).values({
      id: oldId,
      projectId: c.projectId,
      domain: "applications",
      artifactId: artifact.id,
      variantId: variant.id,
      slug: uniq("old"),
      version: 1,
      data: { parameters: { prompt: "old" }, marker: "kept" },
      message: "before the check",
      authorId: c.userId,
    });
    await c.t.context.db.update(variants).set({ headVersion: 1 }).where(eq(variants.id, variant.id));

    const fetched = await call("GET", `/api/applications/revisions/${oldId}`);
    expect(fetched.body.application_revision.data).toEqual({ parameters: { prompt: "old" }, marker: "kept" });
    const retrieved = await call("POST", "/api/applications/revisions/retrieve", {
      application_variant_ref: { id: variant.id },
      application_revision_ref: { version: "1" },
    });
    expect(retrieved.body.application_revision.data.marker).toBe("kept");

    // A simple edit without data carries the head's data forward, the old key with it.
    const edited = await call("PUT", `/api/simple/applications/${artifact.id}`, {
      application: { description: "described" },
    });
    expectStatus(edited, 200);
    expect(edited.body.application).toMatchObject({ version: "2", data: { marker: "kept" } });
    // A commit repeating a key the variant already holds is taken; a new unknown key is not.
    const again = await call("POST", "/api/applications/revisions/commit", {
      application_revision: { application_variant_id: variant.id, data: { parameters: {}, marker: "kept" } },
    });
    expectStatus(again, 200);
    const other = await call("POST", "/api/applications/revisions/commit", {
      application_revision: { application_variant_id: variant.id, data: { parameters: {}, colour: "red" } },
    });
    expectStatus(other, 422);
    expect(other.body.errors).toEqual([{ path: "data.colour", message: expect.any(String) }]);
  });
});
