import { BadRequestError } from "@/server/core/errors";
import { isObject } from "../attributes";
import { parseTraceId } from "../ids";
import { microsToIso, parseTimestamp } from "../timestamps";

export const DEFAULT_QUERY_LIMIT = 100;
export const MAX_QUERY_LIMIT = 1000;

export interface QueryWindow {
  newest?: string;
  oldest?: string;
  limit: number;
  ascending: boolean;
  /** Keyset position after which the page starts (exclusive). */
  cursor?: { time: string; traceId: string; spanId?: string };
  /** Keep a trace when the first 8 hex digits of its id, mod 100, are below rate × 100. */
  rate?: number;
}

/**
 * `{newest, oldest, next, limit, order, rate}`. Unlike the reference implementation, a query
 * without a window still gets at most DEFAULT_QUERY_LIMIT results and a `next` cursor to page on.
 * `limit` below 1 is 1 (as in the reference implementation); above MAX_QUERY_LIMIT it is a 400
 * naming the maximum, never a shorter page the client would take for the last one.
 *
 * `next` is the cursor a page returned or, for trace focus, a trace id as the reference
 * implementation's clients send it: the page goes on after that trace, ranked at `newest`
 * (`oldest` when ascending), which must then be given.
 */
export function parseWindowing(value: unknown, focus: "trace" | "span" = "trace"): QueryWindow {
  if (value === undefined || value === null) return { limit: DEFAULT_QUERY_LIMIT, ascending: false };
  if (!isObject(value)) fail("'windowing' must be an object.");
  const time = (name: string) => {
    const v = value[name];
    if (v === undefined || v === null) return undefined;
    const us = parseTimestamp(v);
    if (us === undefined) fail(`'windowing.${name}' ${JSON.stringify(v)} is not a timestamp.`);
    return microsToIso(us);
  };
  let limit = DEFAULT_QUERY_LIMIT;
  if (value.limit !== undefined && value.limit !== null) {
    if (typeof value.limit !== "number" || !Number.isInteger(value.limit))
      fail("'windowing.limit' must be an integer.");
    if (value.limit > MAX_QUERY_LIMIT)
      fail(
        `'windowing.limit' ${value.limit} is more than a page holds: ask for at most ${MAX_QUERY_LIMIT} and page through the rest with 'windowing.next'.`,
      );
    limit = Math.max(value.limit, 1);
  }
  if (
    value.order !== undefined &&
    value.order !== null &&
    value.order !== "ascending" &&
    value.order !== "descending"
  ) {
    fail("'windowing.order' must be ascending or descending.");
  }
  let rate: number | undefined;
  if (value.rate !== undefined && value.rate !== null) {
    if (typeof value.rate !== "number" || value.rate < 0 || value.rate > 1)
      fail("'windowing.rate' must be a number from 0 to 1.");
    rate = value.rate;
  }
  const newest = time("newest");
  const oldest = time("oldest");
  const ascending = value.order === "ascending";
  let cursor: QueryWindow["cursor"];
  if (value.next !== undefined && value.next !== null) {
    if (typeof value.next !== "string") fail("'windowing.next' must be the cursor a previous page returned.");
    // A trace id as the reference implementation takes it, a UUID (32 hex digits): a 16-hex id is a span's.
    const uuidLength = value.next.trim().replace(/^0x|-/gi, "").length === 32;
    const traceId = focus === "trace" && uuidLength ? parseTraceId(value.next) : undefined;
    if (traceId) {
      const bound = ascending ? "oldest" : "newest";
      const at = ascending ? oldest : newest;
      if (!at)
        fail(
          `'windowing.next' ${JSON.stringify(value.next)} continues after that trace: give with it 'windowing.${bound}', the time that trace ranked at (its latest matching span start), or send the cursor a page returned in 'windowing.next'.`,
        );
      cursor = { time: at, traceId };
    } else {
      cursor = decodeCursor(value.next);
    }
  }
  return { newest, oldest, limit, ascending, cursor, rate };
}

/** `next` is opaque to clients: `<start time µs>.<trace id>[.<span id>]`. */
export function encodeCursor(time: string, traceId: string, spanId?: string): string {
  const us = parseTimestamp(time);
  return [us, traceId.replaceAll("-", ""), ...(spanId ? [spanId.replaceAll("-", "")] : [])].join(".");
}

function decodeCursor(next: string): QueryWindow["cursor"] {
  const m = /^(\d{16})\.([0-9a-f]{32})(?:\.([0-9a-f]{32}))?$/.exec(next);
  if (!m) fail("'windowing.next' is not a cursor this service returned.");
  const dash = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return { time: microsToIso(Number(m[1])), traceId: dash(m[2]), spanId: m[3] ? dash(m[3]) : undefined };
}

function fail(message: string): never {
  throw new BadRequestError(message, "invalid_windowing");
}
