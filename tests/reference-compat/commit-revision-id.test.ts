import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArtifact, dataFor, expectStatus, MISSING_ID, setup, type Ctx } from "../versioning/helpers";

// The reference's commit body (`RevisionCommit`) has a `revision_id` beside `variant_id`: the
// revision the commit starts from. Its generic commit takes it without refusing it (only its
// testset delta commits read it, as their base). Here it is read: it names the variant when the
// body names none, and must belong to the variant it is committed to.

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

const call = (method: string, path: string, body?: unknown) => c.t.call(method, path, { key: c.key, body });

describe("revision_id in a commit body", () => {
  it("beside the variant id it is taken, and the commit is the variant's next version", async () => {
    const { variant, revision } = await createArtifact(c, "workflows", { data: dataFor("workflows", 1) });
    const res = await call("POST", "/api/workflows/revisions/commit", {
      workflow_revision: { workflow_variant_id: variant.id, revision_id: revision!.id, data: dataFor("workflows", 2) },
    });
    expectStatus(res, 200);
    expect(res.body.workflow_revision).toMatchObject({ version: "2", workflow_variant_id: variant.id });
  });

  it("alone it names the variant; an older revision still commits the next version", async () => {
    const { variant, revision } = await createArtifact(c, "applications", { data: dataFor("applications", 1) });
    const second = await call("POST", "/api/applications/revisions/commit", {
      application_revision_commit: { revision_id: revision!.id, data: dataFor("applications", 2) },
    });
    expectStatus(second, 200);
    expect(second.body.application_revision).toMatchObject({ version: "2", application_variant_id: variant.id });
    const third = await call("POST", "/api/applications/revisions/commit", {
      application_revision: { revision_id: revision!.id, data: dataFor("applications", 3) },
    });
    expect(third.body.application_revision.version).toBe("3");
  });

  it("a revision of another variant is a 400 naming it; an unknown one a 404; nothing is committed", async () => {
    const a = await createArtifact(c, "workflows", { data: dataFor("workflows", 1) });
    const b = await createArtifact(c, "workflows", { data: dataFor("workflows", 1) });
    const mismatch = await call("POST", "/api/workflows/revisions/commit", {
      workflow_revision: {
        workflow_variant_id: a.variant.id,
        revision_id: b.revision!.id,
        data: dataFor("workflows", 2),
      },
    });
    expectStatus(mismatch, 400);
    expect(mismatch.body).toMatchObject({
      code: "reference_mismatch",
      detail: expect.stringContaining(b.revision!.id),
    });
    const missing = await call("POST", "/api/workflows/revisions/commit", {
      workflow_revision: { revision_id: MISSING_ID, data: dataFor("workflows", 2) },
    });
    expectStatus(missing, 404);
    expect(missing.body.detail).toContain("revision_id");
    const head = await call("POST", "/api/workflows/revisions/retrieve", {
      workflow_variant_ref: { id: a.variant.id },
    });
    expect(head.body.workflow_revision.version).toBe("1");
    // A revision of another domain is not found through this one.
    const testset = await createArtifact(c, "testsets", { data: dataFor("testsets", 1) });
    expectStatus(
      await call("POST", "/api/workflows/revisions/commit", {
        workflow_revision: { revision_id: testset.revision!.id, data: dataFor("workflows", 2) },
      }),
      404,
    );
  });
});
