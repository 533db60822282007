import { z } from "zod";
import {
  annotateScenario,
  createSimpleQueue,
  queueRevisionChoices,
  reviewItems,
  reviewQueuesFor,
} from "@/server/evaluations";
import { createTRPCRouter, memberProcedure, projectProcedure } from "../init";
import { scopeOf } from "./scope";

const id = z.string().uuid();

/** Human review: the queues a person works in, their share of one, and their annotations. */
export const reviewRouter = createTRPCRouter({
  queues: projectProcedure.query(async ({ ctx }) =>
    (await reviewQueuesFor(ctx.app.db, scopeOf(ctx))).map((q) => ({ ...q, createdAt: q.createdAt.toISOString() })),
  ),

  /** The agents' and prompts' revisions a new queue may run its testcases through, for its picker. */
  revisions: projectProcedure.query(({ ctx }) => queueRevisionChoices(ctx.app.db, scopeOf(ctx))),

  /**
   * A queue over a testset revision's testcases, scored by people with these evaluators. With a
   * revision (an agent's or a prompt's), the evaluation engine runs each testcase through it
   * first and people review its output; without one, they review the testcases as they are.
   */
  create: memberProcedure
    .input(
      z.strictObject({
        name: z.string().trim().min(1).max(500),
        testsetRevisionId: id,
        revisionId: id.optional(),
        evaluatorRevisionIds: z.array(id).min(1, "pick at least one evaluator").max(20),
        repeats: z.number().int().min(1).max(10).default(1),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const queue = await createSimpleQueue(ctx.app.db, scopeOf(ctx), {
        name: input.name,
        data: {
          testsets: [input.testsetRevisionId],
          application: input.revisionId,
          evaluators: input.evaluatorRevisionIds,
          repeats: input.repeats,
        },
      });
      return { id: queue.id };
    }),

  items: projectProcedure
    .input(z.strictObject({ queueId: id }))
    .query(({ ctx, input }) => reviewItems(ctx.app.db, scopeOf(ctx), input.queueId)),

  annotate: memberProcedure
    .input(
      z
        .strictObject({
          queueId: id,
          scenarioId: id,
          stepKey: z.string().min(1).max(300),
          score: z.number().int().min(1).max(5).optional(),
          success: z.boolean().optional(),
          comment: z.string().max(10_000).optional(),
        })
        .refine((a) => a.score !== undefined || a.success !== undefined, "give a score (1 to 5) or pass / fail"),
    )
    .mutation(({ ctx, input }) => annotateScenario(ctx.app.db, scopeOf(ctx), input)),
});
