import { z } from "zod";
import { modelRateLimits } from "@/server/db/schema";
import { checkTarget } from "./control-target";
import type { ControlResource } from "./control-resource";
import type { RateLimitRow } from "./control-rows";

const perMinute = z.number().int().min(1).max(1_000_000_000).nullish();

export const rateLimitInput = z
  .strictObject({
    scope: z.enum(["api_key", "agent"]),
    target_id: z
      .string()
      .uuid()
      .nullish()
      .describe(
        "The API key's or agent's (workflow) id; absent: the limit applies to each of the project's keys or agents",
      ),
    requests_per_minute: perMinute,
    tokens_per_minute: perMinute,
  })
  .refine((input) => input.requests_per_minute || input.tokens_per_minute, {
    message: "set requests_per_minute, tokens_per_minute or both",
    path: ["requests_per_minute"],
  });
export type RateLimitInput = z.infer<typeof rateLimitInput>;

export const rateLimitWire = z.object({
  id: z.string().uuid(),
  scope: z.enum(["api_key", "agent"]),
  target_id: z.string().uuid().optional(),
  requests_per_minute: z.number().int().optional(),
  tokens_per_minute: z.number().int().optional(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type RateLimitWire = z.infer<typeof rateLimitWire>;

/** Requests and tokens per minute per API key or agent (`/api/controls/rate-limits/`). */
export const rateLimitsResource: ControlResource<RateLimitInput, RateLimitRow, RateLimitWire> = {
  path: "rate-limits",
  entity: "rate_limit",
  notFoundCode: "rate_limit_not_found",
  entities: "rate_limits",
  label: "rate limit",
  table: modelRateLimits,
  input: rateLimitInput,
  wire: rateLimitWire,
  async values(app, projectId, input) {
    await checkTarget(app, projectId, input.scope, input.target_id, true);
    return {
      scope: input.scope,
      targetId: input.target_id ?? null,
      requestsPerMinute: input.requests_per_minute ?? null,
      tokensPerMinute: input.tokens_per_minute ?? null,
    };
  },
  async toWire(_app, rows) {
    return rows.map((row) => ({
      id: row.id,
      scope: row.scope,
      ...(row.targetId ? { target_id: row.targetId } : {}),
      ...(row.requestsPerMinute ? { requests_per_minute: row.requestsPerMinute } : {}),
      ...(row.tokensPerMinute ? { tokens_per_minute: row.tokensPerMinute } : {}),
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    }));
  },
  conflict: (input) =>
    input.target_id
      ? `A rate limit for ${input.scope} ${input.target_id} already exists; change it with PUT`
      : `The project's rate limit for each ${input.scope === "agent" ? "agent" : "API key"} already exists; change it with PUT`,
};
