import { z } from "zod";
import { BadRequestError, NotFoundError } from "@/server/core/errors";
import { toIso } from "@/server/core/time";
import { DEFAULT_CATCH_UP_SECONDS, OVERLAP_POLICIES, eventTypeOf, type AutomationKind } from "../automation-input";
import { isTestAutomation, type AutomationRow } from "../automation-store";
import { TEST_KEY_PREFIX } from "../dispatch-pass";
import { firingTrigger, type FiringRow } from "../firing-store";
import { referenceEventId } from "../schedule-pass";
import { isSelectorTemplate } from "../selector-template";

/**
 * The reference implementation's `/triggers` shapes (schedules, subscriptions, deliveries) over the
 * same rows as `/api/automations`. Our extra schedule fields (zone, overlap policy, catch-up) ride
 * in `data`; `inputs_fields` is the reference's selector template (stored as our `input.fields`) or
 * our own input (`{messages}` or `{inputs}`), answered as it was sent; a subscription follows one
 * of the service's own event types (`data.event_key`) with an optional `data.filter`, and has no
 * connection.
 */
const lifecycle = {
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().optional(),
  deleted_by_id: z.string().optional(),
  created_by_id: z.string(),
};

const scheduleData = z.object({
  event_key: z.string().trim().min(1).max(200),
  schedule: z.string(),
  timezone: z.string().optional(),
  overlap_policy: z.enum(OVERLAP_POLICIES).optional(),
  catch_up_seconds: z.number().int().optional(),
  next_fire_at: z.string().optional(),
  start_time: z.unknown().optional(),
  end_time: z.unknown().optional(),
  inputs_fields: z.unknown().optional(),
  references: z.record(z.string(), z.unknown()).optional(),
  selector: z.unknown().optional(),
});

/** A trigger's own `tags` and `meta`: optional in an answer, nullable in a body. */
const label = z.record(z.string(), z.unknown());
const labels = { tags: label.optional(), meta: label.optional() };
const labelsBody = { tags: label.nullish(), meta: label.nullish() };

export const compatScheduleWire = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  ...labels,
  flags: z.object({ is_active: z.boolean() }),
  data: scheduleData,
  ...lifecycle,
});

const subscriptionData = z.object({
  event_key: z.string(),
  filter: z.array(z.unknown()).optional(),
  inputs_fields: z.unknown().optional(),
  references: z.record(z.string(), z.unknown()).optional(),
});

export const compatSubscriptionWire = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  ...labels,
  flags: z.object({ is_active: z.boolean(), is_valid: z.boolean(), is_test: z.boolean() }),
  data: subscriptionData,
  ...lifecycle,
});

export const compatScheduleBody = z.object({
  schedule: z.object({
    id: z.string().optional(),
    name: z.string(),
    description: z.string().nullish(),
    ...labelsBody,
    flags: z.object({ is_active: z.boolean().optional() }).nullish(),
    data: scheduleData.omit({ next_fire_at: true }),
  }),
});

export const compatSubscriptionBody = z.object({
  subscription: z.object({
    id: z.string().optional(),
    name: z.string(),
    description: z.string().nullish(),
    ...labelsBody,
    // The reference implementation's provider fields, read only to be refused (scheduleFromCompat's rule).
    connection_id: z.unknown().optional(),
    flags: z
      .object({ is_active: z.boolean().optional(), is_valid: z.boolean().optional(), is_test: z.boolean().optional() })
      .nullish(),
    data: subscriptionData.extend({ trigger_config: z.unknown().optional(), selector: z.unknown().optional() }),
  }),
});

function lifecycleOf(row: AutomationRow) {
  return {
    created_at: toIso(row.createdAt),
    updated_at: toIso(row.updatedAt),
    ...(row.deletedAt ? { deleted_at: toIso(row.deletedAt) } : {}),
    ...(row.deletedBy ? { deleted_by_id: row.deletedBy } : {}),
    created_by_id: row.createdBy,
  };
}

export function scheduleToCompat(row: AutomationRow) {
  return {
    id: row.id,
    name: row.name,
    ...(row.description ? { description: row.description } : {}),
    ...labelsOf(row),
    flags: { is_active: row.isActive },
    data: {
      event_key: eventTypeOf(row),
      schedule: row.cron!,
      timezone: row.timezone!,
      overlap_policy: row.overlapPolicy ?? "skip",
      catch_up_seconds: row.catchUpSeconds ?? DEFAULT_CATCH_UP_SECONDS,
      ...(row.nextFireAt && row.isActive && !row.deletedAt ? { next_fire_at: toIso(row.nextFireAt) } : {}),
      inputs_fields: inputsFieldsOf(row),
      references: (row.target.references ?? {}) as Record<string, unknown>,
    },
    ...lifecycleOf(row),
  };
}

export function subscriptionToCompat(row: AutomationRow) {
  return {
    id: row.id,
    name: row.name,
    ...(row.description ? { description: row.description } : {}),
    ...labelsOf(row),
    flags: { is_active: row.isActive, is_valid: true, is_test: isTestAutomation(row) },
    data: {
      event_key: row.eventTypes?.[0] ?? "",
      ...(row.filter ? { filter: row.filter } : {}),
      inputs_fields: inputsFieldsOf(row),
      references: (row.target.references ?? {}) as Record<string, unknown>,
    },
    ...lifecycleOf(row),
  };
}

const labelsOf = (row: AutomationRow) => ({
  ...(row.tags ? { tags: row.tags } : {}),
  ...(row.meta ? { meta: row.meta } : {}),
});

/** `inputs_fields` as it was sent: a selector template, or our own input. */
function inputsFieldsOf(row: AutomationRow): unknown {
  const input = row.input as Record<string, unknown>;
  return input.fields ?? input;
}

/** A reference `inputs_fields` as our input: a selector template becomes `input.fields`. */
const inputOf = (inputsFields: unknown) => (isSelectorTemplate(inputsFields) ? { fields: inputsFields } : inputsFields);

function refused(field: string, why: string): never {
  throw new BadRequestError(`${field}: ${why}`, "unsupported_field", [{ path: field, message: why }]);
}

/**
 * References are optional in the reference implementation, which saves such a trigger and fails
 * its every firing; here it is refused when saved, naming the field.
 */
function requireReferences(field: string, references: Record<string, unknown> | undefined): void {
  if (references && Object.keys(references).length > 0) return;
  const why = "name the agent or prompt application this trigger runs (e.g. {workflow: {slug}})";
  throw new BadRequestError(`${field}: ${why}`, "missing_agent", [{ path: field, message: why }]);
}

/** A reference schedule body as our input; fields we do not implement are refused, not ignored. */
export function scheduleFromCompat(body: z.infer<typeof compatScheduleBody>["schedule"]): unknown {
  requireReferences("schedule.data.references", body.data.references);
  if (body.data.start_time != null || body.data.end_time != null)
    refused("schedule.data.start_time", "active windows are not supported; pause and resume the schedule instead");
  if (body.data.selector != null)
    refused("schedule.data.selector", "selectors are not supported; the run's output is the agent's reply");
  return {
    kind: "schedule",
    name: body.name,
    description: body.description,
    tags: body.tags,
    meta: body.meta,
    is_active: body.flags?.is_active ?? true,
    cron: body.data.schedule,
    timezone: body.data.timezone,
    overlap_policy: body.data.overlap_policy,
    catch_up_seconds: body.data.catch_up_seconds,
    event_key: body.data.event_key,
    references: body.data.references ?? {},
    input: inputOf(body.data.inputs_fields),
  };
}

/**
 * A reference subscription body as our input. Its provider's fields are refused, not ignored:
 * a connection (there are none here: the reference's answer for an unknown one), a trigger
 * config or an invalid subscription would each be a subscription that silently does something
 * else here. A test subscription (`flags.is_test`) may name no references: it runs nothing.
 */
export function subscriptionFromCompat(body: z.infer<typeof compatSubscriptionBody>["subscription"]): unknown {
  if (body.connection_id != null)
    throw new NotFoundError(
      "Connection not found: this service connects to no integration provider; a subscription follows one of its own events (data.event_key) and takes no connection_id",
    );
  if (body.data.trigger_config != null)
    refused("subscription.data.trigger_config", "there is no integration provider to configure");
  if (body.data.selector != null)
    refused("subscription.data.selector", "selectors are not supported; the run's output is the agent's reply");
  if (body.flags?.is_valid === false)
    refused("subscription.flags.is_valid", "a subscription here follows the service's own events and is always valid");
  if (!body.flags?.is_test) requireReferences("subscription.data.references", body.data.references);
  return {
    kind: "event",
    name: body.name,
    description: body.description,
    tags: body.tags,
    meta: body.meta,
    // The reference's test subscription is active whatever its flags say.
    is_active: body.flags?.is_test ? true : (body.flags?.is_active ?? true),
    test: body.flags?.is_test === true,
    event_types: [body.data.event_key],
    filter: body.data.filter,
    references: body.data.references ?? {},
    input: inputOf(body.data.inputs_fields),
  };
}

/**
 * Which `/api/triggers` collection serves each kind, and the field a delivery names it by. The
 * routes are built from this table and deliveries are labelled from it, so every id a delivery
 * names is one its route looks up. An inbound trigger has no collection there (it lives only in
 * `/api/automations`): its deliveries name it by `automation_id` alone, which every delivery carries.
 */
export const COMPAT_COLLECTIONS = {
  schedule: { plural: "schedules", singular: "schedule", idField: "schedule_id" },
  event: { plural: "subscriptions", singular: "subscription", idField: "subscription_id" },
  inbound: undefined,
} as const satisfies Record<
  AutomationKind,
  { plural: string; singular: string; idField: "schedule_id" | "subscription_id" } | undefined
>;

/** HTTP-like codes as the reference implementation's deliveries carry them: text (its `Status.code` is a string). */
const CODES: Record<FiringRow["status"], { code: string; message: string }> = {
  pending: { code: "102", message: "claimed" },
  queued: { code: "102", message: "queued" },
  started: { code: "202", message: "dispatched" },
  // The reference's test capture: its 200, with nothing invoked.
  captured: { code: "200", message: "success" },
  skipped: { code: "409", message: "skipped" },
  failed: { code: "400", message: "failed" },
};

export const compatFiringWire = z.object({
  id: z.string(),
  status: z.object({ timestamp: z.string(), code: z.string(), message: z.string() }),
  data: z.object({
    event_key: z
      .string()
      .describe("The trigger's event key when it fired: a schedule's event_key, a subscription's event type"),
    session_id: z.string().optional(),
    references: z
      .record(z.string(), z.unknown())
      .describe("The references the firing ran with, as its trigger stored them then"),
    is_test: z.boolean(),
    inputs: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "What the run was given (a selector template's result, an agent's messages, an application's inputs), as recorded when it started and redacted as the payload is; left out when no run started",
      ),
    payload: z
      .unknown()
      .optional()
      .describe("The firing's payload: a schedule's tick, an event's attributes, an inbound body"),
    result: z.object({ run_id: z.string(), trace_id: z.string().optional() }).optional(),
    error: z.string().optional(),
    scheduled_at: z.string().optional(),
  }),
  event_id: z.string(),
  automation_id: z.string().describe("The automation that fired (`/api/automations/{id}`), whatever its kind"),
  schedule_id: z.string().optional().describe("A schedule's firing: `/api/triggers/schedules/{id}`"),
  subscription_id: z.string().optional().describe("An event subscription's firing: `/api/triggers/subscriptions/{id}`"),
  created_at: z.string(),
});

/**
 * A delivery as the reference's: the references, event key and inputs its firing recorded when it
 * ran. A firing recorded before migration 0051 kept none: its references and event key are its
 * trigger's as they are now, and it has no inputs.
 */
export function firingToCompat(row: FiringRow, automation: AutomationRow): z.infer<typeof compatFiringWire> {
  const collection = COMPAT_COLLECTIONS[automation.kind];
  // What the firing ran; a row from before firings recorded it answers its trigger as it is now.
  const trigger = row.triggerReferences
    ? { triggerReferences: row.triggerReferences, triggerEventType: row.triggerEventType! }
    : firingTrigger(automation);
  return {
    id: row.id,
    status: { timestamp: toIso(row.firedAt ?? row.createdAt), ...CODES[row.status] },
    data: {
      event_key: trigger.triggerEventType,
      ...(row.sessionId ? { session_id: row.sessionId } : {}),
      references: trigger.triggerReferences as Record<string, unknown>,
      // Made by Test, or captured by a test subscription (as it was then: a later PUT leaves it).
      is_test: row.status === "captured" || row.eventKey.startsWith(TEST_KEY_PREFIX),
      ...(row.payload != null ? { payload: row.payload } : {}),
      ...(row.inputs ? { inputs: row.inputs } : {}),
      ...(row.status === "started" && row.runId
        ? { result: { run_id: row.runId, ...(row.traceId ? { trace_id: row.traceId } : {}) } }
        : {}),
      ...(row.error ? { error: row.error } : {}),
      ...(row.scheduledAt ? { scheduled_at: toIso(row.scheduledAt) } : {}),
    },
    event_id: referenceEventId(row.automationId, row.eventKey),
    automation_id: row.automationId,
    ...(collection ? { [collection.idField]: row.automationId } : {}),
    created_at: toIso(row.createdAt),
  };
}
