import { z } from "zod";

/**
 * The reference implementation's `Status` (`{code, message, type, timestamp, stacktrace}`) as a
 * query filter, for its webhook and trigger deliveries: every field is taken and, as there, only
 * `code` is filtered on. Its code is text (`"202"`); a number is taken too.
 */
export const referenceStatusFilter = z.strictObject({
  code: z.union([z.string(), z.number().int()]).nullish(),
  message: z.string().nullish(),
  type: z.string().nullish(),
  timestamp: z.string().nullish(),
  stacktrace: z.string().nullish(),
});

/** A status code as the reference implementation writes it (`"202"`) or as a number; NaN when it is neither. */
export function referenceStatusCode(code: string | number): number {
  return typeof code === "number" ? code : /^\d{1,3}$/.test(code) ? Number(code) : NaN;
}
