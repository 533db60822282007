import { z } from "zod";
import { BadRequestError } from "@/server/core/errors";
import { getDelivery, queryDeliveries, redeliver } from "@/server/webhooks";
import { subscriptionInputSchema } from "@/server/webhooks";
import {
  createSubscription,
  deleteSubscription,
  getSubscription,
  querySubscriptions,
  replaceSubscription,
  setSubscriptionActive,
} from "@/server/webhooks";
import { testDraftSubscription, testSavedSubscription } from "@/server/webhooks";
import { deliveryToWire, subscriptionToWire } from "@/server/webhooks";
import { createTRPCRouter, memberProcedure, projectProcedure } from "../init";
import { scopeOf } from "./scope";

const idInput = z.strictObject({ id: z.string().uuid() });
const secretSchema = z.string().min(16, "must be at least 16 characters").max(1024);

/** Webhook subscriptions and their deliveries, in the REST wire shape; the same calls as server/webhooks/routes.ts. */
export const webhooksRouter = createTRPCRouter({
  list: projectProcedure.query(async ({ ctx }) =>
    (await querySubscriptions(ctx.app.db, ctx.principal.projectId, {}, { limit: 200 })).items.map((row) =>
      subscriptionToWire(row),
    ),
  ),

  get: projectProcedure
    .input(idInput)
    .query(async ({ ctx, input }) =>
      subscriptionToWire(await getSubscription(ctx.app.db, ctx.principal.projectId, input.id)),
    ),

  /** The only answer that carries the secret. */
  create: memberProcedure
    .input(z.strictObject({ subscription: subscriptionInputSchema, secret: secretSchema.optional() }))
    .mutation(async ({ ctx, input }) => {
      const { row, secret } = await createSubscription(ctx.app, scopeOf(ctx), input.subscription, input.secret);
      return subscriptionToWire(row, secret);
    }),

  update: memberProcedure
    .input(
      z.strictObject({ id: z.string().uuid(), subscription: subscriptionInputSchema, secret: secretSchema.optional() }),
    )
    .mutation(async ({ ctx, input }) =>
      subscriptionToWire(
        await replaceSubscription(ctx.app, ctx.principal.projectId, input.id, input.subscription, input.secret),
      ),
    ),

  setActive: memberProcedure
    .input(z.strictObject({ id: z.string().uuid(), active: z.boolean() }))
    .mutation(async ({ ctx, input }) =>
      subscriptionToWire(await setSubscriptionActive(ctx.app.db, ctx.principal.projectId, input.id, input.active)),
    ),

  delete: memberProcedure.input(idInput).mutation(async ({ ctx, input }) => {
    await deleteSubscription(ctx.app.db, ctx.principal.projectId, input.id);
    return { id: input.id };
  }),

  /** A saved subscription (`id`) or the form as it is (`subscription`), exactly one. */
  test: memberProcedure
    .input(
      z.strictObject({
        id: z.string().uuid().optional(),
        subscription: subscriptionInputSchema.optional(),
        secret: secretSchema.optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      if ((input.id === undefined) === (input.subscription === undefined)) {
        throw new BadRequestError("Send exactly one of id and subscription", "bad_request", [
          { path: "id", message: "exactly one of id and subscription" },
        ]);
      }
      const { delivery, attempts } = input.id
        ? await testSavedSubscription(ctx.app, scopeOf(ctx), input.id)
        : await testDraftSubscription(ctx.app, scopeOf(ctx), input.subscription!, input.secret);
      return deliveryToWire(delivery, attempts);
    }),

  deliveries: projectProcedure
    .input(
      z.strictObject({
        subscriptionId: z.string().uuid(),
        status: z.enum(["pending", "succeeded", "failed"]).optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const page = await queryDeliveries(
        ctx.app.db,
        ctx.principal.projectId,
        { subscriptionId: input.subscriptionId, status: input.status },
        { limit: 100 },
      );
      return page.items.map((row) => deliveryToWire(row));
    }),

  delivery: projectProcedure.input(idInput).query(async ({ ctx, input }) => {
    const { delivery, attempts } = await getDelivery(ctx.app.db, ctx.principal.projectId, input.id);
    return deliveryToWire(delivery, attempts);
  }),

  redeliver: memberProcedure.input(idInput).mutation(async ({ ctx, input }) => {
    const { delivery, attempts } = await redeliver(ctx.app, ctx.principal.projectId, input.id);
    return deliveryToWire(delivery, attempts);
  }),
});
