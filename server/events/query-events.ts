import { and, asc, desc, eq, gt, gte, inArray, lt, lte } from "drizzle-orm";
import { DEFAULT_PAGE_SIZE, toPage, type Page, type Windowing } from "@/server/core/windowing";
import type { Executor } from "@/server/db";
import { events } from "@/server/db/schema";
import { drainEvents } from "./emit";

export type EventRecord = typeof events.$inferSelect;

export interface EventQuery {
  types?: string[];
  windowing?: Windowing;
}

export async function queryEvents(db: Executor, projectId: string, query: EventQuery): Promise<Page<EventRecord>> {
  const w = query.windowing ?? {};
  const limit = w.limit ?? DEFAULT_PAGE_SIZE;
  const ascending = w.order === "ascending";
  // Read events of this process still queued for their batched insert belong in the answer.
  await drainEvents(db);
  const rows = await db
    .select()
    .from(events)
    .where(
      and(
        eq(events.projectId, projectId),
        query.types?.length ? inArray(events.eventType, query.types) : undefined,
        w.next ? (ascending ? gt(events.id, w.next) : lt(events.id, w.next)) : undefined,
        w.oldest ? gte(events.createdAt, new Date(w.oldest)) : undefined,
        w.newest ? lte(events.createdAt, new Date(w.newest)) : undefined,
      ),
    )
    .orderBy(ascending ? asc(events.id) : desc(events.id))
    .limit(limit + 1);
  return toPage(rows, limit);
}
