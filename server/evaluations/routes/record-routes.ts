import { z } from "zod";
import type { ErrorCode } from "@/server/core/errors";
import type { Database } from "@/server/db";
import { defineRoute } from "@/server/http/route";
import { evaluationWindowing } from "../model/request-fields";
import { idOrNoneSchema, idParams, idsSchema, listBody, listSchema, none, oneOrNoneSchema, tag } from "./route-helpers";

/**
 * The routes every kind of evaluation record (runs, scenarios, results, metrics, queues) has in
 * the same shape: read one by id, delete by ids or by id, query a page. Each takes its store's
 * function; what differs between kinds (the create and edit bodies) stays in the kind's routes.
 */

type Remove = (db: Database, projectId: string, ids: string[]) => Promise<string[]>;

/** `GET {path}/{id}`: `{count: 1, <key>: record}`, or the reference implementation's miss `{count: 0}`. */
export function getOneRoute<R>(route: {
  path: string;
  key: string;
  summary: string;
  wire: z.ZodType;
  find: (db: Database, projectId: string, id: string) => Promise<R | undefined>;
  toWire: (row: R) => unknown;
}) {
  return defineRoute({
    method: "GET",
    path: `${route.path}/{id}`,
    auth: "api_key",
    tag,
    summary: route.summary,
    params: idParams,
    response: oneOrNoneSchema(route.key, route.wire),
    handler: async ({ ctx, params }) => {
      const row = await route.find(ctx.app.db, ctx.principal.projectId, params.id);
      return row ? { count: 1, [route.key]: route.toWire(row) } : none;
    },
  });
}

/** `DELETE {path}/` with `{<key>: [ids]}`: `{count, <key>: [the ids deleted]}`. */
export function deleteManyRoute(route: {
  path: string;
  key: string;
  summary: string;
  errors?: readonly ErrorCode[];
  remove: Remove;
}) {
  return defineRoute({
    method: "DELETE",
    path: `${route.path}/`,
    auth: "api_key",
    tag,
    summary: route.summary,
    body: z.strictObject({ [route.key]: z.array(z.string().uuid()) }) as z.ZodType<Record<string, string[]>>,
    response: idsSchema(route.key),
    errors: route.errors,
    handler: async ({ ctx, body }) => {
      const deleted = await route.remove(ctx.app.db, ctx.principal.projectId, body[route.key]);
      return { count: deleted.length, [route.key]: deleted };
    },
  });
}

/** `DELETE {path}/{id}`: `{count: 1, <key>: id}`, or the miss `{count: 0}`. */
export function deleteOneRoute(route: {
  path: string;
  key: string;
  summary: string;
  errors?: readonly ErrorCode[];
  remove: Remove;
}) {
  return defineRoute({
    method: "DELETE",
    path: `${route.path}/{id}`,
    auth: "api_key",
    tag,
    summary: route.summary,
    params: idParams,
    response: idOrNoneSchema(route.key),
    errors: route.errors,
    handler: async ({ ctx, params }) => {
      const [id] = await route.remove(ctx.app.db, ctx.principal.projectId, [params.id]);
      return id ? { count: 1, [route.key]: id } : none;
    },
  });
}

type Windowing = NonNullable<z.output<typeof evaluationWindowing>>;

/**
 * `POST {path}/query` with `{<filterKey>: filter, windowing}`: a page of records, `windowing.next`
 * when another page exists (`cursor: false` for the kinds whose answer never carried one).
 */
export function queryRoute<F, R>(route: {
  path: string;
  key: string;
  filterKey: string;
  filter: z.ZodType<F>;
  summary: string;
  wire: z.ZodType;
  query: (db: Database, projectId: string, filter: F, windowing?: Windowing) => Promise<{ items: R[]; next?: string }>;
  toWire: (row: R) => unknown;
  cursor?: boolean;
}) {
  return defineRoute({
    method: "POST",
    path: `${route.path}/query`,
    auth: "api_key",
    role: "viewer",
    tag,
    summary: route.summary,
    body: z.strictObject({ [route.filterKey]: route.filter.nullish(), windowing: evaluationWindowing }) as z.ZodType<
      Record<string, unknown> & { windowing?: Windowing | null }
    >,
    response: listSchema(route.key, route.wire),
    handler: async ({ ctx, body }) => {
      const filter = (body[route.filterKey] ?? {}) as F;
      const page = await route.query(ctx.app.db, ctx.principal.projectId, filter, body.windowing ?? undefined);
      return listBody(route.key, page.items.map(route.toWire), route.cursor === false ? undefined : page.next);
    },
  });
}
