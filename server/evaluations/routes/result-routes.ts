import { z } from "zod";
import { replicaRead } from "@/server/db";
import { manySchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { resultToWire, resultWire } from "../model/wire";
import { recordResults } from "../execution/record-results";
import { deleteResults, queryResults } from "../store/result-store";
import { deleteManyRoute, deleteOneRoute, getOneRoute, queryRoute } from "./record-routes";
import { tag } from "./route-helpers";
import { resultFilterSchema, resultInputSchema } from "./wire-schemas";

const path = "/api/evaluations/results";

/** Results read on a replica that has replayed the caller's last write, else the primary (server/db/read-routing.ts). */
const readResults: typeof queryResults = (db, ...rest) => replicaRead(db, (reader) => queryResults(reader, ...rest));
const base = "/api/evaluations";

const upsertResultsRoute = (method: "POST" | "PUT" | "PATCH") =>
  defineRoute({
    method,
    path: `${base}/results/`,
    auth: "api_key",
    tag,
    summary: "Upsert results on (run, scenario, step, repeat); a closed run is a 409",
    body: z.strictObject({ results: z.array(resultInputSchema).min(1).max(10_000) }),
    response: manySchema("results", resultWire),
    errors: ["evaluation_closed", "not_found", "unknown_scenario"],
    handler: async ({ ctx, body }) => {
      const rows = await recordResults(ctx.app.db, ctx.principal.projectId, body.results);
      return { count: rows.length, results: rows.map(resultToWire) };
    },
  });

/** `/api/evaluations/results`: the cells, one per scenario × step × repeat. */
export const resultRoutes = [
  upsertResultsRoute("POST"),
  upsertResultsRoute("PUT"),
  upsertResultsRoute("PATCH"),
  deleteManyRoute({ path, key: "result_ids", summary: "Delete results", errors: ["not_found"], remove: deleteResults }),
  queryRoute({
    path,
    key: "results",
    filterKey: "result",
    filter: resultFilterSchema,
    summary: "Results by ids, run(s), scenario(s), step key(s), repeat(s), status(es), tags, flags, meta; oldest first",
    wire: resultWire,
    query: readResults,
    toWire: resultToWire,
    cursor: false,
  }),
  getOneRoute({
    path,
    key: "result",
    summary: "A result",
    wire: resultWire,
    find: async (db, projectId, id) => (await readResults(db, projectId, { ids: [id] })).items[0],
    toWire: resultToWire,
  }),
  deleteOneRoute({ path, key: "result_id", summary: "Delete a result", errors: ["not_found"], remove: deleteResults }),
];
