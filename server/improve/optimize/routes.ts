import { z } from "zod";
import { defineRoute, type AnyRoute } from "@/server/http/route";
import { scopeOf } from "@/server/versioning";
import { optimizationEvents } from "./events-stream";
import { cancelOptimization, getOptimization, listOptimizations, shipOptimization, startOptimization } from "./service";
import {
  listOptimizationsQuery,
  optimizationResponse,
  optimizationsResponse,
  shipOptimizationBody,
  shippedResponse,
  startOptimizationBody,
} from "./wire";

const BASE = "/api/improve/optimizations";
const idParams = z.object({ id: z.string().uuid() });

export const optimizationRoutes: AnyRoute[] = [
  defineRoute({
    method: "POST",
    path: BASE,
    auth: "api_key",
    tag: "improve",
    summary:
      "Start an optimization: candidate revisions of a base agent or prompt, proposed by strategies, scored with the evaluation engine on a training split, the winner measured on a held-out split",
    body: startOptimizationBody,
    response: optimizationResponse,
    status: 202,
    errors: ["failure_mode_not_found", "not_found"],
    handler: async ({ ctx, body }) => ({
      count: 1 as const,
      optimization: await startOptimization(ctx.app.db, scopeOf(ctx), body, ctx.app.now()),
    }),
  }),
  defineRoute({
    method: "GET",
    path: BASE,
    auth: "api_key",
    tag: "improve",
    summary: "A project's optimizations, newest first (query: limit, cursor)",
    query: listOptimizationsQuery,
    response: optimizationsResponse,
    handler: async ({ ctx, query }) => {
      const page = await listOptimizations(ctx.app.db, scopeOf(ctx).projectId, query);
      return {
        count: page.optimizations.length,
        optimizations: page.optimizations,
        ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}),
      };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${BASE}/{id}`,
    auth: "api_key",
    tag: "improve",
    summary: "One optimization: its progress, rounds, and (once ended) the report of the winner against the base",
    params: idParams,
    response: optimizationResponse,
    errors: ["not_found"],
    handler: async ({ ctx, params }) => ({
      count: 1 as const,
      optimization: await getOptimization(ctx.app.db, scopeOf(ctx).projectId, params.id),
    }),
  }),
  defineRoute({
    method: "GET",
    path: `${BASE}/{id}/events`,
    auth: "api_key",
    tag: "improve",
    summary:
      "Follow an optimization as server-sent events: `progress` as it changes, `round` per finished round, `finished` with the optimization at its end (then the stream closes)",
    params: idParams,
    noJsonBody: { description: "Server-sent events", contentTypes: ["text/event-stream"] },
    errors: ["not_found"],
    handler: async ({ ctx, params }) =>
      optimizationEvents(ctx.app, scopeOf(ctx).projectId, params.id, ctx.request.signal),
  }),
  // The playground's report follows the same stream as the signed-in user, in the session's
  // project, so no API key reaches the browser.
  defineRoute<"session", undefined, undefined, z.infer<typeof idParams>>({
    method: "GET",
    path: "/api/playground/improve/optimizations/{id}/events",
    auth: "session",
    tag: "improve",
    summary:
      "The playground's live report: the optimization's server-sent events (as `/api/improve/optimizations/{id}/events`) for the signed-in user, in the session's project",
    params: idParams,
    noJsonBody: { description: "Server-sent events", contentTypes: ["text/event-stream"] },
    errors: ["not_found"],
    handler: async ({ ctx, params }) =>
      optimizationEvents(ctx.app, ctx.principal.projectId, params.id, ctx.request.signal),
  }),
  defineRoute({
    method: "POST",
    path: `${BASE}/{id}/cancel`,
    auth: "api_key",
    tag: "improve",
    summary: "Cancel a queued or running optimization; its evaluation runs still going are stopped",
    params: idParams,
    noJsonBody: { description: "Cancelled" },
    status: 202,
    errors: ["not_found", "optimization_ended"],
    handler: async ({ ctx, params }) => {
      await cancelOptimization(ctx.app.db, scopeOf(ctx), params.id);
      return new Response(null, { status: 202 });
    },
  }),
  defineRoute({
    method: "POST",
    path: `${BASE}/{id}/ship`,
    auth: "api_key",
    tag: "improve",
    summary:
      "Ship the winner: start a canary of it beside what an environment runs (guarded by monitors and a live score), or leave it as its variant for review",
    params: idParams,
    body: shipOptimizationBody,
    response: shippedResponse,
    status: 201,
    errors: [
      "already_split",
      "canary_is_baseline",
      "canary_running",
      "evaluation_not_found",
      "evaluation_not_live",
      "invalid_weight",
      "monitor_alerting",
      "monitor_not_found",
      "not_found",
      "nothing_deployed",
      "optimization_without_result",
    ],
    handler: async ({ ctx, params, body }) => ({
      count: 1 as const,
      shipped: await shipOptimization(ctx.app.db, scopeOf(ctx), params.id, body, ctx.app.now()),
    }),
  }),
];
