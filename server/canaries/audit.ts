import { recordAudit } from "@/server/audit";
import type { Transaction } from "@/server/db";
import type { CanaryRow } from "./store";

export type CanaryAuditAction = "canary.started" | "canary.ramped" | "canary.promoted" | "canary.rolled_back";

const view = (row: CanaryRow) => ({
  environment_id: row.environmentId,
  // The environment key: named `reference`, as a field ending in "key" is dropped as a secret (withoutSecrets).
  reference: row.key,
  candidate_revision_id: row.candidateRevisionId,
  baseline_revision_id: row.baselineRevisionId,
  status: row.status,
  weight: row.weight,
  ...(row.reason && { reason: row.reason }),
});

/**
 * One audit entry for one canary action, in the action's transaction. The actor is the request's;
 * a ramp step or a guard's rollback taken by the worker is the system's (server/audit).
 */
export async function auditCanary(
  tx: Transaction,
  action: CanaryAuditAction,
  before: CanaryRow | undefined,
  after: CanaryRow,
  at: Date,
): Promise<void> {
  await recordAudit(tx, {
    projectId: after.projectId,
    action,
    targetType: "canary",
    targetId: after.id,
    ...(before && { before: view(before) }),
    after: action === "canary.started" ? { ...view(after), guards: after.guards } : view(after),
    at,
  });
}
