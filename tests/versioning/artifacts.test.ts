import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DOMAIN_NAMES,
  ISO_MS,
  MISSING_ID,
  UUID,
  createArtifact,
  dataFor,
  markerOf,
  domainKeys,
  expectStatus,
  lastEvent,
  setup,
  uniq,
  type Ctx,
} from "./helpers";

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

describe.each(DOMAIN_NAMES)("artifacts of %s", (domain) => {
  const keys = domainKeys(domain);
  const base = `/api/${domain}`;

  it("creates an artifact without a variant when the request carries no data, slug derived from the name", async () => {
    const name = `Support Bot ${uniq()}`;
    const res = await c.t.call("POST", `${base}/`, {
      key: c.key,
      body: { [keys.one]: { name, description: "d", tags: { team: "a" } } },
    });
    expectStatus(res, 200);
    expect(Object.keys(res.body).sort()).toEqual(["count", keys.one].sort());
    const artifact = res.body[keys.one];
    expect(artifact).toEqual({
      id: expect.stringMatching(UUID),
      slug: name.toLowerCase().replace(/ /g, "-"),
      name,
      description: "d",
      flags: keys.roleFlags,
      tags: { team: "a" },
      meta: {},
      created_at: expect.stringMatching(ISO_MS),
      created_by_id: c.userId,
    });
    const variants = await c.t.call("POST", `${base}/variants/query`, {
      key: c.key,
      body: { [keys.refs]: [{ id: artifact.id }] },
    });
    expect(variants.body.count).toBe(0);
  });

  it("takes the client's own variant named default, and the oldest variant is the default one", async () => {
    const { artifact } = await createArtifact(c, domain);
    const second = await c.t.call("POST", `${base}/variants/`, {
      key: c.key,
      body: { [keys.variant]: { [keys.artifactId]: artifact.id, slug: "second" } },
    });
    expectStatus(second, 200);
    const variants = await c.t.call("POST", `${base}/variants/query`, {
      key: c.key,
      body: { [keys.refs]: [{ id: artifact.id }] },
    });
    const first = variants.body[keys.variants].find((v: { slug: string }) => v.slug === "default");
    const commitTo = (variantId: string, marker: string) =>
      c.t.call("POST", `${base}/revisions/commit`, {
        key: c.key,
        body: { [keys.commit]: { [keys.variantId]: variantId, data: dataFor(domain, marker) } },
      });
    expectStatus(await commitTo(second.body[keys.variant].id, "on second"), 200);
    // The oldest variant has no revision yet: the artifact names nothing to retrieve (the compat
    // API's `{count: 0}`, with what was missing).
    const nothing = await c.t.call("POST", `${base}/revisions/retrieve`, {
      key: c.key,
      body: { [keys.ref]: { id: artifact.id } },
    });
    expectStatus(nothing, 200);
    expect(nothing.body).toEqual({ count: 0, detail: expect.stringContaining("has no revisions yet") });
    expectStatus(await commitTo(first.id, "on first"), 200);
    for (const ref of [{ id: artifact.id }, { slug: artifact.slug }]) {
      const res = await c.t.call("POST", `${base}/revisions/retrieve`, { key: c.key, body: { [keys.ref]: ref } });
      expectStatus(res, 200);
      expect(markerOf(res.body[keys.revision].data)).toBe("on first");
      expect(res.body[keys.revision][keys.variantSlug]).toBe("default");
    }
  });

  it("commits revision 1 when the create request carries data", async () => {
    const data = dataFor(domain, "v1");
    const res = await c.t.call("POST", `${base}/`, { key: c.key, body: { [keys.one]: { slug: uniq("s"), data } } });
    expectStatus(res, 200);
    const revision = res.body[keys.revision];
    expect(revision.version).toBe("1");
    expect(revision.message).toBe("Initial commit");
    expect(markerOf(revision.data)).toBe("v1");
    expect(revision[keys.variantId]).toBe(res.body[keys.variant].id);
    expect(res.body[keys.variant].version).toBe("1");
    // The artifact's name defaults to its slug.
    expect(res.body[keys.one].name).toBe(res.body[keys.one].slug);
    const event = await lastEvent(c, `${domain}.revisions.committed`);
    expect(event.attributes.references[keys.revision].id).toBe(revision.id);
  });

  it("suffixes a derived slug that is taken, rejects a taken explicit slug (409) and an invalid one (422)", async () => {
    const name = `Dup ${uniq()}`;
    const a = await createArtifact(c, domain, { name });
    const b = await createArtifact(c, domain, { name });
    expect(b.artifact.slug).toBe(`${a.artifact.slug}-2`);

    const taken = await c.t.call("POST", `${base}/`, { key: c.key, body: { [keys.one]: { slug: a.artifact.slug } } });
    expectStatus(taken, 409);
    expect(taken.body.code).toBe("slug_taken");
    // The compat API's creation conflict: detail {message, conflict: {slug}}.
    expect(taken.body.detail.message).toContain(a.artifact.slug);
    expect(taken.body.detail.conflict).toEqual({ slug: a.artifact.slug });

    for (const slug of ["has space", "dot.ted", "-lead", "x".repeat(129)]) {
      const bad = await c.t.call("POST", `${base}/`, { key: c.key, body: { [keys.one]: { slug } } });
      expectStatus(bad, 422);
      expect(bad.body.errors[0].path).toBe(`${keys.one}.slug`);
    }
    const nameless = await c.t.call("POST", `${base}/`, { key: c.key, body: { [keys.one]: {} } });
    expectStatus(nameless, 422);
    const unknown = await c.t.call("POST", `${base}/`, {
      key: c.key,
      body: { [keys.one]: { name: "n", colour: "red" } },
    });
    expectStatus(unknown, 422);
  });

  it("fetches by id; {count: 0} for a missing id or another domain's id; 400 for a malformed id", async () => {
    const { artifact } = await createArtifact(c, domain);
    const got = await c.t.call("GET", `${base}/${artifact.id}`, { key: c.key });
    expectStatus(got, 200);
    expect(got.body).toEqual({ count: 1, [keys.one]: artifact });

    expect((await c.t.call("GET", `${base}/${MISSING_ID}`, { key: c.key })).body).toMatchObject({ count: 0 });
    const other = DOMAIN_NAMES.find((d) => d !== domain)!;
    expect((await c.t.call("GET", `/api/${other}/${artifact.id}`, { key: c.key })).body).toMatchObject({ count: 0 });
    const bad = await c.t.call("GET", `${base}/not-a-uuid`, { key: c.key });
    expectStatus(bad, 400);
    expect(bad.body.code).toBe("invalid_path_parameter");
  });

  it("edits name, description, tags and meta with PUT, and nothing else", async () => {
    const { artifact } = await createArtifact(c, domain);
    const res = await c.t.call("PUT", `${base}/${artifact.id}`, {
      key: c.key,
      body: { [keys.one]: { name: "Renamed", description: null, tags: { a: 1 }, meta: { m: true } } },
    });
    expectStatus(res, 200);
    expect(res.body[keys.one]).toEqual({
      ...artifact,
      name: "Renamed",
      tags: { a: 1 },
      meta: { m: true },
      updated_at: expect.stringMatching(ISO_MS),
      updated_by_id: c.userId,
    });
    // A slug never changes: another one is refused (400), the current one is taken as a repeat.
    const slugChange = await c.t.call("PUT", `${base}/${artifact.id}`, {
      key: c.key,
      body: { [keys.one]: { slug: "new-slug" } },
    });
    expectStatus(slugChange, 400);
    expect(slugChange.body.code).toBe("slug_immutable");
    const empty = await c.t.call("PUT", `${base}/${artifact.id}`, { key: c.key, body: { [keys.one]: {} } });
    expectStatus(empty, 400);
    expect(empty.body.code).toBe("empty_update");
    expectStatus(
      await c.t.call("PUT", `${base}/${MISSING_ID}`, { key: c.key, body: { [keys.one]: { name: "x" } } }),
      404,
    );
  });

  it("queries by slug, slugs, ids, name substring, tags containment and refs", async () => {
    const run = uniq("run");
    const alpha = await createArtifact(c, domain, {
      name: `Alpha ${run}`,
      tags: { run, kind: "a", extra: { deep: 1 } },
    });
    const beta = await createArtifact(c, domain, { name: `Beta ${run}`, tags: { run, kind: "b" } });
    const gamma = await createArtifact(c, domain, { name: `Gamma ${run}`, tags: { run, kind: "a" } });
    const q = async (body: Record<string, unknown>) => {
      const res = await c.t.call("POST", `${base}/query`, { key: c.key, body });
      expectStatus(res, 200);
      expect(res.body.count).toBe(res.body[domain].length);
      return (res.body[domain] as { slug: string }[]).map((a) => a.slug).sort();
    };
    const slugs = (...xs: { artifact: { slug: string } }[]) => xs.map((x) => x.artifact.slug).sort();

    expect(await q({ [keys.one]: { tags: { run } } })).toEqual(slugs(alpha, beta, gamma));
    expect(await q({ [keys.one]: { tags: { run, kind: "a" } } })).toEqual(slugs(alpha, gamma));
    expect(await q({ [keys.one]: { tags: { run, extra: { deep: 1 } } } })).toEqual(slugs(alpha));
    expect(await q({ [keys.one]: { slug: beta.artifact.slug } })).toEqual(slugs(beta));
    expect(await q({ [keys.one]: { slugs: [alpha.artifact.slug, gamma.artifact.slug] } })).toEqual(slugs(alpha, gamma));
    expect(await q({ [keys.one]: { ids: [beta.artifact.id, gamma.artifact.id] } })).toEqual(slugs(beta, gamma));
    // Case-insensitive substring; LIKE wildcards are taken literally.
    expect(await q({ [keys.one]: { name: `gAMMA ${run}`.toUpperCase() } })).toEqual(slugs(gamma));
    expect(await q({ [keys.one]: { name: `%${run}` } })).toEqual([]);
    expect(await q({ [keys.refs]: [{ slug: alpha.artifact.slug }, { id: beta.artifact.id }] })).toEqual(
      slugs(alpha, beta),
    );
    expect(await q({ [keys.one]: { tags: { run }, slug: "nothing-has-this" } })).toEqual([]);

    const unknownFilter = await c.t.call("POST", `${base}/query`, {
      key: c.key,
      body: { [keys.one]: { colour: "red" } },
    });
    expectStatus(unknownFilter, 422);
  });

  it("archives and unarchives: deleted_at set and cleared, hidden from query unless include_archived", async () => {
    const tag = uniq("arch");
    const { artifact } = await createArtifact(c, domain, { tags: { tag } });
    const archived = await c.t.call("POST", `${base}/${artifact.id}/archive`, { key: c.key });
    expectStatus(archived, 200);
    expect(archived.body).toEqual({ count: 1, [keys.one]: { ...artifact, deleted_at: expect.stringMatching(ISO_MS) } });
    // Archiving again is a no-op that keeps the first timestamp.
    const again = await c.t.call("POST", `${base}/${artifact.id}/archive`, { key: c.key });
    expect(again.body[keys.one].deleted_at).toBe(archived.body[keys.one].deleted_at);

    const hidden = await c.t.call("POST", `${base}/query`, { key: c.key, body: { [keys.one]: { tags: { tag } } } });
    expect(hidden.body).toEqual({ count: 0, [domain]: [] });
    const shown = await c.t.call("POST", `${base}/query`, {
      key: c.key,
      body: { [keys.one]: { tags: { tag } }, include_archived: true },
    });
    expect(shown.body[domain].map((a: { id: string }) => a.id)).toEqual([artifact.id]);
    // Still resolvable by id.
    expect((await c.t.call("GET", `${base}/${artifact.id}`, { key: c.key })).body[keys.one].deleted_at).toBeDefined();

    const restored = await c.t.call("POST", `${base}/${artifact.id}/unarchive`, { key: c.key });
    expectStatus(restored, 200);
    expect(restored.body[keys.one]).toEqual(artifact);
    const visible = await c.t.call("POST", `${base}/query`, { key: c.key, body: { [keys.one]: { tags: { tag } } } });
    expect(visible.body.count).toBe(1);

    expectStatus(await c.t.call("POST", `${base}/${MISSING_ID}/archive`, { key: c.key }), 404);
    expectStatus(await c.t.call("POST", `${base}/nope/unarchive`, { key: c.key }), 400);
  });
});

describe("environments of a new project", () => {
  it("starts with development, staging and production, each with one variant and no revision", async () => {
    const fresh = await c.t.newProject("envs");
    const res = await c.t.call("POST", "/api/environments/query", { key: fresh.key, body: {} });
    expectStatus(res, 200);
    expect(res.body.environments.map((e: { slug: string }) => e.slug).sort()).toEqual([
      "development",
      "production",
      "staging",
    ]);
    const variants = await c.t.call("POST", "/api/environments/variants/query", { key: fresh.key, body: {} });
    expect(variants.body.count).toBe(3);
    for (const v of variants.body.environment_variants) {
      expect(v.slug).toBe("default");
      expect(v.version).toBeUndefined();
    }
    const revisions = await c.t.call("POST", "/api/environments/revisions/query", { key: fresh.key, body: {} });
    expect(revisions.body).toEqual({ count: 0, environment_revisions: [] });
  });
});
