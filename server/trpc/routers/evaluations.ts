import { z } from "zod";
import { NotFoundError } from "@/server/core/errors";
import { artifactsWithRevisions, DOMAIN_SPECS } from "@/server/domains";
import {
  compareRuns,
  deleteSimpleEvaluation,
  evaluateRevisions,
  evaluationTable,
  getSimpleEvaluation,
  latestEvaluationsOfRevisions,
  processCells,
  querySimpleEvaluations,
  startSimpleEvaluation,
  stopSimpleEvaluation,
} from "@/server/evaluations";
import { artifactToWire } from "@/server/versioning";
import { createTRPCRouter, memberProcedure, projectProcedure } from "../init";
import { scopeOf } from "./scope";

const id = z.string().uuid();
const byId = z.strictObject({ id });

/** Evaluation runs in the playground: start them over revisions, watch, stop, read and compare. */
export const evaluationsRouter = createTRPCRouter({
  list: projectProcedure
    .input(
      z.strictObject({
        applicationRevisionId: id.optional(),
        cursor: id.optional(),
        limit: z.number().int().min(1).max(200).default(50),
        direction: z.enum(["forward", "backward"]).optional(),
      }),
    )
    .query(({ ctx, input }) =>
      querySimpleEvaluations(
        ctx.app.db,
        ctx.principal.projectId,
        input.applicationRevisionId ? { meta: { application_revision_id: input.applicationRevisionId } } : {},
        { limit: input.limit, next: input.cursor },
      ),
    ),

  get: projectProcedure.input(byId).query(async ({ ctx, input }) => {
    const evaluation = await getSimpleEvaluation(ctx.app.db, ctx.principal.projectId, input.id);
    if (!evaluation) throw new NotFoundError(`evaluation ${input.id} does not exist in this project`);
    return evaluation;
  }),

  /** One row per testcase: inputs, output, cost, each evaluator's verdict. */
  table: projectProcedure
    .input(byId)
    .query(({ ctx, input }) => evaluationTable(ctx.app.db, ctx.principal.projectId, input.id)),

  /** Testsets with their newest revisions, for the run dialog. */
  testsets: projectProcedure.query(async ({ ctx }) =>
    (await artifactsWithRevisions(ctx.app.db, scopeOf(ctx), DOMAIN_SPECS.testsets, { perArtifact: 10 })).map((t) => ({
      testset: artifactToWire(t.artifact),
      revisions: t.revisions.map((r) => ({
        id: r.id,
        version: String(r.version),
        message: r.message,
        date: r.createdAt.toISOString(),
      })),
    })),
  ),

  create: memberProcedure
    .input(
      z
        .strictObject({
          name: z.string().trim().min(1).max(500).optional(),
          testsetRevisionId: id,
          revisionIds: z.array(id).max(10).default([]),
          drafts: z
            .array(z.strictObject({ name: z.string().trim().min(1).max(200), agent: z.unknown() }))
            .max(1)
            .default([]),
          evaluatorRevisionIds: z.array(id).min(1, "pick at least one evaluator").max(20),
          repeats: z.number().int().min(1).max(10).default(1),
        })
        .refine((i) => i.revisionIds.length + i.drafts.length > 0, {
          message: "pick at least one revision (or the draft) to evaluate",
          path: ["revisionIds"],
        }),
    )
    .mutation(({ ctx, input }) => evaluateRevisions(ctx.app.db, scopeOf(ctx), input)),

  start: memberProcedure
    .input(byId)
    .mutation(({ ctx, input }) => startSimpleEvaluation(ctx.app.db, scopeOf(ctx), input.id)),
  stop: memberProcedure
    .input(byId)
    .mutation(({ ctx, input }) => stopSimpleEvaluation(ctx.app.db, ctx.principal.projectId, input.id)),
  delete: memberProcedure
    .input(byId)
    .mutation(({ ctx, input }) => deleteSimpleEvaluation(ctx.app.db, ctx.principal.projectId, input.id)),

  /** Queues again the cells of these rows that did not succeed. */
  rerunRows: memberProcedure
    .input(z.strictObject({ id, scenarioIds: z.array(id).min(1).max(10_000) }))
    .mutation(async ({ ctx, input }) => {
      await processCells(ctx.app.db, ctx.principal.projectId, input.id, { scenario_ids: input.scenarioIds });
      return getSimpleEvaluation(ctx.app.db, ctx.principal.projectId, input.id);
    }),

  compare: projectProcedure
    .input(z.strictObject({ ids: z.array(id).min(2).max(5) }))
    .query(({ ctx, input }) => compareRuns(ctx.app.db, ctx.principal.projectId, input.ids)),

  /** The newest evaluations of these revisions on a common testset revision (empty when there is none). */
  ofRevisions: projectProcedure
    .input(z.strictObject({ revisionIds: z.array(id).min(2).max(5) }))
    .query(({ ctx, input }) => latestEvaluationsOfRevisions(ctx.app.db, ctx.principal.projectId, input.revisionIds)),
});
