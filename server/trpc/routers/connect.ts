import { z } from "zod";
import { connectTargets, exposedListing, setAgentExposed, testA2aDoor } from "@/server/a2a";
import { slugSchema } from "@/server/core/slugs";
import { createTRPCRouter, memberProcedure, ownerProcedure, projectProcedure } from "../init";

const scopeOf = (ctx: { principal: { projectId: string; userId: string } }) => ({
  projectId: ctx.principal.projectId,
  userId: ctx.principal.userId,
});

/** The Connect panel: where an agent is exposed (MCP, A2A), the exposure toggle, the door test. */
export const connectRouter = createTRPCRouter({
  targets: projectProcedure
    .input(z.strictObject({ slug: slugSchema }))
    .query(({ ctx, input }) => connectTargets(ctx.app, scopeOf(ctx), input.slug)),
  /** The project's Connect page: every exposed agent and prompt its environments run now. */
  exposed: projectProcedure.query(({ ctx }) => exposedListing(ctx.app, scopeOf(ctx))),
  setExposed: ownerProcedure
    .input(z.strictObject({ slug: slugSchema, environment: slugSchema, exposed: z.boolean() }))
    .mutation(({ ctx, input }) => setAgentExposed(ctx.app, scopeOf(ctx), input)),
  testA2a: memberProcedure
    .input(z.strictObject({ name: z.string().regex(/^[A-Za-z0-9_.@-]{1,64}$/), message: z.string().min(1).max(4000) }))
    .mutation(({ ctx, input }) => testA2aDoor(ctx.app, ctx.principal, input.name, input.message)),
});
