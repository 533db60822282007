import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContextFrom } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { createArtifact, dataFor, expectStatus, setup, uniq, type Ctx } from "./helpers";

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

describe("edits the compat API's clients send", () => {
  it("refuses to edit an archived artifact (409) through the full and the simple API, and edits it again once unarchived", async () => {
    const created = await c.t.call("POST", "/api/simple/applications/", {
      key: c.key,
      body: { application: { slug: uniq("arch"), data: { parameters: { x: 1 } } } },
    });
    const { id, slug } = created.body.application;
    expectStatus(await c.t.call("POST", `/api/applications/${id}/archive`, { key: c.key }), 200);
    const full = await c.t.call("PUT", `/api/applications/${id}`, {
      key: c.key,
      body: { application: { name: "Renamed" } },
    });
    expectStatus(full, 409);
    expect(full.body.detail).toContain("unarchive");
    expectStatus(
      await c.t.call("PUT", `/api/simple/applications/${id}`, {
        key: c.key,
        body: { application: { name: "Renamed" } },
      }),
      409,
    );
    expectStatus(
      await c.t.call("PUT", `/api/simple/applications/${id}`, {
        key: c.key,
        body: { application: { data: { parameters: { x: 2 } } } },
      }),
      409,
    );
    const still = await c.t.call("GET", `/api/applications/${id}`, { key: c.key });
    expect(still.body.application).toMatchObject({ slug, name: slug });
    expectStatus(await c.t.call("POST", `/api/applications/${id}/unarchive`, { key: c.key }), 200);
    expect(
      (await c.t.call("PUT", `/api/applications/${id}`, { key: c.key, body: { application: { name: "Renamed" } } }))
        .body.application.name,
    ).toBe("Renamed");
  });

  it("takes the current slug in a PUT body (simple and full) and refuses another one", async () => {
    const created = await c.t.call("POST", "/api/simple/evaluators/", {
      key: c.key,
      body: { evaluator: { slug: uniq("ev"), data: { parameters: { a: 1 } } } },
    });
    const { id, slug } = created.body.evaluator;
    const same = await c.t.call("PUT", `/api/simple/evaluators/${id}`, {
      key: c.key,
      body: { evaluator: { id, slug, name: "Judge", data: { parameters: { a: 2 } } } },
    });
    expectStatus(same, 200);
    expect(same.body.evaluator).toMatchObject({ slug, name: "Judge", data: { parameters: { a: 2 } } });
    const other = await c.t.call("PUT", `/api/simple/evaluators/${id}`, {
      key: c.key,
      body: { evaluator: { slug: "renamed", name: "x" } },
    });
    expectStatus(other, 400);
    expect(other.body.detail).toContain(`"${slug}"`);
    expectStatus(
      await c.t.call("PUT", `/api/evaluators/${id}`, { key: c.key, body: { evaluator: { slug, tags: { t: 1 } } } }),
      200,
    );
    expectStatus(
      await c.t.call("PUT", `/api/evaluators/${id}`, { key: c.key, body: { evaluator: { slug: "renamed" } } }),
      400,
    );
    expect((await c.t.call("GET", `/api/evaluators/${id}`, { key: c.key })).body.evaluator.slug).toBe(slug);
  });
});

describe("environment entries", () => {
  async function stagingVariant(): Promise<string> {
    const res = await c.t.call("POST", "/api/environments/variants/query", {
      key: c.key,
      body: { environment_refs: [{ slug: "staging" }] },
    });
    return res.body.environment_variants[0].id;
  }
  const commitEnv = (variantId: string, references: Record<string, unknown>) =>
    c.t.call("POST", "/api/environments/revisions/commit", {
      key: c.key,
      body: { environment_revision_commit: { environment_variant_id: variantId, data: { references } } },
    });

  it("reads {<domain>_revision: {slug: <artifact slug>, version}} as that version of the artifact, as embeds do, and stores it complete", async () => {
    const app = await createArtifact(c, "applications", { slug: uniq("envapp"), data: dataFor("applications", 1) });
    const variant = await stagingVariant();
    const res = await commitEnv(variant, {
      pinned: { application_revision: { slug: app.artifact.slug, version: "1" } },
    });
    expectStatus(res, 200);
    expect(res.body.environment_revision.data.references.pinned).toEqual({
      application: { id: app.artifact.id, slug: app.artifact.slug },
      application_variant: { id: app.variant.id, slug: "default" },
      application_revision: { id: app.revision!.id, slug: app.revision!.slug, version: "1" },
    });
    const missing = await commitEnv(variant, {
      pinned: { application_revision: { slug: app.artifact.slug, version: "9" } },
    });
    expectStatus(missing, 404);
    expect(missing.body.detail).toContain('references["pinned"]');
  });

  it("stores an entry that names no revision as sent, and a retrieve through it follows the variant", async () => {
    const app = await createArtifact(c, "applications", { slug: uniq("follow"), data: dataFor("applications", 1) });
    const variant = await stagingVariant();
    const entry = { application: { slug: app.artifact.slug }, application_variant: { id: app.variant.id } };
    const res = await commitEnv(variant, { follow: entry, empty: {} });
    expectStatus(res, 200);
    expect(res.body.environment_revision.data.references).toMatchObject({ follow: entry, empty: {} });
    const retrieveViaEnv = () =>
      c.t.call("POST", "/api/applications/revisions/retrieve", {
        key: c.key,
        body: { environment_ref: { slug: "staging" }, key: "follow" },
      });
    expect((await retrieveViaEnv()).body.application_revision.version).toBe("1");
    const second = await c.t.call("POST", "/api/applications/revisions/commit", {
      key: c.key,
      body: {
        application_revision_commit: { application_variant_id: app.variant.id, data: dataFor("applications", 2) },
      },
    });
    expectStatus(second, 200);
    const followed = await retrieveViaEnv();
    expect(followed.body.application_revision.version).toBe("2");
    expect(followed.body.retrieval_info.references.environment.slug).toBe("staging");
    expectStatus(
      await commitEnv(variant, { bad: { application: { slug: "x" }, workflow_variant: { slug: "y" } } }),
      400,
    );
  });

  it("an environment created without data has no variant: it is left out of the overview, and deploying to it names the fix", async () => {
    const env = await c.t.call("POST", "/api/environments/", {
      key: c.key,
      body: { environment: { slug: uniq("qa") } },
    });
    expectStatus(env, 200);
    expect(env.body.environment_variant).toBeUndefined();
    const app = await createArtifact(c, "applications", { slug: uniq("dep"), data: dataFor("applications", 1) });
    const deploy = await c.t.call("POST", "/api/applications/revisions/deploy", {
      key: c.key,
      body: { application_ref: { id: app.artifact.id }, environment_ref: { slug: env.body.environment.slug } },
    });
    expectStatus(deploy, 404);
    expect(deploy.body.detail).toContain("POST /api/environments/variants/");
    const caller = createCaller(
      createContextFrom(c.t.context, { principal: { projectId: c.projectId, userId: c.userId, role: "owner" } }),
    );
    expect((await caller.environments.overview()).map((e: { slug: string }) => e.slug).sort()).toEqual([
      "development",
      "production",
      "staging",
    ]);
    expect((await caller.agents.list({})).items).toEqual([]);
  });
});

describe("testcases as the compat API's clients read them", () => {
  it("lists a testset with duplicate rows the same way by revision and by testcase query, and takes testset_revision_ref and ?testcase_ids=", async () => {
    const rows = [{ q: "a" }, { q: "a" }, { q: "b" }];
    const created = await createArtifact(c, "testsets", { slug: uniq("dups"), data: { testcases: rows } });
    const revisionRows = created.revision!.data.testcases as { id: string; data: unknown }[];
    expect(revisionRows.map((r) => r.data)).toEqual(rows);
    expect(new Set(revisionRows.map((r) => r.id)).size).toBe(3);

    const byTestset = await c.t.call("POST", "/api/testcases/query", {
      key: c.key,
      body: { testset_id: created.artifact.id },
    });
    expect(byTestset.body.count).toBe(3);
    for (const body of [
      { testset_revision_ref: { id: created.revision!.id } },
      { testset_revision_ref: { slug: created.revision!.slug } },
      { testset_ref: { slug: created.artifact.slug }, testset_revision_ref: { version: "1" } },
      { testset_variant_ref: { id: created.variant.id } },
    ]) {
      const res = await c.t.call("POST", "/api/testcases/query", { key: c.key, body });
      expectStatus(res, 200);
      expect(res.body.testcases.map((t: { id: string }) => t.id)).toEqual(revisionRows.map((r) => r.id));
    }
    expectStatus(
      await c.t.call("POST", "/api/testcases/query", {
        key: c.key,
        body: { testset_ref: { slug: created.artifact.slug }, testset_revision_ref: { version: "7" } },
      }),
      404,
    );

    // A later revision with the same rows keeps every id, the copy's included.
    const again = await c.t.call("POST", "/api/testsets/revisions/commit", {
      key: c.key,
      body: {
        testset_revision_commit: { testset_variant_id: created.variant.id, data: { testcases: [...rows, { q: "c" }] } },
      },
    });
    expect(again.body.testset_revision.data.testcases.slice(0, 3).map((r: { id: string }) => r.id)).toEqual(
      revisionRows.map((r) => r.id),
    );

    const wanted = [revisionRows[2].id, revisionRows[0].id];
    const listed = await c.t.call("GET", `/api/testcases/?testcase_ids=${wanted.join(",")}`, { key: c.key });
    expectStatus(listed, 200);
    expect(listed.body.testcases.map((t: { id: string }) => t.id).sort()).toEqual([...wanted].sort());
    expectStatus(await c.t.call("GET", "/api/testcases/?testcase_ids=nope", { key: c.key }), 422);
  });
});
