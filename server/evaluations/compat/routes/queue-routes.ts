import { z } from "zod";
import { one, oneSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { GRAPH_ERRORS } from "../build-steps";
import { pushQueueItems } from "../push-items";
import { queueScenariosRoute } from "../../routes/queue-scenarios-route";
import { QUEUE_KINDS, simpleQueueSchema } from "../input";
import { simpleQueueToWire, simpleQueueWire } from "../wire";
import { createSimpleQueue, deleteSimpleQueues, getSimpleQueue, querySimpleQueues } from "../simple-queues";
import { idOrNoneSchema, idParams, idsSchema, none, oneOrNoneSchema, tag } from "../../routes/route-helpers";
import { queryRoute } from "../../routes/record-routes";

const base = "/api/simple/queues";
const uuid = z.string().uuid();
const scope = (p: { projectId: string; userId: string }) => ({ projectId: p.projectId, userId: p.userId });

const pushResponse = z.strictObject({
  count: z.literal(1),
  queue_id: z.string(),
  added: z.number().int().describe("Scenarios added: one per id the queue did not have"),
  skipped: z.number().int().describe("Ids the queue already had; a push is idempotent"),
});

function push(kind: "traces" | "testcases") {
  const key = kind === "traces" ? "trace_ids" : "testcase_ids";
  return defineRoute({
    method: "POST",
    path: `${base}/{id}/${kind}/`,
    auth: "api_key",
    tag,
    summary: `Add ${kind} to a direct ${kind} queue: one scenario each, an id already in the queue is skipped`,
    params: idParams,
    body: z.strictObject({
      [key]: z
        .array(kind === "traces" ? z.string().min(1).max(100) : uuid)
        .min(1)
        .max(10_000),
    }) as z.ZodType<Record<string, string[]>>,
    response: pushResponse,
    errors: [
      "invalid_trace_id",
      "not_found",
      "source_backed_queue",
      "unknown_testcase",
      "unknown_trace",
      "wrong_queue_kind",
    ],
    handler: async ({ ctx, params, body }) => ({
      count: 1 as const,
      queue_id: params.id,
      ...(await pushQueueItems(ctx.app.db, ctx.principal.projectId, params.id, kind, body[key])),
    }),
  });
}

export const simpleQueueRoutes = [
  defineRoute({
    method: "POST",
    path: `${base}/`,
    auth: "api_key",
    tag,
    summary:
      "Create a queue for people to annotate: its rows from saved queries or testsets, or pushed later (traces, testcases)",
    body: z.strictObject({ queue: simpleQueueSchema }),
    response: oneSchema("queue", simpleQueueWire),
    errors: ["default_queue_exists", "not_invocable", ...GRAPH_ERRORS],
    handler: async ({ ctx, body }) =>
      one("queue", await createSimpleQueue(ctx.app.db, scope(ctx.principal), body.queue)),
  }),
  queryRoute({
    path: base,
    key: "queues",
    filterKey: "queue",
    filter: z.strictObject({
      kind: z.enum(QUEUE_KINDS).nullish(),
      queue_ids: z.array(uuid).nullish(),
      run_id: uuid.nullish(),
      run_ids: z.array(uuid).nullish(),
      user_id: uuid.nullish(),
      user_ids: z.array(uuid).nullish(),
      name: z.string().nullish(),
      description: z.string().nullish(),
      tags: z.record(z.string(), z.unknown()).nullish(),
      meta: z.record(z.string(), z.unknown()).nullish(),
    }),
    summary: "Queues of queue-mode runs by kind, queue ids, run(s), assigned user(s), name, tags, meta; newest first",
    wire: simpleQueueWire,
    query: querySimpleQueues,
    toWire: (queue) => queue,
  }),
  defineRoute({
    method: "GET",
    path: `${base}/{id}`,
    auth: "api_key",
    tag,
    summary: "A simple queue",
    params: idParams,
    response: oneOrNoneSchema("queue", simpleQueueWire),
    handler: async ({ ctx, params }) => {
      const found = await getSimpleQueue(ctx.app.db, ctx.principal.projectId, params.id);
      return found ? one("queue", simpleQueueToWire(found.queue, found.run)) : none;
    },
  }),
  defineRoute({
    method: "DELETE",
    path: `${base}/{id}`,
    auth: "api_key",
    tag,
    summary: "Delete a simple queue; a run's default queue is deleted with its whole run",
    params: idParams,
    response: idOrNoneSchema("queue_id"),
    errors: ["default_queue_delete", "not_found"],
    handler: async ({ ctx, params }) => {
      const [id] = await deleteSimpleQueues(ctx.app.db, ctx.principal.projectId, [params.id]);
      return id ? { count: 1, queue_id: id } : none;
    },
  }),
  defineRoute({
    method: "DELETE",
    path: `${base}/`,
    auth: "api_key",
    tag,
    summary: "Delete simple queues; a run's default queue is deleted with its whole run",
    body: z.strictObject({ queue_ids: z.array(uuid).max(1000) }),
    response: idsSchema("queue_ids"),
    errors: ["default_queue_delete", "not_found"],
    handler: async ({ ctx, body }) => {
      const ids = await deleteSimpleQueues(ctx.app.db, ctx.principal.projectId, body.queue_ids);
      return { count: ids.length, queue_ids: ids };
    },
  }),
  queueScenariosRoute(base, getSimpleQueue),
  push("traces"),
  push("testcases"),
];
