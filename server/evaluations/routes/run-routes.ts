import { z } from "zod";
import { BadRequestError } from "@/server/core/errors";
import type { Database } from "@/server/db";
import { manySchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { runToWire, runWire } from "../model/wire";
import {
  deleteRuns,
  editRun,
  findRunOutline,
  insertEvaluationRun,
  queryRuns,
  setRunFlags,
  storedData,
} from "../store/run-store";
import { pruneRemovedSteps } from "../store/prune-steps";
import { reconcileDefaultQueue } from "../queues/default-queue";
import { statusSchema } from "../model/statuses";
import { idParams, none, oneOrNoneSchema, tag } from "./route-helpers";
import { deleteManyRoute, deleteOneRoute, getOneRoute, queryRoute } from "./record-routes";
import { runCreateSchema, runEditSchema, runFields, runFilterSchema } from "./wire-schemas";
import { IGNORED_KEYS, requestObject } from "../model/request-fields";

const base = "/api/evaluations/runs";
const scopeOf = (p: { projectId: string; userId: string }) => ({ projectId: p.projectId, userId: p.userId });
const idsBody = z.strictObject({ run_ids: z.array(z.string().uuid()) });

export const runRoutes = [
  defineRoute({
    method: "POST",
    path: `${base}/`,
    auth: "api_key",
    tag,
    summary: "Create runs (status pending); has_* flags are derived from the steps",
    body: z.strictObject({ runs: z.array(runCreateSchema).min(1).max(100) }),
    response: manySchema("runs", runWire),
    handler: async ({ ctx, body }) => {
      const rows = [];
      for (const run of body.runs) {
        rows.push(
          await ctx.app.db.transaction(async (tx) =>
            reconcileDefaultQueue(
              tx,
              // The low-level create keeps every user flag as sent, is_active included (a client-run loop).
              await insertEvaluationRun(tx, scopeOf(ctx.principal), {
                ...run,
                data: storedData(run.data),
                active: Boolean(run.flags?.is_active),
              }),
            ),
          ),
        );
      }
      return { count: rows.length, runs: rows.map(runToWire) };
    },
  }),
  defineRoute({
    method: "PATCH",
    path: `${base}/`,
    auth: "api_key",
    tag,
    summary: "Edit runs; a closed run is a 409; dropping a step deletes its cells",
    body: z.strictObject({
      runs: z
        .array(requestObject({ ...runFields, id: z.string().uuid() }, IGNORED_KEYS.echo))
        .min(1)
        .max(100),
    }),
    response: manySchema("runs", runWire),
    errors: ["not_found"],
    handler: async ({ ctx, body }) => {
      const rows = [];
      for (const run of body.runs) rows.push(await editRunAndPrune(ctx, run.id, run));
      return { count: rows.length, runs: rows.map(runToWire) };
    },
  }),
  deleteManyRoute({
    path: base,
    key: "run_ids",
    summary: "Delete runs with their scenarios, results, metrics and queues",
    remove: deleteRuns,
  }),
  queryRoute({
    path: base,
    key: "runs",
    filterKey: "run",
    filter: runFilterSchema,
    summary: "Runs by ids, name, description, flags, tags, status(es), references; newest first",
    wire: runWire,
    query: queryRuns,
    toWire: runToWire,
  }),
  ...(["close", "open"] as const).map((action) =>
    defineRoute({
      method: "POST",
      path: `${base}/${action}`,
      auth: "api_key",
      tag,
      summary: action === "close" ? "Close runs: they take no more writes" : "Open closed runs",
      body: idsBody,
      response: manySchema("runs", runWire),
      handler: async ({ ctx, body }) => {
        const rows = await setRunFlags(ctx.app.db, ctx.principal.projectId, body.run_ids, {
          is_closed: action === "close",
        });
        return { count: rows.length, runs: rows.map(runToWire) };
      },
    }),
  ),
  getOneRoute({
    path: base,
    key: "run",
    summary: "A run",
    wire: runWire,
    find: findRunOutline,
    toWire: runToWire,
  }),
  defineRoute({
    method: "PATCH",
    path: `${base}/{id}`,
    auth: "api_key",
    tag,
    summary: "Edit a run (omitted fields keep their value); a closed run is a 409",
    params: idParams,
    body: z.strictObject({ run: runEditSchema }),
    response: oneOrNoneSchema("run", runWire),
    errors: ["evaluation_closed", "not_found"],
    handler: async ({ ctx, params, body }) => {
      if (body.run.id && body.run.id !== params.id) return none;
      return { count: 1, run: runToWire(await editRunAndPrune(ctx, params.id, body.run)) };
    },
  }),
  deleteOneRoute({ path: base, key: "run_id", summary: "Delete a run", remove: deleteRuns }),
  ...(["close", "open"] as const).map((action) =>
    defineRoute({
      method: "POST",
      path: `${base}/{id}/${action}`,
      auth: "api_key",
      tag,
      summary: action === "close" ? "Close a run, optionally setting its status (?status=)" : "Open a closed run",
      params: idParams,
      query: z.object({ status: statusSchema.optional() }),
      response: oneOrNoneSchema("run", runWire),
      errors: ["bad_query"],
      handler: async ({ ctx, params, query }) => {
        if (action === "open" && query.status) throw new BadRequestError("status is only taken by close", "bad_query");
        const [run] = await setRunFlags(
          ctx.app.db,
          ctx.principal.projectId,
          [params.id],
          { is_closed: action === "close" },
          query.status,
        );
        return run ? { count: 1, run: runToWire(run) } : none;
      },
    }),
  ),
];

async function editRunAndPrune(
  ctx: { app: { db: Database }; principal: { projectId: string; userId: string } },
  id: string,
  input: z.output<typeof runEditSchema>,
) {
  return ctx.app.db.transaction(async (tx) => {
    const { before, after } = await editRun(tx, scopeOf(ctx.principal), id, input);
    await pruneRemovedSteps(tx, before, after);
    return reconcileDefaultQueue(tx, after);
  });
}
