import type { z } from "zod";

/**
 * `when` condition for a cross-field rule: run it once the object itself and the fields it reads
 * parsed cleanly, even if another field of the same object failed. zod's default skips every
 * refinement of an object with any failed field, which would hide independent problems from the
 * person fixing them.
 */
export function fieldsParsed(...fields: string[]) {
  return (payload: z.core.ParsePayload): boolean => {
    if (typeof payload.value !== "object" || payload.value === null) return false;
    return !payload.issues.some((issue) => {
      if (issue.continue === true) return false;
      const head = issue.path?.[0];
      return head === undefined || fields.includes(String(head));
    });
  };
}
