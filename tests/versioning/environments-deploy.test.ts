import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/server/core/ids";
import { revisions, variants } from "@/server/db/schema";
import { Lookup } from "@/server/versioning/lookup";
import {
  DEPLOYABLE_DOMAINS,
  DOMAIN_NAMES,
  MISSING_ID,
  commit,
  countEvents,
  createArtifact,
  dataFor,
  domainKeys,
  expectStatus,
  lastEvent,
  refsOfRevision,
  retrieve,
  setup,
  uniq,
  type Ctx,
} from "./helpers";

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

const ENV = domainKeys("environments");

/** A throwaway environment with its default variant. */
async function newEnvironment(slug = uniq("env")) {
  const env = await createArtifact(c, "environments", { slug });
  return { slug, name: env.artifact.name as string, id: env.artifact.id, variantId: env.variant.id };
}

async function envLatest(slug: string) {
  const res = await retrieve(c, "environments", { environment_ref: { slug } });
  expectStatus(res, 200);
  return res.body.environment_revision;
}

describe.each(DEPLOYABLE_DOMAINS)("deploying %s", (domain) => {
  const keys = domainKeys(domain);
  const deploy = (body: Record<string, unknown>) =>
    c.t.call("POST", `/api/${domain}/revisions/deploy`, { key: c.key, body });

  it("commits a new environment revision pointing <slug>.revision at the revision, which stays untouched", async () => {
    const env = await newEnvironment();
    const app = await createArtifact(c, domain, { data: dataFor(domain, 1) });
    const v2 = await commit(c, domain, app.variant.id, dataFor(domain, 2));
    const slugKey = `${app.artifact.slug}.revision`;

    const res = await deploy({
      [keys.ref]: { slug: app.artifact.slug },
      [keys.revisionRef]: { version: "1" },
      environment_ref: { slug: env.slug },
    });
    expectStatus(res, 200);
    expect(Object.keys(res.body).sort()).toEqual(["count", ENV.revision, keys.revision].sort());
    const envRevision = res.body[ENV.revision];
    const entry = refsOfRevision(domain, app.revision!);
    expect(envRevision).toMatchObject({
      version: "1",
      message: `Deploy ${app.artifact.name} v1 to ${env.name}`,
      data: { references: { [slugKey]: entry } },
      [ENV.artifactId]: env.id,
      [ENV.variantId]: env.variantId,
      author: c.userId,
    });
    expect(res.body[keys.revision]).toEqual(app.revision);

    // The deployed revision and its variant's history did not change.
    const again = await c.t.call("GET", `/api/${domain}/revisions/${app.revision!.id}`, { key: c.key });
    expect(again.body[keys.revision]).toEqual(app.revision);
    const log = await c.t.call("POST", `/api/${domain}/revisions/log`, {
      key: c.key,
      body: { [keys.one]: { [keys.variantId]: app.variant.id } },
    });
    expect(log.body[keys.revisions].map((r: { id: string }) => r.id)).toEqual([v2.id, app.revision!.id]);

    // 5: environment plus the artifact (whose slug gives the key), or plus an explicit key.
    const viaSlug = await retrieve(c, domain, {
      environment_ref: { slug: env.slug },
      [keys.ref]: { slug: app.artifact.slug },
    });
    expectStatus(viaSlug, 200);
    expect(viaSlug.body).toEqual({
      count: 1,
      [keys.revision]: app.revision,
      retrieval_info: {
        references: { ...entry, ...refsOfRevision("environments", envRevision) },
        key: slugKey,
        // The compat API's clients read the key from `selector`.
        selector: { key: slugKey },
      },
    });
    const viaId = await retrieve(c, domain, { environment_ref: { id: env.id }, [keys.ref]: { id: app.artifact.id } });
    expect(viaId.body[keys.revision].id).toBe(app.revision!.id);
    const viaKey = await retrieve(c, domain, { environment_ref: { slug: env.slug }, key: slugKey });
    expect(viaKey.body[keys.revision].id).toBe(app.revision!.id);

    // Redeploying the variant's latest moves the pointer: a new environment revision, diff.updated.
    const moved = await deploy({
      [keys.variantRef]: { id: app.variant.id },
      environment_ref: { slug: env.slug },
      message: "ship v2",
    });
    expectStatus(moved, 200);
    expect(moved.body[ENV.revision]).toMatchObject({ version: "2", message: "ship v2" });
    const event = await lastEvent(c, "environments.revisions.committed");
    expect(event.attributes.diff).toEqual({
      created: {},
      updated: { [slugKey]: { old: entry, new: refsOfRevision(domain, v2) } },
      deleted: {},
    });
    const now = await retrieve(c, domain, {
      environment_ref: { slug: env.slug },
      [keys.ref]: { slug: app.artifact.slug },
    });
    expect(now.body[keys.revision].id).toBe(v2.id);
    // The environment's history still answers what was deployed before.
    const before = await retrieve(c, domain, {
      environment_ref: { slug: env.slug },
      environment_revision_ref: { version: "1" },
      [keys.ref]: { slug: app.artifact.slug },
    });
    expect(before.body[keys.revision].id).toBe(app.revision!.id);
    expect(before.body.retrieval_info.references[ENV.revision].version).toBe("1");
  });

  it("deploys under an explicit key and to a named environment variant", async () => {
    const env = await newEnvironment();
    const app = await createArtifact(c, domain, { data: dataFor(domain, 1) });
    const res = await deploy({
      [keys.revisionRef]: { id: app.revision!.id },
      environment_ref: { slug: env.slug },
      key: "chatbot",
    });
    expectStatus(res, 200);
    expect(Object.keys(res.body[ENV.revision].data.references)).toEqual(["chatbot"]);

    const viaKey = await retrieve(c, domain, { environment_ref: { slug: env.slug }, key: "chatbot" });
    expectStatus(viaKey, 200);
    expect(viaKey.body[keys.revision].id).toBe(app.revision!.id);
    expect(viaKey.body.retrieval_info.key).toBe("chatbot");
    // The default key was not used.
    const viaSlug = await retrieve(c, domain, {
      environment_ref: { slug: env.slug },
      [keys.ref]: { slug: app.artifact.slug },
    });
    expectStatus(viaSlug, 404);
    expect(viaSlug.body.detail).toContain(`${app.artifact.slug}.revision`);

    const canary = await c.t.call("POST", "/api/environments/variants/", {
      key: c.key,
      body: { [ENV.variant]: { [ENV.artifactId]: env.id, slug: "canary" } },
    });
    const toCanary = await deploy({
      [keys.revisionRef]: { id: app.revision!.id },
      environment_ref: { slug: env.slug },
      environment_variant_ref: { slug: "canary" },
    });
    expectStatus(toCanary, 200);
    expect(toCanary.body[ENV.revision][ENV.variantId]).toBe(canary.body[ENV.variant].id);
    const viaCanary = await retrieve(c, domain, {
      environment_ref: { slug: env.slug },
      environment_variant_ref: { slug: "canary" },
      [keys.ref]: { slug: app.artifact.slug },
    });
    expect(viaCanary.body[keys.revision].id).toBe(app.revision!.id);
  });

  it("checks the other references of an environment retrieve against the deployed revision", async () => {
    const env = await newEnvironment();
    const app = await createArtifact(c, domain, { data: dataFor(domain, 1) });
    const v2 = await commit(c, domain, app.variant.id, dataFor(domain, 2));
    const other = await createArtifact(c, domain, { data: dataFor(domain, 9) });
    await deploy({ [keys.revisionRef]: { id: app.revision!.id }, environment_ref: { slug: env.slug }, key: "k" });

    const agree = await retrieve(c, domain, {
      environment_ref: { slug: env.slug },
      key: "k",
      [keys.revisionRef]: { id: app.revision!.id },
      [keys.ref]: { slug: app.artifact.slug },
    });
    expectStatus(agree, 200);
    expect(agree.body.retrieval_info.key).toBe("k");

    const cases: [Record<string, unknown>, string][] = [
      [{ key: "k", [keys.ref]: { slug: other.artifact.slug } }, `${keys.ref}.slug`],
      [{ key: "k", [keys.variantRef]: { slug: "nope" } }, `${keys.variantRef}.slug`],
      [{ key: "k", [keys.revisionRef]: { version: "2" } }, `${keys.revisionRef}.version`],
      [{ key: "k", [keys.revisionRef]: { id: v2.id } }, "environment_ref"],
    ];
    for (const [extra, field] of cases) {
      const res = await retrieve(c, domain, { environment_ref: { slug: env.slug }, ...extra });
      expectStatus(res, 400);
      expect(res.body.code).toBe("reference_mismatch");
      expect(res.body.detail.startsWith(`${field} `), `${res.body.detail} should name ${field}`).toBe(true);
    }
  });

  it("answers an environment retrieve that finds nothing with 404, and one without a key with 400", async () => {
    const env = await newEnvironment();
    const app = await createArtifact(c, domain, { data: dataFor(domain, 1) });
    const empty = await retrieve(c, domain, {
      environment_ref: { slug: env.slug },
      [keys.ref]: { slug: app.artifact.slug },
    });
    expectStatus(empty, 404);
    expectStatus(await retrieve(c, domain, { environment_ref: { slug: "no-such-env" }, key: "k" }), 404);
    expectStatus(await retrieve(c, domain, { environment_ref: { id: MISSING_ID }, key: "k" }), 404);
    await deploy({ [keys.revisionRef]: { id: app.revision!.id }, environment_ref: { slug: env.slug } });
    const unknownKey = await retrieve(c, domain, { environment_ref: { slug: env.slug }, key: "missing.revision" });
    expectStatus(unknownKey, 404);
    expect(unknownKey.body.detail).toContain("missing.revision");
    const noKey = await retrieve(c, domain, { environment_ref: { slug: env.slug } });
    expectStatus(noKey, 400);
    expect(noKey.body.code).toBe("missing_key");
    // A key holding another domain's revision.
    const otherDomain = DEPLOYABLE_DOMAINS.find((d) => d !== domain)!;
    const foreign = await createArtifact(c, otherDomain, { data: dataFor(otherDomain, 1) });
    await c.t.call("POST", `/api/${otherDomain}/revisions/deploy`, {
      key: c.key,
      body: {
        [domainKeys(otherDomain).revisionRef]: { id: foreign.revision!.id },
        environment_ref: { slug: env.slug },
        key: "theirs",
      },
    });
    // Each domain reads only its own family of an entry, as the compat API does: nothing here for it.
    const wrongKind = await retrieve(c, domain, { environment_ref: { slug: env.slug }, key: "theirs" });
    expectStatus(wrongKind, 404);
    expect(wrongKind.body.detail).toContain(`/api/${otherDomain}/revisions/retrieve`);
  });

  it("rejects a deploy of nothing or to nowhere, storing no environment revision", async () => {
    const env = await newEnvironment();
    const app = await createArtifact(c, domain, { data: dataFor(domain, 1) });
    const eventsBefore = await countEvents(c, "environments.revisions.committed");
    expectStatus(await deploy({ [keys.revisionRef]: { id: MISSING_ID }, environment_ref: { slug: env.slug } }), 404);
    expectStatus(
      await deploy({ [keys.revisionRef]: { id: app.revision!.id }, environment_ref: { slug: "no-such-env" } }),
      404,
    );
    expectStatus(
      await deploy({
        [keys.revisionRef]: { id: app.revision!.id },
        environment_ref: { slug: env.slug },
        environment_variant_ref: { slug: "nope" },
      }),
      404,
    );
    expectStatus(await deploy({ environment_ref: { slug: env.slug } }), 400);
    expectStatus(await deploy({ [keys.revisionRef]: { id: app.revision!.id } }), 400);
    expectStatus(
      await deploy({ [keys.revisionRef]: { id: app.revision!.id }, environment_ref: { slug: env.slug }, key: "" }),
      422,
    );
    expect((await retrieve(c, "environments", { environment_ref: { slug: env.slug } })).body.count).toBe(0);
    expect(await countEvents(c, "environments.revisions.committed")).toBe(eventsBefore);
  });
});

describe("the one-query environment lookup", () => {
  it("returns the environment's latest revision and the revision under the key, and nothing on any miss", async () => {
    const env = await newEnvironment();
    const app = await createArtifact(c, "applications", { data: dataFor("applications", 1) });
    const v2 = await commit(c, "applications", app.variant.id, dataFor("applications", 2));
    await c.t.call("POST", "/api/applications/revisions/deploy", {
      key: c.key,
      body: { application_revision_ref: { id: app.revision!.id }, environment_ref: { slug: env.slug }, key: "k" },
    });
    await c.t.call("POST", "/api/applications/revisions/deploy", {
      key: c.key,
      body: { application_revision_ref: { id: v2.id }, environment_ref: { slug: env.slug }, key: "k" },
    });
    const lookup = new Lookup(c.t.database.db, c.projectId, domainKeys("applications"));

    const bySlug = await lookup.deployed({ slug: env.slug }, "k");
    expect(bySlug?.target).toMatchObject({
      id: v2.id,
      version: 2,
      artifactSlug: app.artifact.slug,
      variantSlug: "default",
      data: dataFor("applications", 2),
    });
    expect(bySlug?.environment).toMatchObject({
      version: 2,
      artifactId: env.id,
      variantId: env.variantId,
      artifactSlug: env.slug,
    });
    expect((await lookup.deployed({ id: env.id }, "k"))?.target.id).toBe(v2.id);

    expect(await lookup.deployed({ slug: env.slug }, "missing")).toBeUndefined();
    expect(await lookup.deployed({ slug: "no-such-env" }, "k")).toBeUndefined();
    expect(
      await new Lookup(c.t.database.db, c.projectId, domainKeys("workflows")).deployed({ slug: env.slug }, "k"),
    ).toBeUndefined();
    const stranger = await c.t.newProject();
    expect(
      await new Lookup(c.t.database.db, stranger.projectId, domainKeys("applications")).deployed(
        { slug: env.slug },
        "k",
      ),
    ).toBeUndefined();
  });
});

describe("deploy exists only for applications, workflows and evaluators", () => {
  it.each(DOMAIN_NAMES.filter((d) => !(DEPLOYABLE_DOMAINS as readonly string[]).includes(d)))(
    "%s has no deploy",
    async (domain) => {
      const res = await c.t.call("POST", `/api/${domain}/revisions/deploy`, {
        key: c.key,
        body: { environment_ref: { slug: "staging" } },
      });
      expect([404, 405]).toContain(res.status);
    },
  );
});

describe("environment commits", () => {
  const envCommit = (variantId: string, body: Record<string, unknown>) =>
    c.t.call("POST", "/api/environments/revisions/commit", {
      key: c.key,
      body: { [ENV.commit]: { [ENV.variantId]: variantId, ...body } },
    });

  it("takes a full references map (data) or a delta (set, remove), stores entries complete, and emits state and diff", async () => {
    const env = await newEnvironment();
    const app = await createArtifact(c, "applications", { data: dataFor("applications", 1) });
    const wf = await createArtifact(c, "workflows", { data: dataFor("workflows", 1) });
    const appEntry = refsOfRevision("applications", app.revision!);
    const wfEntry = refsOfRevision("workflows", wf.revision!);

    const full = await envCommit(env.variantId, {
      message: "init",
      data: { references: { "app.revision": { application_revision: { id: app.revision!.id } } } },
    });
    expectStatus(full, 200);
    expect(full.body[ENV.revision].data).toEqual({ references: { "app.revision": appEntry } });
    const first = await lastEvent(c, "environments.revisions.committed");
    expect(first.attributes).toEqual({
      references: refsOfRevision("environments", full.body[ENV.revision]),
      user_id: c.userId,
      message: "init",
      state: { references: { "app.revision": appEntry } },
      diff: { created: { "app.revision": { new: appEntry } }, updated: {}, deleted: {} },
    });

    // An entry may name its revision by variant (latest) or by artifact + version, with _ref spellings.
    const delta = await envCommit(env.variantId, {
      delta: {
        set: {
          "wf.revision": { workflow_variant_ref: { id: wf.variant.id }, workflow_revision_ref: { version: "1" } },
          "app2.revision": { application: { slug: app.artifact.slug }, application_revision: { version: "1" } },
        },
      },
    });
    expectStatus(delta, 200);
    expect(delta.body[ENV.revision].data.references).toEqual({
      "app.revision": appEntry,
      "wf.revision": wfEntry,
      "app2.revision": appEntry,
    });
    const second = await lastEvent(c, "environments.revisions.committed");
    expect(second.attributes.diff).toEqual({
      created: { "wf.revision": { new: wfEntry }, "app2.revision": { new: appEntry } },
      updated: {},
      deleted: {},
    });
    expect(second.attributes.message).toBeUndefined();

    const removal = await envCommit(env.variantId, { delta: { remove: ["app.revision", "not-there"] } });
    expectStatus(removal, 200);
    expect(Object.keys(removal.body[ENV.revision].data.references).sort()).toEqual(["app2.revision", "wf.revision"]);
    const third = await lastEvent(c, "environments.revisions.committed");
    expect(third.attributes.diff).toEqual({ created: {}, updated: {}, deleted: { "app.revision": { old: appEntry } } });
    expect(third.attributes.state).toEqual({ references: { "wf.revision": wfEntry, "app2.revision": appEntry } });

    // A full map replaces: keys not in it are deleted.
    const replace = await envCommit(env.variantId, {
      data: { references: { "wf.revision": { workflow_revision: { id: wf.revision!.id } } } },
    });
    expectStatus(replace, 200);
    expect(replace.body[ENV.revision].data.references).toEqual({ "wf.revision": wfEntry });
    const fourth = await lastEvent(c, "environments.revisions.committed");
    expect(fourth.attributes.diff).toEqual({
      created: {},
      updated: {},
      deleted: { "app2.revision": { old: appEntry } },
    });
    expect((await envLatest(env.slug)).version).toBe("4");
  });

  it("refuses a data key environments do not know (422); one a stored revision holds is kept across deploys", async () => {
    const env = await newEnvironment();
    const app = await createArtifact(c, "applications", { data: dataFor("applications", 1) });
    const refused = await envCommit(env.variantId, { data: { references: {}, notes: "release train" } });
    expectStatus(refused, 422);
    expect(refused.body.errors).toEqual([{ path: "data.notes", message: expect.stringContaining("references") }]);
    // A revision stored before the check (any key was taken then): a deploy's delta carries it.
    await c.t.context.db.insert(revisions).values({
      id: newId(),
      projectId: c.projectId,
      domain: "environments",
      artifactId: env.id,
      variantId: env.variantId,
      slug: uniq("old"),
      version: 1,
      data: { references: {}, notes: "release train" },
      authorId: c.userId,
    });
    await c.t.context.db.update(variants).set({ headVersion: 1 }).where(eq(variants.id, env.variantId));
    await c.t.call("POST", "/api/applications/revisions/deploy", {
      key: c.key,
      body: { application_revision_ref: { id: app.revision!.id }, environment_ref: { slug: env.slug } },
    });
    const latest = await envLatest(env.slug);
    expect(latest.data).toEqual({
      notes: "release train",
      references: { [`${app.artifact.slug}.revision`]: refsOfRevision("applications", app.revision!) },
    });
  });

  it("400 for neither or both of data and delta, and for bad entries; a failed commit stores no revision and no event", async () => {
    const env = await newEnvironment();
    const app = await createArtifact(c, "applications", { data: dataFor("applications", 1) });
    const testset = await createArtifact(c, "testsets", { data: dataFor("testsets", 1) });
    const ok = await envCommit(env.variantId, {
      data: { references: { "a.revision": { application_revision: { id: app.revision!.id } } } },
    });
    expectStatus(ok, 200);
    const events = await countEvents(c, "environments.revisions.committed");

    const neither = await envCommit(env.variantId, { message: "nothing" });
    expectStatus(neither, 400);
    expect(neither.body.code).toBe("data_or_delta");
    expectStatus(await envCommit(env.variantId, { data: { references: {} }, delta: { set: {} } }), 400);
    const entry = 'references["k"]';
    const bad: [Record<string, unknown>, number, string?][] = [
      [{ data: { references: { k: { query_revision: { id: app.revision!.id } } } } }, 400, entry],
      [{ data: { references: { k: { testset_revision: { id: testset.revision!.id } } } } }, 400, entry],
      [{ data: { references: { k: { application_revision: { id: "nope" } } } } }, 400, entry],
      [{ data: { references: { k: null } } }, 400, entry],
      [{ data: { references: { k: "app" } } }, 400, entry],
      [{ data: { references: ["a"] } }, 400, "data.references"],
      [{ data: { references: { k: { application_revision: { id: MISSING_ID } } } } }, 404, entry],
      [{ delta: { set: { k: { application_revision: { id: MISSING_ID } } } } }, 404, entry],
      [{ delta: { set: { k: null } } }, 422],
      [{ delta: { rename: {} } }, 422],
    ];
    for (const [body, status, detail] of bad) {
      const res = await envCommit(env.variantId, body);
      expectStatus(res, status);
      if (detail) expect(res.body.detail, JSON.stringify(body)).toContain(detail);
    }
    expect(await countEvents(c, "environments.revisions.committed")).toBe(events);
    const latest = await envLatest(env.slug);
    expect(latest.id).toBe(ok.body[ENV.revision].id);
    // No version was used up: the next commit is 2.
    const next = await envCommit(env.variantId, { delta: { remove: ["a.revision"] } });
    expect(next.body[ENV.revision].version).toBe("2");
  });
});
