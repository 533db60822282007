import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/auth";
import { projectMembers } from "@/server/db/schema";
import {
  ISO_MS,
  MISSING_ID,
  UUID,
  dataFor,
  markerOf,
  domainKeys,
  expectStatus,
  setup,
  uniq,
  type Ctx,
  type DomainName,
} from "./helpers";

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

const SIMPLE_DOMAINS = [
  "applications",
  "workflows",
  "evaluators",
  "testsets",
  "queries",
] as const satisfies readonly DomainName[];

describe.each(SIMPLE_DOMAINS)("/api/simple/%s", (domain) => {
  const keys = domainKeys(domain);
  const base = `/api/simple/${domain}`;
  const call = (method: string, path: string, body?: unknown) =>
    c.t.call(method, `${base}${path}`, { key: c.key, body });

  it("creates the artifact, its default variant and revision 1 in one call, and reads them as one entity", async () => {
    const slug = uniq("s");
    const data = dataFor(domain, 1);
    const res = await call("POST", "/", {
      [keys.one]: { slug, name: "Simple one", tags: { t: 1 }, flags: { is_custom: true }, data },
    });
    expectStatus(res, 200);
    const entity = res.body[keys.one];
    expect(entity).toEqual({
      id: expect.stringMatching(UUID),
      slug,
      name: "Simple one",
      flags: { is_custom: true, ...keys.roleFlags },
      tags: { t: 1 },
      meta: {},
      data: expect.objectContaining(dataFor(domain, 1)),
      variant_id: expect.stringMatching(UUID),
      revision_id: expect.stringMatching(UUID),
      version: "1",
      created_at: expect.stringMatching(ISO_MS),
      created_by_id: c.userId,
    });
    expect(await call("GET", `/${entity.id}`).then((r) => r.body)).toEqual({ count: 1, [keys.one]: entity });

    // The same rows through the full API.
    const variant = await c.t.call("GET", `/api/${domain}/variants/${entity.variant_id}`, { key: c.key });
    expect(variant.body[keys.variant]).toMatchObject({ slug: "default", [keys.artifactId]: entity.id, version: "1" });
    const revision = await c.t.call("GET", `/api/${domain}/revisions/${entity.revision_id}`, { key: c.key });
    expect(revision.body[keys.revision].data).toEqual(entity.data);

    // Without data the entity still has a (empty) revision 1.
    const empty = await call("POST", "/", { [keys.one]: { name: uniq("empty") } });
    expectStatus(empty, 200);
    expect(empty.body[keys.one]).toMatchObject({ version: "1", revision_id: expect.stringMatching(UUID) });

    expectStatus(await call("POST", "/", { [keys.one]: { slug, data } }), 409);
    expectStatus(await call("POST", "/", { [keys.one]: { slug: uniq("s"), colour: "red" } }), 422);
    expect((await call("GET", `/${MISSING_ID}`)).body).toEqual({
      count: 0,
      detail: expect.stringContaining(MISSING_ID),
    });
  });

  it("an edit commits a revision: with new data, or the latest data when only the header changes", async () => {
    const created = (await call("POST", "/", { [keys.one]: { name: uniq("edit"), data: dataFor(domain, 1) } })).body[
      keys.one
    ];
    const withData = await call("PUT", `/${created.id}`, {
      [keys.one]: { id: created.id, data: dataFor(domain, 2), message: "second" },
    });
    expectStatus(withData, 200);
    expect(withData.body[keys.one]).toMatchObject({
      version: "2",
      data: expect.objectContaining(dataFor(domain, 2)),
      name: created.name,
    });

    const headerOnly = await call("PUT", `/${created.id}`, {
      [keys.one]: { description: "now described", tags: { x: 1 } },
    });
    expectStatus(headerOnly, 200);
    expect(headerOnly.body[keys.one]).toMatchObject({
      version: "3",
      description: "now described",
      tags: { x: 1 },
      data: withData.body[keys.one].data,
    });

    const log = await c.t.call("POST", `/api/${domain}/revisions/log`, {
      key: c.key,
      body: { [keys.revisions]: { [keys.artifactId]: created.id } },
    });
    expect(log.body[keys.revisions].map((r: { version: string; message?: string }) => [r.version, r.message])).toEqual([
      ["3", "Edit"],
      ["2", "second"],
      ["1", "Initial commit"],
    ]);

    expectStatus(await call("PUT", `/${created.id}`, { [keys.one]: { id: MISSING_ID, name: "x" } }), 400);
    // Nothing to change: the current state, and no commit (the compat API's answer).
    const unchanged = await call("PUT", `/${created.id}`, { [keys.one]: {} });
    expectStatus(unchanged, 200);
    expect(unchanged.body[keys.one]).toMatchObject({ version: "3" });
    // Slugs never change: another one is a 400, never a rename (compat-gaps.test.ts has the repeat).
    expectStatus(await call("PUT", `/${created.id}`, { [keys.one]: { slug: "renamed" } }), 400);
    expectStatus(await call("PUT", `/${MISSING_ID}`, { [keys.one]: { name: "x" } }), 404);
  });

  it("queries with the latest data, archives and unarchives in one call each", async () => {
    const marker = uniq("q");
    const a = (
      await call("POST", "/", {
        [keys.one]: { name: `${marker} a`, tags: { group: marker }, data: dataFor(domain, "a") },
      })
    ).body[keys.one];
    const b = (
      await call("POST", "/", {
        [keys.one]: { name: `${marker} b`, tags: { group: marker }, data: dataFor(domain, "b") },
      })
    ).body[keys.one];
    const query = async (body: Record<string, unknown>) => {
      const res = await call("POST", "/query", body);
      expectStatus(res, 200);
      return res.body[domain] as { id: string; data: Record<string, unknown> }[];
    };
    const found = await query({ [keys.one]: { tags: { group: marker } } });
    expect(found.map((e) => [e.id, markerOf(e.data)]).sort()).toEqual(
      [
        [a.id, "a"],
        [b.id, "b"],
      ].sort(),
    );
    expect(await query({ [keys.one]: { tags: { group: "none" } } })).toEqual([]);
    expect((await query({ [keys.refs]: [{ slug: b.slug }] })).map((e) => e.id)).toEqual([b.id]);

    const archived = await call("POST", `/${a.id}/archive`);
    expectStatus(archived, 200);
    expect(archived.body[keys.one]).toMatchObject({
      id: a.id,
      deleted_at: expect.stringMatching(ISO_MS),
      data: a.data,
    });
    expect((await query({ [keys.one]: { tags: { group: marker } } })).map((e) => e.id)).toEqual([b.id]);
    expect(await query({ [keys.one]: { tags: { group: marker } }, include_archived: true })).toHaveLength(2);
    const restored = await call("POST", `/${a.id}/unarchive`);
    expect(restored.body[keys.one].deleted_at).toBeUndefined();
    expect(await query({ [keys.one]: { tags: { group: marker } } })).toHaveLength(2);
  });
});

describe("roles on the simple and reference routes", () => {
  it("a viewer can query, read and resolve, but not create, edit, archive or commit", async () => {
    const outsider = await c.t.newProject("viewer");
    await c.t.context.db
      .insert(projectMembers)
      .values({ projectId: c.projectId, userId: outsider.userId, role: "viewer" });
    const { secret: viewerKey } = await createApiKey(c.t.context.db, {
      projectId: c.projectId,
      userId: outsider.userId,
    });
    const as = (method: string, path: string, body?: unknown) => c.t.call(method, path, { key: viewerKey, body });

    const entity = (
      await c.t.call("POST", "/api/simple/applications/", {
        key: c.key,
        body: { application: { name: uniq("r"), data: {} } },
      })
    ).body.application;
    expectStatus(await as("POST", "/api/simple/applications/query", {}), 200);
    expectStatus(await as("GET", `/api/simple/applications/${entity.id}`), 200);
    expectStatus(await as("POST", "/api/applications/revisions/resolve", { application_revision: { data: {} } }), 200);
    for (const [method, path, body] of [
      ["POST", "/api/simple/applications/", { application: { name: "x" } }],
      ["PUT", `/api/simple/applications/${entity.id}`, { application: { name: "x" } }],
      ["POST", `/api/simple/applications/${entity.id}/archive`, undefined],
      ["PUT", `/api/applications/variants/${entity.variant_id}`, { application_variant: { name: "x" } }],
      ["PUT", `/api/applications/revisions/${entity.revision_id}`, { application_revision: { name: "x" } }],
      ["POST", "/api/applications/revisions/", { application_revision: { application_variant_id: entity.variant_id } }],
    ] as const) {
      expectStatus(await as(method, path, body), 403);
    }
  });
});
