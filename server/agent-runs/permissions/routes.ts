import { z } from "zod";
import { defineRoute } from "@/server/http/route";
import { interactionQuerySchema, interactionWireSchema, queryInteractions } from "./interactions";
import { clockOf, interactionById, respondBodySchema, respondToInteraction } from "./respond-interaction";

const TAG = "agent";
const params = z.strictObject({ id: z.string().min(1).max(200) });
const one = z.strictObject({ count: z.literal(1), interaction: interactionWireSchema });

/**
 * The reference's session interactions, over the approval requests paused runs issued
 * (server/agent-runs/permissions/README.md, "Answering out of band").
 */
export const interactionRoutes = [
  defineRoute({
    method: "POST",
    path: "/api/sessions/interactions/query",
    auth: "api_key",
    keyScope: "run",
    role: "viewer",
    tag: TAG,
    summary:
      "List the project's approval requests as interactions, newest first: query {session_id, kind, status, actionable_only}, windowing {limit, next}",
    body: interactionQuerySchema,
    response: z.strictObject({
      count: z.number().int(),
      interactions: z.array(interactionWireSchema),
      windowing: z.strictObject({ next: z.string() }).optional(),
    }),
    errors: ["invalid_cursor"],
    handler: async ({ ctx, body }) => {
      const page = await queryInteractions(ctx.app.db, ctx.principal.projectId, body, clockOf(ctx.app));
      return {
        count: page.items.length,
        interactions: page.items,
        ...(page.next ? { windowing: { next: page.next } } : {}),
      };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/sessions/interactions/{id}",
    auth: "api_key",
    keyScope: "run",
    tag: TAG,
    summary: "One approval request as an interaction: what it asks (tool, args, tool call) and its status",
    params,
    response: one,
    errors: ["interaction_not_found"],
    handler: async ({ ctx, params }) => ({
      count: 1 as const,
      interaction: await interactionById(ctx.app, ctx.principal.projectId, params.id),
    }),
  }),
  defineRoute({
    method: "POST",
    path: "/api/sessions/interactions/{id}/respond",
    auth: "api_key",
    keyScope: "run",
    tag: TAG,
    summary:
      "Answer a pending approval out of band: the paused run is continued as a background run (data.response.run_id); 409 once it is no longer pending (mutating: runs the model)",
    params,
    body: respondBodySchema,
    response: one,
    errors: ["bad_request", "interaction_not_found", "interaction_not_pending"],
    handler: async ({ ctx, params, body }) => ({
      count: 1 as const,
      interaction: await respondToInteraction(ctx.app, ctx.principal, params.id, body),
    }),
  }),
];
