import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArtifact, dataFor, expectStatus, setup, uniq, type Ctx } from "./helpers";

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

describe("edits the reference's clients send", () => {
  it("refuses to edit an archived artifact (409) through the full and the simple API, and edits it again once unarchived", async () => {
    const created = await c.t.call("POST", "/api/simple/applications/", { key: c.key, body: { application: { slug: uniq("arch"), data: { parameters: { x: 1 } } } } });
    const { id, slug } = created.body.application;
    expectStatus(await c.t.call("POST", `/api/applications/${id}/archive`, { key: c.key }), 200);
    const full = await c.t.call("PUT", `/api/applications/${id}`, { key: c.key, body: { application: { name: "Renamed" } } });
    expectStatus(full, 409);
    expect(full.body.detail).toContain("unarchive");
    expectStatus(await c.t.call("PUT", `/api/simple/applications/${id}`, { key: c.key, body: { application: { name: "Renamed" } } }), 409);
    expectStatus(await c.t.call("PUT", `/api/simple/applications/${id}`, { key: c.key, body: { application: { data: { parameters: { x: 2 } } } } }), 409);
    const still = await c.t.call("GET", `/api/applications/${id}`, { key: c.key });
    expect(still.body.application).toMatchObject({ slug, name: slug });
    expectStatus(await c.t.call("POST", `/api/applications/${id}/unarchive`, { key: c.key }), 200);
    expect((await c.t.call("PUT", `/api/applications/${id}`, { key: c.key, body: { application: { name: "Renamed" } } })).body.application.name).toBe("Renamed");
  });

  it("takes the current slug in a PUT body (simple and full) and refuses another one", async () => {
    const created = await c.t.call("POST", "/api/simple/evaluators/", { key: c.key, body: { evaluator: { slug: uniq("ev"), data: { parameters: { a: 1 } } } } });
    const { id, slug } = created.body.evaluator;
    const same = await c.t.call("PUT", `/api/simple/evaluators/${id}`, { key: c.key, body: { evaluator: { id, slug, name: "Judge", data: { parameters: { a: 2 } } } } });
    expectStatus(same, 200);
    expect(same.body.evaluator).toMatchObject({ slug, name: "Judge", data: { parameters: { a: 2 } } });
    const other = await c.t.call("PUT", `/api/simple/evaluators/${id}`, { key: c.key, body: { evaluator: { slug: "renamed", name: "x" } } });
    expectStatus(other, 400);
    expect(other.body.detail).toContain(`"${slug}"`);
    expectStatus(await c.t.call("PUT", `/api/evaluators/${id}`, { key: c.key, body: { evaluator: { slug, tags: { t: 1 } } } }), 200);
    expectStatus(await c.t.call("PUT", `/api/evaluators/${id}`, { key: c.key, body: { evaluator: { slug: "renamed" } } }), 400);
    expect((await c.t.call("GET", `/api/evaluators/${id}`, { key: c.key })).body.evaluator.slug).toBe(slug);
  });

  it("takes the legacy is_evaluator flag where it is true, and refuses it on a workflow, naming /api/evaluators/", async () => {
    const legacy = await c.t.call("POST", "/api/evaluators/", { key: c.key, body: { evaluator: { slug: uniq("leg"), is_evaluator: true } } });
    expectStatus(legacy, 200);
    expect(legacy.body.evaluator.flags).toEqual({ is_evaluator: true });
    for (const body of [{ is_evaluator: true }, { flags: { is_evaluator: true } }]) {
      const refused = await c.t.call("POST", "/api/workflows/", { key: c.key, body: { workflow: { slug: uniq("wf"), ...body } } });
      expectStatus(refused, 400);
      expect(refused.body.detail).toContain("POST /api/evaluators/");
    }
    const plain = await c.t.call("POST", "/api/workflows/", { key: c.key, body: { workflow: { slug: uniq("wf"), is_evaluator: false } } });
    expectStatus(plain, 200);
    const { artifact } = await createArtifact(c, "workflows");
    expectStatus(await c.t.call("PUT", `/api/workflows/${artifact.id}`, { key: c.key, body: { workflow: { flags: { is_application: true } } } }), 400);
    void dataFor;
  });
});
