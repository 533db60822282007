import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asRetrieved,
  DOMAIN_NAMES,
  ISO_MS,
  MISSING_ID,
  UUID,
  commit,
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

describe.each(DOMAIN_NAMES)("variants of %s", (domain) => {
  const keys = domainKeys(domain);
  const base = `/api/${domain}/variants`;

  it("creates an empty variant, fetches it, and rejects taken, invalid or orphan slugs", async () => {
    const { artifact } = await createArtifact(c, domain);
    const res = await c.t.call("POST", `${base}/`, {
      key: c.key,
      body: { [keys.variant]: { [keys.artifactId]: artifact.id, name: "Experiment One", tags: { x: 1 } } },
    });
    expectStatus(res, 200);
    const variant = res.body[keys.variant];
    expect(variant).toEqual({
      id: expect.stringMatching(UUID),
      slug: "experiment-one",
      name: "Experiment One",
      flags: keys.roleFlags,
      tags: { x: 1 },
      meta: {},
      [keys.artifactId]: artifact.id,
      created_at: expect.stringMatching(ISO_MS),
      created_by_id: c.userId,
    });
    const got = await c.t.call("GET", `${base}/${variant.id}`, { key: c.key });
    expect(got.body).toEqual({ count: 1, [keys.variant]: variant });

    const taken = await c.t.call("POST", `${base}/`, {
      key: c.key,
      body: { [keys.variant]: { [keys.artifactId]: artifact.id, slug: "default" } },
    });
    expectStatus(taken, 409);
    const invalid = await c.t.call("POST", `${base}/`, {
      key: c.key,
      body: { [keys.variant]: { [keys.artifactId]: artifact.id, slug: "a b" } },
    });
    expectStatus(invalid, 422);
    const orphan = await c.t.call("POST", `${base}/`, {
      key: c.key,
      body: { [keys.variant]: { [keys.artifactId]: MISSING_ID } },
    });
    expectStatus(orphan, 404);
    expect((await c.t.call("GET", `${base}/${MISSING_ID}`, { key: c.key })).body).toMatchObject({ count: 0 });
    expectStatus(await c.t.call("GET", `${base}/123`, { key: c.key }), 400);
  });

  it("queries variants by artifact refs, variant refs, slug and name; archive hides them unless include_archived", async () => {
    const { artifact, variant: main } = await createArtifact(c, domain);
    const extra = await c.t.call("POST", `${base}/`, {
      key: c.key,
      body: { [keys.variant]: { [keys.artifactId]: artifact.id, name: "Side Branch" } },
    });
    const side = extra.body[keys.variant];
    const q = async (body: Record<string, unknown>) => {
      const res = await c.t.call("POST", `${base}/query`, { key: c.key, body });
      expectStatus(res, 200);
      return (res.body[keys.variants] as { id: string }[]).map((v) => v.id).sort();
    };
    const byArtifact = { [keys.refs]: [{ id: artifact.id }] };
    expect(await q(byArtifact)).toEqual([main.id, side.id].sort());
    expect(await q({ [keys.refs]: [{ slug: artifact.slug }], [keys.variant]: { slug: "side-branch" } })).toEqual([
      side.id,
    ]);
    expect(await q({ ...byArtifact, [keys.variant]: { name: "BRANCH" } })).toEqual([side.id]);
    expect(await q({ [keys.variantRefs]: [{ id: main.id }] })).toEqual([main.id]);

    const archived = await c.t.call("POST", `${base}/${side.id}/archive`, { key: c.key });
    expectStatus(archived, 200);
    expect(archived.body[keys.variant].deleted_at).toMatch(ISO_MS);
    expect(await q(byArtifact)).toEqual([main.id]);
    expect(await q({ ...byArtifact, include_archived: true })).toEqual([main.id, side.id].sort());
    const unarchived = await c.t.call("POST", `${base}/${side.id}/unarchive`, { key: c.key });
    expect(unarchived.body[keys.variant].deleted_at).toBeUndefined();
    expect(await q(byArtifact)).toEqual([main.id, side.id].sort());
    expectStatus(await c.t.call("POST", `${base}/${MISSING_ID}/archive`, { key: c.key }), 404);
  });

  it("forks a revision into a new variant carrying the source lineage up to it, as the compat API's log shows", async () => {
    const { artifact, variant, revision: v1 } = await createArtifact(c, domain, { data: dataFor(domain, "one") });
    const v2 = await commit(c, domain, variant.id, dataFor(domain, "two"), { message: "second", tags: { t: "2" } });
    const v3 = await commit(c, domain, variant.id, dataFor(domain, "three"), { message: "third" });

    const res = await c.t.call("POST", `${base}/fork`, { key: c.key, body: { [keys.revisionRef]: { id: v2.id } } });
    expectStatus(res, 200);
    expect(Object.keys(res.body).sort()).toEqual(["count", keys.revision, keys.variant].sort());
    const fork = res.body[keys.variant];
    const head = res.body[keys.revision];
    expect(fork.id).not.toBe(variant.id);
    expect(fork[keys.artifactId]).toBe(artifact.id);
    expect(fork.slug).toMatch(/^default-fork-[0-9a-f]{6}$/);
    expect(fork.version).toBe("2");
    const hex = fork.id.replace(/-/g, "");
    expect(head).toMatchObject({
      version: "2",
      message: "second",
      tags: { t: "2" },
      slug: `${v2.slug}_${hex}`,
      [keys.variantId]: fork.id,
      author: c.userId,
    });
    expect(head.id).not.toBe(v2.id);
    expect(head.data).toEqual(v2.data);

    const forkLog = await c.t.call("POST", `/api/${domain}/revisions/log`, {
      key: c.key,
      body: { [keys.one]: { [keys.variantId]: fork.id } },
    });
    expect(
      forkLog.body[keys.revisions].map((r: { version: string; message: string; slug: string }) => [
        r.version,
        r.message,
        r.slug,
      ]),
    ).toEqual([
      ["2", "second", `${v2.slug}_${hex}`],
      ["1", "Initial commit", `${v1!.slug}_${hex}`],
    ]);
    const copiedV1 = await retrieve(c, domain, {
      [keys.variantRef]: { id: fork.id },
      [keys.revisionRef]: { version: "1" },
    });
    expect(copiedV1.body[keys.revision].data).toEqual(asRetrieved(domain, v1!).data);

    // The head is committed (one event, for the head); the copies before it are history.
    const event = await lastEvent(c, `${domain}.revisions.committed`);
    expect(event.attributes.references).toEqual(refsOfRevision(domain, head));
    expect(event.attributes.message).toBe("second");

    // The source variant is untouched.
    const log = await c.t.call("POST", `/api/${domain}/revisions/log`, {
      key: c.key,
      body: { [keys.one]: { [keys.variantId]: variant.id } },
    });
    expect(log.body[keys.revisions].map((r: { id: string }) => r.id)).toEqual([v3.id, v2.id, v1!.id]);

    // By variant (latest), with a chosen slug and message.
    const named = await c.t.call("POST", `${base}/fork`, {
      key: c.key,
      body: { [keys.variantRef]: { id: variant.id }, [keys.variant]: { slug: "hotfix", name: "Hotfix" } },
    });
    expectStatus(named, 200);
    expect(named.body[keys.variant]).toMatchObject({ slug: "hotfix", name: "Hotfix" });
    expect(named.body[keys.revision]).toMatchObject({ version: "3", message: "third", data: v3.data });

    // By artifact + version (default variant).
    const pinned = await c.t.call("POST", `${base}/fork`, {
      key: c.key,
      body: {
        [keys.ref]: { slug: artifact.slug },
        [keys.revisionRef]: { version: "1" },
        [keys.variant]: { name: "From One" },
      },
    });
    expectStatus(pinned, 200);
    expect(pinned.body[keys.variant].slug).toBe("from-one");
    expect(pinned.body[keys.revision].data).toEqual(v1!.data);
  });

  it("rejects a fork from nothing (400, as the compat API), without references (400), or onto a taken slug (409), storing nothing", async () => {
    const { artifact, revision } = await createArtifact(c, domain, { data: dataFor(domain, "x") });
    const before = await c.t.call("POST", `${base}/query`, {
      key: c.key,
      body: { [keys.refs]: [{ id: artifact.id }] },
    });

    const missing = await c.t.call("POST", `${base}/fork`, {
      key: c.key,
      body: { [keys.revisionRef]: { id: MISSING_ID } },
    });
    expectStatus(missing, 400);
    expect(missing.body.detail).toContain(MISSING_ID);
    const none = await c.t.call("POST", `${base}/fork`, { key: c.key, body: {} });
    expectStatus(none, 400);
    const taken = await c.t.call("POST", `${base}/fork`, {
      key: c.key,
      body: { [keys.revisionRef]: { id: revision!.id }, [keys.variant]: { slug: "default" } },
    });
    expectStatus(taken, 409);

    const after = await c.t.call("POST", `${base}/query`, { key: c.key, body: { [keys.refs]: [{ id: artifact.id }] } });
    expect(after.body).toEqual(before.body);
  });
});

describe("fork of a testset keeps its testcase ids", () => {
  it("the fork's rows carry the source rows' ids", async () => {
    const { revision } = await createArtifact(c, "testsets", {
      data: { testcases: [{ data: { q: "a" } }, { q: "b" }] },
    });
    const res = await c.t.call("POST", "/api/testsets/variants/fork", {
      key: c.key,
      body: { testset_revision_ref: { id: revision!.id } },
    });
    expectStatus(res, 200);
    expect(res.body.testset_revision.data.testcases).toEqual(revision!.data.testcases);
    const ids = (revision!.data.testcases as { id: string }[]).map((r) => r.id);
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(id).toMatch(UUID);
  });
});

describe("variants stay within their artifact", () => {
  it("a variant slug is unique per artifact only", async () => {
    const a = await createArtifact(c, "applications");
    const b = await createArtifact(c, "applications");
    const slug = uniq("same");
    for (const x of [a, b]) {
      const res = await c.t.call("POST", "/api/applications/variants/", {
        key: c.key,
        body: { application_variant: { application_id: x.artifact.id, slug } },
      });
      expectStatus(res, 200);
    }
  });
});
