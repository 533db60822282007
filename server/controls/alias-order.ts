import type { AliasEntry } from "@/server/db/schema";

/**
 * The order an alias's entries are tried in. Without weights: as listed. With weights, the first
 * attempt is drawn among the weighted entries in proportion to their weight (traffic split), and
 * the others follow in listed order. `random` is in [0, 1).
 */
export function aliasOrder<T extends Pick<AliasEntry, "model" | "weight">>(entries: T[], random: number): T[] {
  const weighted = entries.filter((entry) => (entry.weight ?? 0) > 0);
  if (!weighted.length) return entries;
  const total = weighted.reduce((sum, entry) => sum + entry.weight!, 0);
  let point = random * total;
  const first = weighted.find((entry) => (point -= entry.weight!) < 0) ?? weighted.at(-1)!;
  return [first, ...entries.filter((entry) => entry !== first)];
}
