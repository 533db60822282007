import { isRecord } from "./evaluator-values";

/** ```json ... ``` around an answer, which models add even when told not to. */
const FENCE = /^```(?:json)?\s*([\s\S]*?)\s*```$/i;

/**
 * A judge's (or a webhook's) answer as outputs: a number is a score (success at the threshold);
 * a boolean is success (score 1 or 0, where the reference implementation's bool-as-int quirk gives
 * `{score: true}`); an object is kept, with `success` added from a numeric or boolean `score`
 * when it has none. Undefined for anything else.
 */
export function judgeVerdict(text: string, threshold: number): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  let value: unknown;
  try {
    value = JSON.parse(FENCE.exec(trimmed)?.[1] ?? trimmed);
  } catch {
    return undefined;
  }
  return verdictOf(value, threshold);
}

export function verdictOf(value: unknown, threshold: number): Record<string, unknown> | undefined {
  if (typeof value === "boolean") return { score: value ? 1 : 0, success: value };
  if (typeof value === "number" && Number.isFinite(value)) return { score: value, success: value >= threshold };
  if (!isRecord(value)) return undefined;
  if ("success" in value) return value;
  if (typeof value.score === "number") return { ...value, success: value.score >= threshold };
  if (typeof value.score === "boolean") return { ...value, success: value.score };
  return value;
}
