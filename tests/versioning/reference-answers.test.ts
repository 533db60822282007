import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawQuery } from "@/server/db";
import { variants } from "@/server/db/schema";
import {
  ISO_MS,
  commit,
  countEvents,
  createArtifact,
  dataFor,
  expectStatus,
  retrieve,
  setup,
  uniq,
  type Ctx,
} from "./helpers";

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

describe("variant archive", () => {
  const query = (body: Record<string, unknown>) =>
    c.t.call("POST", "/api/applications/revisions/query", { key: c.key, body });
  const getRevision = async (id: string) =>
    (await c.t.call("GET", `/api/applications/revisions/${id}`, { key: c.key })).body.application_revision;

  it("archives the variant's revisions with it; unarchive restores them, not one archived on its own", async () => {
    const {
      artifact,
      variant,
      revision: v1,
    } = await createArtifact(c, "applications", {
      data: dataFor("applications", 1),
    });
    const v2 = await commit(c, "applications", variant.id, dataFor("applications", 2));
    const v3 = await commit(c, "applications", variant.id, dataFor("applications", 3));
    expectStatus(await c.t.call("POST", `/api/applications/revisions/${v1!.id}/archive`, { key: c.key }), 200);
    const ownArchive = (await getRevision(v1!.id)).deleted_at;

    const archived = await c.t.call("POST", `/api/applications/variants/${variant.id}/archive`, { key: c.key });
    expectStatus(archived, 200);
    const at = archived.body.application_variant.deleted_at;
    expect(at).toMatch(ISO_MS);
    expect((await getRevision(v2.id)).deleted_at).toBe(at);
    expect((await getRevision(v3.id)).deleted_at).toBe(at);
    expect((await getRevision(v1!.id)).deleted_at).toBe(ownArchive);

    // Log leaves archived revisions out: an archived variant has no history to show.
    expect(versionsOf(await log({ application_variant_id: variant.id }))).toEqual([]);
    const refs = { application_variant_refs: [{ id: variant.id }] };
    expect((await query(refs)).body.count).toBe(0);
    const all = await query({ ...refs, include_archived: true });
    expect(all.body.application_revisions.map((r: { deleted_at?: string }) => Boolean(r.deleted_at))).toEqual([
      true,
      true,
      true,
    ]);
    // Retrieve still resolves every id, the variant's latest included.
    for (const body of [
      { application_variant_ref: { id: variant.id } },
      { application_ref: { id: artifact.id } },
      { application_revision_ref: { id: v2.id } },
    ]) {
      const res = await retrieve(c, "applications", body);
      expectStatus(res, 200);
      expect(res.body.application_revision.deleted_at).toBe(at);
    }

    expectStatus(await c.t.call("POST", `/api/applications/variants/${variant.id}/unarchive`, { key: c.key }), 200);
    expect((await getRevision(v2.id)).deleted_at).toBeUndefined();
    expect((await getRevision(v1!.id)).deleted_at).toBe(ownArchive);
    expect(versionsOf(await log({ application_variant_id: variant.id }))).toEqual(["3", "2"]);
    const latest = await retrieve(c, "applications", { application_variant_ref: { id: variant.id } });
    expect(latest.body.application_revision.deleted_at).toBeUndefined();
  });

  it("a fork of an archived variant copies its history as active, keeping a revision's own archive", async () => {
    const { variant, revision: v1 } = await createArtifact(c, "applications", { data: dataFor("applications", 1) });
    const v2 = await commit(c, "applications", variant.id, dataFor("applications", 2));
    const v3 = await commit(c, "applications", variant.id, dataFor("applications", 3));
    await c.t.call("POST", `/api/applications/revisions/${v1!.id}/archive`, { key: c.key });
    await c.t.call("POST", `/api/applications/variants/${variant.id}/archive`, { key: c.key });
    const fork = await c.t.call("POST", "/api/applications/variants/fork", {
      key: c.key,
      body: { application_revision_ref: { id: v3.id } },
    });
    expectStatus(fork, 200);
    const copies = await log({ application_variant_id: fork.body.application_variant.id });
    expect(versionsOf(copies)).toEqual([v3.version, v2.version]);
  });
});

describe("migration 0049", () => {
  it("archives the revisions of a variant archived before the cascade, keeping a revision's own archive", async () => {
    const { variant, revision: v1 } = await createArtifact(c, "applications", { data: dataFor("applications", 1) });
    const v2 = await commit(c, "applications", variant.id, dataFor("applications", 2));
    await c.t.call("POST", `/api/applications/revisions/${v1!.id}/archive`, { key: c.key });
    const ownArchive = (await c.t.call("GET", `/api/applications/revisions/${v1!.id}`, { key: c.key })).body
      .application_revision.deleted_at;
    // An archive as it was written before: the variant alone.
    await c.t.context.db.update(variants).set({ deletedAt: new Date() }).where(eq(variants.id, variant.id));
    expect(versionsOf(await log({ application_variant_id: variant.id }))).toEqual([v2.version]);

    const migration = fs.readFileSync(path.join(process.cwd(), "drizzle/0049_archived_variant_revisions.sql"), "utf8");
    await c.t.context.db.transaction(async (tx) => {
      for (const statement of migration.split("--> statement-breakpoint")) await rawQuery(tx, statement);
    });
    expect(versionsOf(await log({ application_variant_id: variant.id }))).toEqual([]);
    expectStatus(await c.t.call("POST", `/api/applications/variants/${variant.id}/unarchive`, { key: c.key }), 200);
    expect(versionsOf(await log({ application_variant_id: variant.id }))).toEqual([v2.version]);
    const first = await c.t.call("GET", `/api/applications/revisions/${v1!.id}`, { key: c.key });
    expect(first.body.application_revision.deleted_at).toBe(ownArchive);
  });
});

describe("retrieve through an environment", () => {
  it("a key deployed as a workflow holds no application: 404, as a missing key", async () => {
    const env = await createArtifact(c, "environments", { slug: uniq("env") });
    const wf = await createArtifact(c, "workflows", { data: dataFor("workflows", 1) });
    const deployed = await c.t.call("POST", "/api/workflows/revisions/deploy", {
      key: c.key,
      body: { workflow_revision_ref: { id: wf.revision!.id }, environment_ref: { id: env.artifact.id }, key: "k" },
    });
    expectStatus(deployed, 200);
    const res = await retrieve(c, "applications", { environment_ref: { id: env.artifact.id }, key: "k" });
    expectStatus(res, 404);
    expect(res.body.code).toBe("not_found");
    expect(res.body.detail).toContain('no application_revision under key "k"');
    expect(res.body.detail).toContain("/api/workflows/revisions/retrieve");
    // The workflow route reads it.
    const asWorkflow = await retrieve(c, "workflows", { environment_ref: { id: env.artifact.id }, key: "k" });
    expect(asWorkflow.body.workflow_revision.id).toBe(wf.revision!.id);
  });
});

describe("deploy", () => {
  const deploy = (body: Record<string, unknown>) =>
    c.t.call("POST", "/api/applications/revisions/deploy", { key: c.key, body });

  it("answers the deployed revision with its data", async () => {
    const env = await createArtifact(c, "environments", { slug: uniq("env") });
    const app = await createArtifact(c, "applications", { data: dataFor("applications", 1) });
    const res = await deploy({
      application_revision_ref: { id: app.revision!.id },
      environment_ref: { id: env.artifact.id },
    });
    expectStatus(res, 200);
    expect(res.body.application_revision).toEqual(app.revision);
  });

  it("takes the target from any environment reference: its variant, or one of its revisions", async () => {
    const env = await createArtifact(c, "environments", { slug: uniq("env") });
    const app = await createArtifact(c, "applications", { data: dataFor("applications", 1) });
    const ref = { application_revision_ref: { id: app.revision!.id } };
    const first = await deploy({ ...ref, environment_variant_ref: { id: env.variant.id }, key: "a" });
    expectStatus(first, 200);
    expect(first.body.environment_revision).toMatchObject({ version: "1", environment_variant_id: env.variant.id });
    const second = await deploy({ ...ref, environment_ref: { slug: env.artifact.slug }, key: "b" });
    // An older environment revision names the environment; the deploy adds to what it holds now.
    const third = await deploy({
      ...ref,
      environment_revision_ref: { id: first.body.environment_revision.id },
      key: "c",
    });
    expectStatus(third, 200);
    expect(third.body.environment_revision.version).toBe("3");
    expect(Object.keys(third.body.environment_revision.data.references).sort()).toEqual(["a", "b", "c"]);
    const byVersion = await deploy({
      ...ref,
      environment_ref: { id: env.artifact.id },
      environment_revision_ref: { version: second.body.environment_revision.version },
      key: "d",
    });
    expectStatus(byVersion, 200);
    expect(byVersion.body.environment_revision.version).toBe("4");
  });

  it("refuses a body without a source or a target (400 naming what to send), or with refs that disagree", async () => {
    const env = await createArtifact(c, "environments", { slug: uniq("env") });
    const other = await createArtifact(c, "environments", { slug: uniq("env") });
    const app = await createArtifact(c, "applications", { data: dataFor("applications", 1) });
    const ref = { application_revision_ref: { id: app.revision!.id } };
    const first = await deploy({ ...ref, environment_ref: { id: env.artifact.id } });
    const before = await countEvents(c, "environments.revisions.committed");

    const noTarget = await deploy(ref);
    expectStatus(noTarget, 400);
    expect(noTarget.body).toMatchObject({ code: "missing_reference" });
    expect(noTarget.body.detail).toContain("environment_ref");
    const noSource = await deploy({ environment_ref: { id: env.artifact.id } });
    expectStatus(noSource, 400);
    expect(noSource.body.detail).toContain("application_revision_ref");
    const mismatch = await deploy({
      ...ref,
      environment_ref: { id: other.artifact.id },
      environment_revision_ref: { id: first.body.environment_revision.id },
    });
    expectStatus(mismatch, 400);
    expect(mismatch.body.code).toBe("reference_mismatch");
    const versionAlone = await deploy({ ...ref, environment_revision_ref: { version: "1" } });
    expectStatus(versionAlone, 400);
    expect(versionAlone.body.code).toBe("version_without_context");
    expect(await countEvents(c, "environments.revisions.committed")).toBe(before);
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
