import { createHash } from "node:crypto";
import { z } from "zod";
import type { HeaderDoc } from "@/server/core/errors";

/** A split's weights are percentages in hundredths: 10,000 buckets, one per 0.01%. */
export const SPLIT_BUCKETS = 10_000;

/**
 * The bucket of a sticky key, in [0, SPLIT_BUCKETS): the first 32 bits of SHA-256 over the salt
 * (the environment and key of the split) and the key. Stable across processes and restarts, with
 * no state: every instance sends the same key to the same revision. The salt is the split's place,
 * not its weights, so a key keeps its bucket while a canary ramps and stays on the canary.
 */
export function splitBucket(salt: string, key: string): number {
  const digest = createHash("sha256").update(salt).update("\0").update(key).digest();
  return digest.readUInt32BE(0) % SPLIT_BUCKETS;
}

/** The arm whose share of the buckets (cumulative, in the order given) holds `bucket`. */
export function armAt<T extends { weight: number }>(arms: readonly T[], bucket: number): T {
  let edge = 0;
  for (const arm of arms) {
    edge += Math.round(arm.weight * 100);
    if (bucket < edge) return arm;
  }
  return arms[arms.length - 1]!;
}

/** The arm a key goes to; without a key, a weighted random choice (nothing to keep sticky). */
export function chooseArm<T extends { weight: number }>(arms: readonly T[], salt: string, key: string | undefined): T {
  return armAt(arms, key ? splitBucket(salt, key) : Math.floor(Math.random() * SPLIT_BUCKETS));
}

/** The sticky key a caller sends for a split environment (retrieve, watch, invoke, the OpenAI door). */
export const SPLIT_KEY_HEADER = "x-svc-split-key";
/** Which revision served the answer: on every retrieve, and on runs started by reference. */
export const SERVED_REVISION_HEADER = "x-svc-revision-id";

/** `SERVED_REVISION_HEADER` as the OpenAPI document gives it, on the routes that send it. */
export const SERVED_REVISION_HEADERS: Record<string, HeaderDoc> = {
  "X-Svc-Revision-Id": {
    description: "The revision that served this answer (a split's arm included)",
    schema: z.string(),
  },
};
