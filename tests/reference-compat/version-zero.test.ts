import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revisions, variants } from "@/server/db/schema";
import { newId } from "@/server/core/ids";
import { expectStatus, setup, uniq, type Ctx } from "../versioning/helpers";

// The reference implementation numbers a variant's empty initial revision 0 (its SDK writes it with
// `POST /<domain>/revisions/` and no data), so its clients pin `version: "1"` for the first commit
// with data. Here that empty revision is 0 too, every commit with data is numbered as before, and
// no stored version moves.

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

const call = (method: string, path: string, body?: unknown) => c.t.call(method, path, { key: c.key, body });

async function workflowWithVariant() {
  const slug = uniq("wf");
  const workflow = (await call("POST", "/api/workflows/", { workflow: { slug, name: slug } })).body.workflow;
  const variant = (
    await call("POST", "/api/workflows/variants/", {
      workflow_variant: { slug: `${slug}-v`, name: `${slug}-v`, workflow_id: workflow.id },
    })
  ).body.workflow_variant;
  return { workflow, variant };
}

describe("version 0: a variant's first revision without data", () => {
  it("POST /revisions/ without data is version 0; the first commit with data is 1, and a pin of 1 gets that data", async () => {
    const { workflow, variant } = await workflowWithVariant();
    const seed = await call("POST", "/api/workflows/revisions/", {
      workflow_revision: { workflow_id: workflow.id, workflow_variant_id: variant.id },
    });
    expectStatus(seed, 200);
    expect(seed.body.workflow_revision).toMatchObject({ version: "0", message: "Initial revision", data: {} });
    // The variant's version is "0" now (before, no revision: absent), by id and in a query.
    expect(variant.version).toBeUndefined();
    expect((await call("GET", `/api/workflows/variants/${variant.id}`)).body.workflow_variant.version).toBe("0");
    const listed = await call("POST", "/api/workflows/variants/query", { workflow_variant_refs: [{ id: variant.id }] });
    expect(listed.body.workflow_variants.map((v: { version?: string }) => v.version)).toEqual(["0"]);
    const archived = await call("POST", `/api/workflows/variants/${variant.id}/archive`);
    expect(archived.body.workflow_variant.version).toBe("0");
    expectStatus(await call("POST", `/api/workflows/variants/${variant.id}/unarchive`), 200);
    // The variant has a revision now: a second create form is refused.
    expectStatus(
      await call("POST", "/api/workflows/revisions/", { workflow_revision: { workflow_variant_id: variant.id } }),
      409,
    );
    const first = await call("POST", "/api/workflows/revisions/commit", {
      workflow_revision: {
        workflow_id: workflow.id,
        workflow_variant_id: variant.id,
        data: { parameters: { prompt: "hello" } },
      },
    });
    expect(first.body.workflow_revision.version).toBe("1");
    for (const refs of [
      { workflow_variant_ref: { id: variant.id }, workflow_revision_ref: { version: "1" } },
      { workflow_ref: { slug: workflow.slug }, workflow_revision_ref: { version: "1" } },
    ]) {
      const pinned = await call("POST", "/api/workflows/revisions/retrieve", refs);
      expect(pinned.body.workflow_revision).toMatchObject({ version: "1", data: { parameters: { prompt: "hello" } } });
    }
    const zero = await call("POST", "/api/workflows/revisions/retrieve", {
      workflow_variant_ref: { id: variant.id },
      workflow_revision_ref: { version: "0" },
    });
    expect(zero.body.workflow_revision).toMatchObject({ id: seed.body.workflow_revision.id, version: "0" });
    // An embed pinned to version 1 embeds the data, not the empty revision.
    const resolved = await call("POST", "/api/workflows/revisions/resolve", {
      workflow_revision: {
        data: {
          text: `@svc.embed[@svc.references[workflow.slug=${workflow.slug}, workflow.version=1], @svc.selector[path=parameters.prompt]]`,
        },
      },
    });
    expect(resolved.body.workflow_revision.data).toEqual({ text: "hello" });
  });

  it("commits without data to a new variant count 0, 1, 2 (the reference's version sequence test)", async () => {
    const { workflow, variant } = await workflowWithVariant();
    for (const message of ["c0", "c1", "c2"])
      expectStatus(
        await call("POST", "/api/workflows/revisions/commit", {
          workflow_revision: { workflow_id: workflow.id, workflow_variant_id: variant.id, message },
        }),
        200,
      );
    const listed = await call("POST", "/api/workflows/revisions/query", { workflow_refs: [{ id: workflow.id }] });
    const versions = listed.body.workflow_revisions.map((r: { version: string }) => Number(r.version)).sort();
    expect(versions).toEqual([0, 1, 2]);
    const seed = listed.body.workflow_revisions.find((r: { version: string }) => r.version === "0");
    expect(seed.data ?? {}).toEqual({});
  });

  it("a first commit with data is version 1 as before, and the simple API's create is version 1", async () => {
    const { workflow, variant } = await workflowWithVariant();
    const committed = await call("POST", "/api/workflows/revisions/commit", {
      workflow_revision: { workflow_id: workflow.id, workflow_variant_id: variant.id, data: { parameters: { x: 1 } } },
    });
    expect(committed.body.workflow_revision.version).toBe("1");
    const simple = await call("POST", "/api/simple/applications/", { application: { slug: uniq("app"), data: {} } });
    expect(simple.body.application.version).toBe("1");
    const created = await call("POST", "/api/applications/", {
      application: { slug: uniq("app"), data: { parameters: { x: 1 } } },
    });
    expect(created.body.application_revision.version).toBe("1");
  });

  it("an environment's empty initial revision is version 0 and its first deploy version 1", async () => {
    const slug = uniq("env");
    const env = (await call("POST", "/api/environments/", { environment: { slug, name: slug } })).body.environment;
    const variant = (
      await call("POST", "/api/environments/variants/", {
        environment_variant: { slug: `${slug}-v`, environment_id: env.id },
      })
    ).body.environment_variant;
    const seed = await call("POST", "/api/environments/revisions/", {
      environment_revision: { environment_id: env.id, environment_variant_id: variant.id },
    });
    expectStatus(seed, 200);
    expect(seed.body.environment_revision).toMatchObject({ version: "0", data: { references: {} } });
    const app = await call("POST", "/api/applications/", {
      application: { slug: uniq("app"), data: { parameters: { x: 1 } } },
    });
    const deployed = await call("POST", "/api/applications/revisions/deploy", {
      application_ref: { slug: app.body.application.slug },
      environment_ref: { slug },
    });
    expectStatus(deployed, 200);
    expect(deployed.body.environment_revision.version).toBe("1");
    const retrieved = await call("POST", "/api/applications/revisions/retrieve", {
      environment_ref: { slug },
      key: `${app.body.application.slug}.revision`,
    });
    expect(retrieved.body.application_revision.id).toBe(app.body.application_revision.id);
  });
});

describe("a database made before version 0", () => {
  it("a variant that holds an empty version 1 (the old create form) keeps it: no version moves, commits go on at 2", async () => {
    const { workflow, variant } = await workflowWithVariant();
    // What the service stored for `POST /revisions/` without data before this change: version 1,
    // empty data, message "Initial revision", and the variant's head at 1.
    const oldId = newId();
    await c.t.context.db.insert(revisions).values({
      id: oldId,
      projectId: c.projectId,
      domain: "workflows",
      artifactId: workflow.id,
      variantId: variant.id,
      slug: uniq("old"),
      version: 1,
      data: {},
      message: "Initial revision",
      authorId: c.userId,
    });
    await c.t.context.db.update(variants).set({ headVersion: 1 }).where(eq(variants.id, variant.id));

    expectStatus(
      await call("POST", "/api/workflows/revisions/", { workflow_revision: { workflow_variant_id: variant.id } }),
      409,
    );
    const next = await call("POST", "/api/workflows/revisions/commit", {
      workflow_revision: { workflow_variant_id: variant.id, data: { parameters: { prompt: "later" } } },
    });
    expect(next.body.workflow_revision.version).toBe("2");
    const one = await call("POST", "/api/workflows/revisions/retrieve", {
      workflow_variant_ref: { id: variant.id },
      workflow_revision_ref: { version: "1" },
    });
    expect(one.body.workflow_revision).toMatchObject({ id: oldId, version: "1", data: {} });
    const zero = await call("POST", "/api/workflows/revisions/retrieve", {
      workflow_variant_ref: { id: variant.id },
      workflow_revision_ref: { version: "0" },
    });
    expect(zero.body).toEqual({ count: 0, detail: expect.stringContaining("no version 0") });
    const stored = await c.t.context.db
      .select({ version: revisions.version })
      .from(revisions)
      .where(and(eq(revisions.variantId, variant.id)));
    expect(stored.map((r) => r.version).sort()).toEqual([1, 2]);
  });
});
