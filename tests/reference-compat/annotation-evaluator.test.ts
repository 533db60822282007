import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArtifact, dataFor, expectStatus, MISSING_ID, setup, uniq, type Ctx } from "../versioning/helpers";

// The reference's annotations create the evaluator an annotation names by a slug the project does
// not have (a feedback evaluator whose outputs schema is the annotation data's shape). Here an
// annotation is a simple trace; naming an evaluator slug that does not exist creates it too.

let c: Ctx;
beforeAll(async () => {
  c = await setup();
});
afterAll(() => c.t.close());

const call = (method: string, path: string, body?: unknown) => c.t.call(method, path, { key: c.key, body });
const link = () => ({ trace_id: randomBytes(16).toString("hex"), span_id: randomBytes(8).toString("hex") });
const annotate = (evaluator: Record<string, unknown>, data: Record<string, unknown>) =>
  call("POST", "/api/simple/traces/", {
    trace: { origin: "human", data, references: { evaluator }, links: { invocation: link() } },
  });
const evaluatorsBySlug = async (slug: string) =>
  (await call("POST", "/api/simple/evaluators/query", { evaluator: { slug } })).body.evaluators as {
    id: string;
    slug: string;
    version: string;
    data: Record<string, unknown>;
  }[];

describe("an annotation naming an unknown evaluator slug", () => {
  it("creates a feedback evaluator with that slug and the data's shape as its outputs schema, once", async () => {
    const slug = uniq("helpful");
    expectStatus(await annotate({ slug }, { score: 4, helpful: true, comment: "fine", tags: ["a"] }), 202);
    const [evaluator] = await evaluatorsBySlug(slug);
    expect(evaluator).toMatchObject({
      slug,
      name: slug,
      version: "1",
      flags: expect.objectContaining({ is_evaluator: true }),
      data: {
        uri: "svc:custom:feedback:v0",
        schemas: {
          outputs: {
            type: "object",
            properties: {
              score: { type: "integer" },
              helpful: { type: "boolean" },
              comment: { type: "string" },
              tags: { type: "array", items: { type: "string" } },
            },
            required: ["score", "helpful", "comment", "tags"],
          },
        },
      },
    });
    // A second annotation under the same slug finds it: no second evaluator, no new revision.
    expectStatus(await annotate({ slug }, { score: 2.5 }), 202);
    expect((await evaluatorsBySlug(slug)).map((e) => [e.id, e.version])).toEqual([[evaluator.id, "1"]]);
  });

  it("leaves an existing evaluator as it is, and a reference by id creates nothing", async () => {
    const existing = await createArtifact(c, "evaluators", { slug: uniq("kept"), data: dataFor("evaluators", 1) });
    expectStatus(await annotate({ slug: existing.artifact.slug }, { score: 1 }), 202);
    const [kept] = await evaluatorsBySlug(existing.artifact.slug);
    expect(kept).toMatchObject({ id: existing.artifact.id, version: "1", data: dataFor("evaluators", 1) });

    const before = (await call("POST", "/api/evaluators/query", {})).body.count;
    expectStatus(await annotate({ id: MISSING_ID, slug: uniq("by-id") }, { score: 1 }), 202);
    expect((await call("POST", "/api/evaluators/query", {})).body.count).toBe(before);
  });
});
