import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DOMAIN_NAMES,
  MISSING_ID,
  commit,
  createArtifact,
  dataFor,
  domainKeys,
  expectStatus,
  setup,
  uniq,
  type Ctx,
} from "./helpers";

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

const header = (marker: string) => ({
  name: `Name ${marker}`,
  description: `About ${marker}`,
  flags: { is_custom: true, is_chat: false },
  tags: { team: marker, tier: 1 },
  meta: { owner: marker, nested: { a: [1, 2] } },
});

describe.each(DOMAIN_NAMES)("the compat API's shape on %s", (domain) => {
  const keys = domainKeys(domain);
  const base = `/api/${domain}`;
  const call = (method: string, path: string, body?: unknown) =>
    c.t.call(method, `${base}${path}`, { key: c.key, body });

  it("a commit stores and returns name, description, flags, tags and meta; an unknown key is 422", async () => {
    const { variant } = await createArtifact(c, domain);
    const marker = uniq("m");
    const res = await call("POST", "/revisions/commit", {
      [keys.revision]: { [keys.variantId]: variant.id, data: dataFor(domain, 1), ...header(marker) },
    });
    expectStatus(res, 200);
    const revision = res.body[keys.revision];
    expect(revision).toMatchObject({ ...header(marker), flags: { ...header(marker).flags, ...keys.roleFlags } });
    const fetched = await call("GET", `/revisions/${revision.id}`);
    expect(fetched.body[keys.revision]).toEqual(revision);
    const logged = await call("POST", "/revisions/log", { [keys.revisions]: { [keys.variantId]: variant.id } });
    expect(logged.body[keys.revisions][0]).toMatchObject({ tags: header(marker).tags, name: header(marker).name });

    for (const extra of [{ labels: {} }, { author: c.userId }, { version: "3" }]) {
      const bad = await call("POST", "/revisions/commit", {
        [keys.revision]: { [keys.variantId]: variant.id, data: dataFor(domain, 2), ...extra },
      });
      expectStatus(bad, 422);
      expect(JSON.stringify(bad.body.errors)).toContain(Object.keys(extra)[0]);
    }
    expectStatus(
      await call("POST", "/revisions/commit", { [keys.revision]: { [keys.variantId]: variant.id }, extra: 1 }),
      422,
    );
    expectStatus(
      await call("POST", "/revisions/commit", {
        [keys.revision]: { [keys.variantId]: variant.id, flags: { is_chat: "yes" } },
      }),
      422,
    );
    // Nothing of the refused commits was stored.
    expect(
      (await call("POST", "/revisions/log", { [keys.revisions]: { [keys.variantId]: variant.id } })).body.count,
    ).toBe(1);
  });

  it("every filter of every query endpoint applies: a match finds the entity, a miss finds nothing", async () => {
    const marker = uniq("f");
    const created = await c.t.call("POST", `${base}/`, {
      key: c.key,
      body: { [keys.one]: { slug: marker, ...header(marker) } },
    });
    expectStatus(created, 200);
    const artifact = created.body[keys.one];
    const variantRes = await call("POST", "/variants/", {
      [keys.variant]: { [keys.artifactId]: artifact.id, slug: `${marker}-v`, ...header(marker) },
    });
    expectStatus(variantRes, 200);
    const variant = variantRes.body[keys.variant];
    const revision = await commit(c, domain, variant.id, dataFor(domain, 1), {
      slug: `${marker}-r`,
      message: `Message ${marker}`,
      ...header(marker),
    });

    const shared = {
      name: [marker.toUpperCase(), "no such name"],
      description: [`about ${marker}`, "no such description"],
      flags: [{ is_custom: true, ...keys.roleFlags }, { is_custom: false }],
      tags: [{ team: marker }, { team: "other" }],
      meta: [{ nested: { a: [2] } }, { owner: "other" }],
    } as Record<string, [unknown, unknown]>;
    const cases: [string, string, string, Record<string, [unknown, unknown]>, Record<string, [unknown, unknown]>][] = [
      [
        "/query",
        keys.one,
        keys.name,
        { ...shared, ids: [[artifact.id], [MISSING_ID]], slug: [marker, "nope"], slugs: [[marker, "x"], ["x"]] },
        {
          [keys.refs]: [[{ id: artifact.id }], [{ id: MISSING_ID }]],
        },
      ],
      [
        "/variants/query",
        keys.variant,
        keys.variants,
        {
          ...shared,
          ids: [[variant.id], [MISSING_ID]],
          slug: [`${marker}-v`, "nope"],
          slugs: [[`${marker}-v`], ["x"]],
          [keys.artifactId]: [artifact.id, MISSING_ID],
        },
        {
          [keys.refs]: [[{ slug: marker }], [{ slug: "nope" }]],
          [keys.variantRefs]: [[{ id: variant.id }], [{ slug: "nope" }]],
        },
      ],
      [
        "/revisions/query",
        keys.revision,
        keys.revisions,
        {
          ...shared,
          ids: [[revision.id], [MISSING_ID]],
          slug: [`${marker}-r`, "nope"],
          slugs: [[`${marker}-r`], ["x"]],
          message: [`message ${marker}`, "no such message"],
          author_ids: [[c.userId], [MISSING_ID]],
          authors: [[c.userId], [MISSING_ID]],
          author: [c.userId, MISSING_ID],
          [keys.artifactId]: [artifact.id, MISSING_ID],
          [keys.variantId]: [variant.id, MISSING_ID],
        },
        {
          [keys.refs]: [[{ id: artifact.id }], [{ slug: "nope" }]],
          [keys.variantRefs]: [[{ slug: `${marker}-v` }], [{ id: MISSING_ID }]],
          [keys.revisionRefs]: [[{ slug: `${marker}-r` }], [{ slug: "nope" }]],
        },
      ],
    ];
    for (const [path, filterKey, listKey, filters, refs] of cases) {
      const ask = async (body: Record<string, unknown>) => {
        const res = await call("POST", path, body);
        expectStatus(res, 200);
        return (res.body[listKey] as { id: string }[]).map((e) => e.id);
      };
      const target = path === "/query" ? artifact.id : path === "/variants/query" ? variant.id : revision.id;
      for (const [field, [hit, miss]] of Object.entries(filters)) {
        expect(
          await ask({ [filterKey]: { [field]: hit }, [keys.refs]: [{ id: artifact.id }] }),
          `${path} ${field} match`,
        ).toContain(target);
        expect(await ask({ [filterKey]: { [field]: miss } }), `${path} ${field} miss`).not.toContain(target);
        expect(
          await ask({ [filterKey]: { [field]: miss }, [keys.refs]: [{ id: artifact.id }] }),
          `${path} ${field} miss`,
        ).toEqual([]);
      }
      for (const [field, [hit, miss]] of Object.entries(refs)) {
        expect(await ask({ [field]: hit }), `${path} ${field} match`).toContain(target);
        expect(
          await ask({ [field]: miss, [keys.refs]: field === keys.refs ? miss : [{ id: artifact.id }] }),
          `${path} ${field} miss`,
        ).toEqual([]);
      }
      expectStatus(await call("POST", path, { [filterKey]: { colour: "red" } }), 422);
    }
  });

  it("PUT takes the id in the body (400 when it is not the path's) and edits variants' and revisions' headers, never data", async () => {
    const { artifact, variant, revision } = await createArtifact(c, domain, { data: dataFor(domain, 1) });
    const marker = uniq("e");
    const edited = await call("PUT", `/${artifact.id}`, { [keys.one]: { id: artifact.id, ...header(marker) } });
    expectStatus(edited, 200);
    expect(edited.body[keys.one]).toMatchObject({
      ...header(marker),
      flags: { ...header(marker).flags, ...keys.roleFlags },
    });
    const mismatch = await call("PUT", `/${artifact.id}`, { [keys.one]: { id: variant.id, name: "x" } });
    expectStatus(mismatch, 400);
    expect(mismatch.body.detail).toContain(`${keys.one}.id`);

    const v = await call("PUT", `/variants/${variant.id}`, { [keys.variant]: { id: variant.id, ...header(marker) } });
    expectStatus(v, 200);
    expect(v.body[keys.variant]).toMatchObject({
      id: variant.id,
      slug: "default",
      ...header(marker),
      flags: { ...header(marker).flags, ...keys.roleFlags },
    });
    expect((await call("GET", `/variants/${variant.id}`)).body[keys.variant]).toEqual(v.body[keys.variant]);
    expectStatus(await call("PUT", `/variants/${variant.id}`, { [keys.variant]: { id: artifact.id, name: "x" } }), 400);
    expectStatus(await call("PUT", `/variants/${variant.id}`, { [keys.variant]: { slug: "renamed" } }), 422);
    expectStatus(await call("PUT", `/variants/${MISSING_ID}`, { [keys.variant]: { name: "x" } }), 404);

    const r = await call("PUT", `/revisions/${revision!.id}`, {
      [keys.revision]: { id: revision!.id, ...header(marker) },
    });
    expectStatus(r, 200);
    expect(r.body[keys.revision]).toMatchObject({
      id: revision!.id,
      version: "1",
      data: revision!.data,
      message: revision!.message,
      ...header(marker),
    });
    expect(r.body[keys.revision].updated_at).toBeDefined();
    expect((await call("GET", `/revisions/${revision!.id}`)).body[keys.revision]).toEqual(r.body[keys.revision]);
    for (const immutable of [{ data: {} }, { message: "x" }, { author: c.userId }, { version: "2" }]) {
      expectStatus(await call("PUT", `/revisions/${revision!.id}`, { [keys.revision]: immutable }), 422);
    }
    expectStatus(
      await call("PUT", `/revisions/${revision!.id}`, { [keys.revision]: { id: MISSING_ID, name: "x" } }),
      400,
    );
    expectStatus(await call("PUT", `/revisions/${revision!.id}`, { [keys.revision]: {} }), 400);
  });

  it("POST /revisions/ creates a variant's first revision and is 409 once it has one", async () => {
    const { artifact, variant } = await createArtifact(c, domain);
    const slug = uniq("first");
    const res = await call("POST", "/revisions/", {
      [keys.revision]: {
        slug,
        [keys.artifactId]: artifact.id,
        [keys.variantId]: variant.id,
        data: dataFor(domain, 0),
        tags: { a: 1 },
      },
    });
    expectStatus(res, 200);
    expect(res.body[keys.revision]).toMatchObject({
      slug,
      version: "1",
      message: "Initial revision",
      tags: { a: 1 },
      [keys.variantId]: variant.id,
    });
    const again = await call("POST", "/revisions/", { [keys.revision]: { [keys.variantId]: variant.id } });
    expectStatus(again, 409);
    expect(again.body.detail).toContain("initial revision already exists");
    // A commit still adds one.
    expect((await commit(c, domain, variant.id, dataFor(domain, 2))).version).toBe("2");
  });
});

describe("role flags of applications and evaluators", () => {
  it("applications carry is_application and evaluators is_evaluator, and their queries filter on them", async () => {
    const app = await createArtifact(c, "applications", { data: dataFor("applications", 1) });
    const ev = await createArtifact(c, "evaluators", { data: dataFor("evaluators", 1), flags: { is_custom: true } });
    expect(app.artifact.flags).toEqual({ is_application: true });
    expect(app.variant.flags).toEqual({ is_application: true });
    expect(app.revision!.flags).toEqual({ is_application: true });
    expect(ev.artifact.flags).toEqual({ is_custom: true, is_evaluator: true });
    // A client cannot turn the role off: it is what the domain is.
    const off = await createArtifact(c, "evaluators", { flags: { is_evaluator: false } });
    expect(off.artifact.flags).toEqual({ is_evaluator: true });

    const ids = async (domain: string, flags: Record<string, boolean>) => {
      const res = await c.t.call("POST", `/api/${domain}/query`, {
        key: c.key,
        body: { [domain.slice(0, -1)]: { flags } },
      });
      expectStatus(res, 200);
      return res.body[domain].map((a: { id: string }) => a.id);
    };
    expect(await ids("applications", { is_application: true })).toContain(app.artifact.id);
    expect(await ids("applications", { is_evaluator: true })).toEqual([]);
    expect(await ids("evaluators", { is_evaluator: true })).toEqual(
      expect.arrayContaining([ev.artifact.id, off.artifact.id]),
    );
    expect(await ids("evaluators", { is_application: true })).toEqual([]);
    const custom = await ids("evaluators", { is_evaluator: true, is_custom: true });
    expect(custom).toContain(ev.artifact.id);
    expect(custom).not.toContain(off.artifact.id);
    expect(await ids("workflows", { is_application: true })).toEqual([]);
  });
});

describe("the compat API's 400 cases", () => {
  it("an environment reference with neither a key nor an artifact reference is 400, before any lookup", async () => {
    const fresh = await c.t.call("POST", "/api/environments/", {
      key: c.key,
      body: { environment: { slug: uniq("env") } },
    });
    for (const environment_ref of [
      { slug: "development" },
      { slug: fresh.body.environment.slug },
      { slug: "no-such-environment" },
    ]) {
      const res = await c.t.call("POST", "/api/applications/revisions/retrieve", {
        key: c.key,
        body: { environment_ref },
      });
      expectStatus(res, 400);
      expect(res.body.code).toBe("missing_key");
    }
  });

  it("POST /testcases/query with no filter at all is 400; an empty id list is a filter", async () => {
    const res = await c.t.call("POST", "/api/testcases/query", { key: c.key, body: {} });
    expectStatus(res, 400);
    expect(res.body.detail).toContain("testcase_ids");
    expectStatus(
      await c.t.call("POST", "/api/testcases/query", { key: c.key, body: { windowing: { limit: 5 } } }),
      400,
    );
    expect((await c.t.call("POST", "/api/testcases/query", { key: c.key, body: { testcase_ids: [] } })).body).toEqual({
      count: 0,
      testcases: [],
    });
  });
});
