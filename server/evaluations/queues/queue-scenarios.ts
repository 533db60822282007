import { and, asc, eq } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { evaluationQueues, evaluationScenarios } from "@/server/db/schema";
import type { ScenarioRow } from "../model/rows";
import { assignedScenarios } from "./assignment";

export interface QueueScenariosQuery {
  /** People whose share to list; none: the whole queue. */
  users: string[];
  statuses: string[];
  windowing?: { next?: string | null; limit?: number | null };
}

/**
 * A queue's scenarios, oldest first: those its `scenario_ids` name (all of the run's when it names
 * none), narrowed to the asked users' shares (sequential blocks or by hash, per repeat lane) and
 * to the asked statuses, then paged. A queue that assigns no one (a default queue) is open to every
 * member. Null when the queue does not exist in the project.
 */
export async function queueScenarios(
  db: Executor,
  projectId: string,
  queueId: string,
  query: QueueScenariosQuery,
): Promise<{ items: ScenarioRow[]; next?: string } | null> {
  const [queue] = await db
    .select()
    .from(evaluationQueues)
    .where(and(eq(evaluationQueues.projectId, projectId), eq(evaluationQueues.id, queueId)));
  if (!queue) return null;
  const data = (queue.data ?? {}) as {
    user_ids?: string[][];
    scenario_ids?: string[];
    batch_size?: number;
    batch_offset?: number;
  };
  const all = await db
    .select()
    .from(evaluationScenarios)
    .where(eq(evaluationScenarios.runId, queue.runId))
    .orderBy(asc(evaluationScenarios.id));
  let ids = all.map((s) => s.id).filter((id) => !data.scenario_ids || data.scenario_ids.includes(id));
  if (query.users.length && data.user_ids?.length) {
    const lanes = data.user_ids;
    const share = new Set(
      query.users.flatMap((u) =>
        assignedScenarios(ids, lanes, u, {
          sequential: queue.flags.is_sequential,
          batchSize: data.batch_size,
          batchOffset: data.batch_offset,
        }),
      ),
    );
    ids = ids.filter((id) => share.has(id));
  }
  const byId = new Map(all.map((s) => [s.id, s]));
  let rows = ids.map((id) => byId.get(id)!).filter((s) => !query.statuses.length || query.statuses.includes(s.status));
  const after = query.windowing?.next;
  if (after) rows = rows.filter((s) => s.id > after);
  const limit = query.windowing?.limit ?? rows.length;
  const items = rows.slice(0, limit);
  return { items, next: rows.length > limit ? items.at(-1)!.id : undefined };
}
