import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  commit,
  countEvents,
  createArtifact,
  expectStatus,
  refsOfRevision,
  retrieve,
  setup,
  uniq,
  type Ctx,
} from "./helpers";

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
  return { slug, artifact: created.artifact, variant: created.variant, revision: created.revision! };
}

async function application(data: Record<string, unknown>) {
  const created = await createArtifact(c, "applications", { data });
  return created.revision!;
}

/** An application whose parameters hold these values (revision data keeps free-form values there). */
const params = (parameters: Record<string, unknown>) => application({ parameters });

const resolveApp = (id: string) => retrieve(c, "applications", { application_revision_ref: { id }, resolve: true });

describe("embeds", () => {
  const tools = [
    { type: "builtin", name: "read" },
    { type: "builtin", name: "bash" },
  ];
  let lib: Awaited<ReturnType<typeof workflow>>;

  beforeAll(async () => {
    lib = await workflow({ parameters: { tools, prompt: "shared" } });
  });

  it("resolve: true replaces an embed with the referenced data at the selector path and says what was used", async () => {
    const stored = {
      parameters: { agent: { tools: embed({ workflow: { slug: lib.slug } }, "parameters.tools"), name: "bot" } },
    };
    const app = await application(stored);
    expect(app.data).toEqual(stored);

    const plain = await retrieve(c, "applications", { application_revision_ref: { id: app.id } });
    expect(plain.body.application_revision.data).toEqual(stored);
    expect(plain.body.resolution_info).toBeUndefined();

    const res = await resolveApp(app.id);
    expectStatus(res, 200);
    expect(res.body).toEqual({
      count: 1,
      application_revision: { ...app, data: { parameters: { agent: { tools, name: "bot" } } } },
      retrieval_info: { references: refsOfRevision("applications", app) },
      resolution_info: {
        embeds: [
          {
            path: "parameters.agent.tools",
            references: refsOfRevision("workflows", lib.revision),
            selector: { path: "parameters.tools" },
            depth: 1,
          },
        ],
        embeds_resolved: 1,
        references_used: [refsOfRevision("workflows", lib.revision)],
        depth_reached: 1,
        errors: [],
      },
    });

    const viaResolve = await c.t.call("POST", "/api/applications/revisions/resolve", {
      key: c.key,
      body: { application_revision_ref: { id: app.id } },
    });
    expectStatus(viaResolve, 200);
    expect(viaResolve.body).toEqual(res.body);

    // Stored data is unchanged by resolving.
    const again = await c.t.call("GET", `/api/applications/revisions/${app.id}`, { key: c.key });
    expect(again.body.application_revision.data).toEqual(stored);
  });

  it("resolves embeds inside arrays, without a selector, pinned by version, and through an environment", async () => {
    const v2 = await commit(c, "workflows", lib.variant.id, { parameters: { tools: [], prompt: "newer" } });
    await c.t.call("POST", "/api/workflows/revisions/deploy", {
      key: c.key,
      body: { workflow_revision_ref: { id: lib.revision.id }, environment_ref: { slug: "production" } },
    });
    const app = await params({
      list: [embed({ workflow_ref: { slug: lib.slug } }, "parameters.prompt"), "inline"],
      whole: embed({ workflow_revision: { id: lib.revision.id } }),
      pinned: embed(
        { workflow_variant: { id: lib.variant.id }, workflow_revision: { version: "1" } },
        "parameters.prompt",
      ),
      deployed: embed({ environment: { slug: "production" }, workflow: { slug: lib.slug } }, "parameters.prompt"),
      keyed: embed({ environment_ref: { slug: "production" }, key: `${lib.slug}.revision` }, "parameters.prompt"),
    });
    const res = await resolveApp(app.id);
    expectStatus(res, 200);
    expect(res.body.application_revision.data.parameters).toEqual({
      list: ["newer", "inline"],
      whole: lib.revision.data,
      pinned: "shared",
      deployed: "shared",
      keyed: "shared",
    });
    // Stored data is JSONB, whose key order is its own: compare by path.
    const used = res.body.resolution_info.embeds.map(
      (e: { path: string; references: { workflow_revision: { id: string } } }) => [
        e.path,
        e.references.workflow_revision.id,
      ],
    );
    expect(used.sort()).toEqual([
      ["parameters.deployed", lib.revision.id],
      ["parameters.keyed", lib.revision.id],
      ["parameters.list[0]", v2.id],
      ["parameters.pinned", lib.revision.id],
      ["parameters.whole", lib.revision.id],
    ]);
  });

  it("an environment revision with a selector and no key embeds that environment revision's own data", async () => {
    const target = await workflow({ parameters: { prompt: "deployed" } });
    const deployed = await c.t.call("POST", "/api/workflows/revisions/deploy", {
      key: c.key,
      body: { workflow_revision_ref: { id: target.revision.id }, environment_ref: { slug: "staging" }, key: "chat" },
    });
    expectStatus(deployed, 200);
    const envRevision = deployed.body.environment_revision;
    const app = await params({
      pinned: embed({ environment_revision: { id: envRevision.id } }, "references.chat.workflow_revision.id"),
      latest: embed({ environment_ref: { slug: "staging" } }, "references.chat.workflow.slug"),
    });
    const res = await resolveApp(app.id);
    expectStatus(res, 200);
    expect(res.body.application_revision.data.parameters).toEqual({ pinned: target.revision.id, latest: target.slug });
    expect(
      res.body.resolution_info.embeds.map((e: { references: object }) => Object.keys(e.references)).flat(),
    ).toContain("environment_revision");
  });

  it("resolves embeds inside embedded content, recording each level's depth", async () => {
    const inner = await workflow({ parameters: { model: "m-1" } });
    const outer = await workflow({
      parameters: { llm: { model: embed({ workflow: { slug: inner.slug } }, "parameters.model"), temperature: 0 } },
    });
    const app = await params({ llm: embed({ workflow: { slug: outer.slug } }, "parameters.llm") });
    const res = await resolveApp(app.id);
    expectStatus(res, 200);
    expect(res.body.application_revision.data.parameters).toEqual({ llm: { model: "m-1", temperature: 0 } });
    expect(res.body.resolution_info.embeds.map((e: { path: string; depth: number }) => [e.path, e.depth])).toEqual([
      ["parameters.llm", 1],
      ["parameters.llm.model", 2],
    ]);
  });

  it("400 naming the reference for a cycle, including a revision that embeds its own variant", async () => {
    const a = await workflow({ parameters: { x: "placeholder" } });
    const b = await workflow({ parameters: { x: embed({ workflow: { slug: a.slug } }, "parameters.x") } });
    await commit(c, "workflows", a.variant.id, {
      parameters: { x: embed({ workflow: { slug: b.slug } }, "parameters.x") },
    });
    const cycle = await retrieve(c, "workflows", { workflow_ref: { slug: a.slug }, resolve: true });
    expectStatus(cycle, 400);
    expect(cycle.body.code).toBe("embed_cycle");
    expect(cycle.body.detail).toContain(`"${a.slug}"`);

    const self = await workflow({ parameters: { me: "x" } });
    await commit(c, "workflows", self.variant.id, {
      parameters: { me: embed({ workflow: { slug: self.slug } }, "parameters.me") },
    });
    const selfRes = await c.t.call("POST", "/api/workflows/revisions/resolve", {
      key: c.key,
      body: { workflow_ref: { slug: self.slug } },
    });
    expectStatus(selfRes, 400);
    expect(selfRes.body.code).toBe("embed_cycle");
    expect(selfRes.body.detail).toContain(`"${self.slug}"`);

    // The same target twice side by side is not a cycle.
    const leaf = await workflow({ parameters: { v: "leaf" } });
    const twice = await params({
      one: embed({ workflow: { slug: leaf.slug } }, "parameters.v"),
      two: embed({ workflow: { slug: leaf.slug } }, "parameters.v"),
    });
    expect((await resolveApp(twice.id)).body.application_revision.data.parameters).toEqual({
      one: "leaf",
      two: "leaf",
    });
  });

  it("allows 10 levels of nesting and rejects 11 with 400 naming the reference", async () => {
    const chain = [await workflow({ parameters: { next: "bottom" } })];
    for (let i = 1; i <= 11; i++)
      chain.push(
        await workflow({ parameters: { next: embed({ workflow: { slug: chain[i - 1].slug } }, "parameters.next") } }),
      );
    const ten = await retrieve(c, "workflows", { workflow_revision_ref: { id: chain[10].revision.id }, resolve: true });
    expectStatus(ten, 200);
    expect(ten.body.workflow_revision.data).toEqual({ parameters: { next: "bottom" } });
    expect(ten.body.resolution_info.embeds.at(-1).depth).toBe(10);

    const eleven = await retrieve(c, "workflows", {
      workflow_revision_ref: { id: chain[11].revision.id },
      resolve: true,
    });
    expectStatus(eleven, 400);
    expect(eleven.body.code).toBe("embed_depth");
    expect(eleven.body.detail).toContain("10");
    expect(eleven.body.detail).toContain(`"${chain[0].slug}"`);
  });

  it("allows 100 embeds and rejects 101 with 400", async () => {
    const many = (n: number) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`e${i}`, embed({ workflow: { slug: lib.slug } }, "parameters.prompt")]),
      );
    const hundred = await params(many(100));
    const ok = await resolveApp(hundred.id);
    expectStatus(ok, 200);
    expect(ok.body.resolution_info.embeds).toHaveLength(100);
    const oneMore = await params(many(101));
    const res = await resolveApp(oneMore.id);
    expectStatus(res, 400);
    expect(res.body.code).toBe("embed_limit");
    expect(res.body.detail).toContain("100");
    expect(res.body.detail).toContain(`"${lib.slug}"`);
  });

  it("404 naming the reference when the target or the selected path does not exist", async () => {
    const missing = await params({ x: embed({ workflow: { slug: "no-such-workflow" } }, "parameters.prompt") });
    const res = await resolveApp(missing.id);
    expectStatus(res, 404);
    expect(res.body.code).toBe("embed_not_found");
    expect(res.body.detail).toContain('"no-such-workflow"');
    expect(res.body.detail).toContain("x");

    for (const path of [
      "parameters.nothing",
      "parameters.prompt.deeper",
      "parameters.constructor",
      "parameters.tools.__proto__",
    ]) {
      const noPath = await params({ x: embed({ workflow: { slug: lib.slug } }, path) });
      const r = await resolveApp(noPath.id);
      expectStatus(r, 404);
      expect(r.body.detail).toContain(path);
      expect(r.body.detail).toContain(`"${lib.slug}"`);
    }
  });

  it("400 for a malformed embed; a failed resolve emits no retrieved event", async () => {
    const cases = [
      { "@svc.embed": "workflow" },
      { "@svc.embed": { "@svc.selector": { path: "parameters" } } },
      { "@svc.embed": { "@svc.references": { workflow: { slug: lib.slug } }, "@svc.selector": "parameters" } },
      embed({ gadget: { slug: "x" } }),
      embed({ workflow: { slug: lib.slug }, application: { slug: "y" } }),
      embed({ workflow: { id: "not-a-uuid" } }),
    ];
    const before = await countEvents(c, "applications.revisions.retrieved");
    for (const value of cases) {
      const app = await params({ value });
      const res = await resolveApp(app.id);
      expectStatus(res, 400);
      expect(res.body.code).toBe("invalid_embed");
      expect(res.body.detail).toContain("value");
    }
    expect(await countEvents(c, "applications.revisions.retrieved")).toBe(before);
  });
});
