import { and, eq, inArray } from "drizzle-orm";
import { toPage, windowClause, type Page, type Windowing } from "@/server/core/windowing";
import type { Executor } from "@/server/db";
import { events } from "@/server/db/schema";
import { drainEvents } from "./emit";

export type EventRecord = typeof events.$inferSelect;

export interface EventQuery {
  types?: string[];
  windowing?: Windowing;
}

export async function queryEvents(db: Executor, projectId: string, query: EventQuery): Promise<Page<EventRecord>> {
  const w = windowClause(events, query.windowing);
  // Read events of this process still queued for their batched insert belong in the answer.
  await drainEvents(db);
  const rows = await db
    .select()
    .from(events)
    .where(
      and(
        eq(events.projectId, projectId),
        query.types?.length ? inArray(events.eventType, query.types) : undefined,
        ...w.conditions,
      ),
    )
    .orderBy(w.orderBy)
    .limit(w.limit + 1);
  return toPage(rows, w.limit);
}
