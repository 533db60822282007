import { z } from "zod";
import { startOptimizationBody, startTriageBody } from "@/server/improve";
import { refSchema } from "@/server/versioning";

export const AUTOMATION_KINDS = ["schedule", "event", "inbound"] as const;
export type AutomationKind = (typeof AUTOMATION_KINDS)[number];
export const OVERLAP_POLICIES = ["skip", "queue_one", "cancel_previous"] as const;
export type OverlapPolicy = (typeof OVERLAP_POLICIES)[number];
export const SIGNATURE_SCHEMES = ["standard_webhooks", "github", "stripe"] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

/** Default catch-up window after downtime: a fire time missed by at most this much still fires, once. */
export const DEFAULT_CATCH_UP_SECONDS = 900;

/**
 * The service's own events an automation can follow: a deploy (a commit on an environment), an
 * evaluation run ending, an agent run ending or pausing, and monitor alerts (`monitors.*`,
 * accepted ahead of monitors so subscriptions made now work when they land). Read events are
 * not offered: an agent reading a revision would fire its own trigger.
 */
export const SUBSCRIBABLE_EVENTS = [
  "environments.revisions.committed",
  "evaluations.runs.finished",
  "evaluations.runs.failed",
  "agents.runs.finished",
  "agents.runs.failed",
  "agents.runs.paused",
] as const;
/** The event type of a schedule's firing when its `event_key` names none. */
export const SCHEDULE_EVENT_TYPE = "cron.tick";

/**
 * The event type an automation's firings carry: a schedule's `event_key` (kept in `event_types`;
 * rows from before it: the default), an event subscription's event type, else its kind (inbound).
 */
export const eventTypeOf = (row: { kind?: string; eventTypes?: string[] | null }) =>
  row.eventTypes?.[0] ?? (row.kind === "schedule" ? SCHEDULE_EVENT_TYPE : row.kind);

const eventTypeSchema = z
  .string()
  .refine((type) => (SUBSCRIBABLE_EVENTS as readonly string[]).includes(type) || /^monitors\.[a-z_.]+$/.test(type), {
    message: `must be one of ${SUBSCRIBABLE_EVENTS.join(", ")} or a monitors.* event type`,
  });

export const referencesSchema = z
  .strictObject({
    workflow: refSchema.nullish(),
    workflow_variant: refSchema.nullish(),
    workflow_revision: refSchema.nullish(),
    application: refSchema.nullish(),
    application_variant: refSchema.nullish(),
    application_revision: refSchema.nullish(),
    environment: refSchema.nullish(),
    key: z.string().min(1).max(300).nullish(),
  })
  .describe(
    "What runs: an agent (`workflow*`, as invoke takes it) or a prompt application (`application*`, run as /v1 runs it). A revision pins one version; an environment (with `key` or the artifact) is resolved at every firing, so a deploy changes what runs next.",
  );

const messageSchema = z.object({
  role: z.enum(["user", "system", "assistant"]),
  content: z.string().min(1).max(100_000),
});

export const inputSchema = z
  .object({
    messages: z.array(messageSchema).min(1).max(100).optional().describe("An agent's input messages"),
    inputs: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .optional()
      .describe("A prompt application's {{name}} values (instead of messages)"),
    fields: z
      .union([z.string().min(1).max(1000), z.record(z.string(), z.unknown())])
      .optional()
      .describe(
        "Instead of messages or inputs, a selector template over the firing's context {event: {event_id, event_type, timestamp, created_at, attributes}, subscription: {id, name, tags, meta, created_at, updated_at}, scope: {project_id}} (the reference implementation's inputs_fields): string leaves starting with `$` (JSONPath) or `/` (JSON Pointer) are read from it, others kept, a path that matches nothing gives null. The result is an agent's user message (as JSON) or a prompt application's inputs.",
      ),
  })
  .describe(
    "An agent's messages, or a prompt application's inputs. `{{ path }}` in a message's content or a string input is filled from the firing's payload: an event's attributes, an inbound request's JSON body, a schedule's {scheduled_at, fired_at}.",
  );

export const conditionSchema = z
  .object({
    path: z.string().min(1).max(300),
    equals: z.unknown().optional(),
    in: z.array(z.unknown()).max(100).optional(),
    exists: z.boolean().optional(),
  })
  .refine((c) => c.equals !== undefined || c.in !== undefined || c.exists !== undefined, {
    message: "give equals, in or exists",
  });

/** Instead of running an agent, a firing may start background work of server/improve. */
export const actionSchema = z
  .discriminatedUnion("kind", [
    z.strictObject({
      kind: z.literal("triage"),
      body: startTriageBody.describe(
        "The triage to start (POST /api/improve/triages); a monitor_alert evidence without alert_id takes the alert that fired the automation",
      ),
    }),
    z.strictObject({
      kind: z.literal("optimize"),
      body: startOptimizationBody.describe("The optimization to start (POST /api/improve/optimizations)"),
    }),
  ])
  .describe(
    "Start a triage or an optimization at each firing instead of running an agent (then references and input stay empty)",
  );

const labels = z.record(z.string(), z.unknown()).nullish();

const common = {
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).nullish(),
  tags: labels.describe("Your own labels, kept and answered as sent; a firing's context carries them"),
  meta: labels.describe("Your own notes, kept and answered as sent; a firing's context carries them"),
  references: referencesSchema.default({}),
  input: inputSchema.default({}),
  action: actionSchema.optional(),
  is_active: z.boolean().default(true),
  test: z
    .boolean()
    .default(false)
    .describe(
      "An event subscription in test mode (the reference's flags.is_test): references unchecked, each firing recorded as `captured` with what a run would be given, nothing started. A PUT replaces it as every field: one without `test: true` makes the subscription live, its references checked.",
    ),
};

export const automationInputSchema = z
  .discriminatedUnion("kind", [
    z.object({
      kind: z.literal("schedule"),
      ...common,
      cron: z
        .string()
        .min(1)
        .max(200)
        .describe('Five fields: minute hour day-of-month month day-of-week, e.g. "30 2 * * *"'),
      timezone: z
        .string()
        .min(1)
        .max(100)
        .default("UTC")
        .describe("An IANA time zone; daylight-saving changes follow it"),
      overlap_policy: z
        .enum(OVERLAP_POLICIES)
        .default("skip")
        .describe("When the previous run is still running: skip this firing, queue one, or cancel the previous run"),
      catch_up_seconds: z
        .number()
        .int()
        .min(0)
        .max(7 * 86_400)
        .default(DEFAULT_CATCH_UP_SECONDS)
        .describe("After downtime, a missed fire time at most this old fires once; older ones are recorded as skipped"),
      event_key: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .default(SCHEDULE_EVENT_TYPE)
        .describe("The event type a firing carries (`event.event_type` of an inputs_fields selector)"),
    }),
    z.object({
      kind: z.literal("event"),
      ...common,
      event_types: z.array(eventTypeSchema).min(1).max(20),
      filter: z.array(conditionSchema).max(20).nullish(),
    }),
    z.object({
      kind: z.literal("inbound"),
      ...common,
      signature_scheme: z
        .enum(SIGNATURE_SCHEMES)
        .describe(
          "How senders sign: Standard Webhooks (Svix) headers, GitHub's X-Hub-Signature-256, Stripe's Stripe-Signature",
        ),
      secret: z
        .string()
        .min(16, "must be at least 16 characters")
        .max(1024)
        .optional()
        .describe("The signing secret; generated when absent, returned once"),
      filter: z.array(conditionSchema).max(20).nullish(),
    }),
  ])
  // Test mode is the reference's for subscriptions: elsewhere it is refused, not quietly dropped.
  .refine((input) => !input.test || (input.kind === "event" && !input.action), {
    path: ["test"],
    message: "only an event subscription that runs an agent or a prompt application (no action) can be a test",
  });
export type AutomationInput = z.output<typeof automationInputSchema>;

export const cronPreviewSchema = z.object({
  cron: z.string().min(1).max(200),
  timezone: z.string().min(1).max(100).default("UTC"),
});
