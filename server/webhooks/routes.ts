import { z } from "zod";
import { BadRequestError } from "@/server/core/errors";
import { one, oneSchema, pageBody, pageSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { deliveryQuerySchema, getDelivery, queryDeliveries, redeliver, statusFilterOf } from "./deliveries";
import { subscriptionBodySchema, subscriptionInputSchema, subscriptionQuerySchema } from "./subscription-input";
import {
  createSubscription,
  deleteSubscription,
  getSubscription,
  querySubscriptions,
  replaceSubscription,
  rotateSubscriptionSecret,
  setSubscriptionActive,
} from "./subscriptions";
import { testDraftSubscription, testSavedSubscription } from "./test-send";
import { deliveryToWire, deliveryWire, subscriptionToWire, subscriptionWire } from "./wire";

const oneSubscription = oneSchema("subscription", subscriptionWire);
const oneDelivery = oneSchema("delivery", deliveryWire);

const idParams = z.object({ id: z.string().uuid() });
const tag = "webhooks";
/** `/start` and `/stop`: one route each, the same call with the other flag. */
function activeRoute(active: boolean, summary: string) {
  return defineRoute({
    method: "POST",
    path: `/api/webhooks/subscriptions/{id}/${active ? "start" : "stop"}`,
    auth: "api_key",
    tag,
    summary,
    params: idParams,
    response: oneSubscription,
    errors: ["subscription_not_found"],
    handler: async ({ ctx, params }) =>
      one(
        "subscription",
        subscriptionToWire(await setSubscriptionActive(ctx.app.db, ctx.principal.projectId, params.id, active)),
      ),
  });
}

const secretSchema = z.string().min(16, "must be at least 16 characters").max(1024);

/** Routes that create, change, delete or send: a viewer role may not call these. */
export const webhookMutatingRoutes = [
  defineRoute({
    method: "POST",
    path: "/api/webhooks/subscriptions/",
    auth: "api_key",
    tag,
    response: oneSubscription,
    summary: "Create a subscription; the response carries its secret, shown only this once",
    body: subscriptionBodySchema,
    errors: ["bad_request", "invalid_webhook_url", "secret_required"],
    handler: async ({ ctx, body }) => {
      const { row, secret } = await createSubscription(ctx.app, ctx.principal, body.subscription, body.secret);
      return one("subscription", subscriptionToWire(row, secret));
    },
  }),
  defineRoute({
    method: "PUT",
    path: "/api/webhooks/subscriptions/{id}",
    auth: "api_key",
    tag,
    response: oneSubscription,
    summary: "Replace a subscription (the secret changes only when one is given)",
    params: idParams,
    body: subscriptionBodySchema,
    errors: ["bad_request", "id_mismatch", "invalid_webhook_url", "secret_required", "subscription_not_found"],
    handler: async ({ ctx, body, params }) =>
      one(
        "subscription",
        subscriptionToWire(
          await replaceSubscription(ctx.app, ctx.principal.projectId, params.id, body.subscription, body.secret),
        ),
      ),
  }),
  defineRoute({
    method: "DELETE",
    path: "/api/webhooks/subscriptions/{id}",
    auth: "api_key",
    tag,
    noJsonBody: { description: "Deleted; no body" },
    summary: "Delete a subscription and its delivery log",
    params: idParams,
    status: 204,
    errors: ["subscription_not_found"],
    handler: async ({ ctx, params }) => deleteSubscription(ctx.app.db, ctx.principal.projectId, params.id),
  }),
  activeRoute(true, "Start sending deliveries (also clears a stop made by the service)"),
  activeRoute(false, "Stop sending deliveries; pending ones wait until the subscription is started again"),
  defineRoute({
    method: "POST",
    path: "/api/webhooks/subscriptions/{id}/rotate-secret",
    auth: "api_key",
    tag,
    response: oneSubscription,
    summary: "Replace the secret (generated unless given); the response shows the new one once",
    params: idParams,
    body: z.strictObject({ secret: secretSchema.optional() }),
    errors: ["bad_request", "subscription_not_found"],
    handler: async ({ ctx, params, body }) => {
      const { row, secret } = await rotateSubscriptionSecret(ctx.app, ctx.principal.projectId, params.id, body.secret);
      return one("subscription", subscriptionToWire(row, secret));
    },
  }),
  defineRoute({
    method: "POST",
    path: "/api/webhooks/subscriptions/test",
    auth: "api_key",
    tag,
    response: oneDelivery,
    summary: "Send a webhooks.subscriptions.tested event now to a saved subscription or a draft; returns the delivery",
    body: z.strictObject({
      subscription_id: z.string().uuid().optional(),
      subscription: subscriptionInputSchema.optional(),
      secret: secretSchema.optional(),
    }),
    errors: ["bad_request", "delivery_not_found", "invalid_webhook_url", "secret_required", "subscription_not_found"],
    handler: async ({ ctx, body }) => {
      if ((body.subscription_id === undefined) === (body.subscription === undefined)) {
        throw new BadRequestError("Send exactly one of subscription_id and subscription", "bad_request", [
          { path: "subscription_id", message: "exactly one of subscription_id and subscription" },
        ]);
      }
      const { delivery, attempts } = body.subscription_id
        ? await testSavedSubscription(ctx.app, ctx.principal, body.subscription_id)
        : await testDraftSubscription(ctx.app, ctx.principal, body.subscription!, body.secret);
      return one("delivery", deliveryToWire(delivery, attempts));
    },
  }),
  defineRoute({
    method: "POST",
    path: "/api/webhooks/deliveries/{id}/redeliver",
    auth: "api_key",
    tag,
    response: oneDelivery,
    summary: "Send a delivery again now: same body and delivery id, new timestamp and signature",
    params: idParams,
    errors: ["delivery_in_flight", "delivery_not_found", "subscription_not_found"],
    handler: async ({ ctx, params }) => {
      const { delivery, attempts } = await redeliver(ctx.app, ctx.principal.projectId, params.id);
      return one("delivery", deliveryToWire(delivery, attempts));
    },
  }),
];

export const webhookReadingRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/webhooks/subscriptions/{id}",
    auth: "api_key",
    tag,
    response: oneSubscription,
    summary: "A subscription (never its secret)",
    params: idParams,
    errors: ["subscription_not_found"],
    handler: async ({ ctx, params }) =>
      one("subscription", subscriptionToWire(await getSubscription(ctx.app.db, ctx.principal.projectId, params.id))),
  }),
  defineRoute({
    method: "POST",
    path: "/api/webhooks/subscriptions/query",
    auth: "api_key",
    role: "viewer",
    tag,
    response: pageSchema("subscriptions", subscriptionWire),
    summary: "List subscriptions, newest first: partial name or description, tag containment, paging",
    body: subscriptionQuerySchema,
    handler: async ({ ctx, body }) => {
      const f = body.subscription ?? {};
      const page = await querySubscriptions(
        ctx.app.db,
        ctx.principal.projectId,
        { name: f.name ?? undefined, description: f.description ?? undefined, tags: f.tags ?? undefined },
        body.windowing ?? undefined,
      );
      return pageBody("subscriptions", page, (row) => subscriptionToWire(row));
    },
  }),
  defineRoute({
    method: "POST",
    path: "/api/webhooks/deliveries/query",
    auth: "api_key",
    role: "viewer",
    tag,
    response: pageSchema("deliveries", deliveryWire),
    summary: "List deliveries, newest first, by status, subscription, event or event type",
    body: deliveryQuerySchema,
    errors: ["unknown_status_code"],
    handler: async ({ ctx, body }) => {
      const f = body.delivery ?? {};
      const page = await queryDeliveries(
        ctx.app.db,
        ctx.principal.projectId,
        {
          ...statusFilterOf(f.status),
          subscriptionId: f.subscription_id ?? undefined,
          eventId: f.event_id ?? undefined,
          eventType: f.event_type ?? undefined,
        },
        body.windowing ?? undefined,
      );
      return pageBody("deliveries", page, (row) => deliveryToWire(row));
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/webhooks/deliveries/{id}",
    auth: "api_key",
    tag,
    response: oneDelivery,
    summary: "A delivery with its body and every attempt (secrets redacted)",
    params: idParams,
    errors: ["delivery_not_found"],
    handler: async ({ ctx, params }) => {
      const { delivery, attempts } = await getDelivery(ctx.app.db, ctx.principal.projectId, params.id);
      return one("delivery", deliveryToWire(delivery, attempts));
    },
  }),
];

export const webhookRoutes = [...webhookMutatingRoutes, ...webhookReadingRoutes];
