import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, spans } from "@/server/db/schema";
import { spanIngestWorker } from "@/server/tracing";
import { domainKeys, Lookup } from "@/server/versioning";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import { evaluationApp, startWorker } from "../evaluations/eval-fixtures";
import {
  BASE_SYSTEM,
  MISSING_RULE,
  drive,
  improveModel,
  read,
  seedProject,
  start,
  startBody,
  type Seeded,
} from "./optimize-fixtures";

// A prompt application whose instructions lack a rule fails every even addition; shown those
// failures, the scripted optimizer model proposes the rule. The optimization must find it, commit
// every candidate on its own improve/ variant, and report the winner better on the held-out split.
let t: TestApp;
let model: ScriptedModelServer;
let worker: { stop(): Promise<void> };
let key: string;
let projectId: string;
let seeded: Seeded;
const optimizerPrompts: string[] = [];
let finished: any;

beforeAll(async () => {
  model = await startScriptedModelServer();
  model.respondWith(improveModel((request) => optimizerPrompts.push(JSON.stringify(request.body))));
  t = await evaluationApp(model);
  ({ key, projectId } = await t.newProject());
  worker = startWorker(t);
  seeded = await seedProject(t, key);
  const started = await start(t, key, startBody(seeded));
  expect(started.status).toBe("queued");
  finished = await drive(t, key, started.id);
}, 600_000);
afterAll(async () => {
  await worker.stop();
  await t.close();
  await model.close();
});

const applications = () => new Lookup(t.context.db, projectId, domainKeys("applications"));

describe("optimize: a reflective rewrite finds the missing instruction", () => {
  it("succeeds with a winner whose held-out score beats the base's, and says by how much", () => {
    expect(finished.status, JSON.stringify(finished)).toBe("succeeded");
    expect(finished.split).toEqual({ train: 8, holdout: 4 });
    const r = finished.result;
    expect(r.split).toBe("holdout");
    expect(r.winner.holdout_score).toBeGreaterThan(r.base.holdout_score);
    expect(r.winner.holdout_score).toBe(1);
    // Every even addition of the training split fails the base; none fails the winner.
    expect(r.base.train_score).toBeGreaterThan(0);
    expect(r.base.train_score).toBeLessThan(1);
    expect(r.winner.train_score).toBe(1);
    expect(r.per_testcase).toHaveLength(4);
    expect(r.wins).toBeGreaterThan(0);
    expect(r.losses).toBe(0);
    expect(r.wins + r.ties).toBe(4);
    expect(r.difference).toMatchObject({ confidence: 0.95, method: "bootstrap", resamples: 2000 });
    expect(r.difference.mean).toBeCloseTo(r.winner.holdout_score - r.base.holdout_score, 10);
    expect(r.difference.ci_low).toBeLessThanOrEqual(r.difference.mean);
    expect(r.difference.ci_high).toBeGreaterThanOrEqual(r.difference.mean);
    expect(r.base.cost_usd_per_case).toBeGreaterThanOrEqual(0);
    expect(typeof r.winner.latency_ms_p50).toBe("number");
    expect(finished.progress).toMatchObject({ round: 2, rounds: 2, best_score: 1 });
    expect(finished.finished_at).toBeDefined();
  });

  it("the winner's diff from the base is the missing instruction, from the reflective strategy", async () => {
    const winner = await applications().revision({ id: finished.result.winner_revision_id });
    const base = await applications().revision({ id: seeded.prompt.revision_id });
    const system = (rev: typeof winner) =>
      ((rev.data!.parameters as any).prompt.messages as { role: string; content: string }[]).find(
        (m) => m.role === "system",
      )!.content;
    expect(system(base)).toBe(BASE_SYSTEM);
    expect(system(winner)).toContain(MISSING_RULE);
    expect(system(winner).replace(MISSING_RULE, "").trim()).toBe(BASE_SYSTEM);
    const first = finished.history[0].candidates.find((c: any) => c.revision_id === winner.id);
    expect(first.strategy).toBe("reflective");
    // The rewriter was shown the failing training cases with the evaluator's verdicts.
    expect(optimizerPrompts.length).toBeGreaterThan(0);
    expect(optimizerPrompts[0]).toContain("Failing training cases");
    expect(optimizerPrompts[0]).toContain("adder-exact: score 0");
  });

  it("every candidate is a commit on its own improve/ variant of the base artifact", async () => {
    const all = finished.history.flatMap((r: any) => r.candidates);
    expect(all.length).toBe(4);
    expect(finished.history.map((r: any) => r.round)).toEqual([1, 2]);
    const slugs = new Set<string>();
    for (const c of all) {
      const rev = await applications().revision({ id: c.revision_id });
      expect(rev.artifactId).toBe(seeded.prompt.id);
      expect(rev.variantSlug).toBe(c.variant_slug);
      expect(rev.variantSlug).toMatch(/^improve\/[0-9a-f]{8}$/);
      expect(String(rev.version)).toBe(c.version);
      expect(typeof c.train_score).toBe("number");
      expect(c.evaluation_run_id).toBeDefined();
      slugs.add(c.variant_slug);
    }
    expect(slugs.size).toBe(all.length);
    expect(new Set(all.map((c: any) => c.strategy))).toEqual(new Set(["reflective", "few_shot"]));
    // The base's own variant got no commit.
    const base = await applications().revision({ id: seeded.prompt.revision_id });
    const variant = await applications().variant({ id: base.variantId });
    expect(variant.headVersion).toBe(base.version);
  });

  it("the optimizer's model call is traced and priced like the service's other model calls", async () => {
    await spanIngestWorker.drain(t.context, 1000);
    const rows = await t.context.db.select().from(spans).where(eq(spans.projectId, projectId));
    const own = rows.filter((s) => JSON.stringify(s).includes("improve-optimizer"));
    expect(own.length).toBeGreaterThan(0);
    expect(Number(finished.spend_usd)).toBeGreaterThan(0);
  });

  it("writes improve.optimizations.finished to the outbox", async () => {
    const rows = await t.context.db
      .select()
      .from(events)
      .where(and(eq(events.projectId, projectId), eq(events.eventType, "improve.optimizations.finished")));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.attributes).toMatchObject({
      optimization_id: finished.id,
      status: "succeeded",
      winner_revision_id: finished.result.winner_revision_id,
    });
  });

  it("GET lists it and /events replays progress, rounds and the end, then closes", async () => {
    const list = await t.call("GET", "/api/improve/optimizations?limit=5", { key });
    expect(list.status).toBe(200);
    expect(list.body.optimizations.map((o: any) => o.id)).toContain(finished.id);
    const stream = await t.call("GET", `/api/improve/optimizations/${finished.id}/events`, { key });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    const text = String(stream.body);
    expect(text).toContain("event: progress");
    expect(text.match(/event: round/g)).toHaveLength(2);
    expect(text).toContain("event: finished");
  });

  it("ships: review names the variant; canary starts beside the deployed base", async () => {
    const review = await t.call("POST", `/api/improve/optimizations/${finished.id}/ship`, {
      key,
      body: { action: "review" },
    });
    expect(review.status, JSON.stringify(review.body)).toBe(201);
    expect(review.body.shipped).toMatchObject({ action: "review", revision_id: finished.result.winner_revision_id });

    const deploy = await t.call("POST", "/api/applications/revisions/deploy", {
      key,
      body: { application_revision_ref: { id: seeded.prompt.revision_id }, environment_ref: { slug: "production" } },
    });
    expect(deploy.status, JSON.stringify(deploy.body)).toBe(200);
    const canary = await t.call("POST", `/api/improve/optimizations/${finished.id}/ship`, {
      key,
      body: { action: "canary", environment: "production", weight: 10 },
    });
    expect(canary.status, JSON.stringify(canary.body)).toBe(201);
    expect(canary.body.shipped.canary_id).toBeDefined();
    const got = await t.call("GET", `/api/environments/canaries/${canary.body.shipped.canary_id}`, { key });
    expect(got.body.canary).toMatchObject({ status: "running", weight: 10 });
    expect(JSON.stringify(got.body.canary)).toContain(finished.result.winner_revision_id);
  });
});

describe("optimize: bad input is a 4xx naming the problem", () => {
  const post = (body: Record<string, unknown>) => t.call("POST", "/api/improve/optimizations", { key, body });

  it("reflective without a model is a 422", async () => {
    const res = await post({ ...startBody(seeded), model: undefined });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/reflective/);
  });
  it("an unknown base revision is a 404", async () => {
    const res = await post({ ...startBody(seeded), base_revision_id: "00000000-0000-7000-8000-000000000000" });
    expect(res.status).toBe(404);
  });
  it("an unknown evaluator revision is a 404", async () => {
    const res = await post({ ...startBody(seeded), evaluator_revision_ids: ["00000000-0000-7000-8000-000000000000"] });
    expect(res.status).toBe(404);
  });
  it("a testset with fewer than 2 testcases is a 422", async () => {
    const one = await t.call("POST", "/api/simple/testsets/", {
      key,
      body: { testset: { slug: "one-case", data: { testcases: [{ a: 1, b: 2, correct_answer: "3" }] } } },
    });
    const res = await post({ ...startBody(seeded), testset_revision_id: one.body.testset.revision_id });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/at least 2/);
  });
  it("a sweep model outside the project's allowlist is a 422 naming the allowlist", async () => {
    const other = await t.newProject();
    const s = await seedProject(t, other.key, "walled");
    const allow = await t.call("POST", "/api/controls/allowlists/", {
      key: other.key,
      body: { scope: "project", patterns: ["openai/*"] },
    });
    expect(allow.status, JSON.stringify(allow.body)).toBeLessThan(300);
    const res = await t.call("POST", "/api/improve/optimizations", {
      key: other.key,
      body: { ...startBody(s), strategies: ["parameter_sweep"], sweep_models: ["anthropic/claude-sonnet-4-5"] },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain("the project's model allowlist (openai/*)");
  });
  it("ship before a result is a 409; cancel of an ended one is a 409; an unknown id is a 404", async () => {
    const queued = await post({ ...startBody(seeded), strategies: ["few_shot"], model: undefined });
    expect(queued.status).toBe(202);
    const ship = await t.call("POST", `/api/improve/optimizations/${queued.body.optimization.id}/ship`, {
      key,
      body: { action: "review" },
    });
    expect(ship.status).toBe(409);
    expect(
      (await t.call("POST", `/api/improve/optimizations/${queued.body.optimization.id}/cancel`, { key })).status,
    ).toBe(202);
    expect((await read(t, key, queued.body.optimization.id)).status).toBe("cancelled");
    expect((await t.call("POST", `/api/improve/optimizations/${finished.id}/cancel`, { key })).status).toBe(409);
    expect(
      (await t.call("GET", "/api/improve/optimizations/00000000-0000-7000-8000-000000000000", { key })).status,
    ).toBe(404);
  });
});
