const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses "0,5s,5m,30m,2h" into milliseconds. A bare number is milliseconds. Undefined when any
 * item is malformed, so configuration errors are reported instead of guessed.
 */
export function parseDurationList(value: string): number[] | undefined {
  const items = value.split(",").map((item) => item.trim());
  const result: number[] = [];
  for (const item of items) {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(item);
    if (!match) return undefined;
    result.push(Math.round(Number(match[1]) * UNIT_MS[match[2] ?? "ms"]));
  }
  return result.length > 0 ? result : undefined;
}
