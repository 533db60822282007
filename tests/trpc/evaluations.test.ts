import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContextFrom } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { requestText, createEntity, evaluationApp, startWorker, settled } from "../evaluations/eval-fixtures";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";

let t: TestApp;
let model: ScriptedModelServer;
let worker: { stop(): Promise<void> };
let key: string;
let caller: ReturnType<typeof createCaller>;
let viewer: ReturnType<typeof createCaller>;
let testsetRevision: string;

const CAPITALS = [
  { question: "Capital of France?", correct_answer: "Paris" },
  { question: "Capital of Germany?", correct_answer: "Berlin" },
  { question: "Capital of Italy?", correct_answer: "Rome" },
];

beforeAll(async () => {
  model = await startScriptedModelServer();
  // The model knows capitals; an agent whose instructions say DRAFT gets Germany wrong.
  model.respondWith((request) => {
    const text = requestText(request) + JSON.stringify(request.body?.instructions ?? "");
    if (text.includes("You grade")) return { kind: "reply", text: '{"score": 0.8, "reason": "Close enough."}' };
    if (text.includes("Germany")) return { kind: "reply", text: text.includes("DRAFT") ? "Munich" : "Berlin" };
    if (text.includes("France")) return { kind: "reply", text: "Paris" };
    return { kind: "reply", text: "Rome" };
  });
  t = await evaluationApp(model);
  const p = await t.newProject();
  key = p.key;
  caller = createCaller(
    createContextFrom(t.context, { principal: { projectId: p.projectId, userId: p.userId, role: "owner" } }),
  );
  viewer = createCaller(
    createContextFrom(t.context, { principal: { projectId: p.projectId, userId: p.userId, role: "viewer" } }),
  );
  worker = startWorker(t);
  testsetRevision = (
    await createEntity(t, key, "testsets", "testset", { slug: "capitals", data: { testcases: CAPITALS } })
  ).revision_id;
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await model.close();
});

describe("evaluators router", () => {
  it("serves the catalog, tries an evaluator without storing anything, creates and commits revisions", async () => {
    const templates = await caller.evaluators.templates();
    expect(templates.find((x) => x.key === "auto_ai_critique")?.data.schemas.parameters).toHaveProperty("properties");
    const presets = await caller.evaluators.presets();
    const relevance = presets.find((p) => p.key === "answer_relevance")!;

    const trial = await caller.evaluators.try({
      data: relevance.data,
      inputs: { question: "Capital of France?", correct_answer: "Paris" },
      outputs: "Paris",
    });
    expect(trial).toMatchObject({ status: "success", outputs: { score: 0.8, reason: "Close enough.", success: true } });
    const failed = await caller.evaluators.try({
      data: { uri: "svc:builtin:auto_regex_test:v0", parameters: {} },
      inputs: {},
      outputs: "x",
    });
    expect(failed.status).toBe("failure");
    expect(await caller.evaluations.list({})).toMatchObject({ items: [] });
    await expect(viewer.evaluators.try({ data: relevance.data, inputs: {}, outputs: "x" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });

    const created = await caller.evaluators.create({ name: "Relevance", data: relevance.data });
    expect(created.revision.version).toBe("1");
    await expect(
      caller.evaluators.create({ name: "Broken", data: { uri: "svc:builtin:auto_regex_test:v0", parameters: {} } }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const second = await caller.evaluators.commit({
      variantId: created.revision.evaluator_variant_id as string,
      data: { ...relevance.data, parameters: { ...relevance.data.parameters, threshold: 0.9 } },
      message: "Stricter",
    });
    expect(second.version).toBe("2");
    const got = await caller.evaluators.get({ id: created.evaluator.id });
    expect(got.revisions.map((r) => r.version)).toEqual(["2", "1"]);
    const list = await caller.evaluators.list();
    expect(list.map((e) => e.evaluator.name)).toContain("Relevance");

    // Renamed in place from its page; a viewer cannot, an empty name is refused.
    await expect(viewer.evaluators.rename({ id: created.evaluator.id, name: "Mine" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(caller.evaluators.rename({ id: created.evaluator.id, name: "  " })).rejects.toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
    });
    expect((await caller.evaluators.rename({ id: created.evaluator.id, name: "Relevance judge" })).name).toBe(
      "Relevance judge",
    );
    expect((await caller.evaluators.get({ id: created.evaluator.id })).evaluator.name).toBe("Relevance judge");
  });
});

describe("evaluations router", () => {
  it("runs a revision and an unsaved draft, reads rows, compares, finds runs of revisions", async () => {
    const agent = await caller.agents.create({ name: "Capitals" });
    const template = (agent.revision.data as { parameters: { agent: Record<string, unknown> } }).parameters.agent;
    const exact = await caller.evaluators.create({
      name: "Exact",
      data: { uri: "svc:builtin:auto_exact_match:v0", parameters: { case_sensitive: false } },
    });
    await expect(
      caller.evaluations.create({ testsetRevisionId: testsetRevision, evaluatorRevisionIds: [exact.revision.id] }),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });

    const runs = await caller.evaluations.create({
      testsetRevisionId: testsetRevision,
      revisionIds: [agent.revision.id],
      drafts: [{ name: "Draft", agent: { ...template, instructions: { agents_md: "DRAFT: be brief." } } }],
      evaluatorRevisionIds: [exact.revision.id],
    });
    expect(runs).toHaveLength(2);
    expect(runs.map((r) => r.name)).toEqual([`${agent.agent.slug} v1`, "Draft"]);
    // The draft committed nothing.
    expect((await caller.agents.history({ variantId: agent.variant.id })).items).toHaveLength(1);
    for (const run of runs) await settled(t, key, run.id);

    const baseline = await caller.evaluations.table({ id: runs[0].id });
    expect(baseline.application).toMatchObject({ name: agent.agent.slug, version: "1" });
    expect(baseline.evaluators.map((e) => e.name)).toEqual(["exact"]);
    expect(baseline.rows).toHaveLength(3);
    expect(baseline.rows.every((r) => r.scores.exact.score === 1)).toBe(true);
    expect(baseline.rows[0]).toMatchObject({ output_status: "success", trace_id: expect.any(String) });
    expect(baseline.rows[0].latency_ms).toBeGreaterThan(0);

    const draft = await caller.evaluations.table({ id: runs[1].id });
    expect(draft.application).toMatchObject({ name: "Draft" });
    expect(draft.application?.revision_id).toBeUndefined();
    const germany = draft.rows.find((r) => JSON.stringify(r.inputs).includes("Germany"))!;
    expect(germany.scores.exact).toMatchObject({ score: 0, outputs: { success: false } });

    const comparison = await caller.evaluations.compare({ ids: runs.map((r) => r.id) });
    expect(comparison.runs[1].deltas.exact).toBeCloseTo(-1 / 3);

    // Re-running rows queues them again (nothing failed to run: the run simply finishes again).
    await caller.evaluations.rerunRows({ id: runs[1].id, scenarioIds: [germany.scenario_id] });
    await settled(t, key, runs[1].id);

    const second = await caller.agents.commit({
      variantId: agent.variant.id,
      template: { ...template, instructions: { agents_md: "DRAFT committed." } },
    });
    const [third] = await caller.evaluations.create({
      testsetRevisionId: testsetRevision,
      revisionIds: [second.revision.id],
      evaluatorRevisionIds: [exact.revision.id],
    });
    await settled(t, key, third.id);
    const found = await caller.evaluations.ofRevisions({ revisionIds: [agent.revision.id, second.revision.id] });
    expect(found.map((e) => e.id)).toEqual([runs[0].id, third.id]);
    const other = await caller.agents.create({ name: "Never evaluated" });
    expect(await caller.evaluations.ofRevisions({ revisionIds: [agent.revision.id, other.revision.id] })).toEqual([]);
    // Started together under one name, each run still says what it evaluated.
    const named = await caller.evaluations.create({
      name: "Nightly",
      testsetRevisionId: testsetRevision,
      revisionIds: [agent.revision.id, second.revision.id],
      evaluatorRevisionIds: [exact.revision.id],
    });
    expect(named.map((r) => r.name)).toEqual([`Nightly · ${agent.agent.slug} v1`, `Nightly · ${agent.agent.slug} v2`]);
    expect(named.map((r) => r.meta.evaluated)).toEqual([`${agent.agent.slug} v1`, `${agent.agent.slug} v2`]);
    const single = await caller.evaluations.create({
      name: "Just one",
      testsetRevisionId: testsetRevision,
      revisionIds: [second.revision.id],
      evaluatorRevisionIds: [exact.revision.id],
    });
    expect(single[0]).toMatchObject({ name: "Just one", meta: { evaluated: `${agent.agent.slug} v2` } });
    const compared = await caller.evaluations.compare({ ids: named.map((r) => r.id) });
    expect(compared.runs.map((r) => r.evaluated)).toEqual([`${agent.agent.slug} v1`, `${agent.agent.slug} v2`]);
    for (const run of [...named, ...single]) await caller.evaluations.stop({ id: run.id });
  });

  it("stops a run and refuses unknown ids", async () => {
    await expect(caller.evaluations.get({ id: "00000000-0000-7000-8000-000000000000" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      caller.evaluations.compare({
        ids: ["00000000-0000-7000-8000-000000000000", "00000000-0000-7000-8000-000000000001"],
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const testsets = await caller.evaluations.testsets();
    expect(testsets[0].revisions[0].id).toBe(testsetRevision);
  });
});

describe("review router", () => {
  it("opens a queue over a testset revision with a human feedback evaluator, listed with its cases to review", async () => {
    const human = await caller.evaluators.create({
      name: "Tone",
      data: {
        uri: "svc:custom:feedback:v0",
        schemas: { outputs: { type: "object", properties: { success: { type: "boolean" } } } },
      },
    });
    await expect(
      viewer.review.create({
        name: "No",
        testsetRevisionId: testsetRevision,
        evaluatorRevisionIds: [human.revision.id],
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      caller.review.create({ name: "None", testsetRevisionId: testsetRevision, evaluatorRevisionIds: [] }),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    const { id } = await caller.review.create({
      name: "Tone check",
      testsetRevisionId: testsetRevision,
      evaluatorRevisionIds: [human.revision.id],
    });
    const queue = (await caller.review.queues()).find((q) => q.id === id);
    expect(queue).toMatchObject({ name: "Tone check", total: 3, done: 0 });
    const items = await caller.review.items({ queueId: id });
    expect(items.steps).toEqual([expect.objectContaining({ scale: "pass_fail" })]);
  });
});
