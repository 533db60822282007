/**
 * Span times are handled as microseconds since the epoch (exact in a double until the year 2255),
 * the precision PostgreSQL stores.
 */
export type Micros = number;

const UNIT_BY_DIGITS: Record<number, number> = { 10: 1e6, 13: 1e3, 16: 1, 19: 1e-3 };

/**
 * ISO 8601 strings, or integers (numbers or digit strings) classified by digit count as the
 * reference implementation does: 10 = seconds, 13 = milliseconds, 16 = microseconds,
 * 19 = nanoseconds. A fractional number of seconds (10 integer digits) is accepted too. Anything
 * else is undefined.
 */
export function parseTimestamp(value: unknown): Micros | undefined {
  if (typeof value === "bigint") return parseTimestamp(value.toString());
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value < 0) return undefined;
    if (!Number.isInteger(value)) {
      return String(Math.floor(value)).length === 10 ? Math.round(value * 1e6) : undefined;
    }
    return fromDigits(String(value));
  }
  if (typeof value !== "string") return undefined;
  const s = value.trim();
  if (/^\d+$/.test(s)) return fromDigits(s);
  return parseIso(s);
}

function fromDigits(digits: string): Micros | undefined {
  const scale = UNIT_BY_DIGITS[digits.length];
  if (scale === undefined) return undefined;
  if (digits.length === 19) return Number(BigInt(digits) / 1000n);
  return Number(digits) * scale;
}

const ISO = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function parseIso(s: string): Micros | undefined {
  const m = ISO.exec(s);
  if (!m) return undefined;
  const [, date, time, fraction = "", zone = "Z"] = m;
  const ms = Date.parse(`${date}T${time.length === 5 ? `${time}:00` : time}${normaliseZone(zone)}`);
  if (Number.isNaN(ms)) return undefined;
  const micros = Number((fraction + "000000").slice(0, 6));
  return ms * 1000 + micros;
}

function normaliseZone(zone: string): string {
  if (zone.toUpperCase() === "Z") return "Z";
  if (/^[+-]\d{2}$/.test(zone)) return `${zone}:00`;
  if (/^[+-]\d{4}$/.test(zone)) return `${zone.slice(0, 3)}:${zone.slice(3)}`;
  return zone;
}

/** ISO 8601 UTC with microseconds: `2026-04-16T18:18:18.491929Z`. */
export function microsToIso(us: Micros): string {
  const ms = Math.floor(us / 1000);
  const rest = Math.round(us - ms * 1000);
  return new Date(ms).toISOString().replace("Z", `${String(rest).padStart(3, "0")}Z`);
}

export function nowMicros(): Micros {
  return Date.now() * 1000;
}
