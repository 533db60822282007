/** What a canary did to an environment, read from the message its commit carries (server/canaries' actions). */
export type CanaryAction = "started" | "ramped" | "promoted" | "rolled back";

const PATTERNS: [RegExp, CanaryAction][] = [
  [/^Canary .+ at \d+(\.\d+)?% of /, "started"],
  [/^Ramp canary /, "ramped"],
  [/^Promote canary /, "promoted"],
  [/^Roll back canary /, "rolled back"],
];

export function canaryActionOf(message: string | null | undefined): CanaryAction | undefined {
  if (!message) return undefined;
  return PATTERNS.find(([pattern]) => pattern.test(message))?.[1];
}

/** The history's line for a deploy that changed no revision: a canary's split, or a plain redeploy. */
export function unchangedText(action: CanaryAction | undefined): string {
  if (action === "started")
    return "Canary started: a share of the traffic goes to the new revision; the deployed one stays.";
  if (action === "ramped") return "Canary ramped: the new revision's share of the traffic changed.";
  if (action === "rolled back") return "Canary rolled back: all the traffic goes to the deployed revision again.";
  if (action === "promoted") return "Canary promoted: the new revision takes all the traffic.";
  return "Redeploy: nothing changed.";
}
