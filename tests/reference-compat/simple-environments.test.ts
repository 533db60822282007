import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/auth";
import { projectMembers } from "@/server/db/schema";
import { expectStatus, setup, uniq, type Ctx } from "../versioning/helpers";

// The reference's simple environments router (its acceptance test "simple environments basics"):
// create, fetch, edit, archive, unarchive, guard, unguard and query, each `{count, environment}`.

let c: Ctx;
let memberKey: string;
beforeAll(async () => {
  c = await setup();
  const member = await c.t.newProject("member");
  await c.t.context.db.insert(projectMembers).values({ projectId: c.projectId, userId: member.userId, role: "member" });
  memberKey = (await createApiKey(c.t.context.db, { projectId: c.projectId, userId: member.userId })).secret;
});
afterAll(() => c.t.close());

const call = (method: string, path: string, body?: unknown, key = c.key) =>
  c.t.call(method, `/api/simple/environments${path}`, { key, body });

async function created(fields: Record<string, unknown> = {}) {
  const slug = uniq("env");
  const res = await call("POST", "/", { environment: { slug, name: `Environment ${slug}`, ...fields } });
  expectStatus(res, 200);
  return res.body.environment as { id: string; slug: string; [k: string]: unknown };
}

describe("/api/simple/environments", () => {
  it("creates and fetches an environment with its default variant and first revision", async () => {
    const env = await created({ description: "Test environment" });
    expect(env).toMatchObject({ name: `Environment ${env.slug}`, description: "Test environment", version: "1" });
    expect(env.data).toEqual({ references: {} });
    const fetched = await call("GET", `/${env.id}`);
    expect(fetched.body).toEqual({ count: 1, environment: env });
  });

  it("edits name and description (every edit commits a revision); the slug stays", async () => {
    const env = await created();
    const edited = await call("PUT", `/${env.id}`, {
      environment: { id: env.id, slug: env.slug, name: "Renamed", description: "Updated description" },
    });
    expectStatus(edited, 200);
    expect(edited.body.environment).toMatchObject({
      slug: env.slug,
      name: "Renamed",
      description: "Updated description",
      version: "2",
    });
    const renamed = await call("PUT", `/${env.id}`, { environment: { id: env.id, slug: uniq("other") } });
    expectStatus(renamed, 400);
    expect(renamed.body.detail).toContain(env.slug);
  });

  it("archives and unarchives", async () => {
    const env = await created();
    const archived = await call("POST", `/${env.id}/archive`);
    expect(archived.body).toMatchObject({ count: 1, environment: { deleted_at: expect.any(String) } });
    const back = await call("POST", `/${env.id}/unarchive`);
    expect(back.body.count).toBe(1);
    expect(back.body.environment.deleted_at).toBeUndefined();
  });

  it("queries environments: count is the list's length", async () => {
    const env = await created();
    const res = await call("POST", "/query", {});
    expectStatus(res, 200);
    expect(res.body.count).toBe(res.body.environments.length);
    expect(res.body.environments.map((e: { id: string }) => e.id)).toContain(env.id);
  });

  it("guards and unguards: flags.is_guarded true, then false", async () => {
    const env = await created();
    const guarded = await call("POST", `/${env.id}/guard`);
    expect(guarded.body).toMatchObject({ count: 1, environment: { flags: { is_guarded: true } } });
    const unguarded = await call("POST", `/${env.id}/unguard`);
    expect(unguarded.body).toMatchObject({ count: 1, environment: { flags: { is_guarded: false } } });
  });

  it("a guarded environment takes deploys, commits and guard changes only from an owner", async () => {
    const env = await created();
    const app = await c.t.call("POST", "/api/applications/", {
      key: c.key,
      body: { application: { slug: uniq("app"), data: { parameters: { x: 1 } } } },
    });
    const deploy = (key: string) =>
      c.t.call("POST", "/api/applications/revisions/deploy", {
        key,
        body: { application_ref: { slug: app.body.application.slug }, environment_ref: { slug: env.slug } },
      });
    expectStatus(await deploy(memberKey), 200);
    expectStatus(await call("POST", `/${env.id}/guard`, undefined, memberKey), 403);
    expectStatus(await call("POST", `/${env.id}/guard`), 200);

    const refused = await deploy(memberKey);
    expectStatus(refused, 403);
    expect(refused.body.detail).toContain("guarded");
    expectStatus(
      await c.t.call("PUT", `/api/environments/${env.id}`, {
        key: memberKey,
        body: { environment: { flags: { is_guarded: false } } },
      }),
      403,
    );
    expectStatus(await call("PUT", `/${env.id}`, { environment: { data: { references: {} } } }, memberKey), 403);
    // Nothing the member tried was written: the environment is still at the member's deploy.
    const after = await call("GET", `/${env.id}`);
    expect(after.body.environment).toMatchObject({ version: "2", flags: { is_guarded: true } });
    expectStatus(await deploy(c.key), 200);
  });
});
