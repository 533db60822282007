import { z } from "zod";
import { manySchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { scenarioToWire, scenarioWire } from "../model/wire";
import { createScenarios, deleteScenarios, editScenarios, queryScenarios } from "../store/scenario-store";
import { deleteManyRoute, deleteOneRoute, getOneRoute, queryRoute } from "./record-routes";
import { idParams, none, oneOrNoneSchema, tag } from "./route-helpers";
import { scenarioCreateSchema, scenarioEditSchema, scenarioFilterSchema } from "./wire-schemas";

const path = "/api/evaluations/scenarios";
const base = "/api/evaluations";

/** `/api/evaluations/scenarios`: a run's rows (one per testcase, trace or pushed item). */
export const scenarioRoutes = [
  defineRoute({
    method: "POST",
    path: `${base}/scenarios/`,
    auth: "api_key",
    tag,
    summary: "Create scenarios (status pending); a closed run is a 409",
    body: z.strictObject({ scenarios: z.array(scenarioCreateSchema).min(1).max(10_000) }),
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
    body: z.strictObject({ scenarios: z.array(scenarioEditSchema).min(1).max(10_000) }),
    response: manySchema("scenarios", scenarioWire),
    errors: ["missing_id", "not_found"],
    handler: async ({ ctx, body }) => {
      const rows = await editScenarios(ctx.app.db, ctx.principal.projectId, body.scenarios);
      return { count: rows.length, scenarios: rows.map(scenarioToWire) };
    },
  }),
  deleteManyRoute({
    path,
    key: "scenario_ids",
    summary: "Delete scenarios with their results and metrics",
    errors: ["not_found"],
    remove: deleteScenarios,
  }),
  queryRoute({
    path,
    key: "scenarios",
    filterKey: "scenario",
    filter: scenarioFilterSchema,
    summary: "Scenarios by ids, run(s), status(es), interval(s), timestamp(s), tags, flags, meta; oldest first",
    wire: scenarioWire,
    query: queryScenarios,
    toWire: scenarioToWire,
    cursor: false,
  }),
  getOneRoute({
    path,
    key: "scenario",
    summary: "A scenario",
    wire: scenarioWire,
    find: async (db, projectId, id) => (await queryScenarios(db, projectId, { ids: [id] })).items[0],
    toWire: scenarioToWire,
  }),
  defineRoute({
    method: "PATCH",
    path: `${base}/scenarios/{id}`,
    auth: "api_key",
    tag,
    summary: "Edit a scenario",
    params: idParams,
    body: z.strictObject({ scenario: scenarioEditSchema }),
    response: oneOrNoneSchema("scenario", scenarioWire),
    errors: ["missing_id", "not_found"],
    handler: async ({ ctx, params, body }) => {
      if (body.scenario.id && body.scenario.id !== params.id) return none;
      const [row] = await editScenarios(ctx.app.db, ctx.principal.projectId, [{ ...body.scenario, id: params.id }]);
      return row ? { count: 1, scenario: scenarioToWire(row) } : none;
    },
  }),
  deleteOneRoute({
    path,
    key: "scenario_id",
    summary: "Delete a scenario",
    errors: ["not_found"],
    remove: deleteScenarios,
  }),
];
