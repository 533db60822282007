import { z } from "zod";
import { listEnvironmentStates } from "@/server/domains/environments/overview";
import { DOMAIN_SPECS } from "@/server/domains/specs";
import { queryRevisions } from "@/server/versioning";
import { revisionToWire } from "@/server/versioning/wire";
import { createTRPCRouter, projectProcedure } from "../init";
import { scopeOf } from "./scope";

const spec = DOMAIN_SPECS.environments;

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
    .input(z.strictObject({ variantId: z.string().uuid(), cursor: z.string().uuid().optional(), limit: z.number().int().min(1).max(200).default(50) }))
    .query(async ({ ctx, input }) => {
      const result = await queryRevisions(ctx.app.db, scopeOf(ctx), spec, {
        variantRefs: [{ id: input.variantId }],
        includeArchived: true,
        windowing: { limit: input.limit, next: input.cursor },
      });
      return { next: result.next, items: result.items.map((r) => revisionToWire(spec.keys, r)) };
    }),
});
