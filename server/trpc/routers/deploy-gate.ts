import { z } from "zod";
import {
  clearDeployGate,
  deployEvidence,
  getDeployGate,
  setDeployGate,
  type DeployGate,
  type EvaluationSummary,
  type RevisionEvidence,
} from "@/server/deploy-gates";
import { DOMAIN_SPECS } from "@/server/domains";
import { createSimpleEvaluation } from "@/server/evaluations";
import { queryArtifacts, resolveRevision } from "@/server/versioning";
import { createTRPCRouter, memberProcedure, ownerProcedure, projectProcedure } from "../init";
import { scopeOf } from "./scope";

const id = z.string().uuid();

const gateWire = (gate: DeployGate | undefined) =>
  gate ? { ...gate, updatedAt: gate.updatedAt.toISOString(), updatedById: gate.updatedById ?? undefined } : null;

const summaryWire = (s: EvaluationSummary | undefined) =>
  s ? { ...s, createdAt: s.createdAt.toISOString(), name: s.name ?? undefined } : undefined;

const evidenceWire = (e: RevisionEvidence | undefined) =>
  e ? { latest: summaryWire(e.latest), running: summaryWire(e.running) } : undefined;

/** The production deploy gate (project settings) and the evaluation evidence the deploy dialog shows. */
export const deployGateRouter = createTRPCRouter({
  get: projectProcedure.query(async ({ ctx }) => gateWire(await getDeployGate(ctx.app.db, ctx.principal.projectId))),

  set: ownerProcedure
    .input(z.strictObject({ testsetId: id, evaluatorId: id, minScore: z.number().finite().min(-1e9).max(1e9) }))
    .mutation(async ({ ctx, input }) => gateWire(await setDeployGate(ctx.app.db, scopeOf(ctx), input))),

  clear: ownerProcedure.mutation(async ({ ctx }) => {
    await clearDeployGate(ctx.app.db, ctx.principal.projectId);
    return null;
  }),

  /** Testsets and evaluators to pick from (the gate's form, the dialog's "run an evaluation"). */
  choices: projectProcedure.query(async ({ ctx }) => {
    const list = async (domain: "testsets" | "evaluators") =>
      (await queryArtifacts(ctx.app.db, scopeOf(ctx), DOMAIN_SPECS[domain], { windowing: { limit: 1000 } })).items.map(
        (a) => ({ id: a.id, slug: a.slug, name: a.name }),
      );
    return { testsets: await list("testsets"), evaluators: await list("evaluators") };
  }),

  evidence: projectProcedure
    .input(z.strictObject({ revisionId: id, currentRevisionId: id.optional() }))
    .query(async ({ ctx, input }) => {
      const e = await deployEvidence(ctx.app.db, ctx.principal.projectId, input);
      return {
        gate: gateWire(e.gate),
        testsetId: e.testsetId,
        candidate: evidenceWire(e.candidate)!,
        current: evidenceWire(e.current),
        deltas: e.deltas,
      };
    }),

  /** One simple evaluation per revision, on the testset's and evaluators' latest revisions. */
  runEvaluation: memberProcedure
    .input(
      z.strictObject({
        revisionIds: z.array(id).min(1).max(2),
        testsetId: id,
        evaluatorIds: z.array(id).min(1).max(20),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const db = ctx.app.db;
      const { projectId } = ctx.principal;
      const latest = async (domain: "testsets" | "evaluators", artifactId: string) =>
        (await resolveRevision(db, projectId, DOMAIN_SPECS[domain].keys, { artifact: { id: artifactId } })).revision;
      const testset = await latest("testsets", input.testsetId);
      const evaluators = await Promise.all(input.evaluatorIds.map((e) => latest("evaluators", e)));
      const runIds: string[] = [];
      for (const revisionId of input.revisionIds) {
        const run = await createSimpleEvaluation(db, scopeOf(ctx), {
          name: `Deploy check on ${testset.artifactSlug}`,
          data: {
            testset_steps: [testset.id],
            application_steps: [revisionId],
            evaluator_steps: Object.fromEntries(evaluators.map((e) => [e.id, "auto" as const])),
          },
        });
        runIds.push(run.id);
      }
      return { runIds };
    }),
});
