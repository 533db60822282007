import { z } from "zod";
import { oneSchema, pageSchema } from "@/server/http/envelope";

export const tag = "evaluations";
export const idParams = z.object({ id: z.string().uuid("the id in the path must be a UUID") });

/** The reference implementation's miss: `200 {count: 0}`, never a 404, on reads by id. */
export const none = { count: 0 } as const;

/** `{count, <key>: [...], windowing?}`: the cursor only when another page exists. */
export function listBody<T>(key: string, items: T[], next?: string) {
  return { count: items.length, [key]: items, ...(next ? { windowing: { next } } : {}) };
}

/** The schema of `listBody`. */
export const listSchema = pageSchema;

/** An answer by id: the record, or the reference implementation's miss `{count: 0}`. */
export function oneOrNoneSchema(key: string, schema: z.ZodType) {
  return z.union([oneSchema(key, schema), z.strictObject({ count: z.literal(0) })]);
}

/** `{count, <key>: [ids]}`: what a delete answers. */
export function idsSchema(key: string) {
  return z.object({ count: z.number().int(), [key]: z.array(z.string()) });
}

/** `{count: 1, <key>: id}`, or `{count: 0}`: what a delete by id answers. */
export function idOrNoneSchema(key: string) {
  return z.union([z.object({ count: z.literal(1), [key]: z.string() }), z.strictObject({ count: z.literal(0) })]);
}
