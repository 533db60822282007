/** Wire format for every timestamp: ISO 8601 UTC with milliseconds. */
export function toIso(date: Date): string {
  return date.toISOString();
}
