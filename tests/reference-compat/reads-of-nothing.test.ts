import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MISSING_ID, expectStatus, setup, uniq, type Ctx } from "../versioning/helpers";

// The reference answers a read of a reference to nothing with `200 {count: 0}` (its clients test
// `count`), except an environment-backed retrieve, which is a 404. Here the same, with the 404's
// text as `detail` so a person still sees what was not found.

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

const call = (method: string, path: string, body?: unknown) => c.t.call(method, path, { key: c.key, body });

describe("reads of nothing", () => {
  it("fetch by id of an artifact, variant, revision and simple entity: {count: 0}", async () => {
    for (const path of [
      `/api/applications/${MISSING_ID}`,
      `/api/applications/variants/${MISSING_ID}`,
      `/api/applications/revisions/${MISSING_ID}`,
      `/api/simple/applications/${MISSING_ID}`,
      `/api/simple/environments/${MISSING_ID}`,
    ]) {
      const res = await call("GET", path);
      expectStatus(res, 200);
      expect(res.body, path).toEqual({ count: 0, detail: expect.stringContaining(MISSING_ID) });
    }
  });

  it("retrieve by a revision, variant or artifact that does not exist, or a new variant: {count: 0}", async () => {
    const slug = uniq("wf");
    const workflow = (await call("POST", "/api/workflows/", { workflow: { slug } })).body.workflow;
    const variant = (
      await call("POST", "/api/workflows/variants/", { workflow_variant: { slug: "v", workflow_id: workflow.id } })
    ).body.workflow_variant;
    for (const body of [
      { workflow_revision_ref: { id: MISSING_ID } },
      { workflow_ref: { slug: "no-such-workflow" } },
      { workflow_variant_ref: { id: variant.id } },
      { workflow_ref: { slug } },
    ]) {
      const res = await call("POST", "/api/workflows/revisions/retrieve", body);
      expectStatus(res, 200);
      expect(res.body.count, JSON.stringify(body)).toBe(0);
      expect(res.body.workflow_revision).toBeUndefined();
    }
    const log = await call("POST", "/api/workflows/revisions/log", {
      workflow_revisions: { workflow_variant_id: MISSING_ID },
    });
    expect(log.body).toMatchObject({ count: 0, workflow_revisions: [] });
  });

  it("through an environment a miss stays a 404, as the reference's one exception", async () => {
    const app = await call("POST", "/api/applications/", { application: { slug: uniq("app"), data: {} } });
    const res = await call("POST", "/api/applications/revisions/retrieve", {
      environment_ref: { slug: "staging" },
      key: `${app.body.application.slug}.revision`,
    });
    expectStatus(res, 404);
    expectStatus(
      await call("POST", "/api/applications/revisions/retrieve", {
        environment_ref: { slug: "no-such-environment" },
        key: "x.revision",
      }),
      404,
    );
  });

  it("writes to nothing are still 404s: nothing is written", async () => {
    expectStatus(
      await call("POST", "/api/workflows/revisions/commit", {
        workflow_revision: { workflow_variant_id: MISSING_ID, data: {} },
      }),
      404,
    );
    expectStatus(await call("PUT", `/api/workflows/${MISSING_ID}`, { workflow: { name: "x" } }), 404);
  });
});
