import { and, asc, eq, gt, gte, inArray } from "drizzle-orm";
import { idFloor } from "@/server/core/ids";
import type { Executor } from "@/server/db";
import { events } from "@/server/db/schema";

export type OutboxEventRow = typeof events.$inferSelect;

/**
 * A project's events of `types` written after `after` (their writer's clock), oldest first, at
 * most `limit`: how a follower of the outbox (an automation's event subscription) reads on from
 * its cursor. The id bound lets the (project, type, id) index skip older events; `created_at`
 * decides (ids are minted up to a second before the row's time is set).
 */
export async function eventsSince(
  db: Executor,
  query: { projectId: string; types: string[]; after: Date; limit: number },
): Promise<OutboxEventRow[]> {
  if (query.types.length === 0) return [];
  return db
    .select()
    .from(events)
    .where(
      and(
        eq(events.projectId, query.projectId),
        inArray(events.eventType, query.types),
        gte(events.id, idFloor(query.after.getTime() - 1_000)),
        gt(events.createdAt, query.after),
      ),
    )
    .orderBy(asc(events.createdAt))
    .limit(query.limit);
}
