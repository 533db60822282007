import { z } from "zod";
import { manySchema, oneSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { stepSchema } from "../../model/run-data";
import { resultToWire, resultWire, runToWire, runWire, scenarioToWire, scenarioWire } from "../../model/wire";
import {
  addScenarios,
  populateCells,
  probeCells,
  processCells,
  pruneCells,
  refreshSlice,
  removeScenarios,
  reshapeRun,
} from "../run-slice";
import { idParams, tag } from "../../routes/route-helpers";
import { resultInputSchema, sliceFields, sliceSchema } from "../../routes/wire-schemas";

const base = "/api/simple/evaluations/{id}";
const scopeOf = (p: { projectId: string; userId: string }) => ({ projectId: p.projectId, userId: p.userId });

export const sliceRoutes = [
  defineRoute({
    method: "POST",
    path: `${base}/probe`,
    auth: "api_key",
    role: "viewer",
    tag,
    summary: "Read the cells of a slice (an omitted dimension means all, [] none)",
    params: idParams,
    body: sliceSchema,
    response: manySchema("results", resultWire),
    errors: ["not_found"],
    handler: async ({ ctx, params, body }) => {
      const rows = await probeCells(ctx.app.db, ctx.principal.projectId, params.id, body);
      return { count: rows.length, results: rows.map(resultToWire) };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${base}/populate`,
    auth: "api_key",
    tag,
    summary: "Write cells of this evaluation (upsert); a cell of another run or an unknown scenario is a 400",
    params: idParams,
    body: z.strictObject({ results: z.array(resultInputSchema).max(10_000) }),
    response: manySchema("results", resultWire),
    errors: ["not_found", "run_mismatch", "unknown_scenario"],
    handler: async ({ ctx, params, body }) => {
      const rows = await populateCells(ctx.app.db, ctx.principal.projectId, params.id, body.results);
      return { count: rows.length, results: rows.map(resultToWire) };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${base}/process`,
    auth: "api_key",
    tag,
    status: 202,
    summary: "Run the slice's missing or failed cells again (all of them with overwrite) on the workers",
    params: idParams,
    body: z.strictObject({ ...sliceFields, overwrite: z.boolean().nullish() }),
    noJsonBody: { description: "Accepted: the cells are queued for the workers; no body" },
    errors: ["not_found"],
    handler: async ({ ctx, params, body }) => processCells(ctx.app.db, ctx.principal.projectId, params.id, body),
  }),
  defineRoute({
    method: "POST",
    path: `${base}/prune`,
    auth: "api_key",
    tag,
    status: 204,
    summary: "Delete the slice's cells and refresh the metrics over it",
    params: idParams,
    body: sliceSchema,
    noJsonBody: { description: "No content" },
    errors: ["not_found"],
    handler: async ({ ctx, params, body }) => pruneCells(ctx.app.db, ctx.principal.projectId, params.id, body),
  }),
  defineRoute({
    method: "POST",
    path: `${base}/refresh`,
    auth: "api_key",
    tag,
    status: 204,
    summary: "Recompute the slice's per-scenario metrics and the run's global metrics",
    params: idParams,
    body: sliceSchema,
    noJsonBody: { description: "No content" },
    errors: ["not_found"],
    handler: async ({ ctx, params, body }) => refreshSlice(ctx.app.db, ctx.principal.projectId, params.id, body),
  }),
  defineRoute({
    method: "POST",
    path: `${base}/scenarios/add`,
    auth: "api_key",
    tag,
    summary: "Add N empty scenarios (status running); a timestamp is floored to the minute with interval 1",
    params: idParams,
    body: z.strictObject({
      count: z.number().int().min(1).max(10_000),
      timestamp: z.iso.datetime({ offset: true }).nullish(),
    }),
    response: manySchema("scenarios", scenarioWire),
    errors: ["evaluation_closed", "not_found"],
    handler: async ({ ctx, params, body }) => {
      const rows = await addScenarios(ctx.app.db, ctx.principal.projectId, params.id, body.count, body.timestamp);
      return { count: rows.length, scenarios: rows.map(scenarioToWire) };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${base}/scenarios/remove`,
    auth: "api_key",
    tag,
    status: 204,
    summary: "Remove scenarios of this evaluation (any other id is a 400)",
    params: idParams,
    body: z.strictObject({ scenario_ids: z.array(z.string().uuid()) }),
    noJsonBody: { description: "No content" },
    errors: ["not_found", "scenario_mismatch"],
    handler: async ({ ctx, params, body }) =>
      removeScenarios(ctx.app.db, ctx.principal.projectId, params.id, body.scenario_ids),
  }),
  defineRoute({
    method: "POST",
    path: `${base}/steps/add`,
    auth: "api_key",
    tag,
    summary: "Append steps (idempotent by key)",
    params: idParams,
    body: z.strictObject({ steps: z.array(stepSchema).min(1).max(100) }),
    response: oneSchema("run", runWire),
    errors: ["not_found"],
    handler: async ({ ctx, params, body }) => ({
      count: 1,
      run: runToWire(await reshapeRun(ctx.app.db, scopeOf(ctx.principal), params.id, { add: body.steps })),
    }),
  }),
  defineRoute({
    method: "POST",
    path: `${base}/steps/remove`,
    auth: "api_key",
    tag,
    summary: "Drop steps; their cells are deleted, and scenarios left without cells with them",
    params: idParams,
    body: z.strictObject({ step_keys: z.array(z.string()).min(1) }),
    response: oneSchema("run", runWire),
    errors: ["not_found"],
    handler: async ({ ctx, params, body }) => ({
      count: 1,
      run: runToWire(await reshapeRun(ctx.app.db, scopeOf(ctx.principal), params.id, { remove: body.step_keys })),
    }),
  }),
  defineRoute({
    method: "POST",
    path: `${base}/repeats/set`,
    auth: "api_key",
    tag,
    summary: "Set the run's repeats",
    params: idParams,
    body: z.strictObject({ repeats: z.number().int().min(1).max(100) }),
    response: oneSchema("run", runWire),
    errors: ["not_found"],
    handler: async ({ ctx, params, body }) => ({
      count: 1,
      run: runToWire(await reshapeRun(ctx.app.db, scopeOf(ctx.principal), params.id, { repeats: body.repeats })),
    }),
  }),
];
