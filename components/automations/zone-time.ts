/**
 * A fire time as the schedule's zone reads it ("Mon, 30 Nov 2026, 09:00 CET"): a schedule of
 * 09:00 Europe/Paris must not read as 08:00 GMT. An unknown zone (while typing) falls back to UTC.
 */
export function zoneTime(iso: string, timeZone: string): string {
  const format = (zone: string) =>
    new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      weekday: "short",
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      timeZoneName: "short",
    }).format(new Date(iso));
  try {
    return format(timeZone);
  } catch {
    return format("UTC");
  }
}
