import { z } from "zod";
import type { Database } from "@/server/db";
import { BadRequestError } from "@/server/core/errors";
import { defineRoute } from "@/server/http/route";
import { scenarioToWire, scenarioWire } from "../model/wire";
import { statusSchema } from "../model/statuses";
import { queueScenarios } from "../queues/queue-scenarios";
import { evaluationWindowing } from "../model/request-fields";
import { idParams, listBody, listSchema, none, tag } from "./route-helpers";

const uuid = z.string().uuid();

/**
 * `POST {base}/{id}/scenarios/query`: a queue's scenarios, or one person's share of them. The
 * low-level queues and the simple queues answer it alike; `exists`, when given, first checks the
 * id names a queue of that kind (a simple queue is a queue of a queue-mode run).
 */
export function queueScenariosRoute(
  base: string,
  exists?: (db: Database, projectId: string, id: string) => Promise<unknown>,
) {
  return defineRoute({
    method: "POST",
    path: `${base}/{id}/scenarios/query`,
    auth: "api_key",
    role: "viewer",
    tag,
    summary: "The queue's scenarios; with a user, that user's share (sequential blocks or by hash), per repeat lane",
    params: idParams,
    body: z.strictObject({
      queue: z
        .strictObject({ id: uuid.nullish(), user_id: uuid.nullish(), user_ids: z.array(uuid).nullish() })
        .nullish(),
      scenario: z.strictObject({ status: statusSchema.nullish(), statuses: z.array(statusSchema).nullish() }).nullish(),
      windowing: evaluationWindowing,
    }),
    response: z.union([listSchema("scenarios", scenarioWire), z.strictObject({ count: z.literal(0) })]),
    errors: ["queue_mismatch"],
    handler: async ({ ctx, params, body }) => {
      if (body.queue?.id && body.queue.id !== params.id)
        throw new BadRequestError(
          `queue.id ${body.queue.id} differs from the queue in the path (${params.id})`,
          "queue_mismatch",
        );
      if (exists && !(await exists(ctx.app.db, ctx.principal.projectId, params.id))) return none;
      const page = await queueScenarios(ctx.app.db, ctx.principal.projectId, params.id, {
        users: [...(body.queue?.user_ids ?? []), ...(body.queue?.user_id ? [body.queue.user_id] : [])],
        statuses: [...(body.scenario?.statuses ?? []), ...(body.scenario?.status ? [body.scenario.status] : [])],
        windowing: body.windowing ?? undefined,
      });
      return page ? listBody("scenarios", page.items.map(scenarioToWire), page.next) : none;
    },
  });
}
