import { z } from "zod";
import { manySchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { metricsToWire, metricsWire } from "../model/wire";
import { refreshMetricsQuery } from "../metrics/refresh-query";
import { deleteMetrics, queryMetrics, upsertMetrics } from "../store/metric-store";
import { deleteManyRoute, queryRoute } from "./record-routes";
import { idParams, idsSchema, tag } from "./route-helpers";
import { metricsFilterSchema, metricsInputSchema } from "./wire-schemas";

const path = "/api/evaluations/metrics";
const base = "/api/evaluations";

const upsertMetricsRoute = (method: "POST" | "PUT" | "PATCH") =>
  defineRoute({
    method,
    path: `${base}/metrics/`,
    auth: "api_key",
    tag,
    summary: "Upsert metrics (global, per scenario or per time window); a closed run is a 409",
    body: z.strictObject({ metrics: z.array(metricsInputSchema).min(1).max(10_000) }),
    response: manySchema("metrics", metricsWire),
    errors: ["not_found"],
    handler: async ({ ctx, body }) => {
      const rows = await upsertMetrics(ctx.app.db, ctx.principal.projectId, body.metrics);
      return { count: rows.length, metrics: rows.map(metricsToWire) };
    },
  });

/** `/api/evaluations/metrics`: stored per run, per scenario or per time window. */
export const metricRoutes = [
  upsertMetricsRoute("POST"),
  upsertMetricsRoute("PUT"),
  upsertMetricsRoute("PATCH"),
  deleteManyRoute({
    path,
    key: "metrics_ids",
    summary: "Delete metrics",
    errors: ["not_found"],
    remove: deleteMetrics,
  }),
  queryRoute({
    path,
    key: "metrics",
    filterKey: "metrics",
    filter: metricsFilterSchema,
    summary:
      "Metrics by ids, run(s), scenario(s) (true/false: per scenario or not), timestamp(s), status(es), tags, flags, meta",
    wire: metricsWire,
    query: async (db, projectId, filter, windowing) => ({
      items: await queryMetrics(db, projectId, filter, windowing),
    }),
    toWire: metricsToWire,
  }),
  defineRoute({
    method: "POST",
    path: `${base}/metrics/refresh`,
    auth: "api_key",
    tag,
    summary:
      "Recompute metrics from the cells: run_ids, run_id (+ scenario_ids, or + timestamps: time windows) ; nothing without a run",
    body: z.strictObject({
      metrics: z
        .strictObject({
          run_id: z.string().uuid().nullish(),
          run_ids: z.array(z.string().uuid()).nullish(),
          scenario_id: z.string().uuid().nullish(),
          scenario_ids: z.array(z.string().uuid()).nullish(),
          timestamp: z.iso.datetime({ offset: true }).nullish(),
          timestamps: z
            .union([z.array(z.iso.datetime({ offset: true })), z.boolean()])
            .nullish()
            .describe("Time windows by start; true: every window the run has cells in"),
          interval: z.number().int().nullish(),
        })
        .nullish(),
    }),
    response: manySchema("metrics", metricsWire),
    handler: async ({ ctx, body }) => {
      const rows = await refreshMetricsQuery(ctx.app.db, ctx.principal.projectId, body.metrics ?? {});
      return { count: rows.length, metrics: rows.map(metricsToWire) };
    },
  }),
  defineRoute({
    method: "GET",
    path: `${base}/metrics/{id}`,
    auth: "api_key",
    tag,
    summary: "A metrics row (a list envelope, as the reference answers)",
    params: idParams,
    response: manySchema("metrics", metricsWire),
    handler: async ({ ctx, params }) => {
      const rows = await queryMetrics(ctx.app.db, ctx.principal.projectId, { ids: [params.id] });
      return { count: rows.length, metrics: rows.map(metricsToWire) };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: `${base}/metrics/{id}`,
    auth: "api_key",
    tag,
    summary: "Delete a metrics row",
    params: idParams,
    response: idsSchema("metrics_ids"),
    errors: ["not_found"],
    handler: async ({ ctx, params }) => {
      const deleted = await deleteMetrics(ctx.app.db, ctx.principal.projectId, [params.id]);
      return { count: deleted.length, metrics_ids: deleted };
    },
  }),
];
