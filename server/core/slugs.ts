import { randomBytes } from "node:crypto";
import { z } from "zod";
import { SLUG_MAX, SLUG_PATTERN, SLUG_RULE } from "@/shared/slug-rules";

export { SLUG_MAX, slugify } from "@/shared/slug-rules";

export const slugSchema = z
  .string()
  .max(SLUG_MAX, `a slug has at most ${SLUG_MAX} characters`)
  .regex(SLUG_PATTERN, SLUG_RULE);

export function randomSlug(): string {
  return randomBytes(6).toString("hex");
}
