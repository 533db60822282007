import { z } from "zod";
import { toIso } from "@/server/core/time";
import { describeCron, nextFireTimes } from "@/server/core/cron/cron-schedule";
import { eventTypeOf } from "./automation-input";
import { isTestAutomation, type AutomationRow } from "./automation-store";
import type { FiringRow } from "./firing-store";

const iso = z.string();

export const firingWire = z.object({
  id: z.string(),
  automation_id: z.string(),
  event_key: z.string().describe("What fired: schedule:<time>, event:<event id>, inbound:<sender's id>, test:<id>"),
  status: z
    .enum(["pending", "queued", "started", "captured", "skipped", "failed"])
    .describe("captured: a test subscription's firing, recorded with nothing started"),
  scheduled_at: iso.optional().describe("The fire time a schedule planned"),
  fired_at: iso.optional().describe("When the run was started, or the firing given up"),
  run_id: z
    .string()
    .optional()
    .describe("The agent run started, or the triage or optimization an automation's action started"),
  session_id: z.string().optional(),
  trace_id: z.string().optional(),
  error: z.string().optional(),
  payload: z.unknown().optional(),
  created_at: iso,
});
export type FiringWire = z.infer<typeof firingWire>;

export function firingToWire(row: FiringRow): FiringWire {
  return {
    id: row.id,
    automation_id: row.automationId,
    event_key: row.eventKey,
    status: row.status,
    ...(row.scheduledAt ? { scheduled_at: toIso(row.scheduledAt) } : {}),
    ...(row.firedAt ? { fired_at: toIso(row.firedAt) } : {}),
    // A claimed firing holds a minted run id before its run exists: only a started one names it.
    ...(row.status === "started" && row.runId ? { run_id: row.runId } : {}),
    ...(row.sessionId ? { session_id: row.sessionId } : {}),
    ...(row.traceId ? { trace_id: row.traceId } : {}),
    ...(row.error ? { error: row.error } : {}),
    ...(row.payload !== null && row.payload !== undefined ? { payload: row.payload } : {}),
    created_at: toIso(row.createdAt),
  };
}

export const automationWire = z.object({
  id: z.string(),
  kind: z.enum(["schedule", "event", "inbound"]),
  name: z.string(),
  description: z.string().optional(),
  references: z.record(z.string(), z.unknown()),
  input: z.record(z.string(), z.unknown()),
  action: z
    .object({ kind: z.enum(["triage", "optimize"]), body: z.record(z.string(), z.unknown()) })
    .optional()
    .describe(
      "What a firing starts instead of an agent run (its firings' run_id is the triage's or optimization's id)",
    ),
  is_active: z.boolean(),
  test: z
    .literal(true)
    .optional()
    .describe(
      "A test subscription (input `test`, the reference's flags.is_test): its references are not checked and its firings are recorded as `captured`, starting nothing",
    ),
  tags: z.record(z.string(), z.unknown()).optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
  cron: z.string().optional(),
  timezone: z.string().optional(),
  description_of_schedule: z.string().optional().describe("The cron in words, with its zone"),
  overlap_policy: z.enum(["skip", "queue_one", "cancel_previous"]).optional(),
  catch_up_seconds: z.number().int().optional(),
  event_key: z.string().optional().describe("A schedule's event type, carried by its firings"),
  next_fire_at: iso.optional(),
  next_fire_times: z.array(iso).optional().describe("The next five fire times of an active schedule"),
  last_fired_at: iso.optional(),
  event_types: z.array(z.string()).optional(),
  filter: z.array(z.unknown()).optional(),
  signature_scheme: z.enum(["standard_webhooks", "github", "stripe"]).optional(),
  inbound_path: z.string().optional().describe("Where senders POST (an inbound trigger), under this service's origin"),
  secret: z.string().optional().describe("The signing secret: in the answer that created or changed it, never again"),
  last_delivery: firingWire.optional(),
  created_at: iso,
  updated_at: iso,
  deleted_at: iso.optional(),
  deleted_by_id: z.string().optional(),
  created_by_id: z.string(),
});
export type AutomationWire = z.infer<typeof automationWire>;

export const inboundPath = (id: string) => `/api/automations/${id}/inbound`;

export function automationToWire(
  row: AutomationRow,
  extra: { secret?: string; last?: FiringRow } = {},
): AutomationWire {
  const schedule = row.kind === "schedule" ? { cron: row.cron!, timezone: row.timezone! } : undefined;
  const upcoming = schedule && row.isActive && row.nextFireAt && !row.deletedAt;
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    ...(row.description ? { description: row.description } : {}),
    references: (row.target.references ?? {}) as Record<string, unknown>,
    input: row.input,
    ...(row.target.action
      ? { action: row.target.action as { kind: "triage" | "optimize"; body: Record<string, unknown> } }
      : {}),
    is_active: row.isActive,
    ...(isTestAutomation(row) ? { test: true as const } : {}),
    ...(row.tags ? { tags: row.tags } : {}),
    ...(row.meta ? { meta: row.meta } : {}),
    ...(schedule
      ? {
          ...schedule,
          description_of_schedule: describeCron(schedule),
          overlap_policy: row.overlapPolicy ?? "skip",
          catch_up_seconds: row.catchUpSeconds ?? undefined,
          event_key: eventTypeOf(row),
        }
      : {}),
    ...(upcoming
      ? {
          next_fire_at: toIso(row.nextFireAt!),
          next_fire_times: [row.nextFireAt!, ...nextFireTimes(schedule, row.nextFireAt!, 4)].map(toIso),
        }
      : {}),
    ...(row.lastFiredAt ? { last_fired_at: toIso(row.lastFiredAt) } : {}),
    ...(row.eventTypes && !schedule ? { event_types: row.eventTypes } : {}),
    ...(row.filter ? { filter: row.filter } : {}),
    ...(row.signatureScheme ? { signature_scheme: row.signatureScheme, inbound_path: inboundPath(row.id) } : {}),
    ...(extra.secret ? { secret: extra.secret } : {}),
    ...(extra.last ? { last_delivery: firingToWire(extra.last) } : {}),
    created_at: toIso(row.createdAt),
    updated_at: toIso(row.updatedAt),
    ...(row.deletedAt ? { deleted_at: toIso(row.deletedAt) } : {}),
    ...(row.deletedBy ? { deleted_by_id: row.deletedBy } : {}),
    created_by_id: row.createdBy,
  };
}

export const cronPreviewWire = z.object({
  description: z.string(),
  next_fire_times: z.array(iso),
});

/** The preview shown before saving: the cron in words and its next five fire times after `now`. */
export function cronPreview(schedule: { cron: string; timezone: string }, now: Date) {
  return { description: describeCron(schedule), next_fire_times: nextFireTimes(schedule, now, 5).map(toIso) };
}
