import { z } from "zod";
import { many, manySchema, one, oneSchema } from "@/server/http/envelope";
import { defineRoute, type AnyRoute } from "@/server/http/route";
import { aliasesResource } from "./aliases-resource";
import { allowlistsResource } from "./allowlists-resource";
import { budgetsResource } from "./budgets-resource";
import {
  createControl,
  deleteControl,
  getControl,
  listControls,
  updateControl,
  type ControlResource,
} from "./control-resource";
import { rateLimitsResource } from "./rate-limits-resource";

const idParams = z.object({ id: z.string().uuid() });

/** List, create, read, replace and delete, the same five routes for each kind of control; changes need an owner. */
function controlRoutes<I, R extends { id: string }, W>(resource: ControlResource<I, R, W>): AnyRoute[] {
  const base = `/api/controls/${resource.path}/`;
  const oneWire = oneSchema(resource.entity, resource.wire);
  return [
    defineRoute({
      method: "GET",
      path: base,
      auth: "api_key" as const,
      tag: "controls",
      summary: `List the project's ${resource.label}s`,
      response: manySchema(resource.entities, resource.wire),
      handler: async ({ ctx }) =>
        many(resource.entities, await listControls(ctx.app, resource, ctx.principal.projectId)),
    }),
    defineRoute({
      method: "POST",
      path: base,
      auth: "api_key" as const,
      role: "owner",
      tag: "controls",
      summary: `Create a ${resource.label} (mutating; owners)`,
      body: resource.input,
      status: 201,
      response: oneWire,
      errors: ["unknown_target", "unknown_connection", "connection_mismatch"],
      handler: async ({ ctx, body }) =>
        one(resource.entity, await createControl(ctx.app, resource, ctx.principal.projectId, body)),
    }),
    defineRoute({
      method: "GET",
      path: `${base}{id}`,
      auth: "api_key" as const,
      tag: "controls",
      summary: `One ${resource.label}`,
      params: idParams,
      response: oneWire,
      errors: ["alias_not_found", "allowlist_not_found", "budget_not_found", "not_found", "rate_limit_not_found"],
      handler: async ({ ctx, params }) =>
        one(resource.entity, await getControl(ctx.app, resource, ctx.principal.projectId, params.id)),
    }),
    defineRoute({
      method: "PUT",
      path: `${base}{id}`,
      auth: "api_key" as const,
      role: "owner",
      tag: "controls",
      summary: `Replace a ${resource.label} (mutating; owners)`,
      params: idParams,
      body: resource.input,
      response: oneWire,
      errors: [
        "alias_not_found",
        "allowlist_not_found",
        "budget_not_found",
        "not_found",
        "rate_limit_not_found",
        "unknown_target",
        "unknown_connection",
        "connection_mismatch",
      ],
      handler: async ({ ctx, params, body }) =>
        one(resource.entity, await updateControl(ctx.app, resource, ctx.principal.projectId, params.id, body)),
    }),
    defineRoute({
      method: "DELETE",
      path: `${base}{id}`,
      auth: "api_key" as const,
      role: "owner",
      tag: "controls",
      summary: `Delete a ${resource.label} (mutating; owners)`,
      params: idParams,
      response: oneWire,
      errors: ["alias_not_found", "allowlist_not_found", "budget_not_found", "not_found", "rate_limit_not_found"],
      handler: async ({ ctx, params }) =>
        one(resource.entity, await deleteControl(ctx.app, resource, ctx.principal.projectId, params.id)),
    }),
  ];
}

export const CONTROL_RESOURCES = [budgetsResource, rateLimitsResource, allowlistsResource, aliasesResource] as const;

/** `/api/controls/{budgets,rate-limits,allowlists,aliases}/`. */
export const controlsRoutes: AnyRoute[] = [
  ...controlRoutes(budgetsResource),
  ...controlRoutes(rateLimitsResource),
  ...controlRoutes(allowlistsResource),
  ...controlRoutes(aliasesResource),
];
