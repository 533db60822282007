import { and, desc, eq, inArray } from "drizzle-orm";
import { toPage, windowClause, type Page, type Windowing } from "@/server/core/windowing";
import { NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Executor } from "@/server/db";
import { automationDeliveries } from "@/server/db/schema";
import { redactForStorage } from "@/server/redaction";
import { eventTypeOf } from "./automation-input";

export type FiringRow = typeof automationDeliveries.$inferSelect;
export type FiringStatus = FiringRow["status"];

/** What a firing records of its trigger as it stands now: the references it runs and its event type. */
export function firingTrigger(automation: {
  kind: string;
  eventTypes: string[] | null;
  target: { references?: unknown };
}): { triggerReferences: Record<string, unknown>; triggerEventType: string } {
  return {
    triggerReferences: (automation.target.references ?? {}) as Record<string, unknown>,
    triggerEventType: eventTypeOf(automation)!,
  };
}

export interface NewFiring extends ReturnType<typeof firingTrigger> {
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
export async function insertFirings(db: Executor, firings: NewFiring[]): Promise<FiringRow[]> {
  if (firings.length === 0) return [];
  return db
    .insert(automationDeliveries)
    .values(
      firings.map((d) => ({
        id: newId(),
        projectId: d.projectId,
        automationId: d.automationId,
        eventKey: d.eventKey,
        status: d.status,
        scheduledAt: d.scheduledAt ?? null,
        payload: d.payload ?? null,
        triggerReferences: d.triggerReferences,
        triggerEventType: d.triggerEventType,
        error: d.error ?? null,
        firedAt: d.status === "skipped" ? d.createdAt : null,
        createdAt: d.createdAt,
      })),
    )
    .onConflictDoNothing({ target: [automationDeliveries.automationId, automationDeliveries.eventKey] })
    .returning();
}

export interface FiringQuery {
  automationId?: string;
  automationIds?: string[];
  status?: FiringStatus;
  statuses?: FiringStatus[];
  eventKey?: string;
}

/** A project's firings, newest first unless the windowing says otherwise, a page at a time (the core paging). */
export async function queryFirings(
  db: Executor,
  projectId: string,
  query: FiringQuery = {},
  windowing: Windowing = {},
): Promise<Page<FiringRow>> {
  const w = windowClause(automationDeliveries, windowing);
  const rows = await db
    .select()
    .from(automationDeliveries)
    .where(
      and(
        eq(automationDeliveries.projectId, projectId),
        query.automationId ? eq(automationDeliveries.automationId, query.automationId) : undefined,
        query.automationIds ? inArray(automationDeliveries.automationId, query.automationIds) : undefined,
        query.status ? eq(automationDeliveries.status, query.status) : undefined,
        query.statuses ? inArray(automationDeliveries.status, query.statuses) : undefined,
        query.eventKey ? eq(automationDeliveries.eventKey, query.eventKey) : undefined,
        ...w.conditions,
      ),
    )
    .orderBy(w.orderBy)
    .limit(w.limit + 1);
  return toPage(rows, w.limit);
}

export async function getFiring(db: Executor, projectId: string, id: string): Promise<FiringRow> {
  const [row] = await db
    .select()
    .from(automationDeliveries)
    .where(and(eq(automationDeliveries.id, id), eq(automationDeliveries.projectId, projectId)));
  if (!row) throw new NotFoundError(`Automation delivery ${id} not found`, "automation_delivery_not_found");
  return row;
}

/**
 * Records how a firing ended and lets go of its lease. Its payload (an inbound sender's body as
 * sent) was kept as it came only until the run it fills started: from here on it is kept as the
 * project's redaction rules leave it, as the run's own input is, and so are the inputs the run was
 * given. The trigger's references and event type, when given, are those the dispatcher ran.
 */
export async function settleFiring(
  db: Executor,
  firing: Pick<FiringRow, "id" | "projectId" | "payload">,
  outcome: Partial<
    Pick<
      FiringRow,
      "status" | "runId" | "sessionId" | "traceId" | "error" | "firedAt" | "triggerReferences" | "triggerEventType"
    >
  > & { inputs?: Record<string, unknown> },
): Promise<void> {
  const payload = firing.payload == null ? null : await redactForStorage(db, firing.projectId, firing.payload);
  const inputs = outcome.inputs && (await redactForStorage(db, firing.projectId, outcome.inputs));
  await db
    .update(automationDeliveries)
    .set({ ...outcome, payload, ...(inputs ? { inputs } : {}), leaseUntil: null })
    .where(eq(automationDeliveries.id, firing.id));
}

/** Each automation's newest firing (the list's "last run"). */
export async function lastFirings(db: Executor, projectId: string, ids: string[]): Promise<Map<string, FiringRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([automationDeliveries.automationId])
    .from(automationDeliveries)
    .where(and(eq(automationDeliveries.projectId, projectId), inArray(automationDeliveries.automationId, ids)))
    .orderBy(automationDeliveries.automationId, desc(automationDeliveries.id));
  return new Map(rows.map((row) => [row.automationId, row]));
}
