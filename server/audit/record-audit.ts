import { newId } from "@/server/core/ids";
import { currentAuditActor } from "@/server/core/audit-actor";
import type { Executor } from "@/server/db";
import { auditLog } from "@/server/db/schema";
import { withoutSecrets } from "@/server/core/secret-masking";

export interface AuditEntry {
  /** Null only for a failed sign-in with an unknown e-mail. */
  projectId: string | null;
  action: string;
  targetType: string;
  targetId?: string | null;
  before?: unknown;
  after?: unknown;
  /** Overrides the request's actor: sign-ins, where no principal exists yet. */
  actor?: { userId?: string | null; label?: string | null; clientAddress?: string | null };
  at?: Date;
}

/**
 * Appends one entry, in the caller's transaction so the entry commits with its change (or not at
 * all). The actor is the request's (server/core/audit-actor.ts), else the system.
 */
export async function recordAudit(db: Executor, entry: AuditEntry): Promise<void> {
  const request = currentAuditActor();
  const userId = entry.actor?.userId ?? request?.userId ?? null;
  const apiKeyId = entry.actor ? null : (request?.apiKeyId ?? null);
  const actorType = apiKeyId ? "api_key" : userId ? "user" : entry.actor ? "anonymous" : "system";
  await db.insert(auditLog).values({
    id: newId(),
    projectId: entry.projectId,
    occurredAt: entry.at ?? new Date(),
    action: entry.action,
    actorType,
    actorUserId: userId,
    actorApiKeyId: apiKeyId,
    actorLabel: entry.actor?.label ?? null,
    clientAddress: entry.actor?.clientAddress ?? request?.clientAddress ?? null,
    targetType: entry.targetType,
    targetId: entry.targetId ?? null,
    before: entry.before === undefined ? null : withoutSecrets(entry.before),
    after: entry.after === undefined ? null : withoutSecrets(entry.after),
  });
}
