import { z } from "zod";
import { listDeployLog, listEnvironmentOverview } from "@/server/domains";
import { listEnvironmentStates } from "@/server/domains";
import { DOMAIN_SPECS } from "@/server/domains";
import { queryRevisions } from "@/server/versioning";
import { revisionToWire } from "@/server/versioning";
import { createTRPCRouter, projectProcedure } from "../init";
import { scopeOf } from "./scope";

const spec = DOMAIN_SPECS.environments;
/** An environment revision without its payload: who deployed, when, with which message. */
const logWire = (r: Parameters<typeof revisionToWire>[1]) => revisionToWire(spec.keys, { ...r, data: undefined });

/** What each environment runs now, and its deploy history. */
export const environmentsRouter = createTRPCRouter({
  list: projectProcedure.query(async ({ ctx }) => {
    const states = await listEnvironmentStates(ctx.app.db, scopeOf(ctx));
    return states.map((s) => ({
      id: s.id,
      slug: s.slug,
      name: s.name,
      variantId: s.variantId,
      revision: s.revision ? revisionToWire(spec.keys, s.revision) : undefined,
      references: s.references,
    }));
  }),

  history: projectProcedure
    .input(
      z.strictObject({
        variantId: z.string().uuid(),
        cursor: z.string().uuid().optional(),
        limit: z.number().int().min(1).max(200).default(50),
      }),
    )
    .query(async ({ ctx, input }) => {
      const result = await queryRevisions(ctx.app.db, scopeOf(ctx), spec, {
        variantRefs: [{ id: input.variantId }],
        includeArchived: true,
        windowing: { limit: input.limit, next: input.cursor },
      });
      return { next: result.next, items: result.items.map((r) => revisionToWire(spec.keys, r)) };
    }),

  /** Every environment with what it runs now and the deploy that put each entry there. */
  overview: projectProcedure.query(async ({ ctx }) => {
    const overview = await listEnvironmentOverview(ctx.app.db, scopeOf(ctx));
    return overview.map((env) => ({
      id: env.id,
      slug: env.slug,
      name: env.name,
      variantId: env.variantId,
      revision: env.revision ? logWire(env.revision) : undefined,
      deployments: env.deployments.map(({ since, ...d }) => ({ ...d, since: since ? logWire(since) : undefined })),
    }));
  }),

  /** An environment's deploys, newest first, each with what it changed; `artifactId` keeps one agent's. */
  deploys: projectProcedure
    .input(
      z.strictObject({
        environment: z.string().min(1).max(128),
        artifactId: z.string().uuid().optional(),
        cursor: z.string().uuid().optional(),
        limit: z.number().int().min(1).max(200).default(25),
        // Added by TanStack's infinite queries; the cursor only goes forward.
        direction: z.enum(["forward", "backward"]).optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const log = await listDeployLog(ctx.app.db, scopeOf(ctx), {
        environment: input.environment,
        artifactId: input.artifactId,
        cursor: input.cursor,
        limit: input.limit,
      });
      return {
        environment: log.environment,
        next: log.next,
        items: log.items.map((entry) => ({ revision: logWire(entry.revision), changes: entry.changes })),
      };
    }),
});
