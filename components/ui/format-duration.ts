/** No line break between a number and its unit: "336 ms / 403 ms" wraps at the slash, never before "ms". */
const NBSP = "\u00a0";

/** Milliseconds as a person reads them: 840 ms, 2.4 s, 1 min 5 s; "—" when unknown. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return "—";
  if (ms < 1000) return `${Math.round(ms)}${NBSP}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}${NBSP}s`;
  return `${Math.floor(ms / 60_000)}${NBSP}min ${Math.round((ms % 60_000) / 1000)}${NBSP}s`;
}
