import { TURN_ERROR_CODES } from "@/server/agent-runs";
import { z } from "zod";
import { PayloadTooLargeError } from "@/server/core/errors";
import { windowingQuerySchema } from "@/server/core/windowing";
import { many, manySchema, one, oneSchema, pageBody, pageSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { automationInputSchema, cronPreviewSchema } from "./automation-input";
import { automationView, automationViews } from "./automation-views";
import { TARGET_REFERENCE_ERROR_CODES } from "./automation-target";
import { createAutomation, deleteAutomation, replaceAutomation, setAutomationActive } from "./automation-store";
import { getFiring, queryFirings } from "./firing-store";
import { receiveInbound } from "./inbound/receive-inbound";
import { fireTest } from "./test-firing";
import { automationToWire, automationWire, cronPreview, cronPreviewWire, firingToWire, firingWire } from "./wire";

const tag = "automations";
/** An inbound payload larger than this is refused (413) before its signature is checked. */
const INBOUND_MAX_BYTES = 1_000_000;
const idParams = z.object({ id: z.string().uuid() });
const oneAutomation = oneSchema("automation", automationWire);
const oneDelivery = oneSchema("delivery", firingWire);
const body = z.object({ automation: automationInputSchema });

function activeRoute(active: boolean) {
  return defineRoute({
    method: "POST",
    path: `/api/automations/{id}/${active ? "resume" : "pause"}`,
    auth: "api_key",
    tag,
    summary: active
      ? "Resume an automation (a schedule plans its next fire time from now)"
      : "Pause an automation: it fires no more until resumed",
    params: idParams,
    response: oneAutomation,
    errors: ["automation_not_found", "invalid_cron", "invalid_timezone"],
    handler: async ({ ctx, params }) =>
      one(
        "automation",
        automationToWire(await setAutomationActive(ctx.app, ctx.principal.projectId, params.id, active)),
      ),
  });
}

/** What checking an automation's triage (`action`) can refuse, as POST /api/improve/triages would. */
const TRIAGE_ERROR_CODES = ["alert_not_found", "invalid_filtering", "monitor_not_found"] as const;
/** What checking an automation's optimization can refuse, as POST /api/improve/optimizations would. */
const OPTIMIZATION_ERROR_CODES = ["failure_mode_not_found", "not_found"] as const;

export const automationRoutes = [
  defineRoute({
    method: "POST",
    path: "/api/automations/preview",
    auth: "api_key",
    role: "viewer",
    tag,
    summary: "A cron in words and its next five fire times in its zone, before saving",
    body: cronPreviewSchema,
    response: cronPreviewWire,
    errors: ["invalid_cron", "invalid_timezone"],
    handler: async ({ ctx, body }) => cronPreview(body, ctx.app.now()),
  }),
  defineRoute({
    method: "POST",
    path: "/api/automations/",
    auth: "api_key",
    tag,
    summary: "Create a schedule, event subscription or inbound trigger; an inbound one's secret is shown only here",
    body,
    response: oneAutomation,
    errors: [
      // Resolving the target agent is preparing its turn: it refuses as a turn would.
      ...TURN_ERROR_CODES,
      ...TRIAGE_ERROR_CODES,
      ...OPTIMIZATION_ERROR_CODES,
      ...TARGET_REFERENCE_ERROR_CODES,
      "ambiguous_target",
      "inputs_not_used",
      "invalid_cron",
      "invalid_secret",
      "invalid_timezone",
      "messages_not_used",
      "missing_messages",
      "missing_variable",
      "not_a_prompt_application",
      "not_an_agent",
      "not_found",
      "unsupported_prompt",
    ],
    handler: async ({ ctx, body }) => {
      const { row, secret } = await createAutomation(ctx.app, ctx.principal, body.automation);
      return one("automation", automationToWire(row, { secret }));
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/automations/",
    auth: "api_key",
    tag,
    summary: "List automations, each with its next fire time and newest delivery",
    response: manySchema("automations", automationWire),
    handler: async ({ ctx }) => many("automations", await automationViews(ctx.app, ctx.principal.projectId)),
  }),
  defineRoute({
    method: "GET",
    path: "/api/automations/{id}",
    auth: "api_key",
    tag,
    summary: "Fetch an automation (a deleted one too, with deleted_at)",
    params: idParams,
    response: oneAutomation,
    errors: ["automation_not_found"],
    handler: async ({ ctx, params }) =>
      one("automation", await automationView(ctx.app, ctx.principal.projectId, params.id)),
  }),
  defineRoute({
    method: "PUT",
    path: "/api/automations/{id}",
    auth: "api_key",
    tag,
    summary: "Replace an automation (same kind); an inbound trigger keeps its secret unless one is given",
    params: idParams,
    body,
    response: oneAutomation,
    errors: [
      // Resolving the target agent is preparing its turn: it refuses as a turn would.
      ...TURN_ERROR_CODES,
      ...TRIAGE_ERROR_CODES,
      ...OPTIMIZATION_ERROR_CODES,
      ...TARGET_REFERENCE_ERROR_CODES,
      "ambiguous_target",
      "automation_not_found",
      "inputs_not_used",
      "invalid_cron",
      "invalid_secret",
      "kind_immutable",
      "messages_not_used",
      "missing_messages",
      "missing_variable",
      "not_a_prompt_application",
      "not_an_agent",
      "unsupported_prompt",
    ],
    handler: async ({ ctx, params, body }) => {
      const { row, secret } = await replaceAutomation(ctx.app, ctx.principal, params.id, body.automation);
      return one("automation", automationToWire(row, { secret }));
    },
  }),
  defineRoute({
    method: "DELETE",
    path: "/api/automations/{id}",
    auth: "api_key",
    tag,
    summary: "Delete an automation: it fires no more; it and its deliveries stay readable by id",
    params: idParams,
    status: 204,
    noJsonBody: { description: "Deleted; no body" },
    errors: ["automation_not_found"],
    handler: async ({ ctx, params }) => {
      await deleteAutomation(ctx.app, ctx.principal, params.id);
      return undefined;
    },
  }),
  activeRoute(false),
  activeRoute(true),
  defineRoute({
    method: "POST",
    path: "/api/automations/{id}/test",
    auth: "api_key",
    tag,
    summary: "Fire once now (even while paused); the delivery names the run and session it started",
    params: idParams,
    body: z.object({ payload: z.record(z.string(), z.unknown()).optional() }).optional(),
    response: oneDelivery,
    errors: ["automation_not_found", "automation_owner_gone", "automation_delivery_not_found"],
    handler: async ({ ctx, params, body }) =>
      one("delivery", firingToWire(await fireTest(ctx.app, ctx.principal.projectId, params.id, body?.payload ?? {}))),
  }),
  defineRoute({
    method: "GET",
    path: "/api/automations/{id}/deliveries",
    auth: "api_key",
    tag,
    summary:
      "An automation's deliveries (its firings), newest first, 100 a page (`?limit=`, `?next=` the previous page's `windowing.next`)",
    params: idParams,
    query: windowingQuerySchema,
    response: pageSchema("deliveries", firingWire),
    handler: async ({ ctx, params, query }) =>
      pageBody(
        "deliveries",
        await queryFirings(ctx.app.db, ctx.principal.projectId, { automationId: params.id }, query),
        firingToWire,
      ),
  }),
  defineRoute({
    method: "GET",
    path: "/api/automations/deliveries/{id}",
    auth: "api_key",
    tag,
    summary: "Fetch one delivery",
    params: idParams,
    response: oneDelivery,
    errors: ["automation_delivery_not_found"],
    handler: async ({ ctx, params }) =>
      one("delivery", firingToWire(await getFiring(ctx.app.db, ctx.principal.projectId, params.id))),
  }),
  defineRoute({
    method: "POST",
    path: "/api/automations/{id}/inbound",
    auth: "none",
    tag,
    summary:
      "An inbound trigger's URL: a JSON payload signed with the trigger's secret (Standard Webhooks, GitHub or Stripe); unverified or replayed requests are 401 and start nothing",
    params: idParams,
    status: 202,
    rawBody: { contentTypes: ["application/json"], description: "The sender's JSON payload, byte for byte as signed" },
    response: z.object({ status: z.enum(["accepted", "filtered", "paused"]), delivery_id: z.string() }),
    errors: ["invalid_json", "payload_too_large", "replayed", "signature_invalid", "trigger_not_found"],
    handler: async ({ ctx, params }) => {
      const request = ctx.request;
      const rawBody = await request.text();
      if (Buffer.byteLength(rawBody) > INBOUND_MAX_BYTES) throw new PayloadTooLargeError(INBOUND_MAX_BYTES);
      return receiveInbound(ctx.app, params.id, { header: (name) => request.headers.get(name), rawBody });
    },
  }),
];
