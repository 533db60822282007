import { and, desc, eq, inArray, lt, type SQL } from "drizzle-orm";
import { NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Executor } from "@/server/db";
import { automationDeliveries } from "@/server/db/schema";

export type DeliveryRow = typeof automationDeliveries.$inferSelect;
export type DeliveryStatus = DeliveryRow["status"];

export interface NewDelivery {
  projectId: string;
  automationId: string;
  eventKey: string;
  status: "pending" | "skipped";
  scheduledAt?: Date | null;
  payload?: unknown;
  error?: string;
  createdAt: Date;
}

/**
 * Records firings; a key already recorded for its automation is left as it is (the unique
 * `(automation_id, event_key)`), so two processes, or a replay, cannot fire one thing twice.
 * Returns the rows written.
 */
export async function insertDeliveries(db: Executor, deliveries: NewDelivery[]): Promise<DeliveryRow[]> {
  if (deliveries.length === 0) return [];
  return db
    .insert(automationDeliveries)
    .values(
      deliveries.map((d) => ({
        id: newId(),
        projectId: d.projectId,
        automationId: d.automationId,
        eventKey: d.eventKey,
        status: d.status,
        scheduledAt: d.scheduledAt ?? null,
        payload: d.payload ?? null,
        error: d.error ?? null,
        firedAt: d.status === "skipped" ? d.createdAt : null,
        createdAt: d.createdAt,
      })),
    )
    .onConflictDoNothing({ target: [automationDeliveries.automationId, automationDeliveries.eventKey] })
    .returning();
}

export interface DeliveryQuery {
  automationId?: string;
  automationIds?: string[];
  status?: DeliveryStatus;
  eventKey?: string;
  before?: string;
  limit?: number;
}

/** A project's deliveries, newest first. */
export async function listDeliveries(
  db: Executor,
  projectId: string,
  query: DeliveryQuery = {},
): Promise<DeliveryRow[]> {
  const conditions: (SQL | undefined)[] = [
    eq(automationDeliveries.projectId, projectId),
    query.automationId ? eq(automationDeliveries.automationId, query.automationId) : undefined,
    query.automationIds ? inArray(automationDeliveries.automationId, query.automationIds) : undefined,
    query.status ? eq(automationDeliveries.status, query.status) : undefined,
    query.eventKey ? eq(automationDeliveries.eventKey, query.eventKey) : undefined,
    query.before ? lt(automationDeliveries.id, query.before) : undefined,
  ];
  return db
    .select()
    .from(automationDeliveries)
    .where(and(...conditions))
    .orderBy(desc(automationDeliveries.id))
    .limit(query.limit ?? 100);
}

export async function getDelivery(db: Executor, projectId: string, id: string): Promise<DeliveryRow> {
  const [row] = await db
    .select()
    .from(automationDeliveries)
    .where(and(eq(automationDeliveries.id, id), eq(automationDeliveries.projectId, projectId)));
  if (!row) throw new NotFoundError(`Delivery ${id} not found`, "delivery_not_found");
  return row;
}

/** Sets what became of a firing and lets go of its lease. */
export async function settleDelivery(
  db: Executor,
  id: string,
  outcome: Partial<Pick<DeliveryRow, "status" | "runId" | "sessionId" | "traceId" | "error" | "firedAt">>,
): Promise<void> {
  await db
    .update(automationDeliveries)
    .set({ ...outcome, leaseUntil: null })
    .where(eq(automationDeliveries.id, id));
}

/** Each automation's newest delivery (the list's "last run"). */
export async function lastDeliveries(
  db: Executor,
  projectId: string,
  ids: string[],
): Promise<Map<string, DeliveryRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([automationDeliveries.automationId])
    .from(automationDeliveries)
    .where(and(eq(automationDeliveries.projectId, projectId), inArray(automationDeliveries.automationId, ids)))
    .orderBy(automationDeliveries.automationId, desc(automationDeliveries.id));
  return new Map(rows.map((row) => [row.automationId, row]));
}
