import { z } from "zod";
import { SLUG_MAX, SLUG_PATTERN, SLUG_RULE } from "@/shared/slug-rules";
import { randomHex } from "./ids";

export { SLUG_MAX, slugify } from "@/shared/slug-rules";

export const slugSchema = z
  .string()
  .max(SLUG_MAX, `a slug has at most ${SLUG_MAX} characters`)
  .regex(SLUG_PATTERN, SLUG_RULE);

/** 12 hex digits from the ids' random pool: `randomBytes(6)` per commit was a call into OpenSSL each. */
export function randomSlug(): string {
  return randomHex(6);
}
