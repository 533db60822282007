import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/test-app";

// PGlite is one connection and serialises everything; the guarantee is about real PostgreSQL.
describe.skipIf(!process.env.DATABASE_URL)("vault slugs under concurrency on PostgreSQL", () => {
  let app: TestApp;
  let key: string;
  beforeAll(async () => {
    app = await createTestApp();
    ({ key } = await app.newProject());
  });
  afterAll(() => app.close());

  it("20 concurrent creates of one name store one secret; the others get 409, none a 500", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        app.call("POST", "/api/vault/v1/secrets/", {
          key,
          body: {
            header: { name: "Shared Key" },
            secret: { kind: "provider_key", data: { kind: "openai", provider: { key: `sk-${i}` } } },
          },
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(19).fill(409)]);
    expect(new Set(results.filter((r) => r.status === 409).map((r) => r.body.code))).toEqual(new Set(["slug_taken"]));
    const listed = await app.call("GET", "/api/vault/v1/secrets/", { key });
    expect(listed.body.count).toBe(1);
  });
});
