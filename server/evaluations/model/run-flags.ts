import type { Step } from "./run-data";

/** Flags a caller may set; the rest are derived from the steps (reference §2.1). */
export const USER_FLAGS = ["is_live", "is_active", "is_closed", "is_cached", "is_split"] as const;

/** The `has_*` flags, recomputed from the steps on every create and edit that carries steps. */
export function derivedFlags(steps: Step[]): Record<string, boolean> {
  const inputs = steps.filter((s) => s.type === "input");
  const annotations = steps.filter((s) => s.type === "annotation");
  const unreferenced = (keys: string[]) =>
    inputs.some((s) => Object.keys(s.references).length === 0 && keys.includes(s.key));
  return {
    has_queries: inputs.some((s) => "query_revision" in s.references),
    has_testsets: inputs.some((s) => "testset_revision" in s.references),
    has_traces: unreferenced(["traces", "query-direct"]),
    has_testcases: unreferenced(["testcases", "testset-direct"]),
    has_evaluators: annotations.length > 0,
    has_custom: annotations.some((s) => s.origin === "custom"),
    has_human: annotations.some((s) => s.origin === "human"),
    has_auto: annotations.some((s) => s.origin === "auto"),
  };
}

/** Every flag with its default, the caller's user flags, and the derived ones. */
export function runFlags(
  steps: Step[],
  given: Record<string, boolean | null | undefined> = {},
  isQueue = false,
): Record<string, boolean> {
  const flags: Record<string, boolean> = {};
  for (const name of USER_FLAGS) flags[name] = Boolean(given[name]);
  return { ...flags, is_queue: isQueue, ...derivedFlags(steps) };
}

/** The references of every step, for `references` containment queries. */
export function stepReferences(steps: Step[]): Record<string, unknown>[] {
  return steps.map((s) => s.references).filter((r) => Object.keys(r).length > 0);
}
