import { z } from "zod";

interface ClosedObjectOptions {
  /** Message for a bare string where the object belongs (e.g. `"harness": "core_harness"`). */
  whenString?: (value: string) => string;
}

/**
 * A strict object (unknown keys rejected) whose unknown-key issue lists the keys it does allow,
 * so the person who sent the typo sees the spelling they meant. The validator adds the key name.
 */
export function closedObject<Shape extends z.ZodRawShape>(shape: Shape, options: ClosedObjectOptions = {}) {
  const allowed = `allowed keys: ${Object.keys(shape).join(", ")}`;
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === "unrecognized_keys") return allowed;
      if (issue.code === "invalid_type" && typeof issue.input === "string" && options.whenString) {
        return options.whenString(issue.input);
      }
      return undefined;
    },
  });
}
