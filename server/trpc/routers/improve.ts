import { z } from "zod";
import { DOMAIN_SPECS } from "@/server/domains";
import { querySimpleEvaluations } from "@/server/evaluations";
import {
  cancelOptimization,
  getOptimization,
  listOptimizations,
  shipOptimization,
  shipOptimizationBody,
  startOptimization,
  startOptimizationBody,
  cancelTriage,
  evidenceSchema,
  failureModeEvaluatorBody,
  failureModeTestsetBody,
  failureModeToEvaluator,
  failureModeToTestset,
  getFailureMode,
  getTriage,
  listTriages,
  startTriage,
  startTriageBody,
} from "@/server/improve";
import { traceSearchQuery, traceSearchSchema } from "@/server/tracing";
import { fetchRevision, revisionToWire } from "@/server/versioning";
import { createTRPCRouter, memberProcedure, projectProcedure } from "../init";
import { scopeOf } from "./scope";

const id = z.string().uuid();
const byId = z.strictObject({ id });
const page = z.strictObject({ limit: z.number().int().min(1).max(100).default(50), cursor: id.optional() });
/** The traces list's filters (its URL), which the router turns into a triage's traces evidence. */
const traceFilters = traceSearchSchema.omit({ cursor: true, limit: true });

/**
 * The improvement loop in the playground: triages and their failure modes, optimizations and
 * their report, the same calls and wire shapes as server/improve's REST routes.
 */
export const improveRouter = createTRPCRouter({
  triages: projectProcedure.input(page).query(async ({ ctx, input }) => {
    const listed = await listTriages(ctx.app.db, ctx.principal.projectId, input);
    return { items: listed.triages, next: listed.next_cursor };
  }),

  triage: projectProcedure
    .input(byId)
    .query(({ ctx, input }) => getTriage(ctx.app.db, ctx.principal.projectId, input.id)),

  /**
   * Starts a triage. `traces` is the traces list's filters (or a chart's window): the router
   * writes them as the traces query the evidence takes, so the evidence names what was examined.
   */
  startTriage: memberProcedure
    .input(
      startTriageBody
        .extend({ evidence: evidenceSchema.optional(), traces: traceFilters.optional() })
        .refine((b) => Boolean(b.evidence) !== Boolean(b.traces), {
          message: "give the evidence or the traces filters, one of them",
          path: ["evidence"],
        }),
    )
    .mutation(({ ctx, input }) => {
      const { traces, evidence, ...rest } = input;
      return startTriage(ctx.app, scopeOf(ctx), {
        ...rest,
        evidence: evidence ?? tracesEvidence(traces!, ctx.app.now()),
      });
    }),

  cancelTriage: memberProcedure
    .input(byId)
    .mutation(({ ctx, input }) => cancelTriage(ctx.app.db, scopeOf(ctx), input.id, ctx.app.now())),

  failureMode: projectProcedure
    .input(byId)
    .query(({ ctx, input }) => getFailureMode(ctx.app.db, ctx.principal.projectId, input.id)),

  failureModeToTestset: memberProcedure.input(failureModeTestsetBody.extend({ id })).mutation(({ ctx, input }) => {
    const { id: modeId, ...body } = input;
    return failureModeToTestset(ctx.app.db, scopeOf(ctx), modeId, body);
  }),

  failureModeToEvaluator: memberProcedure.input(failureModeEvaluatorBody.extend({ id })).mutation(({ ctx, input }) => {
    const { id: modeId, ...body } = input;
    return failureModeToEvaluator(ctx.app.db, scopeOf(ctx), modeId, body);
  }),

  optimizations: projectProcedure.input(page).query(async ({ ctx, input }) => {
    const listed = await listOptimizations(ctx.app.db, ctx.principal.projectId, input);
    return { items: listed.optimizations, next: listed.nextCursor };
  }),

  optimization: projectProcedure
    .input(byId)
    .query(({ ctx, input }) => getOptimization(ctx.app.db, ctx.principal.projectId, input.id)),

  startOptimization: memberProcedure
    .input(startOptimizationBody)
    .mutation(({ ctx, input }) => startOptimization(ctx.app.db, scopeOf(ctx), input, ctx.app.now())),

  cancelOptimization: memberProcedure.input(byId).mutation(async ({ ctx, input }) => {
    await cancelOptimization(ctx.app.db, scopeOf(ctx), input.id);
    return { cancelled: true };
  }),

  ship: memberProcedure
    .input(z.strictObject({ id, ship: shipOptimizationBody }))
    .mutation(({ ctx, input }) => shipOptimization(ctx.app.db, scopeOf(ctx), input.id, input.ship, ctx.app.now())),

  /** The base's or the winner's revision, for the report's diff: an agent's or a prompt's. */
  revision: projectProcedure
    .input(z.strictObject({ id, kind: z.enum(["workflow", "application"]) }))
    .query(async ({ ctx, input }) => {
      const spec = DOMAIN_SPECS[input.kind === "workflow" ? "workflows" : "applications"];
      return revisionToWire(spec.keys, await fetchRevision(ctx.app.db, scopeOf(ctx), spec, input.id));
    }),

  /** Live evaluations (they score traffic): what a canary's minimum score is measured by. */
  liveEvaluations: projectProcedure.query(
    async ({ ctx }) =>
      (await querySimpleEvaluations(ctx.app.db, ctx.principal.projectId, { flags: { is_live: true } }, { limit: 100 }))
        .items,
  ),
});

function tracesEvidence(filters: z.output<typeof traceFilters>, now: Date) {
  const query = traceSearchQuery({ ...filters, limit: 1 }, now);
  const window = (query.windowing ?? {}) as { oldest?: string; newest?: string };
  return {
    kind: "traces" as const,
    ...(query.filtering ? { filter: query.filtering as Record<string, unknown> } : {}),
    ...(window.oldest ? { oldest: window.oldest } : {}),
    ...(window.newest ? { newest: window.newest } : {}),
    limit: 1000,
  };
}
