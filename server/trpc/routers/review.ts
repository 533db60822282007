import { z } from "zod";
import { annotateScenario, reviewItems, reviewQueuesFor } from "@/server/evaluations";
import { createTRPCRouter, memberProcedure, projectProcedure } from "../init";
import { scopeOf } from "./scope";

const id = z.string().uuid();

/** Human review: the queues a person works in, their share of one, and their annotations. */
export const reviewRouter = createTRPCRouter({
  queues: projectProcedure.query(async ({ ctx }) =>
    (await reviewQueuesFor(ctx.app.db, scopeOf(ctx))).map((q) => ({ ...q, createdAt: q.createdAt.toISOString() })),
  ),

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
