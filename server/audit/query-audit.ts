import { and, desc, eq, gte, lt, lte, or, type SQL } from "drizzle-orm";
import { toPage, type Page } from "@/server/core/windowing";
import { replicaRead, type Executor } from "@/server/db";
import { auditLog } from "@/server/db/schema";

export type AuditRow = typeof auditLog.$inferSelect;

export interface AuditFilter {
  action?: string;
  targetType?: string;
  targetId?: string;
  /** A user id or an API key id. */
  actor?: string;
  since?: Date;
  until?: Date;
}

function conditions(projectId: string, filter: AuditFilter): SQL[] {
  const where: SQL[] = [eq(auditLog.projectId, projectId)];
  if (filter.action) where.push(eq(auditLog.action, filter.action));
  if (filter.targetType) where.push(eq(auditLog.targetType, filter.targetType));
  if (filter.targetId) where.push(eq(auditLog.targetId, filter.targetId));
  if (filter.actor) where.push(or(eq(auditLog.actorUserId, filter.actor), eq(auditLog.actorApiKeyId, filter.actor))!);
  if (filter.since) where.push(gte(auditLog.occurredAt, filter.since));
  if (filter.until) where.push(lte(auditLog.occurredAt, filter.until));
  return where;
}

/** One page of the project's audit log, newest first; `next` is the last id of the previous page. */
export async function queryAudit(
  db: Executor,
  projectId: string,
  filter: AuditFilter,
  page: { limit: number; next?: string },
): Promise<Page<AuditRow>> {
  const where = conditions(projectId, filter);
  if (page.next) where.push(lt(auditLog.id, page.next));
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(page.limit + 1);
  return toPage(rows, page.limit);
}

/** Every matching entry, newest first, read a page at a time (the export). */
export async function* allAuditEntries(
  db: Executor,
  projectId: string,
  filter: AuditFilter,
  pageSize = 1000,
): AsyncGenerator<AuditRow> {
  let next: string | undefined;
  do {
    // An export reads a replica that holds its caller's last write (the primary otherwise):
    // server/db/README.md, "Read replicas".
    const page = await replicaRead(db, (on) => queryAudit(on, projectId, filter, { limit: pageSize, next }));
    yield* page.items;
    next = page.next;
  } while (next);
}
