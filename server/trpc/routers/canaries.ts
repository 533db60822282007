import { z } from "zod";
import {
  canaryToWire,
  compareCanary,
  getCanary,
  listCanaries,
  promoteCanary,
  rampCanary,
  rollbackCanary,
  startCanary,
  type CanaryRow,
} from "@/server/canaries";
import type { Executor } from "@/server/db";
import { domainKeys, Lookup, type Scope } from "@/server/versioning";
import { createTRPCRouter, memberProcedure, projectProcedure } from "../init";
import { scopeOf } from "./scope";

const id = z.string().uuid();
const weight = z.number().gt(0).max(100);
const workflows = domainKeys("workflows");

/** A canary as the REST API answers it, plus the two revisions' versions for labels. */
async function withVersions(db: Executor, scope: Scope, row: CanaryRow) {
  const lookup = new Lookup(db, scope.projectId, workflows);
  const [baseline, candidate] = await Promise.all([
    lookup.revision({ id: row.baselineRevisionId }),
    lookup.revision({ id: row.candidateRevisionId }),
  ]);
  return {
    ...canaryToWire(row),
    baseline: { id: baseline.id, version: String(baseline.version), variant: baseline.variantSlug },
    candidate: { id: candidate.id, version: String(candidate.version), variant: candidate.variantSlug },
  };
}

/** Canary releases of agents: the playground's door into the same functions as the REST routes. */
export const canariesRouter = createTRPCRouter({
  list: projectProcedure
    .input(z.strictObject({ environmentId: id, running: z.boolean().default(false) }))
    .query(async ({ ctx, input }) => {
      const rows = await listCanaries(ctx.app.db, scopeOf(ctx).projectId, {
        environmentId: input.environmentId,
        status: input.running ? "running" : undefined,
        limit: 20,
      });
      return Promise.all(rows.map((row) => withVersions(ctx.app.db, scopeOf(ctx), row)));
    }),

  start: memberProcedure
    .input(
      z.strictObject({
        revisionId: id,
        environment: z.string().min(1),
        weight,
        ramp: z
          .strictObject({ steps: z.array(weight).min(1).max(20), intervalMinutes: z.number().int().min(1).max(10_080) })
          .optional(),
        /** Monitors whose firing rolls the canary back. */
        monitors: z.array(id).max(20).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const row = await startCanary(
        ctx.app.db,
        scopeOf(ctx),
        {
          environment: { slug: input.environment },
          keys: workflows,
          revision: { id: input.revisionId },
          weight: input.weight,
          ramp: input.ramp,
          ...(input.monitors?.length && { guards: { monitors: input.monitors } }),
        },
        ctx.app.now(),
      );
      return canaryToWire(row);
    }),

  ramp: memberProcedure
    .input(z.strictObject({ id, weight }))
    .mutation(async ({ ctx, input }) =>
      canaryToWire(await rampCanary(ctx.app.db, scopeOf(ctx), input.id, input.weight, ctx.app.now())),
    ),

  promote: memberProcedure
    .input(z.strictObject({ id, reason: z.string().trim().min(1).max(500).optional() }))
    .mutation(async ({ ctx, input }) =>
      canaryToWire(await promoteCanary(ctx.app.db, scopeOf(ctx), input.id, ctx.app.now(), input.reason)),
    ),

  rollback: memberProcedure
    .input(z.strictObject({ id, reason: z.string().trim().min(1).max(500).optional() }))
    .mutation(async ({ ctx, input }) =>
      canaryToWire(
        await rollbackCanary(ctx.app.db, scopeOf(ctx), input.id, input.reason ?? "rolled back by hand", ctx.app.now()),
      ),
    ),

  comparison: projectProcedure.input(z.strictObject({ id })).query(async ({ ctx, input }) => {
    const row = await getCanary(ctx.app.db, scopeOf(ctx).projectId, input.id);
    const environment = await new Lookup(ctx.app.db, row.projectId, domainKeys("environments")).artifact({
      id: row.environmentId,
    });
    return compareCanary(ctx.app.db, scopeOf(ctx), row, environment.slug, ctx.app.now());
  }),
});
