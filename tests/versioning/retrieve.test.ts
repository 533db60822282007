import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DOMAIN_NAMES,
  MISSING_ID,
  commit,
  createArtifact,
  dataFor,
  domainKeys,
  expectStatus,
  refsOfRevision,
  retrieve,
  setup,
  uniq,
  type Created,
  type Ctx,
} from "./helpers";

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

type Rev = { id: string; slug: string; version: string; data: Record<string, unknown>; [k: string]: unknown };

describe.each(DOMAIN_NAMES)("retrieve in %s", (domain) => {
  const keys = domainKeys(domain);
  let a: Created;
  let b: Created;
  let v1: Rev;
  let v2: Rev;
  let s1: Rev;
  let sideId: string;

  beforeAll(async () => {
    a = await createArtifact(c, domain, { slug: uniq("a"), data: dataFor(domain, "a1") });
    v1 = a.revision as Rev;
    v2 = await commit(c, domain, a.variant.id, dataFor(domain, "a2"), { slug: uniq("a2") });
    const side = await c.t.call("POST", `/api/${domain}/variants/`, {
      key: c.key,
      body: { [keys.variant]: { [keys.artifactId]: a.artifact.id, slug: "side" } },
    });
    sideId = side.body[keys.variant].id;
    s1 = await commit(c, domain, sideId, dataFor(domain, "s1"));
    b = await createArtifact(c, domain, { slug: uniq("b"), data: dataFor(domain, "b1") });
  });

  // A testset retrieve lists the rows' ids beside the rows (the compat API's include_testcase_ids default).
  const retrieved = (revision: Rev): Rev =>
    domain === "testsets"
      ? {
          ...revision,
          data: { ...revision.data, testcase_ids: (revision.data.testcases as { id: string }[]).map((r) => r.id) },
        }
      : revision;
  const ok = async (body: Record<string, unknown>, expected: () => Rev) => {
    const res = await retrieve(c, domain, body);
    expectStatus(res, 200);
    expect(res.body).toEqual({
      count: 1,
      [keys.revision]: retrieved(expected()),
      retrieval_info: { references: refsOfRevision(domain, expected()) },
    });
  };
  const fails = async (body: Record<string, unknown>, status: number, detail?: string | RegExp) => {
    const res = await retrieve(c, domain, body);
    expectStatus(res, status);
    if (detail) expect(res.body.detail).toMatch(detail);
    return res.body;
  };

  /** A reference to nothing: `200 {count: 0}` (the compat API's answer) and the reason as `detail`. */
  const misses = async (body: Record<string, unknown>, detail?: string | RegExp) => {
    const res = await retrieve(c, domain, body);
    expectStatus(res, 200);
    expect(Object.keys(res.body).sort()).toEqual(["count", "detail"]);
    expect(res.body.count).toBe(0);
    if (detail) expect(res.body.detail).toMatch(detail);
  };

  it("1: a revision reference by id or by slug", async () => {
    await ok({ [keys.revisionRef]: { id: v1.id } }, () => v1);
    await ok({ [keys.revisionRef]: { slug: v2.slug } }, () => v2);
    await ok({ [keys.revisionRef]: { id: s1.id, slug: s1.slug, version: "1" } }, () => s1);
  });

  it("2: a variant reference plus a version", async () => {
    await ok({ [keys.variantRef]: { id: a.variant.id }, [keys.revisionRef]: { version: "1" } }, () => v1);
    await ok({ [keys.variantRef]: { id: a.variant.id, version: "1" } }, () => v1);
    await ok({ [keys.variantRef]: { id: a.variant.id }, [keys.revisionRef]: { version: 2 } }, () => v2);
    await ok(
      {
        [keys.ref]: { slug: a.artifact.slug },
        [keys.variantRef]: { slug: "side" },
        [keys.revisionRef]: { version: "1" },
      },
      () => s1,
    );
    // An artifact gives a version its context too (its default variant).
    await ok({ [keys.ref]: { id: a.artifact.id }, [keys.revisionRef]: { version: "1" } }, () => v1);
  });

  it("3: a variant reference alone is that variant's latest revision", async () => {
    await ok({ [keys.variantRef]: { id: a.variant.id } }, () => v2);
    await ok({ [keys.variantRef]: { id: sideId } }, () => s1);
    await ok({ [keys.ref]: { slug: a.artifact.slug }, [keys.variantRef]: { slug: "default" } }, () => v2);
  });

  it("4: an artifact reference alone is the latest revision of its default variant", async () => {
    await ok({ [keys.ref]: { slug: a.artifact.slug } }, () => v2);
    await ok({ [keys.ref]: { id: a.artifact.id } }, () => v2);
    await ok({ [keys.ref]: { id: b.artifact.id, slug: b.artifact.slug } }, () => b.revision as Rev);
  });

  it("POST /revisions/resolve and resolve: true answer like retrieve, with the embeds used (none here)", async () => {
    const expected = {
      count: 1,
      [keys.revision]: retrieved(v2),
      retrieval_info: { references: refsOfRevision(domain, v2) },
      resolution_info: { embeds: [], embeds_resolved: 0, references_used: [], depth_reached: 0, errors: [] },
    };
    const resolved = await c.t.call("POST", `/api/${domain}/revisions/resolve`, {
      key: c.key,
      body: { [keys.ref]: { slug: a.artifact.slug } },
    });
    expectStatus(resolved, 200);
    expect(resolved.body).toEqual(expected);
    const flagged = await retrieve(c, domain, { [keys.ref]: { slug: a.artifact.slug }, resolve: true });
    expect(flagged.body).toEqual(expected);
    const missing = await c.t.call("POST", `/api/${domain}/revisions/resolve`, {
      key: c.key,
      body: { [keys.revisionRef]: { id: MISSING_ID } },
    });
    expectStatus(missing, 404);
    expectStatus(
      await c.t.call("POST", `/api/${domain}/revisions/resolve`, { key: c.key, body: { resolve: true } }),
      422,
    );
  });

  it("null reference fields count as absent", async () => {
    await ok(
      {
        [keys.ref]: { id: null, slug: a.artifact.slug },
        [keys.variantRef]: null,
        [keys.revisionRef]: { id: null, slug: null, version: null },
      },
      () => v2,
    );
  });

  it("400 when a version has no variant or artifact to count in", async () => {
    const onRevision = await fails({ [keys.revisionRef]: { version: "1" } }, 400, `${keys.revisionRef}.version`);
    expect(onRevision.code).toBe("version_without_context");
    const onVariant = await fails({ [keys.variantRef]: { version: "1" } }, 400, `${keys.variantRef}.version`);
    expect(onVariant.code).toBe("version_without_context");
  });

  it("400 naming the field when a redundant reference contradicts the resolved revision", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ [keys.revisionRef]: { id: v1.id }, [keys.ref]: { slug: b.artifact.slug } }, `${keys.ref}.slug`],
      [{ [keys.revisionRef]: { id: v1.id }, [keys.ref]: { id: b.artifact.id } }, `${keys.ref}.id`],
      [{ [keys.revisionRef]: { id: v1.id }, [keys.variantRef]: { id: sideId } }, `${keys.variantRef}.id`],
      [{ [keys.revisionRef]: { id: v1.id }, [keys.variantRef]: { slug: "side" } }, `${keys.variantRef}.slug`],
      [{ [keys.revisionRef]: { id: v1.id, version: "2" } }, `${keys.revisionRef}.version`],
      [{ [keys.revisionRef]: { id: v1.id, slug: v2.slug } }, `${keys.revisionRef}.slug`],
      [{ [keys.revisionRef]: { slug: v2.slug }, [keys.variantRef]: { version: "1" } }, `${keys.variantRef}.version`],
      [{ [keys.variantRef]: { id: a.variant.id }, [keys.ref]: { id: b.artifact.id } }, `${keys.ref}.id`],
      [{ [keys.variantRef]: { id: a.variant.id }, [keys.ref]: { slug: b.artifact.slug } }, `${keys.ref}.slug`],
      [{ [keys.ref]: { id: a.artifact.id, slug: b.artifact.slug } }, `${keys.ref}.slug`],
      [{ [keys.variantRef]: { id: sideId, slug: "default" } }, `${keys.variantRef}.slug`],
    ];
    for (const [body, field] of cases) {
      const error = await fails(body, 400);
      expect(error.code, JSON.stringify(body)).toBe("reference_mismatch");
      expect(error.detail.startsWith(`${field} `), `${error.detail} should name ${field}`).toBe(true);
    }
  });

  it("{count: 0} when a reference names nothing, as the compat API answers it, with what was not found", async () => {
    await misses({ [keys.revisionRef]: { id: MISSING_ID } }, MISSING_ID);
    await misses({ [keys.revisionRef]: { slug: "no-such-revision" } }, "no-such-revision");
    await misses({ [keys.ref]: { slug: "no-such-artifact" } }, "no-such-artifact");
    await misses({ [keys.ref]: { id: MISSING_ID } });
    await misses({ [keys.variantRef]: { id: MISSING_ID } });
    await misses({ [keys.variantRef]: { id: a.variant.id }, [keys.revisionRef]: { version: "99" } }, "99");
    await misses({ [keys.variantRef]: { id: a.variant.id }, [keys.revisionRef]: { version: "9999999999" } });
    await misses({ [keys.ref]: { slug: a.artifact.slug }, [keys.variantRef]: { slug: "no-such-variant" } });
    // Another domain's revision is not one of this domain's.
    const other = DOMAIN_NAMES.find((d) => d !== domain)!;
    const foreign = await createArtifact(c, other, { data: dataFor(other, 0) });
    await misses({ [keys.revisionRef]: { id: foreign.revision!.id } });
    // A variant without revisions has no latest.
    const empty = await createArtifact(c, domain);
    await misses({ [keys.ref]: { id: empty.artifact.id } }, /no revisions/);
  });

  it("400 without any reference, 400 for an ambiguous variant slug, 422 for malformed references", async () => {
    expect((await fails({}, 400)).code).toBe("missing_reference");
    expect((await fails({ [keys.variantRef]: { slug: "default" } }, 400, keys.ref)).code).toBe("ambiguous_reference");
    for (const body of [
      { [keys.revisionRef]: { id: "not-a-uuid" } },
      { [keys.revisionRef]: { version: "v1" } },
      { [keys.variantRef]: { id: a.variant.id }, [keys.revisionRef]: { version: -1 } },
      { [keys.ref]: "slug" },
      { unexpected: true },
    ]) {
      const res = await retrieve(c, domain, body);
      expectStatus(res, 422);
    }
  });
});
