import type { z } from "zod";
import { closedObject } from "./closed-object";

/**
 * harness, runner and sandbox are "selectors": objects with `kind`, `permissions` and `extras`.
 * Older configurations sent them as bare strings, so a string gets a message showing the object
 * form, with the sent kind when it is a real one.
 */
export function selectorObject<Shape extends z.ZodRawShape>(field: string, kinds: readonly string[], shape: Shape) {
  return closedObject(shape, {
    whenString: (sent) => {
      const example = kinds.includes(sent) ? sent : kinds[0];
      return `${field} must be an object, not a bare string: use an object with "kind", e.g. {"kind": "${example}"}`;
    },
  });
}
