import { z } from "zod";

/** Characters as JSON Schema counts them (Unicode code points), not UTF-16 code units. */
export function codePointLength(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

/**
 * A string whose length limits count code points. zod's own `.min()/.max()` count UTF-16 units,
 * which would disagree with the catalog's JSON Schema `minLength`/`maxLength` on emoji and other
 * astral characters; the limits are written into the JSON Schema by hand instead.
 */
export function boundedText(min: number, max: number) {
  return z
    .string()
    .superRefine((value, ctx) => {
      const length = codePointLength(value);
      if (length < min) {
        ctx.addIssue({
          code: "custom",
          message: min === 1 ? "must not be empty" : `must be at least ${min} characters`,
        });
      }
      if (length > max) {
        ctx.addIssue({ code: "custom", message: `must be at most ${max} characters; got ${length}` });
      }
    })
    .meta({ minLength: min, maxLength: max });
}

/** A required, non-empty string (names, slugs, ids). */
export function nonEmptyText() {
  return z.string().min(1, "must not be empty");
}
