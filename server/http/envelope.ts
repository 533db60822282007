import { z } from "zod";
import type { Page } from "@/server/core/windowing";

/** The envelopes: `{"count": 1, "<entity>": {...}}` and `{"count": N, "<entities>": [...]}`. */
export function one<K extends string, V>(key: K, value: V): { count: 1 } & { [P in K]: V } {
  return { count: 1, [key]: value } as { count: 1 } & { [P in K]: V };
}

export function many<K extends string, V>(key: K, values: V[]): { count: number } & { [P in K]: V[] } {
  return { count: values.length, [key]: values } as { count: number } & { [P in K]: V[] };
}

export function oneSchema<K extends string>(key: K, schema: z.ZodType) {
  return z.object({ count: z.literal(1), [key]: schema });
}

export function manySchema<K extends string>(key: K, schema: z.ZodType) {
  return z.object({ count: z.number().int(), [key]: z.array(schema) });
}

/** The schema of `pageBody`: `windowing.next` only when more exist. */
export function pageSchema<K extends string>(key: K, schema: z.ZodType) {
  return z.object({
    count: z.number().int(),
    [key]: z.array(schema),
    windowing: z.object({ next: z.string() }).optional(),
  });
}

/** A page: `{"count": N, "<entities>": [...], "windowing": {"next": ...}}`, `next` only when more exist. */
export function pageBody<T, W>(key: string, page: Page<T & { id: string }>, toWire: (item: T) => W) {
  return {
    count: page.items.length,
    [key]: page.items.map(toWire),
    ...(page.next ? { windowing: { next: page.next } } : {}),
  };
}
