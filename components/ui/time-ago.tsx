"use client";

const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

export function formatRelative(date: Date, now = new Date()): string {
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  // A time soon to come (a retry) is "in 5 seconds"; a moment ago is "just now".
  return seconds >= 1 ? relative.format(seconds, "second") : "just now";
}

/** "3 minutes ago", with the exact UTC time on hover and in the markup. */
export function TimeAgo({ iso, fallback = "—" }: { iso?: string | null; fallback?: string }) {
  if (!iso) return <span className="text-muted">{fallback}</span>;
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={date.toUTCString()}>
      {formatRelative(date)}
    </time>
  );
}
