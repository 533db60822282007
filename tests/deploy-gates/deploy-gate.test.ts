import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDeployGate } from "@/server/deploy-gates";
import { createContextFrom } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import {
  ADDITIONS,
  arithmeticModel,
  createEntity,
  evaluationApp,
  finished,
  requestText,
  settled,
  startWorker,
} from "../evaluations/eval-fixtures";

/**
 * The production deploy gate, through every door that moves production: the REST deploy route,
 * environment commits (data and delta), the playground's tRPC deploy. The evidence is real: runs
 * of the evaluation engine against the scripted model server.
 */
let t: TestApp;
let model: ScriptedModelServer;
let worker: { stop(): Promise<void> };
let key: string;
let owner: ReturnType<typeof createCaller>;
let member: ReturnType<typeof createCaller>;
let projectId: string;

const correct = arithmeticModel();
beforeAll(async () => {
  model = await startScriptedModelServer();
  // A prompt that says "sloppily" gets wrong sums: that revision scores 0.
  model.respondWith((request) =>
    requestText(request).includes("sloppily") ? { kind: "reply", text: "-1" } : correct(request),
  );
  t = await evaluationApp(model);
  const p = await t.newProject();
  ({ key, projectId } = p);
  owner = createCaller(createContextFrom(t.context, { principal: { projectId, userId: p.userId, role: "owner" } }));
  member = createCaller(createContextFrom(t.context, { principal: { projectId, userId: p.userId, role: "member" } }));
  worker = startWorker(t);
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await model.close();
});

const prompt = (text: string) => ({
  parameters: { prompt: { messages: [{ role: "user", content: text }], llm_config: { model: "openai/gpt-5-mini" } } },
});

async function evaluate(revisionId: string, testsetRevisionId: string, evaluatorRevisionId: string) {
  const res = await t.call("POST", "/api/simple/evaluations/", {
    key,
    body: {
      evaluation: {
        data: {
          testset_steps: [testsetRevisionId],
          application_steps: [revisionId],
          evaluator_steps: { [evaluatorRevisionId]: "auto" },
        },
      },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const done = await settled(t, key, res.body.evaluation.id, finished);
  expect(done.data.status).toBe("success");
  return res.body.evaluation.id as string;
}

const deploy = (revisionId: string, environment = "production") =>
  t.call("POST", "/api/applications/revisions/deploy", {
    key,
    body: { application_revision_ref: { id: revisionId }, environment_ref: { slug: environment } },
  });

describe("production deploy gate", () => {
  let app: { id: string; revision_id: string; slug: string };
  let good: string;
  let sloppy: string;
  let testset: { id: string; revision_id: string };
  let exact: { id: string; revision_id: string };
  let productionVariant: string;

  it("without a gate, production takes any deploy", async () => {
    app = await createEntity(t, key, "applications", "application", {
      slug: "adder",
      data: prompt("Add {{a}} and {{b}}."),
    });
    good = app.revision_id;
    const edit = await t.call("PUT", `/api/simple/applications/${app.id}`, {
      key,
      body: { application: { id: app.id, slug: "adder", data: prompt("Add {{a}} and {{b}} sloppily.") } },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    sloppy = edit.body.application.revision_id;
    testset = await createEntity(t, key, "testsets", "testset", {
      slug: "sums",
      data: { testcases: ADDITIONS.slice(0, 4) },
    });
    exact = await createEntity(t, key, "evaluators", "evaluator", {
      slug: "exact",
      data: { uri: "svc:builtin:auto_exact_match:v0", parameters: {} },
    });
    expect((await deploy(sloppy)).status).toBe(200);
    productionVariant = (await owner.environments.list()).find((e) => e.slug === "production")!.variantId;
    // Take it out again, so the gated deploys below change production.
    const removed = await t.call("POST", "/api/environments/revisions/commit", {
      key,
      body: {
        environment_revision_commit: {
          environment_variant_id: productionVariant,
          delta: { remove: ["adder.revision"] },
        },
      },
    });
    expect(removed.status).toBe(200);
  });

  it("only owners set it; its testset and evaluator must be the project's; members read it", async () => {
    await expect(
      member.deployGate.set({ testsetId: testset.id, evaluatorId: exact.id, minScore: 0.8 }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      owner.deployGate.set({ testsetId: exact.id, evaluatorId: exact.id, minScore: 0.8 }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("testsetId") });
    const gate = await owner.deployGate.set({ testsetId: testset.id, evaluatorId: exact.id, minScore: 0.8 });
    expect(gate).toMatchObject({ testset: { slug: "sums" }, evaluator: { slug: "exact" }, minScore: 0.8 });
    expect(await member.deployGate.get()).toMatchObject({ testset: { slug: "sums" }, minScore: 0.8 });
  });

  it("refuses a revision with no evaluation, naming the testset, the evaluator and the minimum; other environments are not gated", async () => {
    const refused = await deploy(good);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("evaluation_required");
    expect(refused.body.detail).toContain('testset "sums"');
    expect(refused.body.detail).toContain('scored by "exact"');
    expect(refused.body.detail).toContain("at least 0.8");
    expect(refused.body.detail).toContain('application "adder" version 1 has no finished evaluation');
    expect((await deploy(good, "staging")).status).toBe(200);
  });

  it("takes a revision whose latest evaluation scored at or above the minimum; refuses one below it, on every door", async () => {
    await evaluate(good, testset.revision_id, exact.revision_id);
    await evaluate(sloppy, testset.revision_id, exact.revision_id);

    const below = await deploy(sloppy);
    expect(below.status).toBe(409);
    expect(below.body.code).toBe("evaluation_below_threshold");
    expect(below.body.detail).toMatch(
      /the latest evaluation of application "adder" version 2 \(run [0-9a-f-]+\) scored 0\./,
    );

    const byData = await t.call("POST", "/api/environments/revisions/commit", {
      key,
      body: {
        environment_revision_commit: {
          environment_variant_id: productionVariant,
          data: { references: { "adder.revision": { application_revision: { id: sloppy } } } },
        },
      },
    });
    expect(byData.status).toBe(409);
    expect(byData.body.code).toBe("evaluation_below_threshold");
    const byDelta = await t.call("POST", "/api/environments/revisions/commit", {
      key,
      body: {
        environment_revision_commit: {
          environment_variant_id: productionVariant,
          delta: { set: { "adder.revision": { application_revision: { id: sloppy } } } },
        },
      },
    });
    expect(byDelta.status).toBe(409);
    // A floating entry would run whatever is committed next: refused while the gate is on.
    const floating = await t.call("POST", "/api/environments/revisions/commit", {
      key,
      body: {
        environment_revision_commit: {
          environment_variant_id: productionVariant,
          delta: { set: { "adder.revision": { application: { id: app.id } } } },
        },
      },
    });
    expect(floating.status).toBe(409);
    expect(floating.body.detail).toContain("pinned application revision");

    const ok = await deploy(good);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // Redeploying what production runs changes nothing and passes; so does removing it.
    expect((await deploy(good)).status).toBe(200);
  });

  it("the playground's deploy meets the same rule, with the message as the error", async () => {
    const agent = await owner.agents.create({ name: "Gated agent" });
    await expect(
      owner.agents.deploy({ revisionId: agent.revision.id, environment: "production" }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining('workflow "gated-agent" version 1') });
    await owner.agents.deploy({ revisionId: agent.revision.id, environment: "development" });
  });

  it("the dialog's evidence: each side's latest evaluation on the gate's testset, and the deltas", async () => {
    const evidence = await owner.deployGate.evidence({ revisionId: sloppy, currentRevisionId: good });
    expect(evidence.testsetId).toBe(testset.id);
    expect(evidence.candidate.latest?.scores).toEqual([
      expect.objectContaining({ evaluatorSlug: "exact", score: 0, count: 4 }),
    ]);
    expect(evidence.current?.latest?.scores[0].score).toBe(1);
    expect(evidence.deltas).toEqual({ exact: -1 });
    const none = await owner.deployGate.evidence({
      revisionId: (await owner.agents.create({ name: "New" })).revision.id,
    });
    expect(none.candidate).toEqual({});
  });

  it("a worse re-run takes a revision out of production's reach; clearing the gate lifts it", async () => {
    await owner.deployGate.set({ testsetId: testset.id, evaluatorId: exact.id, minScore: 1.5 });
    expect((await deploy(sloppy)).status).toBe(409);
    await owner.deployGate.clear();
    expect(await getDeployGate(t.context.db, projectId)).toBeUndefined();
    expect((await deploy(sloppy)).status).toBe(200);
  });
});
