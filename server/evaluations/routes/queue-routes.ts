import { z } from "zod";
import { manySchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { queueToWire, queueWire } from "../model/wire";
import { statusSchema } from "../model/statuses";
import { queueScenariosRoute } from "./queue-scenarios-route";
import { createQueues, deleteQueues, editQueues, queryQueues } from "../queues/queue-store";
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

const base = "/api/evaluations/queues";
const uuid = z.string().uuid();
const queueDataSchema = z.object({
  user_ids: z.array(z.array(uuid)).nullish(),
  scenario_ids: z.array(uuid).nullish(),
  step_keys: z.array(z.string()).nullish(),
  batch_size: z.number().int().min(1).nullish(),
  batch_offset: z.number().int().min(0).nullish(),
});
const queueSchema = z.object({
  id: uuid.nullish(),
  run_id: uuid.nullish(),
  name: z.string().max(500).nullish(),
  description: z.string().max(5000).nullish(),
  status: statusSchema.nullish(),
  flags: z.object({ is_default: z.boolean().nullish(), is_sequential: z.boolean().nullish() }).nullish(),
  tags: z.record(z.string(), z.unknown()).nullish(),
  meta: z.record(z.string(), z.unknown()).nullish(),
  data: queueDataSchema.nullish(),
});
const filterSchema = z.object({
  ids: z.array(uuid).nullish(),
  run_id: uuid.nullish(),
  run_ids: z.array(uuid).nullish(),
  user_id: uuid.nullish(),
  user_ids: z.array(uuid).nullish(),
  flags: z.record(z.string(), z.unknown()).nullish(),
  tags: z.record(z.string(), z.unknown()).nullish(),
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
    body: z.object({
      queues: z
        .array(queueSchema.extend({ run_id: uuid }))
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
    body: z.object({
      queues: z
        .array(queueSchema.extend({ id: uuid }))
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
  defineRoute({
    method: "DELETE",
    path: `${base}/`,
    auth: "api_key",
    tag,
    summary: "Delete queues; a default queue is a 409",
    body: z.object({ queue_ids: z.array(uuid) }),
    response: idsSchema("queue_ids"),
    errors: ["default_queue_delete", "not_found"],
    handler: async ({ ctx, body }) => {
      const ids = await deleteQueues(ctx.app.db, ctx.principal.projectId, body.queue_ids);
      return { count: ids.length, queue_ids: ids };
    },
  }),
  defineRoute({
    method: "POST",
    path: `${base}/query`,
    auth: "api_key",
    role: "viewer",
    tag,
    summary: "Queues by ids, run(s), assigned user(s), flags, tags, name; archived ones with include_archived",
    body: z.object({ queue: filterSchema.nullish(), windowing: evaluationWindowing }),
    response: listSchema("queues", queueWire),
    handler: async ({ ctx, body }) => {
      const page = await queryQueues(
        ctx.app.db,
        ctx.principal.projectId,
        body.queue ?? {},
        body.windowing ?? undefined,
      );
      return listBody("queues", page.items.map(queueToWire), page.next);
    },
  }),
  defineRoute({
    method: "GET",
    path: `${base}/{id}`,
    auth: "api_key",
    tag,
    summary: "A queue",
    params: idParams,
    response: oneOrNoneSchema("queue", queueWire),
    handler: async ({ ctx, params }) => {
      const [row] = (
        await queryQueues(ctx.app.db, ctx.principal.projectId, { ids: [params.id], include_archived: true })
      ).items;
      return row ? { count: 1, queue: queueToWire(row) } : none;
    },
  }),
  defineRoute({
    method: "PATCH",
    path: `${base}/{id}`,
    auth: "api_key",
    tag,
    summary: "Edit a queue",
    params: idParams,
    body: z.object({ queue: queueSchema }),
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
  defineRoute({
    method: "DELETE",
    path: `${base}/{id}`,
    auth: "api_key",
    tag,
    summary: "Delete a queue (not a default one)",
    params: idParams,
    response: idOrNoneSchema("queue_id"),
    errors: ["default_queue_delete", "not_found"],
    handler: async ({ ctx, params }) => {
      const [id] = await deleteQueues(ctx.app.db, ctx.principal.projectId, [params.id]);
      return id ? { count: 1, queue_id: id } : none;
    },
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
