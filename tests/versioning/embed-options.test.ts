import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commit, createArtifact, expectStatus, refsOfRevision, setup, uniq, type Ctx } from "./helpers";

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

const embed = (references: Record<string, unknown>, path?: string) => ({
  "@svc.embed": { "@svc.references": references, ...(path ? { "@svc.selector": { path } } : {}) },
});

async function workflow(data: Record<string, unknown>, slug = uniq("wf")) {
  const created = await createArtifact(c, "workflows", { slug, data });
  return { slug, variant: created.variant, revision: created.revision! };
}

const resolve = (body: Record<string, unknown>) =>
  c.t.call("POST", "/api/applications/revisions/resolve", { key: c.key, body });
const inline = (data: Record<string, unknown>, options: Record<string, unknown> = {}) =>
  resolve({ application_revision: { data }, ...options });

describe("resolve options", () => {
  let leaf: Awaited<ReturnType<typeof workflow>>;
  let middle: Awaited<ReturnType<typeof workflow>>;
  beforeAll(async () => {
    leaf = await workflow({ parameters: { prompt: "leaf text", list: [1, 2] } });
    middle = await workflow({ parameters: { prompt: embed({ workflow: { slug: leaf.slug } }, "parameters.prompt") } });
  });

  it("resolves inline data and reports what it followed; inline data with references is 400", async () => {
    const res = await inline({
      a: embed({ workflow: { slug: middle.slug } }, "parameters.prompt"),
      b: embed({ workflow: { slug: leaf.slug } }, "parameters.prompt"),
    });
    expectStatus(res, 200);
    expect(res.body.application_revision).toEqual({ data: { a: "leaf text", b: "leaf text" } });
    expect(res.body.resolution_info).toMatchObject({
      embeds_resolved: 3,
      depth_reached: 2,
      errors: [],
      references_used: [refsOfRevision("workflows", middle.revision), refsOfRevision("workflows", leaf.revision)],
    });
    const both = await resolve({ application_revision: { data: {} }, application_ref: { slug: "x" } });
    expectStatus(both, 400);
  });

  it("max_depth and max_embeds lower the limits; out-of-range values are 422", async () => {
    const nested = { a: embed({ workflow: { slug: middle.slug } }, "parameters.prompt") };
    expectStatus(await inline(nested, { max_depth: 2 }), 200);
    const shallow = await inline(nested, { max_depth: 1 });
    expectStatus(shallow, 400);
    expect(shallow.body.code).toBe("embed_depth");
    expect(shallow.body.detail).toContain("1 level");

    const two = {
      a: embed({ workflow: { slug: leaf.slug } }, "parameters.prompt"),
      b: embed({ workflow: { slug: leaf.slug } }, "parameters.prompt"),
    };
    expectStatus(await inline(two, { max_embeds: 2 }), 200);
    const few = await inline(two, { max_embeds: 1 });
    expectStatus(few, 400);
    expect(few.body.code).toBe("embed_limit");

    for (const bad of [{ max_depth: 0 }, { max_embeds: -1 }, { error_policy: "ignore" }, { max_depth: "3" }]) {
      const res = await inline(two, bad);
      expectStatus(res, 422);
      expect(JSON.stringify(res.body.errors)).toContain(Object.keys(bad)[0]);
    }
  });

  it("error_policy placeholder writes <error:code>, keep leaves the embed, both list the errors; exception (the default) fails", async () => {
    const missing = embed({ workflow: { slug: "no-such-workflow" } }, "parameters.prompt");
    const token = "@svc.embed[@svc.references[workflow.slug=no-such-workflow], @svc.selector[path=parameters.prompt]]";
    const data = {
      ok: embed({ workflow: { slug: leaf.slug } }, "parameters.prompt"),
      bad: missing,
      text: `Say ${token}!`,
    };

    const placeholder = await inline(data, { error_policy: "placeholder" });
    expectStatus(placeholder, 200);
    expect(placeholder.body.application_revision.data).toEqual({
      ok: "leaf text",
      bad: "<error:embed_not_found>",
      text: "Say <error:embed_not_found>!",
    });
    expect(placeholder.body.resolution_info.errors).toEqual([
      { path: "bad", code: "embed_not_found", detail: expect.stringContaining("no-such-workflow") },
      { path: "text", code: "embed_not_found", detail: expect.stringContaining("no-such-workflow") },
    ]);
    expect(placeholder.body.resolution_info.embeds_resolved).toBe(1);

    const keep = await inline(data, { error_policy: "keep" });
    expectStatus(keep, 200);
    expect(keep.body.application_revision.data).toEqual({ ok: "leaf text", bad: missing, text: `Say ${token}!` });
    expect(keep.body.resolution_info.errors).toHaveLength(2);

    expectStatus(await inline(data, { error_policy: "exception" }), 404);
    expectStatus(await inline(data), 404);

    // Limits are errors like any other under a lenient policy.
    const capped = await inline(
      {
        a: embed({ workflow: { slug: leaf.slug } }, "parameters.prompt"),
        b: embed({ workflow: { slug: leaf.slug } }, "parameters.prompt"),
      },
      { max_embeds: 1, error_policy: "placeholder" },
    );
    expect(capped.body.application_revision.data).toEqual({ a: "leaf text", b: "<error:embed_limit>" });
  });

  it("retrieve with resolve takes the same options", async () => {
    const app = await createArtifact(c, "applications", {
      data: { parameters: { x: embed({ workflow: { slug: "nothing-here" } }) } },
    });
    const res = await c.t.call("POST", "/api/applications/revisions/retrieve", {
      key: c.key,
      body: { application_revision_ref: { id: app.revision!.id }, resolve: true, error_policy: "placeholder" },
    });
    expectStatus(res, 200);
    expect(res.body.application_revision.data).toEqual({ parameters: { x: "<error:embed_not_found>" } });
  });
});

describe("string embeds", () => {
  it("replace each token inside a string with the selected text, or JSON for other values, recursively", async () => {
    const leaf = await workflow({ parameters: { name: "Ada", list: [1, { b: true }] } });
    const greeting = await workflow({
      parameters: {
        prompt: `Hello @svc.embed[@svc.references[workflow.slug=${leaf.slug}], @svc.selector[path=parameters.name]]`,
      },
    });
    const res = await inline({
      system: `@svc.embed[@svc.references[workflow.slug=${greeting.slug}], @svc.selector[path=parameters.prompt]], you have @svc.embed[@svc.references[workflow.slug=${leaf.slug}], @svc.selector[path=parameters.list]].`,
      whole: `@svc.embed[@svc.references[workflow_revision.id=${leaf.revision.id}]]`,
      untouched: "no embeds [here]",
    });
    expectStatus(res, 200);
    const { whole, ...rest } = res.body.application_revision.data;
    expect(rest).toEqual({ system: 'Hello Ada, you have [1,{"b":true}].', untouched: "no embeds [here]" });
    expect(JSON.parse(whole)).toEqual({ parameters: { name: "Ada", list: [1, { b: true }] } });
    expect(res.body.resolution_info.embeds.map((e: { path: string; depth: number }) => [e.path, e.depth])).toEqual([
      ["system", 1],
      ["system", 2],
      ["system", 1],
      ["whole", 1],
    ]);
  });

  it("accept & between parts and : between key and value; a malformed token is 400 naming where it stood", async () => {
    const leaf = await workflow({ parameters: { name: "Bo" } });
    const ok = await inline({
      s: `@svc.embed[@svc.references[workflow.slug:${leaf.slug}] & @svc.selector[path:parameters.name]]`,
    });
    expect(ok.body.application_revision.data).toEqual({ s: "Bo" });
    for (const token of [
      "@svc.embed[@svc.selector[path=x]]",
      "@svc.embed[@svc.references[slug=x]]",
      "@svc.embed[@svc.references[gadget.slug=x]]",
      "@svc.embed[@svc.references[workflow.slug]]",
    ]) {
      const res = await inline({ deep: { s: `a ${token} b` } });
      expectStatus(res, 400);
      expect(res.body.code).toBe("invalid_embed");
      expect(res.body.detail).toContain("deep.s");
    }
  });

  it("a cycle through string embeds is 400", async () => {
    const a = await workflow({ parameters: { p: "x" } });
    const b = await workflow({
      parameters: { p: `@svc.embed[@svc.references[workflow.slug=${a.slug}], @svc.selector[path=parameters.p]]` },
    });
    await commit(c, "workflows", a.variant.id, {
      parameters: { p: `@svc.embed[@svc.references[workflow.slug=${b.slug}], @svc.selector[path=parameters.p]]` },
    });
    const res = await c.t.call("POST", "/api/workflows/revisions/resolve", {
      key: c.key,
      body: { workflow_ref: { slug: a.slug } },
    });
    expectStatus(res, 400);
    expect(res.body.code).toBe("embed_cycle");
  });
});

describe("embeds by artifact slug and version", () => {
  it("an artifact reference with a version resolves that version of the default variant, in both forms", async () => {
    const tool = await workflow({ parameters: { prompt: "v1" } });
    await commit(c, "workflows", tool.variant.id, { parameters: { prompt: "v2" } });
    const res = await inline({
      latest: embed({ workflow: { slug: tool.slug } }, "parameters.prompt"),
      pinned: embed({ workflow: { slug: tool.slug, version: "1" } }, "parameters.prompt"),
      // The compat API's fallback: a revision slug naming no revision, with a version, is the artifact's.
      viaRevision: embed({ workflow_revision: { slug: tool.slug, version: "1" } }, "parameters.prompt"),
      text: `@svc.embed[@svc.references[workflow.slug=${tool.slug}, workflow.version=1], @svc.selector[path=parameters.prompt]]`,
    });
    expectStatus(res, 200);
    expect(res.body.application_revision.data).toEqual({ latest: "v2", pinned: "v1", viaRevision: "v1", text: "v1" });

    const noVersion = await inline({ x: embed({ workflow: { slug: tool.slug, version: "9" } }, "parameters.prompt") });
    expectStatus(noVersion, 404);
    expect(noVersion.body.detail).toContain("version 9");

    // Retrieve reads an artifact reference's version the same way.
    const retrieved = await c.t.call("POST", "/api/workflows/revisions/retrieve", {
      key: c.key,
      body: { workflow_ref: { slug: tool.slug, version: "1" } },
    });
    expectStatus(retrieved, 200);
    expect(retrieved.body.workflow_revision.data).toEqual({ parameters: { prompt: "v1" } });
  });
});
