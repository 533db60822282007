/** How permission values read in the form; the JSON keeps the raw values. */
export const PERMISSION_LABELS: Record<string, string> = {
  allow: "Allow",
  ask: "Ask first",
  deny: "Deny",
  allow_reads: "Allow reads",
};

export const RUNNER_DEFAULT_HINTS: Record<string, string> = {
  allow: "Run every tool without asking.",
  ask: "Ask for approval before every tool call.",
  deny: "Refuse every tool call.",
  allow_reads: "Run read-only tools; ask before anything else.",
};

export function permissionLabel(value: string): string {
  return PERMISSION_LABELS[value] ?? value;
}
