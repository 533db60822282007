/** How the playground names each API key scope (server/core/key-scopes.ts). */
export const SCOPE_LABELS: Record<string, string> = {
  full: "Full",
  read: "Read-only",
  run: "Run agents only",
  ingest: "Ingest traces only",
};

/** The expiries the create dialog offers, in days; "" never expires. */
export const EXPIRY_CHOICES = [
  { value: "", label: "Never" },
  { value: "7", label: "In 7 days" },
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
  { value: "365", label: "In a year" },
];

export function scopesLabel(scopes: readonly string[]): string {
  return scopes.map((s) => SCOPE_LABELS[s] ?? s).join(", ");
}
