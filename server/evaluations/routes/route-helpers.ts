import { z } from "zod";

export const tag = "evaluations";
export const idParams = z.object({ id: z.string().uuid("the id in the path must be a UUID") });

/** The reference's miss: `200 {count: 0}`, never a 404, on reads by id. */
export const none = { count: 0 } as const;

export const pagingSchema = z
  .object({
    next: z.string().uuid().optional(),
    limit: z.number().int().min(1).max(10_000).optional(),
    order: z.enum(["ascending", "descending"]).optional(),
    newest: z.iso.datetime({ offset: true }).optional(),
    oldest: z.iso.datetime({ offset: true }).optional(),
  })
  .nullish();

/** `{count, <key>: [...], windowing?}`: the cursor only when another page exists. */
export function listBody<T>(key: string, items: T[], next?: string) {
  return { count: items.length, [key]: items, ...(next ? { windowing: { next } } : {}) };
}
