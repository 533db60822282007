import { BadRequestError } from "@/server/core/errors";

const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;

/** Accepts 32 hex digits, a dashed UUID or either with `0x`; 16 hex digits are zero-padded (64-bit W3C ids). */
export function parseTraceId(value: unknown): string | undefined {
  const hex = cleanHex(value);
  if (hex === undefined) return undefined;
  if (HEX32.test(hex)) return dashed(hex);
  if (HEX16.test(hex)) return dashed("0".repeat(16) + hex);
  return undefined;
}

/** The id in its stored (dashed) form; a 400 naming it when it is no trace id. */
export function storedTraceId(raw: string): string {
  const id = parseTraceId(raw);
  if (!id)
    throw new BadRequestError(`trace_id ${JSON.stringify(raw)} is not 32 hex digits or a UUID`, "invalid_trace_id");
  return id;
}

/**
 * Span ids are stored as UUIDs like trace ids: a 16-hex id (the OpenTelemetry form) is doubled,
 * as the reference implementation does; 32 hex digits or a dashed UUID are kept.
 */
export function parseSpanId(value: unknown): string | undefined {
  const hex = cleanHex(value);
  if (hex === undefined) return undefined;
  if (HEX16.test(hex)) return dashed(hex + hex);
  if (HEX32.test(hex)) return dashed(hex);
  return undefined;
}

/** Wire form of a stored trace id: 32 hex digits. */
export function traceIdToWire(uuid: string): string {
  return uuid.replaceAll("-", "");
}

/**
 * Wire form of a stored span id: 16 hex digits when it was one (doubled), else all 32. The
 * reference implementation shows the last 16 of any id: two spans could then show one id, and the
 * id shown would not find its span again in a `span_id` filter (which doubles 16 digits).
 */
export function spanIdToWire(uuid: string): string {
  const hex = uuid.replaceAll("-", "");
  return hex.slice(0, 16) === hex.slice(16) ? hex.slice(16) : hex;
}

function cleanHex(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  let s = value.trim().toLowerCase();
  if (s.startsWith("0x")) s = s.slice(2);
  return s.replaceAll("-", "");
}

function dashed(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
