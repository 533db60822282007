import type { z } from "zod";
import type { FieldError } from "./errors";

/** `a.b[0].c` from zod's path array; the root is "". */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

export function zodIssuesToFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}
