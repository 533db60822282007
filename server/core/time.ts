/** Wire format for every timestamp: ISO 8601 UTC with milliseconds. */
export function toIso(date: Date): string {
  return date.toISOString();
}

export function toIsoOrUndefined(date: Date | null | undefined): string | undefined {
  return date ? date.toISOString() : undefined;
}
