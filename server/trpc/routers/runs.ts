import { z } from "zod";
import { listRuns, RUN_ORIGINS, RUN_STATUSES, runToWire, type RunOrigin, type RunStatus } from "@/server/agent-runs";
import { createTRPCRouter, projectProcedure } from "../init";

/** Agent runs, read the way `GET /services/agent/v0/runs` reads them (server/agent-runs/runs). */
export const runsRouter = createTRPCRouter({
  /**
   * One agent's runs, newest first: its draft chat's runs and its nested runs (another agent's
   * reference tool ran it) included, each labelled by its `origin`; `cursor` is the `next` of the
   * page before (any role may read).
   */
  list: projectProcedure
    .input(
      z.strictObject({
        agentId: z.string().uuid(),
        status: z
          .array(z.enum(RUN_STATUSES as [RunStatus, ...RunStatus[]]))
          .max(RUN_STATUSES.length)
          .optional(),
        /** The doors the runs came through (MCP, A2A, the OpenAI-compatible API ...). */
        origin: z
          .array(z.enum(RUN_ORIGINS as [RunOrigin, ...RunOrigin[]]))
          .max(RUN_ORIGINS.length)
          .optional(),
        limit: z.number().int().min(1).max(100).default(25),
        cursor: z.string().uuid().nullish(),
        // Sent by tRPC's infinite queries; pages only go on to older runs, so only "forward".
        direction: z.literal("forward").optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const page = await listRuns(
        ctx.app.db,
        ctx.principal.projectId,
        { agentId: input.agentId, status: input.status, origin: input.origin, nested: true },
        { limit: input.limit, before: input.cursor ?? undefined },
      );
      return { runs: page.items.map(runToWire), next: page.next ?? null };
    }),
});
