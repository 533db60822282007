import { z } from "zod";
import { manySchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { metricsToWire, metricsWire, resultToWire, resultWire, scenarioToWire, scenarioWire } from "../model/wire";
import { recordResults } from "../execution/record-results";
import { refreshMetricsQuery } from "../metrics/refresh-query";
import { deleteMetrics, queryMetrics, upsertMetrics } from "../store/metric-store";
import { deleteResults, queryResults } from "../store/result-store";
import { createScenarios, deleteScenarios, editScenarios, queryScenarios } from "../store/scenario-store";
import {
  idOrNoneSchema,
  idParams,
  idsSchema,
  listBody,
  listSchema,
  none,
  oneOrNoneSchema,
  evaluationWindowing,
  tag,
} from "./route-helpers";
import {
  metricsFilterSchema,
  metricsInputSchema,
  resultFilterSchema,
  resultInputSchema,
  scenarioFilterSchema,
  scenarioInputSchema,
} from "./wire-schemas";

const base = "/api/evaluations";
const ids = (key: string) => z.object({ [key]: z.array(z.string().uuid()) }) as z.ZodType<Record<string, string[]>>;

const scenarioRoutes = [
  defineRoute({
    method: "POST",
    path: `${base}/scenarios/`,
    auth: "api_key",
    tag,
    summary: "Create scenarios (status pending); a closed run is a 409",
    body: z.object({
      scenarios: z
        .array(scenarioInputSchema.extend({ run_id: z.string().uuid() }))
        .min(1)
        .max(10_000),
    }),
    response: manySchema("scenarios", scenarioWire),
    errors: ["evaluation_closed", "not_found"],
    handler: async ({ ctx, body }) => {
      const rows = await createScenarios(ctx.app.db, ctx.principal.projectId, body.scenarios);
      return { count: rows.length, scenarios: rows.map(scenarioToWire) };
    },
  }),
  defineRoute({
    method: "PATCH",
    path: `${base}/scenarios/`,
    auth: "api_key",
    tag,
    summary: "Edit scenarios (status, flags, tags, meta, interval, timestamp)",
    body: z.object({ scenarios: z.array(scenarioInputSchema).min(1).max(10_000) }),
    response: manySchema("scenarios", scenarioWire),
    errors: ["missing_id", "not_found"],
    handler: async ({ ctx, body }) => {
      const rows = await editScenarios(ctx.app.db, ctx.principal.projectId, body.scenarios);
      return { count: rows.length, scenarios: rows.map(scenarioToWire) };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: `${base}/scenarios/`,
    auth: "api_key",
    tag,
    summary: "Delete scenarios with their results and metrics",
    body: ids("scenario_ids"),
    response: idsSchema("scenario_ids"),
    errors: ["not_found"],
    handler: async ({ ctx, body }) => {
      const deleted = await deleteScenarios(ctx.app.db, ctx.principal.projectId, body.scenario_ids);
      return { count: deleted.length, scenario_ids: deleted };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${base}/scenarios/query`,
    auth: "api_key",
    role: "viewer",
    tag,
    summary: "Scenarios by ids, run(s), status(es), interval(s), tags, flags; oldest first",
    body: z.object({ scenario: scenarioFilterSchema.nullish(), windowing: evaluationWindowing }),
    response: listSchema("scenarios", scenarioWire),
    handler: async ({ ctx, body }) => {
      const page = await queryScenarios(
        ctx.app.db,
        ctx.principal.projectId,
        body.scenario ?? {},
        body.windowing ?? undefined,
      );
      return listBody("scenarios", page.items.map(scenarioToWire));
    },
  }),
  defineRoute({
    method: "GET",
    path: `${base}/scenarios/{id}`,
    auth: "api_key",
    tag,
    summary: "A scenario",
    params: idParams,
    response: oneOrNoneSchema("scenario", scenarioWire),
    handler: async ({ ctx, params }) => {
      const [row] = (await queryScenarios(ctx.app.db, ctx.principal.projectId, { ids: [params.id] })).items;
      return row ? { count: 1, scenario: scenarioToWire(row) } : none;
    },
  }),
  defineRoute({
    method: "PATCH",
    path: `${base}/scenarios/{id}`,
    auth: "api_key",
    tag,
    summary: "Edit a scenario",
    params: idParams,
    body: z.object({ scenario: scenarioInputSchema }),
    response: oneOrNoneSchema("scenario", scenarioWire),
    errors: ["missing_id", "not_found"],
    handler: async ({ ctx, params, body }) => {
      if (body.scenario.id && body.scenario.id !== params.id) return none;
      const [row] = await editScenarios(ctx.app.db, ctx.principal.projectId, [{ ...body.scenario, id: params.id }]);
      return row ? { count: 1, scenario: scenarioToWire(row) } : none;
    },
  }),
  defineRoute({
    method: "DELETE",
    path: `${base}/scenarios/{id}`,
    auth: "api_key",
    tag,
    summary: "Delete a scenario",
    params: idParams,
    response: idOrNoneSchema("scenario_id"),
    errors: ["not_found"],
    handler: async ({ ctx, params }) => {
      const [id] = await deleteScenarios(ctx.app.db, ctx.principal.projectId, [params.id]);
      return id ? { count: 1, scenario_id: id } : none;
    },
  }),
];

const upsertResultsRoute = (method: "POST" | "PUT" | "PATCH") =>
  defineRoute({
    method,
    path: `${base}/results/`,
    auth: "api_key",
    tag,
    summary: "Upsert results on (run, scenario, step, repeat); a closed run is a 409",
    body: z.object({ results: z.array(resultInputSchema).min(1).max(10_000) }),
    response: manySchema("results", resultWire),
    errors: ["evaluation_closed", "not_found", "unknown_scenario"],
    handler: async ({ ctx, body }) => {
      const rows = await recordResults(ctx.app.db, ctx.principal.projectId, body.results);
      return { count: rows.length, results: rows.map(resultToWire) };
    },
  });

const resultRoutes = [
  upsertResultsRoute("POST"),
  upsertResultsRoute("PUT"),
  upsertResultsRoute("PATCH"),
  defineRoute({
    method: "DELETE",
    path: `${base}/results/`,
    auth: "api_key",
    tag,
    summary: "Delete results",
    body: ids("result_ids"),
    response: idsSchema("result_ids"),
    errors: ["not_found"],
    handler: async ({ ctx, body }) => {
      const deleted = await deleteResults(ctx.app.db, ctx.principal.projectId, body.result_ids);
      return { count: deleted.length, result_ids: deleted };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${base}/results/query`,
    auth: "api_key",
    role: "viewer",
    tag,
    summary: "Results by ids, run(s), scenario(s), step key(s), repeat(s), status(es), tags, flags; oldest first",
    body: z.object({ result: resultFilterSchema.nullish(), windowing: evaluationWindowing }),
    response: listSchema("results", resultWire),
    handler: async ({ ctx, body }) => {
      const page = await queryResults(
        ctx.app.db,
        ctx.principal.projectId,
        body.result ?? {},
        body.windowing ?? undefined,
      );
      return listBody("results", page.items.map(resultToWire));
    },
  }),
  defineRoute({
    method: "GET",
    path: `${base}/results/{id}`,
    auth: "api_key",
    tag,
    summary: "A result",
    params: idParams,
    response: oneOrNoneSchema("result", resultWire),
    handler: async ({ ctx, params }) => {
      const [row] = (await queryResults(ctx.app.db, ctx.principal.projectId, { ids: [params.id] })).items;
      return row ? { count: 1, result: resultToWire(row) } : none;
    },
  }),
  defineRoute({
    method: "DELETE",
    path: `${base}/results/{id}`,
    auth: "api_key",
    tag,
    summary: "Delete a result",
    params: idParams,
    response: idOrNoneSchema("result_id"),
    errors: ["not_found"],
    handler: async ({ ctx, params }) => {
      const [id] = await deleteResults(ctx.app.db, ctx.principal.projectId, [params.id]);
      return id ? { count: 1, result_id: id } : none;
    },
  }),
];

const upsertMetricsRoute = (method: "POST" | "PUT" | "PATCH") =>
  defineRoute({
    method,
    path: `${base}/metrics/`,
    auth: "api_key",
    tag,
    summary: "Upsert metrics (global, per scenario or per time window); a closed run is a 409",
    body: z.object({ metrics: z.array(metricsInputSchema).min(1).max(10_000) }),
    response: manySchema("metrics", metricsWire),
    errors: ["not_found"],
    handler: async ({ ctx, body }) => {
      const rows = await upsertMetrics(ctx.app.db, ctx.principal.projectId, body.metrics);
      return { count: rows.length, metrics: rows.map(metricsToWire) };
    },
  });

const metricRoutes = [
  upsertMetricsRoute("POST"),
  upsertMetricsRoute("PUT"),
  upsertMetricsRoute("PATCH"),
  defineRoute({
    method: "DELETE",
    path: `${base}/metrics/`,
    auth: "api_key",
    tag,
    summary: "Delete metrics",
    body: ids("metrics_ids"),
    response: idsSchema("metrics_ids"),
    errors: ["not_found"],
    handler: async ({ ctx, body }) => {
      const deleted = await deleteMetrics(ctx.app.db, ctx.principal.projectId, body.metrics_ids);
      return { count: deleted.length, metrics_ids: deleted };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${base}/metrics/query`,
    auth: "api_key",
    role: "viewer",
    tag,
    summary:
      "Metrics by ids, run(s), scenario(s) (true/false: per scenario or not), timestamp(s), status(es), tags, flags",
    body: z.object({ metrics: metricsFilterSchema.nullish(), windowing: evaluationWindowing }),
    response: listSchema("metrics", metricsWire),
    handler: async ({ ctx, body }) => {
      const rows = await queryMetrics(
        ctx.app.db,
        ctx.principal.projectId,
        body.metrics ?? {},
        body.windowing ?? undefined,
      );
      return listBody("metrics", rows.map(metricsToWire));
    },
  }),
  defineRoute({
    method: "POST",
    path: `${base}/metrics/refresh`,
    auth: "api_key",
    tag,
    summary: "Recompute metrics from the cells: run_ids, run_id (+ scenario_ids) ; nothing without a run",
    body: z.object({
      metrics: z
        .object({
          run_id: z.string().uuid().nullish(),
          run_ids: z.array(z.string().uuid()).nullish(),
          scenario_id: z.string().uuid().nullish(),
          scenario_ids: z.array(z.string().uuid()).nullish(),
        })
        .passthrough()
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

export const cellRoutes = [...scenarioRoutes, ...resultRoutes, ...metricRoutes];
