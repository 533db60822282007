import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commit, createArtifact, dataFor, expectStatus, retrieve, setup, uniq, type Ctx } from "./helpers";

/** Answers a client of the compat API relies on, where a near miss would be a wrong 200. */
let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

const log = (body: Record<string, unknown>) =>
  c.t.call("POST", "/api/applications/revisions/log", { key: c.key, body: { application_revisions: body } });
const versionsOf = (res: { body: { application_revisions: { version: string }[] } }) =>
  res.body.application_revisions.map((r) => r.version);

describe("log", () => {
  it("from a version-0 revision answers that revision alone, not the variant's newest", async () => {
    const { variant } = await createArtifact(c, "applications");
    // A first commit without data is version 0 (the compat API's empty initial revision).
    const first = await c.t.call("POST", "/api/applications/revisions/commit", {
      key: c.key,
      body: { application_revision_commit: { application_variant_id: variant.id } },
    });
    expectStatus(first, 200);
    const v0 = first.body.application_revision;
    await commit(c, "applications", variant.id, dataFor("applications", 1));
    await commit(c, "applications", variant.id, dataFor("applications", 2));
    expect(v0.version).toBe("0");
    const res = await log({ application_revision_id: v0.id });
    expectStatus(res, 200);
    expect(versionsOf(res)).toEqual(["0"]);
  });

  it("leaves archived revisions out, and a depth of 0 answers nothing", async () => {
    const { variant, revision: v1 } = await createArtifact(c, "applications", { data: dataFor("applications", 1) });
    const v2 = await commit(c, "applications", variant.id, dataFor("applications", 2));
    const v3 = await commit(c, "applications", variant.id, dataFor("applications", 3));
    expectStatus(await c.t.call("POST", `/api/applications/revisions/${v2.id}/archive`, { key: c.key }), 200);
    expect(versionsOf(await log({ application_variant_id: variant.id }))).toEqual([v3.version, v1!.version]);
    expect(versionsOf(await log({ application_revision_id: v3.id, depth: 2 }))).toEqual([v3.version, v1!.version]);
    const none = await log({ application_variant_id: variant.id, depth: 0 });
    expectStatus(none, 200);
    expect(none.body.count).toBe(0);
  });
});

describe("retrieve", () => {
  it("refuses a key sent without an environment to read it in, instead of answering the artifact's latest", async () => {
    const { artifact } = await createArtifact(c, "applications", { data: dataFor("applications", 1) });
    const res = await retrieve(c, "applications", { application_ref: { id: artifact.id }, key: "production.revision" });
    expectStatus(res, 400);
    expect(res.body.code).toBe("key_without_environment");
    expect(res.body.detail).toContain("environment_ref");
  });
});

describe("simple API", () => {
  it("a PUT with nothing but the id answers the current state and commits nothing", async () => {
    const created = await c.t.call("POST", "/api/simple/applications/", {
      key: c.key,
      body: { application: { slug: uniq("same"), data: { parameters: { x: 1 } } } },
    });
    const entity = created.body.application;
    const same = await c.t.call("PUT", `/api/simple/applications/${entity.id}`, {
      key: c.key,
      body: { application: { id: entity.id } },
    });
    expectStatus(same, 200);
    expect(same.body.application).toMatchObject({ id: entity.id, data: { parameters: { x: 1 } } });
    expect(versionsOf(await log({ application_id: entity.id }))).toHaveLength(1);
  });
});
