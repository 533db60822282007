import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("GET /api/profile (the reference's /profile)", () => {
  it("answers the key's user, project and role; without a key it is 401", async () => {
    const { key, projectId, userId } = await t.newProject();
    const res = await t.call("GET", "/api/profile", { key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: userId, uid: userId, project_id: projectId });
    expect(res.body.email).toContain("@");
    expect(res.body.username.length).toBeGreaterThan(0);
    expect(Date.parse(res.body.created_at)).not.toBeNaN();
    const other = await t.newProject();
    expect((await t.call("GET", "/api/profile", { key: other.key })).body.project_id).toBe(other.projectId);
    expect((await t.call("GET", "/api/profile", {})).status).toBe(401);
  });
});
