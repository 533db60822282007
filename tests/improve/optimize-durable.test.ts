import { and, eq, like, lte } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/server/core/ids";
import { events, improveCandidates, improveOptimizations, variants } from "@/server/db/schema";
import { getSimpleEvaluation, querySimpleEvaluations } from "@/server/evaluations";
import { optimizationPass } from "@/server/improve";
import { domainKeys, Lookup } from "@/server/versioning";
import { startScriptedModelServer, type ScriptedModelServer } from "../helpers/scripted-model-server";
import type { TestApp } from "../helpers/test-app";
import { evaluationApp, startWorker, workersIdle } from "../evaluations/eval-fixtures";
import { drive, improveModel, read, seedProject, start, startBody, type Seeded } from "./optimize-fixtures";

// Durability, the spend cap and cancel, each against an uninterrupted optimization of the same
// seed: an optimization is deterministic given its seed, so a resumed one must end the same.
let t: TestApp;
let model: ScriptedModelServer;
let worker: { stop(): Promise<void> };
let key: string;
let projectId: string;
let seeded: Seeded;
let optimizerCalls = 0;
let reference: any;
let referenceCalls: number;

beforeAll(async () => {
  model = await startScriptedModelServer();
  model.respondWith(improveModel(() => optimizerCalls++));
  t = await evaluationApp(model);
  ({ key, projectId } = await t.newProject());
  worker = startWorker(t);
  seeded = await seedProject(t, key);
  reference = await drive(t, key, (await start(t, key, startBody(seeded))).id);
  referenceCalls = optimizerCalls;
  expect(reference.status).toBe("succeeded");
}, 600_000);
afterAll(async () => {
  await worker.stop();
  await t.close();
  await model.close();
});

const candidates = (id: string) =>
  t.context.db.select().from(improveCandidates).where(eq(improveCandidates.optimizationId, id));
const runsOf = async (id: string) =>
  (await querySimpleEvaluations(t.context.db, projectId, { meta: { improve_optimization_id: id } }, { limit: 100 }))
    .items;
const applications = () => new Lookup(t.context.db, projectId, domainKeys("applications"));
const systemOf = async (revisionId: string) =>
  JSON.stringify(((await applications().revision({ id: revisionId })).data!.parameters as any).prompt.messages);

/** What must not depend on who ran it: everything but ids, slugs and times. */
const outcome = (o: any) => ({
  history: o.history.map((r: any) => ({
    round: r.round,
    best_score: r.best_score,
    candidates: r.candidates.map((c: any) => ({
      strategy: c.strategy,
      train_score: c.train_score,
      summary: c.summary,
    })),
  })),
  result: {
    ...o.result,
    winner_revision_id: undefined,
    winner_variant_slug: undefined,
    base: { train_score: o.result.base.train_score, holdout_score: o.result.base.holdout_score },
    winner: { train_score: o.result.winner.train_score, holdout_score: o.result.winner.holdout_score },
    per_testcase: o.result.per_testcase.map((p: any) => [p.base, p.winner, p.outcome]),
  },
});

describe("optimize: durable", () => {
  it("a worker that dies mid-round leaves its lease; another resumes from the rows and ends the same", async () => {
    const id = (await start(t, key, startBody(seeded))).id;
    // Two passes: the base's run, then (after it) round 1's proposals, commits and runs.
    await optimizationPass(t.context, 1, { pollMs: 0 });
    await workersIdle(t);
    await t.context.db
      .update(improveOptimizations)
      .set({ nextAt: t.context.now() })
      .where(eq(improveOptimizations.id, id));
    await optimizationPass(t.context, 1, { pollMs: 0 });
    const round1 = (await candidates(id)).filter((c) => c.round === 1);
    expect(round1).toHaveLength(2);
    expect(round1.every((c) => c.revisionId && c.trainRunId)).toBe(true);
    const callsBeforeCrash = optimizerCalls;

    // The crash: a worker claimed it and died, after creating a run it never recorded.
    const lost = round1[1]!;
    await t.context.db
      .update(improveOptimizations)
      .set({ leaseToken: newId(), leaseUntil: new Date(t.context.now().getTime() + 60_000), nextAt: t.context.now() })
      .where(eq(improveOptimizations.id, id));
    await t.context.db.update(improveCandidates).set({ trainRunId: null }).where(eq(improveCandidates.id, lost.id));
    await workersIdle(t);
    // While the dead worker's lease lasts, nobody takes it.
    expect(await optimizationPass(t.context, 1, { pollMs: 0 })).toBe(0);
    const held = await t.context.db
      .select()
      .from(improveOptimizations)
      .where(and(eq(improveOptimizations.id, id), lte(improveOptimizations.leaseUntil, t.context.now())));
    expect(held).toHaveLength(0);

    t.advanceClock(61_000);
    const resumed = await drive(t, key, id);
    expect(resumed.status, JSON.stringify(resumed)).toBe("succeeded");
    expect(outcome(resumed)).toEqual(outcome(reference));
    expect(await systemOf(resumed.result.winner_revision_id)).toBe(await systemOf(reference.result.winner_revision_id));

    // Nothing made twice: the run it lost is found by its meta, the proposals are not asked again.
    expect((await candidates(id)).find((c) => c.id === lost.id)!.trainRunId).toBe(lost.trainRunId);
    expect((await runsOf(id)).length).toBe((await runsOf(reference.id)).length);
    expect(optimizerCalls - referenceCalls).toBe(referenceCalls);
    expect(optimizerCalls).toBeGreaterThan(callsBeforeCrash - 1);
    const own = await t.context.db
      .select()
      .from(variants)
      .where(and(eq(variants.artifactId, seeded.prompt.id), like(variants.slug, "improve/%")));
    const mine = (await candidates(id)).filter((c) => c.round > 0 && c.variantId);
    expect(own.filter((v) => mine.some((c) => c.variantId === v.id))).toHaveLength(mine.length);
  }, 600_000);

  it("the spend cap stops it with the best it has (status stopped, scored on the training split)", async () => {
    // The cap is a little over what the reference had spent when its first round was scored:
    // the same seed passes it during the second round (however far its runs got when the cap is
    // checked), so it stops with the first round's best and never runs the holdout.
    const ref = await candidates(reference.id);
    const round1Spend = ref
      .filter((c) => c.round <= 1)
      .reduce(
        (sum, c) =>
          sum +
          Number(c.optimizerCostUsd) +
          Object.values((c.trainCases ?? {}) as Record<string, { cost_usd?: number }>).reduce(
            (s, x) => s + (x.cost_usd ?? 0),
            0,
          ),
        0,
      );
    expect(round1Spend).toBeGreaterThan(0);
    const cap = (round1Spend + 0.00001).toFixed(6);
    const id = (await start(t, key, startBody(seeded, { spend_cap_usd: cap }))).id;
    const stopped = await drive(t, key, id);
    expect(stopped.status, JSON.stringify(stopped)).toBe("stopped");
    expect(stopped.stop_reason).toBe("spend_cap");
    expect(Number(stopped.spend_usd)).toBeGreaterThanOrEqual(Number(cap));
    expect(stopped.history.map((r: any) => r.round)).toEqual([1, 2]);
    expect(stopped.result.split).toBe("train");
    expect(stopped.result.winner.train_score).toBe(1);
    expect(stopped.result.winner.holdout_score).toBeUndefined();
    expect(await systemOf(stopped.result.winner_revision_id)).toContain("CARRY RULE");
    expect((await candidates(id)).some((c) => c.holdoutRunId)).toBe(false);
    const [event] = await t.context.db
      .select()
      .from(events)
      .where(and(eq(events.projectId, projectId), eq(events.eventType, "improve.optimizations.finished")))
      .then((rows) => rows.filter((r) => (r.attributes as any).optimization_id === id));
    expect(event!.attributes).toMatchObject({ status: "stopped", stop_reason: "spend_cap" });
  }, 600_000);

  it("cancel ends it cancelled, stops its running evaluation runs, and a worker does nothing more", async () => {
    const id = (await start(t, key, startBody(seeded))).id;
    // One pass: the base's evaluation run is made and the optimization waits on it (how far the
    // evaluation worker got meanwhile depends on the host; the optimization is running either way).
    await optimizationPass(t.context, 1, { pollMs: 0 });
    const before = await candidates(id);
    const running = before.filter((c) => c.trainRunId);
    expect(running.length).toBeGreaterThan(0);
    expect((await read(t, key, id)).status).toBe("running");
    const res = await t.call("POST", `/api/improve/optimizations/${id}/cancel`, { key });
    expect(res.status).toBe(202);
    const cancelled = await read(t, key, id);
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.finished_at).toBeDefined();
    for (const c of running) {
      const run = await getSimpleEvaluation(t.context.db, projectId, c.trainRunId!);
      expect(["cancelled", "success"]).toContain(run!.data.status);
    }
    await t.context.db
      .update(improveOptimizations)
      .set({ nextAt: t.context.now() })
      .where(eq(improveOptimizations.id, id));
    expect(await optimizationPass(t.context, 5, { pollMs: 0 })).toBe(0);
    expect((await candidates(id)).length).toBe(before.length);
    expect((await read(t, key, id)).status).toBe("cancelled");
  }, 600_000);
});
