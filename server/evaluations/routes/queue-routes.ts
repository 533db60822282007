import { z } from "zod";
import { manySchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { queueToWire, queueWire } from "../model/wire";
import { flagsFilter, IGNORED_KEYS, requestObject } from "../model/request-fields";
import { statusSchema } from "../model/statuses";
import { queueScenariosRoute } from "./queue-scenarios-route";
import { createQueues, deleteQueues, editQueues, queryQueues } from "../queues/queue-store";
import { idParams, none, oneOrNoneSchema, tag } from "./route-helpers";
import { deleteManyRoute, deleteOneRoute, getOneRoute, queryRoute } from "./record-routes";

const base = "/api/evaluations/queues";
const uuid = z.string().uuid();
const queueDataSchema = z.strictObject({
  user_ids: z.array(z.array(uuid)).nullish(),
  scenario_ids: z.array(uuid).nullish(),
  step_keys: z.array(z.string()).nullish(),
  batch_size: z.number().int().min(1).nullish(),
  batch_offset: z.number().int().min(0).nullish(),
});
const queueFlags = { is_default: z.boolean().nullish(), is_sequential: z.boolean().nullish() };
const queueFields = {
  run_id: uuid.nullish(),
  name: z.string().max(500).nullish(),
  description: z.string().max(5000).nullish(),
  status: statusSchema.nullish(),
  flags: z.strictObject(queueFlags).nullish(),
  tags: z.record(z.string(), z.unknown()).nullish(),
  meta: z.record(z.string(), z.unknown()).nullish(),
  data: queueDataSchema.nullish(),
};
const { echo } = IGNORED_KEYS;
/** An edit: `run_id` may be echoed, but a queue never moves to another run (the store refuses a different one). */
const queueEditSchema = requestObject({ ...queueFields, id: uuid.nullish() }, echo);
const filterSchema = z.strictObject({
  ids: z.array(uuid).nullish(),
  run_id: uuid.nullish(),
  run_ids: z.array(uuid).nullish(),
  user_id: uuid.nullish(),
  user_ids: z.array(uuid).nullish(),
  flags: flagsFilter(Object.keys(queueFlags)).nullish(),
  tags: z.record(z.string(), z.unknown()).nullish(),
  meta: z.record(z.string(), z.unknown()).nullish(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  include_archived: z.boolean().nullish(),
});
const scopeOf = (p: { projectId: string; userId: string }) => ({ projectId: p.projectId, userId: p.userId });

export const queueRoutes = [
  defineRoute({
    method: "POST",
    path: `${base}/`,
    auth: "api_key",
    tag,
    summary: "Create queues; a default queue takes no filter (422) and a run has one (409)",
    body: z.strictObject({
      queues: z
        .array(requestObject({ ...queueFields, run_id: uuid }, echo, IGNORED_KEYS.createdId))
        .min(1)
        .max(100),
    }),
    response: manySchema("queues", queueWire),
    errors: ["default_queue_exists", "not_found"],
    handler: async ({ ctx, body }) => {
      const rows = await ctx.app.db.transaction((tx) => createQueues(tx, scopeOf(ctx.principal), body.queues));
      return { count: rows.length, queues: rows.map(queueToWire) };
    },
  }),
  defineRoute({
    method: "PATCH",
    path: `${base}/`,
    auth: "api_key",
    tag,
    summary: "Edit queues; demoting a default queue is a 409",
    body: z.strictObject({
      queues: z
        .array(requestObject({ ...queueFields, id: uuid }, echo))
        .min(1)
        .max(100),
    }),
    response: manySchema("queues", queueWire),
    errors: ["default_queue_demotion", "not_found"],
    handler: async ({ ctx, body }) => {
      const rows = await ctx.app.db.transaction((tx) => editQueues(tx, ctx.principal.projectId, body.queues));
      return { count: rows.length, queues: rows.map(queueToWire) };
    },
  }),
  deleteManyRoute({
    path: base,
    key: "queue_ids",
    summary: "Delete queues; a default queue is a 409",
    errors: ["default_queue_delete", "not_found"],
    remove: deleteQueues,
  }),
  queryRoute({
    path: base,
    key: "queues",
    filterKey: "queue",
    filter: filterSchema,
    summary: "Queues by ids, run(s), assigned user(s), flags, tags, meta, name; archived ones with include_archived",
    wire: queueWire,
    query: queryQueues,
    toWire: queueToWire,
  }),
  getOneRoute({
    path: base,
    key: "queue",
    summary: "A queue",
    wire: queueWire,
    find: async (db, projectId, id) =>
      (await queryQueues(db, projectId, { ids: [id], include_archived: true })).items[0],
    toWire: queueToWire,
  }),
  defineRoute({
    method: "PATCH",
    path: `${base}/{id}`,
    auth: "api_key",
    tag,
    summary: "Edit a queue",
    params: idParams,
    body: z.strictObject({ queue: queueEditSchema }),
    response: oneOrNoneSchema("queue", queueWire),
    errors: ["default_queue_demotion", "not_found"],
    handler: async ({ ctx, params, body }) => {
      if (body.queue.id && body.queue.id !== params.id) return none;
      const [row] = await ctx.app.db.transaction((tx) =>
        editQueues(tx, ctx.principal.projectId, [{ ...body.queue, id: params.id }]),
      );
      return row ? { count: 1, queue: queueToWire(row) } : none;
    },
  }),
  deleteOneRoute({
    path: base,
    key: "queue_id",
    summary: "Delete a queue (not a default one)",
    errors: ["default_queue_delete", "not_found"],
    remove: deleteQueues,
  }),
  queueScenariosRoute(base),
  defineRoute({
    method: "GET",
    path: "/api/evaluations/runs/{id}/queues/default",
    auth: "api_key",
    tag,
    summary: "The run's active default queue",
    params: idParams,
    response: oneOrNoneSchema("queue", queueWire),
    handler: async ({ ctx, params }) => {
      const [row] = (
        await queryQueues(ctx.app.db, ctx.principal.projectId, { run_id: params.id, flags: { is_default: true } })
      ).items;
      return row ? { count: 1, queue: queueToWire(row) } : none;
    },
  }),
];
