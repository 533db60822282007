import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DOMAIN_NAMES,
  ISO_MS,
  commit,
  createArtifact,
  dataFor,
  domainKeys,
  expectStatus,
  retrieve,
  setup,
  type Ctx,
} from "./helpers";

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

describe.each(DOMAIN_NAMES)("archive visibility in %s", (domain) => {
  const keys = domainKeys(domain);
  const base = `/api/${domain}`;
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

  async function visible(artifactId: string, includeArchived = false) {
    const flag = includeArchived ? { include_archived: true } : {};
    const refs = { [keys.refs]: [{ id: artifactId }] };
    const [a, v, r] = await Promise.all([
      c.t.call("POST", `${base}/query`, { key: c.key, body: { [keys.one]: { ids: [artifactId] }, ...flag } }),
      c.t.call("POST", `${base}/variants/query`, { key: c.key, body: { ...refs, ...flag } }),
      c.t.call("POST", `${base}/revisions/query`, { key: c.key, body: { ...refs, ...flag } }),
    ]);
    for (const res of [a, v, r]) expectStatus(res, 200);
    return {
      artifacts: ids(a.body[domain]),
      variants: ids(v.body[keys.variants]),
      revisions: ids(r.body[keys.revisions]),
    };
  }

  it("archiving an artifact hides it, its variants and its revisions from /query; every id stays resolvable", async () => {
    const { artifact, variant, revision: v1 } = await createArtifact(c, domain, { data: dataFor(domain, 1) });
    const v2 = await commit(c, domain, variant.id, dataFor(domain, 2));
    const all = { artifacts: [artifact.id], variants: [variant.id], revisions: ids([v1!, v2]) };
    expect(await visible(artifact.id)).toEqual(all);

    expectStatus(await c.t.call("POST", `${base}/${artifact.id}/archive`, { key: c.key }), 200);
    expect(await visible(artifact.id)).toEqual({ artifacts: [], variants: [], revisions: [] });
    expect(await visible(artifact.id, true)).toEqual(all);

    // Archiving the artifact does not archive its children: they are hidden with it.
    const gotVariant = await c.t.call("GET", `${base}/variants/${variant.id}`, { key: c.key });
    expectStatus(gotVariant, 200);
    expect(gotVariant.body[keys.variant].deleted_at).toBeUndefined();
    const gotRevision = await c.t.call("GET", `${base}/revisions/${v1!.id}`, { key: c.key });
    expect(gotRevision.body[keys.revision]).toEqual(v1);
    for (const body of [
      { [keys.revisionRef]: { id: v1!.id } },
      { [keys.revisionRef]: { slug: v2.slug } },
      { [keys.ref]: { slug: artifact.slug } },
      { [keys.variantRef]: { id: variant.id } },
    ]) {
      const res = await retrieve(c, domain, body);
      expectStatus(res, 200);
    }
    const log = await c.t.call("POST", `${base}/revisions/log`, {
      key: c.key,
      body: { [keys.one]: { [keys.variantId]: variant.id } },
    });
    expect(log.body.count).toBe(2);

    expectStatus(await c.t.call("POST", `${base}/${artifact.id}/unarchive`, { key: c.key }), 200);
    expect(await visible(artifact.id)).toEqual(all);
  });

  it("archiving a variant hides it and its revisions, not the artifact or its other variants", async () => {
    const { artifact, variant, revision: v1 } = await createArtifact(c, domain, { data: dataFor(domain, 1) });
    const fork = await c.t.call("POST", `${base}/variants/fork`, {
      key: c.key,
      body: { [keys.revisionRef]: { id: v1!.id } },
    });
    const forkVariant = fork.body[keys.variant];
    const forkRevision = fork.body[keys.revision];

    const archived = await c.t.call("POST", `${base}/variants/${forkVariant.id}/archive`, { key: c.key });
    expect(archived.body[keys.variant].deleted_at).toMatch(ISO_MS);
    expect(await visible(artifact.id)).toEqual({
      artifacts: [artifact.id],
      variants: [variant.id],
      revisions: [v1!.id],
    });
    expect(await visible(artifact.id, true)).toEqual({
      artifacts: [artifact.id],
      variants: ids([variant, forkVariant]),
      revisions: ids([v1!, forkRevision]),
    });
    const res = await retrieve(c, domain, { [keys.variantRef]: { id: forkVariant.id } });
    expect(res.body[keys.revision].id).toBe(forkRevision.id);
  });

  it("archiving a revision hides only that revision from /query; GET and retrieve still find it", async () => {
    const { artifact, variant, revision: v1 } = await createArtifact(c, domain, { data: dataFor(domain, 1) });
    const v2 = await commit(c, domain, variant.id, dataFor(domain, 2));
    await c.t.call("POST", `${base}/revisions/${v1!.id}/archive`, { key: c.key });
    expect((await visible(artifact.id)).revisions).toEqual([v2.id]);
    expect((await visible(artifact.id, true)).revisions).toEqual(ids([v1!, v2]));
    const byVersion = await retrieve(c, domain, {
      [keys.variantRef]: { id: variant.id },
      [keys.revisionRef]: { version: "1" },
    });
    expectStatus(byVersion, 200);
    expect(byVersion.body[keys.revision].deleted_at).toMatch(ISO_MS);
    await c.t.call("POST", `${base}/revisions/${v1!.id}/unarchive`, { key: c.key });
    expect((await visible(artifact.id)).revisions).toEqual(ids([v1!, v2]));
  });
});

describe("archived revisions stay deployed", () => {
  it("an environment keeps resolving a revision whose application was archived", async () => {
    const { artifact, revision } = await createArtifact(c, "applications", { data: dataFor("applications", 1) });
    const dep = await c.t.call("POST", "/api/applications/revisions/deploy", {
      key: c.key,
      body: { application_revision_ref: { id: revision!.id }, environment_ref: { slug: "production" } },
    });
    expectStatus(dep, 200);
    await c.t.call("POST", `/api/applications/${artifact.id}/archive`, { key: c.key });
    const res = await retrieve(c, "applications", {
      environment_ref: { slug: "production" },
      application_ref: { slug: artifact.slug },
    });
    expectStatus(res, 200);
    expect(res.body.application_revision.id).toBe(revision!.id);
  });
});
