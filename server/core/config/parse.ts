import { z } from "zod";

/** A refinement failure with its own message (for transforms that parse a value themselves). */
export function invalid(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: "custom", message });
  return z.NEVER;
}

/** A configuration error as the server prints it at start: one line per variable. */
export function configError(lines: string[]): Error {
  return new Error(`Invalid configuration:\n${lines.map((line) => `  ${line}`).join("\n")}`);
}

/**
 * Parses the environment against the schema, an empty variable counting as unset; every invalid
 * variable is named at once.
 */
export function parseEnv<T extends z.ZodTypeAny>(schema: T, env: Record<string, string | undefined>): z.output<T> {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ""));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) throw configError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  return parsed.data;
}
