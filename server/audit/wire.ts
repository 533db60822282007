import { z } from "zod";
import { compact } from "@/server/core/compact";
import { toIso } from "@/server/core/time";
import type { AuditFilter, AuditRow } from "./query-audit";

export const auditEntryWire = z.object({
  id: z.string().uuid(),
  occurred_at: z.string(),
  action: z.string().describe("<target>.<verb>, e.g. api_key.created, member.role_changed, sign_in.failed"),
  actor: z.object({
    type: z.enum(["user", "api_key", "system", "anonymous"]),
    user_id: z.string().optional(),
    api_key_id: z.string().optional(),
    label: z.string().optional().describe("The e-mail a failed sign-in gave"),
  }),
  client_address: z.string().optional(),
  target: z.object({ type: z.string(), id: z.string().optional() }),
  before: z.unknown().optional().describe("The target before the change, without secret values"),
  after: z.unknown().optional().describe("The target after the change, without secret values"),
});

export type AuditEntryWire = z.infer<typeof auditEntryWire>;

export function auditEntryToWire(row: AuditRow): AuditEntryWire {
  return compact({
    id: row.id,
    occurred_at: toIso(row.occurredAt),
    action: row.action,
    actor: compact({
      type: row.actorType as AuditEntryWire["actor"]["type"],
      user_id: row.actorUserId,
      api_key_id: row.actorApiKeyId,
      label: row.actorLabel,
    }),
    client_address: row.clientAddress,
    target: compact({ type: row.targetType, id: row.targetId }),
    before: row.before,
    after: row.after,
  }) as AuditEntryWire;
}

/** The filters of GET /api/audit and its export, and of the Settings page. */
export const auditFilterInput = z.strictObject({
  action: z.string().max(100).optional(),
  target_type: z.string().max(100).optional(),
  target_id: z.string().max(200).optional(),
  actor: z.string().uuid("actor must be a user id or an API key id").optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
});

export function auditFilterFrom(input: z.infer<typeof auditFilterInput>): AuditFilter {
  return {
    action: input.action,
    targetType: input.target_type,
    targetId: input.target_id,
    actor: input.actor,
    since: input.since ? new Date(input.since) : undefined,
    until: input.until ? new Date(input.until) : undefined,
  };
}
