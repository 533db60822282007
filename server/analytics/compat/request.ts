import { BadRequestError, type ErrorCodeOf } from "@/server/core/errors";
import { microsToIso, parseTimestamp } from "@/server/tracing";
import { SPEC_TYPES, type MetricSpec, type SpecType } from "./metric-blob";

/**
 * The reference implementation's flat keys, from the JSON body or the query string. The legacy
 * route takes `limit` and no `specs`; like `rate` there, `limit` is checked and not applied (as
 * in the reference implementation).
 */
const KEYS = {
  specs: ["focus", "format", "oldest", "newest", "interval", "rate", "filter", "specs"],
  legacy: ["focus", "format", "oldest", "newest", "limit", "interval", "rate", "filter"],
};
export type CompatRoute = keyof typeof KEYS;
const MINUTE_US = 60_000_000;
const DAY_US = 86_400_000_000;
/**
 * At most this many buckets, as the reference implementation; beyond it the request is refused (the
 * reference implementation coarsens silently).
 */
export const MAX_REFERENCE_BUCKETS = 1024;

export const DEFAULT_SPECS: MetricSpec[] = [
  ...["duration.cumulative", "errors.cumulative", "costs.cumulative.total", "tokens.cumulative.total"].map(
    (m): MetricSpec => ({ type: "numeric/continuous", path: `attributes.ag.metrics.${m}` }),
  ),
  { type: "categorical/single", path: "attributes.ag.type.trace" },
  { type: "categorical/single", path: "attributes.ag.type.span" },
];

export interface CompatQuery {
  focus?: string;
  format?: string;
  oldestUs: number;
  newestUs: number;
  /** Bucket width in minutes: the given interval, or the whole window in one bucket. */
  strideMinutes: number;
  interval?: number;
  rate?: number;
  filtering?: unknown;
  specs: MetricSpec[];
}

/**
 * Parses and checks the flat request. Unlike the reference implementation, which answers an empty
 * 200 (or a default window) for anything it cannot use, every problem is a 400 naming the key.
 */
export function parseCompatQuery(
  body: Record<string, unknown>,
  search: URLSearchParams,
  now: Date,
  route: CompatRoute = "specs",
): CompatQuery {
  const keys = KEYS[route];
  const unknown = Object.keys(body).filter((k) => !keys.includes(k));
  if (unknown.length > 0)
    bad(`Unknown key(s) ${unknown.join(", ")}; this endpoint takes the flat keys ${keys.join(", ")}.`);
  // The reference implementation takes each part (windowing, filtering, formatting) from the body
  // whenever the body has one, and its formatting part always (defaults included): keys split
  // between the two places would be read differently there, so they are refused.
  const inBody = keys.filter((k) => body[k] !== undefined);
  const inQuery = keys.filter((k) => search.has(k));
  if (inBody.length > 0 && inQuery.length > 0)
    bad(
      `Keys in the body (${inBody.join(", ")}) and in the query string (${inQuery.join(", ")}): send them all in one place.`,
    );
  const get = (key: string) =>
    !keys.includes(key) ? undefined : body[key] !== undefined ? body[key] : (search.get(key) ?? undefined);

  const focus = optionalEnum(get("focus"), "focus", ["trace", "span"]);
  const format = optionalEnum(get("format"), "format", ["agenta", "opentelemetry"]);
  const nextDay = Math.floor(now.getTime() / 86_400_000 + 1) * DAY_US;
  const newestUs = time(get("newest"), "newest") ?? nextDay;
  const oldestUs = time(get("oldest"), "oldest") ?? newestUs - 30 * DAY_US;
  if (oldestUs >= newestUs)
    bad(`'oldest' (${microsToIso(oldestUs)}) must be before 'newest' (${microsToIso(newestUs)}).`);

  const interval = number(get("interval"), "interval");
  if (interval !== undefined && !(Number.isInteger(interval) && interval > 0))
    bad("'interval' is a whole number of minutes greater than 0.");
  const strideMinutes = interval ?? Math.max(1, Math.ceil((newestUs - oldestUs) / MINUTE_US));
  const buckets = Math.floor((newestUs - oldestUs) / (strideMinutes * MINUTE_US));
  if (buckets > MAX_REFERENCE_BUCKETS) {
    const fits = Math.ceil((newestUs - oldestUs) / MINUTE_US / MAX_REFERENCE_BUCKETS);
    bad(
      `An interval of ${interval} minutes makes ${buckets} buckets; at most ${MAX_REFERENCE_BUCKETS} are allowed (use at least ${fits}).`,
      "too_many_buckets",
    );
  }
  const rate = number(get("rate"), "rate");
  if (rate !== undefined && !(rate >= 0 && rate <= 1)) bad("'rate' is a sampling rate between 0 and 1.");
  const limit = number(get("limit"), "limit");
  if (limit !== undefined && !Number.isInteger(limit)) bad("'limit' must be a whole number.");

  return {
    focus,
    format,
    oldestUs,
    newestUs,
    strideMinutes,
    interval,
    rate,
    filtering: json(get("filter"), "filter"),
    specs: specs(json(get("specs"), "specs")),
  };
}

function specs(value: unknown): MetricSpec[] {
  if (value === undefined || value === null) return DEFAULT_SPECS;
  if (!Array.isArray(value)) bad("'specs' must be a list of {type, path, bins?, vmin?, vmax?, edge?}.");
  if (value.length === 0) return DEFAULT_SPECS;
  return value.map((raw, i) => {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) bad(`'specs[${i}]' must be an object.`);
    const s = raw as Record<string, unknown>;
    const extra = Object.keys(s).filter((k) => !["type", "path", "bins", "vmin", "vmax", "edge"].includes(k));
    if (extra.length) bad(`'specs[${i}]' has unknown key(s) ${extra.join(", ")}.`);
    const type = (s.type ?? "none") as SpecType;
    if (!SPEC_TYPES.includes(type)) bad(`'specs[${i}].type' must be one of ${SPEC_TYPES.join(", ")}.`);
    const path = s.path ?? "*";
    if (typeof path !== "string" || path === "") bad(`'specs[${i}].path' must be a dotted attribute path.`);
    const spec: MetricSpec = { type, path };
    if (s.bins !== undefined) {
      if (!Number.isInteger(s.bins) || (s.bins as number) < 1) bad(`'specs[${i}].bins' must be a whole number ≥ 1.`);
      spec.bins = s.bins as number;
    }
    for (const key of ["vmin", "vmax"] as const) {
      if (s[key] === undefined) continue;
      if (typeof s[key] !== "number" || !Number.isFinite(s[key])) bad(`'specs[${i}].${key}' must be a number.`);
      spec[key] = s[key] as number;
    }
    if (s.edge !== undefined) {
      if (typeof s.edge !== "boolean") bad(`'specs[${i}].edge' must be true or false.`);
      spec.edge = s.edge;
    }
    return spec;
  });
}

function json(value: unknown, key: string): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return bad(`'${key}' is not valid JSON.`);
  }
}

function time(value: unknown, key: string): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const us = parseTimestamp(value);
  if (us === undefined)
    bad(`'${key}' ${JSON.stringify(value)} is not a timestamp (ISO 8601, or epoch seconds, ms, µs or ns).`);
  return us;
}

function number(value: unknown, key: string): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const n = typeof value === "string" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n)) bad(`'${key}' must be a number.`);
  return n;
}

function optionalEnum(value: unknown, key: string, allowed: string[]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || !allowed.includes(value)) bad(`'${key}' must be one of ${allowed.join(", ")}.`);
  return value;
}

function bad(detail: string, code: ErrorCodeOf<400> = "invalid_analytics_query"): never {
  throw new BadRequestError(detail, code);
}
