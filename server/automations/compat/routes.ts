import { TURN_ERROR_CODES } from "@/server/agent-runs";
import { z } from "zod";
import type { AppContext } from "@/server/core/app-context";
import { BadRequestError, isAppError, NotFoundError, SchemaValidationError } from "@/server/core/errors";
import { checkCronSchedule } from "@/server/core/cron/cron-schedule";
import { windowingSchema, type Windowing } from "@/server/core/windowing";
import { zodIssuesToFieldErrors } from "@/server/core/zod-issues";
import { many, manySchema, one, oneSchema, pageBody, pageSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { automationInputSchema, type AutomationInput } from "../automation-input";
import { TARGET_REFERENCE_ERROR_CODES } from "../automation-target";
import {
  createAutomation,
  deleteAutomation,
  getAutomation,
  getLiveAutomation,
  listAutomations,
  queryAutomations,
  replaceAutomation,
  setAutomationActive,
  type AutomationRow,
} from "../automation-store";
import {
  COMPAT_COLLECTIONS,
  compatFiringWire,
  compatScheduleBody,
  compatScheduleWire,
  compatSubscriptionBody,
  compatSubscriptionWire,
  firingToCompat,
  scheduleFromCompat,
  scheduleToCompat,
  subscriptionFromCompat,
  subscriptionToCompat,
} from "./wire";
import { firingCompatRoutes } from "./firing-routes";
import { providerCompatRoutes } from "./provider-routes";
import { testSubscription } from "./test-subscription";

const tag = "triggers";
/** The reference's default `inputs_fields`: the firing's whole context. */
const WHOLE_CONTEXT = "$";
const idParams = z.object({ id: z.string().uuid() });

/**
 * The reference implementation's body as our input, its schema errors named by the
 * reference implementation's paths.
 */
function asInput(value: unknown, prefix: string): AutomationInput {
  // Without inputs_fields the reference sends the whole context ("$"), as a selector does.
  const input = (value as { input?: unknown }).input ?? { fields: WHOLE_CONTEXT };
  const parsed = automationInputSchema.safeParse({ ...(value as object), input });
  if (parsed.success) return parsed.data;
  // Our input's fields by the reference's body paths: its header fields sit beside `data`.
  const renamed: Record<string, string> = {
    name: "name",
    description: "description",
    tags: "tags",
    meta: "meta",
    is_active: "flags.is_active",
    cron: "data.schedule",
    input: "data.inputs_fields",
    event_types: "data.event_key",
  };
  throw new SchemaValidationError(
    zodIssuesToFieldErrors(parsed.error).map((e) => {
      const [head, ...rest] = e.path.split(".");
      return { ...e, path: [prefix, renamed[head] ?? `data.${head}`, ...rest].join(".") };
    }),
  );
}

/**
 * The reference checks a schedule's cron before anything else and answers 422 (ours is a 400 on
 * our own routes): a cron that does not parse, has other than five fields, or never fires.
 */
function checkCompatCron(body: unknown, now: Date): void {
  const data = (body as { data: { schedule: string; timezone?: string } }).data;
  try {
    checkCronSchedule({ cron: data.schedule, timezone: data.timezone ?? "UTC" }, now);
  } catch (error) {
    if (!isAppError(error)) throw error;
    const field = error.code === "invalid_timezone" ? "timezone" : "schedule";
    throw new SchemaValidationError([{ path: `schedule.data.${field}`, message: error.message }]);
  }
}

/**
 * Saves through our store; a reference that resolves to nothing is the reference's 422 naming
 * `data.references` (our own routes answer 404 naming it).
 */
async function saveAs<T>(singular: string, save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    if (error instanceof NotFoundError)
      throw new SchemaValidationError([{ path: `${singular}.data.references`, message: error.message }]);
    throw error;
  }
}

/**
 * One kind of trigger, the reference implementation's routes over it: create, list, query, get,
 * replace, delete, start, stop.
 */
function triggerRoutes<B extends { id?: string }>(spec: {
  kind: "schedule" | "event";
  wire: z.ZodType;
  toWire: (row: AutomationRow) => unknown;
  body: z.ZodType<Record<string, B>>;
  fromBody: (body: B) => unknown;
  /** Checks the reference runs first, before the body is read as ours. */
  precheck?: (body: B, now: Date) => void;
}) {
  const { plural, singular } = COMPAT_COLLECTIONS[spec.kind];
  const base = `/api/triggers/${plural}`;
  const oneWire = oneSchema(singular, spec.wire);
  const manyWire = manySchema(plural, spec.wire);
  const label = singular === "schedule" ? "Trigger schedule" : "Trigger subscription";
  const getOfKind = async (app: AppContext, projectId: string, id: string, live: boolean) => {
    try {
      const row = await (live ? getLiveAutomation : getAutomation)(app.db, projectId, id);
      if (row.kind !== spec.kind) throw new NotFoundError("", "trigger_not_found");
      return row;
    } catch (error) {
      if (error instanceof NotFoundError) throw new NotFoundError(`${label} not found`, "trigger_not_found");
      throw error;
    }
  };
  const startStop = (active: boolean) =>
    defineRoute({
      method: "POST",
      path: `${base}/{id}/${active ? "start" : "stop"}`,
      auth: "api_key",
      tag,
      summary: `${active ? "Start" : "Stop"} a ${singular}`,
      params: idParams,
      response: oneWire,
      errors: ["automation_not_found", "invalid_cron", "invalid_timezone", "trigger_not_found"],
      handler: async ({ ctx, params }) => {
        await getOfKind(ctx.app, ctx.principal.projectId, params.id, true);
        return one(
          singular,
          spec.toWire(await setAutomationActive(ctx.app, ctx.principal.projectId, params.id, active)),
        );
      },
    });
  return [
    defineRoute({
      method: "POST",
      path: `${base}/`,
      auth: "api_key",
      tag,
      summary: `Create a ${singular} (reference shape)`,
      body: spec.body,
      response: oneWire,
      errors: [
        // Resolving the target agent is preparing its turn: it refuses as a turn would.
        ...TURN_ERROR_CODES,
        ...TARGET_REFERENCE_ERROR_CODES,
        "ambiguous_target",
        "inputs_not_used",
        "invalid_cron",
        "invalid_secret",
        "messages_not_used",
        "missing_messages",
        "missing_variable",
        "not_a_prompt_application",
        "not_an_agent",
        "not_found",
        "unsupported_field",
        "unsupported_prompt",
      ],
      handler: async ({ ctx, body }) => {
        spec.precheck?.(body[singular], ctx.app.now());
        const input = asInput(spec.fromBody(body[singular]), singular);
        const { row } = await saveAs(singular, () => createAutomation(ctx.app, ctx.principal, input));
        return one(singular, spec.toWire(row));
      },
    }),
    defineRoute({
      method: "GET",
      path: `${base}/`,
      auth: "api_key",
      tag,
      summary: `List the ${plural} that are not deleted`,
      response: manyWire,
      handler: async ({ ctx }) =>
        many(
          plural,
          (await listAutomations(ctx.app.db, ctx.principal.projectId, { kind: spec.kind })).map(spec.toWire),
        ),
    }),
    defineRoute({
      method: "POST",
      path: `${base}/query`,
      auth: "api_key",
      role: "viewer",
      tag,
      summary: `Query ${plural}: name (case-insensitive substring), event_key${spec.kind === "event" ? ", connection_id" : ""}; newest first, a page only when windowing is sent`,
      body: z.strictObject({
        [singular]: z
          .strictObject({
            name: z.string().optional(),
            event_key: z.string().optional(),
            ...(spec.kind === "event" ? { connection_id: z.string().optional() } : {}),
          })
          .nullish(),
        windowing: windowingSchema.nullish(),
      }),
      response: pageSchema(plural, spec.wire),
      handler: async ({ ctx, body }) => {
        const filter = (body[singular] ?? {}) as { name?: string; event_key?: string; connection_id?: string };
        // Our subscriptions follow the service's own events, through no connection: none matches one.
        if (filter.connection_id !== undefined) return many(plural, []);
        const page = await queryAutomations(ctx.app.db, ctx.principal.projectId, {
          kind: spec.kind,
          name: filter.name,
          eventKey: filter.event_key,
          windowing: (body.windowing ?? undefined) as Windowing | undefined,
        });
        return pageBody(plural, page, spec.toWire);
      },
    }),
    defineRoute({
      method: "GET",
      path: `${base}/{id}`,
      auth: "api_key",
      tag,
      summary: `Fetch a ${singular}, a deleted one too (with deleted_at and deleted_by_id), as the reference does`,
      params: idParams,
      response: oneWire,
      errors: ["trigger_not_found"],
      handler: async ({ ctx, params }) =>
        one(singular, spec.toWire(await getOfKind(ctx.app, ctx.principal.projectId, params.id, false))),
    }),
    defineRoute({
      method: "PUT",
      path: `${base}/{id}`,
      auth: "api_key",
      tag,
      summary: `Replace a ${singular}`,
      params: idParams,
      body: spec.body,
      response: oneWire,
      errors: [
        // Resolving the target agent is preparing its turn: it refuses as a turn would.
        ...TURN_ERROR_CODES,
        ...TARGET_REFERENCE_ERROR_CODES,
        "ambiguous_target",
        "automation_not_found",
        "id_mismatch",
        "inputs_not_used",
        "invalid_cron",
        "invalid_secret",
        "kind_immutable",
        "messages_not_used",
        "missing_messages",
        "missing_variable",
        "not_a_prompt_application",
        "not_an_agent",
        "not_found",
        "trigger_not_found",
        "unsupported_field",
        "unsupported_prompt",
      ],
      handler: async ({ ctx, params, body }) => {
        const given = body[singular];
        // One UUID however its hex digits are cased, as the reference implementation compares them.
        if (given.id && given.id.toLowerCase() !== params.id.toLowerCase())
          throw new BadRequestError(`${singular}.id ${given.id} is not the id in the path`, "id_mismatch");
        await getOfKind(ctx.app, ctx.principal.projectId, params.id, true);
        spec.precheck?.(given, ctx.app.now());
        const input = asInput(spec.fromBody(given), singular);
        const { row } = await saveAs(singular, () => replaceAutomation(ctx.app, ctx.principal, params.id, input));
        return one(singular, spec.toWire(row));
      },
    }),
    defineRoute({
      method: "DELETE",
      path: `${base}/{id}`,
      auth: "api_key",
      tag,
      summary: `Delete a ${singular} (soft: still readable by id)`,
      params: idParams,
      status: 204,
      noJsonBody: { description: "Deleted; no body" },
      errors: ["automation_not_found", "trigger_not_found"],
      handler: async ({ ctx, params }) => {
        await getOfKind(ctx.app, ctx.principal.projectId, params.id, true);
        await deleteAutomation(ctx.app, ctx.principal, params.id);
        return undefined;
      },
    }),
    startStop(true),
    startStop(false),
  ];
}

type SubscriptionBody = z.infer<typeof compatSubscriptionBody>["subscription"];

/**
 * The reference's `POST /subscriptions/test`: the body as for create, made a test subscription;
 * answers the first delivery of its event type, or `{count: 0}` after `TRIGGER_TEST_TIMEOUT_MS`.
 */
const subscriptionTestRoute = defineRoute({
  method: "POST",
  path: "/api/triggers/subscriptions/test",
  auth: "api_key",
  tag,
  summary:
    "Wait for a subscription's first delivery (up to TRIGGER_TEST_TIMEOUT_MS, 300 s by default): a test subscription is made and purged with its deliveries after; an active subscription of that event type is watched instead and left in place",
  body: compatSubscriptionBody,
  response: z.object({ count: z.number().int(), delivery: compatFiringWire.optional() }),
  errors: ["not_found", "unsupported_field", "unsupported_prompt"],
  handler: async ({ ctx, body }) => {
    const test: SubscriptionBody = { ...body.subscription, flags: { ...body.subscription.flags, is_test: true } };
    const input = asInput(subscriptionFromCompat(test), "subscription") as Extract<AutomationInput, { kind: "event" }>;
    const captured = await testSubscription(ctx.app, ctx.principal, input, ctx.request.signal);
    return captured ? one("delivery", firingToCompat(captured.firing, captured.automation)) : { count: 0 };
  },
});

export const triggerCompatRoutes = [
  ...triggerRoutes({
    kind: "schedule",
    wire: compatScheduleWire,
    toWire: scheduleToCompat,
    body: compatScheduleBody as unknown as z.ZodType<Record<string, { id?: string }>>,
    fromBody: scheduleFromCompat as (body: unknown) => unknown,
    precheck: checkCompatCron,
  }),
  ...triggerRoutes({
    kind: "event",
    wire: compatSubscriptionWire,
    toWire: subscriptionToCompat,
    body: compatSubscriptionBody as unknown as z.ZodType<Record<string, { id?: string }>>,
    fromBody: subscriptionFromCompat as (body: unknown) => unknown,
  }),
  subscriptionTestRoute,
  ...firingCompatRoutes,
  ...providerCompatRoutes,
];
