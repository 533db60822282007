import { z } from "zod";

/** Free-form knobs passed through unchanged: deliberately open, unlike every other object. */
export function extrasField(description: string) {
  return z.record(z.string(), z.unknown()).default({}).describe(description);
}
