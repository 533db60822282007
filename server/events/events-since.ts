import { and, asc, eq, gt, gte, inArray } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { events } from "@/server/db/schema";

export type OutboxEventRow = typeof events.$inferSelect;

/** The smallest UUIDv7 minted at `ms` (event ids are UUIDv7, their first 48 bits the time). */
export function idFloor(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

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
