import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asRetrieved,
  DEPLOYABLE_DOMAINS,
  DOMAIN_NAMES,
  ISO_MS,
  MISSING_ID,
  UUID,
  commit,
  createArtifact,
  dataFor,
  domainKeys,
  expectStatus,
  setup,
  uniq,
  type Ctx,
  type DomainName,
} from "./helpers";

/** The compat API's generic names of a revision's artifact and variant. */
const GENERIC = {
  artifactId: "artifact_id",
  artifactSlug: "artifact_slug",
  variantId: "variant_id",
  variantSlug: "variant_slug",
};

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

describe.each(DOMAIN_NAMES)("commits and history of %s", (domain) => {
  const keys = domainKeys(domain);
  const base = `/api/${domain}/revisions`;

  it("commits with the <domain>_revision_commit wrapper and returns the full revision", async () => {
    const { artifact, variant, revision: v1 } = await createArtifact(c, domain, { data: dataFor(domain, 1) });
    const res = await c.t.call("POST", `${base}/commit`, {
      key: c.key,
      body: { [keys.commit]: { [keys.variantId]: variant.id, message: "tweak", data: dataFor(domain, 2) } },
    });
    expectStatus(res, 200);
    expect(res.body).toEqual({ count: 1, [keys.revision]: expect.any(Object) });
    const revision = res.body[keys.revision];
    expect(revision).toEqual({
      id: expect.stringMatching(UUID),
      slug: expect.stringMatching(/^[0-9a-f]{12}$/),
      version: "2",
      flags: keys.roleFlags,
      tags: {},
      meta: {},
      author: c.userId,
      date: expect.stringMatching(ISO_MS),
      message: "tweak",
      data: expect.objectContaining(dataFor(domain, 2)),
      // The parents under every name the compat API gives them: the domain's, generic, workflow's.
      ...Object.fromEntries(
        [keys, GENERIC, ...(DEPLOYABLE_DOMAINS.includes(domain as never) ? [domainKeys("workflows")] : [])].flatMap(
          (k) => [
            [k.artifactId, artifact.id],
            [k.artifactSlug, artifact.slug],
            [k.variantId, variant.id],
            [k.variantSlug, "default"],
          ],
        ),
      ),
      created_at: revision.date,
    });
    expect(revision.id > v1!.id).toBe(true);
  });

  it("stores the payload exactly: the commit's answer, a fetch and a retrieve agree", async () => {
    const { variant } = await createArtifact(c, domain);
    const awkward = {
      quote: 'say "hi" \\ there',
      unicode: "héllo ✓ 🙂",
      nested: { list: [1, 2.5, -0.125, null, true, "x"], empty: {} },
      big: 9007199254740991,
    };
    // Where the domain's data model holds free-form JSON: a workflow's parameters, a testset's row,
    // a query's filtering (an environment's entries are references, normalized at commit: the
    // marker data only).
    const free: Partial<Record<DomainName, Record<string, unknown>>> = {
      testsets: { testcases: [awkward] },
      queries: { filtering: awkward },
      environments: dataFor(domain, 1),
    };
    const data = free[domain] ?? { parameters: awkward };
    const committed = await commit(c, domain, variant.id, data);
    expect(committed.data).toEqual(
      domain === "testsets" ? { testcases: [{ id: expect.stringMatching(UUID), data: awkward }] } : data,
    );
    const fetched = await c.t.call("GET", `${base}/${committed.id}`, { key: c.key });
    expect(fetched.body[keys.revision]).toEqual(committed);
    const retrieved = await c.t.call("POST", `${base}/retrieve`, {
      key: c.key,
      body: { [keys.revisionRef]: { id: committed.id } },
    });
    expect(retrieved.body[keys.revision]).toEqual(asRetrieved(domain, committed));
  });

  it("accepts the compat API's <domain>_revision wrapper, and the artifact id for its default variant", async () => {
    const { artifact, variant } = await createArtifact(c, domain);
    const alias = await c.t.call("POST", `${base}/commit`, {
      key: c.key,
      body: { [keys.revision]: { [keys.variantId]: variant.id, data: dataFor(domain, "alias") } },
    });
    expectStatus(alias, 200);
    expect(alias.body[keys.revision]).toMatchObject({ version: "1", [keys.variantId]: variant.id });
    expect(alias.body[keys.revision].message).toBeUndefined();

    const byArtifact = await c.t.call("POST", `${base}/commit`, {
      key: c.key,
      body: { [keys.commit]: { [keys.artifactId]: artifact.id, data: dataFor(domain, "art") } },
    });
    expectStatus(byArtifact, 200);
    expect(byArtifact.body[keys.revision]).toMatchObject({ version: "2", [keys.variantId]: variant.id });

    // Both given: they must agree.
    const both = await c.t.call("POST", `${base}/commit`, {
      key: c.key,
      body: {
        [keys.commit]: { [keys.artifactId]: artifact.id, [keys.variantId]: variant.id, data: dataFor(domain, "both") },
      },
    });
    expectStatus(both, 200);
    const other = await createArtifact(c, domain);
    const contradicting = await c.t.call("POST", `${base}/commit`, {
      key: c.key,
      body: {
        [keys.commit]: {
          [keys.artifactId]: other.artifact.id,
          [keys.variantId]: variant.id,
          data: dataFor(domain, "no"),
        },
      },
    });
    expectStatus(contradicting, 400);
    expect(contradicting.body.detail.startsWith(`${keys.artifactId} `)).toBe(true);
  });

  it("rejects malformed commit bodies with 422 and missing or foreign variants with 404", async () => {
    const { variant } = await createArtifact(c, domain);
    const data = dataFor(domain, 0);
    const both = {
      [keys.commit]: { [keys.variantId]: variant.id, data },
      [keys.revision]: { [keys.variantId]: variant.id, data },
    };
    for (const body of [
      {},
      both,
      { [keys.commit]: { data } },
      { [keys.commit]: { [keys.variantId]: "nope", data } },
      { [keys.commit]: { [keys.variantId]: variant.id, data: [1] } },
    ]) {
      const res = await c.t.call("POST", `${base}/commit`, { key: c.key, body });
      expectStatus(res, 422);
      expect(res.body.code).toBe("validation_error");
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
    const missing = await c.t.call("POST", `${base}/commit`, {
      key: c.key,
      body: { [keys.commit]: { [keys.variantId]: MISSING_ID, data } },
    });
    expectStatus(missing, 404);
    expect(missing.body.detail).toContain(MISSING_ID);
    const other = DOMAIN_NAMES.find((d) => d !== domain)!;
    const foreign = await c.t.call("POST", `/api/${other}/revisions/commit`, {
      key: c.key,
      body: { [domainKeys(other).commit]: { [domainKeys(other).variantId]: variant.id, data: dataFor(other, 0) } },
    });
    expectStatus(foreign, 404);
    const log = await c.t.call("POST", `${base}/log`, {
      key: c.key,
      body: { [keys.one]: { [keys.variantId]: variant.id } },
    });
    expect(log.body.count).toBe(0);
  });

  it("numbers versions 1, 2, 3 per variant, never edits a committed revision, and takes chosen slugs once", async () => {
    const { artifact, variant, revision: v1 } = await createArtifact(c, domain, { data: dataFor(domain, 1) });
    const slug = uniq("rev");
    const v2 = await commit(c, domain, variant.id, dataFor(domain, 2), { slug });
    expect(v2.slug).toBe(slug);
    const v3 = await commit(c, domain, variant.id, dataFor(domain, 3));
    expect([v1!.version, v2.version, v3.version]).toEqual(["1", "2", "3"]);

    const again = await c.t.call("GET", `${base}/${v1!.id}`, { key: c.key });
    expect(again.body).toEqual({ count: 1, [keys.revision]: v1 });

    const taken = await c.t.call("POST", `${base}/commit`, {
      key: c.key,
      body: { [keys.commit]: { [keys.variantId]: variant.id, slug, data: dataFor(domain, 4) } },
    });
    expectStatus(taken, 409);
    const invalid = await c.t.call("POST", `${base}/commit`, {
      key: c.key,
      body: { [keys.commit]: { [keys.variantId]: variant.id, slug: "no spaces", data: dataFor(domain, 4) } },
    });
    expectStatus(invalid, 422);

    // A second variant counts from 1 on its own.
    const side = await c.t.call("POST", `/api/${domain}/variants/`, {
      key: c.key,
      body: { [keys.variant]: { [keys.artifactId]: artifact.id, slug: "side" } },
    });
    const s1 = await commit(c, domain, side.body[keys.variant].id, dataFor(domain, "s"));
    expect(s1.version).toBe("1");
    const v4 = await commit(c, domain, variant.id, dataFor(domain, 4));
    expect(v4.version).toBe("4");
    const head = await c.t.call("GET", `/api/${domain}/variants/${variant.id}`, { key: c.key });
    expect(head.body[keys.variant].version).toBe("4");
  });

  it("logs a variant's history newest first without payloads, in both body shapes", async () => {
    const { artifact, variant, revision: v1 } = await createArtifact(c, domain, { data: dataFor(domain, 1) });
    const v2 = await commit(c, domain, variant.id, dataFor(domain, 2), { message: "two" });
    const v3 = await commit(c, domain, variant.id, dataFor(domain, 3));
    const ids = (res: { body: Record<string, any> }) => res.body[keys.revisions].map((r: { id: string }) => r.id);

    const log = await c.t.call("POST", `${base}/log`, {
      key: c.key,
      body: { [keys.one]: { [keys.variantId]: variant.id } },
    });
    expectStatus(log, 200);
    expect(log.body.count).toBe(3);
    expect(ids(log)).toEqual([v3.id, v2.id, v1!.id]);
    const { data: _data, ...metadata } = v2;
    expect(log.body[keys.revisions][1]).toEqual(metadata);

    const alias = await c.t.call("POST", `${base}/log`, {
      key: c.key,
      body: { [keys.revisions]: { [keys.variantId]: variant.id, depth: 2 } },
    });
    expectStatus(alias, 200);
    expect(ids(alias)).toEqual([v3.id, v2.id]);
    const byArtifact = await c.t.call("POST", `${base}/log`, {
      key: c.key,
      body: { [keys.revisions]: { [keys.artifactId]: artifact.id } },
    });
    expect(ids(byArtifact)).toEqual([v3.id, v2.id, v1!.id]);
    const upTo = await c.t.call("POST", `${base}/log`, {
      key: c.key,
      body: { [keys.revisions]: { [keys.revisionId]: v2.id, depth: 10 } },
    });
    expect(ids(upTo)).toEqual([v2.id, v1!.id]);
    const topDepth = await c.t.call("POST", `${base}/log`, {
      key: c.key,
      body: { [keys.one]: { [keys.variantId]: variant.id }, depth: 1 },
    });
    expect(ids(topDepth)).toEqual([v3.id]);

    const none = await c.t.call("POST", `${base}/log`, { key: c.key, body: {} });
    expectStatus(none, 400);
    expect(none.body.detail).toContain(keys.variantId);
    // A history of nothing is empty, as the compat API answers it, and says what was not found.
    const missing = await c.t.call("POST", `${base}/log`, {
      key: c.key,
      body: { [keys.one]: { [keys.variantId]: MISSING_ID } },
    });
    expectStatus(missing, 200);
    expect(missing.body).toEqual({ count: 0, [keys.revisions]: [], detail: expect.stringContaining(MISSING_ID) });
    // A depth of 0 asks for no revisions: the compat API's empty list, not a refusal.
    const zero = await c.t.call("POST", `${base}/log`, {
      key: c.key,
      body: { [keys.revisions]: { [keys.variantId]: variant.id, depth: 0 } },
    });
    expectStatus(zero, 200);
    expect(zero.body.count).toBe(0);
    expectStatus(
      await c.t.call("POST", `${base}/log`, {
        key: c.key,
        body: { [keys.revisions]: { [keys.variantId]: variant.id, depth: -1 } },
      }),
      422,
    );
  });

  it("fetches a revision by id, and archives and unarchives it", async () => {
    const { revision } = await createArtifact(c, domain, { data: dataFor(domain, 1) });
    const got = await c.t.call("GET", `${base}/${revision!.id}`, { key: c.key });
    expectStatus(got, 200);
    expect(got.body).toEqual({ count: 1, [keys.revision]: revision });
    expect((await c.t.call("GET", `${base}/${MISSING_ID}`, { key: c.key })).body).toMatchObject({ count: 0 });
    expectStatus(await c.t.call("GET", `${base}/xyz`, { key: c.key }), 400);

    const archived = await c.t.call("POST", `${base}/${revision!.id}/archive`, { key: c.key });
    expectStatus(archived, 200);
    expect(archived.body).toEqual({
      count: 1,
      [keys.revision]: { ...revision, deleted_at: expect.stringMatching(ISO_MS) },
    });
    const stillThere = await c.t.call("GET", `${base}/${revision!.id}`, { key: c.key });
    expect(stillThere.body[keys.revision].deleted_at).toBe(archived.body[keys.revision].deleted_at);
    const restored = await c.t.call("POST", `${base}/${revision!.id}/unarchive`, { key: c.key });
    expect(restored.body).toEqual({ count: 1, [keys.revision]: revision });
    expectStatus(await c.t.call("POST", `${base}/${MISSING_ID}/archive`, { key: c.key }), 404);
  });

  it("refuses commits to an archived variant or artifact (409) until unarchived", async () => {
    const { artifact, variant } = await createArtifact(c, domain, { data: dataFor(domain, 1) });
    const body = { [keys.commit]: { [keys.variantId]: variant.id, data: dataFor(domain, 2) } };
    await c.t.call("POST", `/api/${domain}/variants/${variant.id}/archive`, { key: c.key });
    const onVariant = await c.t.call("POST", `${base}/commit`, { key: c.key, body });
    expectStatus(onVariant, 409);
    expect(onVariant.body.code).toBe("archived");
    await c.t.call("POST", `/api/${domain}/variants/${variant.id}/unarchive`, { key: c.key });
    await c.t.call("POST", `/api/${domain}/${artifact.id}/archive`, { key: c.key });
    expectStatus(await c.t.call("POST", `${base}/commit`, { key: c.key, body }), 409);
    await c.t.call("POST", `/api/${domain}/${artifact.id}/unarchive`, { key: c.key });
    const ok = await c.t.call("POST", `${base}/commit`, { key: c.key, body });
    expectStatus(ok, 200);
    expect(ok.body[keys.revision].version).toBe("2");
  });
});
