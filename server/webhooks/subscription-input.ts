import { z } from "zod";
import { EVENT_TYPES } from "@/shared/event-catalog";
import { isProtectedHeader } from "./contract";

const eventTypeSchema = z.string().refine((t) => EVENT_TYPES.includes(t), {
  message: "unknown event type; see the event catalog in the API documentation",
});

const headersSchema = z
  .record(
    z
      .string()
      .min(1)
      .max(256)
      .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "is not a valid header name"),
    z.string().max(4096),
  )
  .superRefine((headers, ctx) => {
    for (const name of Object.keys(headers)) {
      if (isProtectedHeader(name))
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: `${name} is set by the service and cannot be overridden`,
        });
    }
  })
  .refine((h) => Object.keys(h).length <= 50, "at most 50 headers");

export const subscriptionDataSchema = z.strictObject({
  url: z.string().max(2083),
  event_types: z.array(eventTypeSchema).max(200).nullable().optional(),
  headers: headersSchema.nullable().optional(),
  auth_mode: z.enum(["signature", "authorization"]).default("signature"),
  payload_fields: z.unknown().optional(),
});

/** The body's `subscription` on create, replace and draft test sends. */
export const subscriptionInputSchema = z.strictObject({
  id: z.string().uuid().optional(),
  name: z.string().trim().min(1).max(256),
  description: z.string().max(4096).nullable().optional(),
  tags: z.record(z.string(), z.unknown()).nullable().optional(),
  meta: z.record(z.string(), z.unknown()).nullable().optional(),
  data: subscriptionDataSchema,
  flags: z.strictObject({ is_active: z.boolean().optional() }).optional(),
  secret: z.string().min(16, "must be at least 16 characters").max(1024).optional(),
});

export type SubscriptionInput = z.infer<typeof subscriptionInputSchema>;

/** Create and replace accept the secret inside `subscription` or beside it (the reference implementation's shape). */
export const subscriptionBodySchema = z.strictObject({
  subscription: subscriptionInputSchema,
  secret: z.string().min(16, "must be at least 16 characters").max(1024).optional(),
});

/** Nulls are absent; `include_archived` is the reference implementation's (nothing is archived here). */
export const subscriptionQuerySchema = z.strictObject({
  subscription: z
    .strictObject({
      name: z.string().max(256).nullish(),
      description: z.string().max(4096).nullish(),
      tags: z.record(z.string(), z.unknown()).nullish(),
    })
    .nullish(),
  include_archived: z.boolean().nullish(),
  windowing: z
    .strictObject({ limit: z.number().int().min(1).max(1000).optional(), next: z.string().uuid().optional() })
    .nullish(),
});
