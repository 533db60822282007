import { getPath, isObject, setPath, type JsonObject } from "./attributes";

/**
 * Per-span metrics under `ag.metrics`: `duration.cumulative` (ms), `errors`, `tokens` and `costs`,
 * each with `incremental` (this span's own) and `cumulative` (itself plus every descendant,
 * filled by the trace totals, trace-totals.ts, at ingest and in the worker). Costs are added at ingest, with the project's prices
 * (span-costs.ts).
 */
export type Amounts = Record<string, number>;

export interface OwnMetrics {
  tokens?: Amounts;
  costs?: Amounts;
  errors?: number;
}

export function computeSpanMetrics(
  attributes: JsonObject,
  startUs: number,
  endUs: number,
  exceptionEvents: number,
  isError: boolean,
): void {
  const duration = (endUs - startUs) / 1000;
  if (duration > 0) setPath(attributes, ["ag", "metrics", "duration", "cumulative"], duration);

  const metrics = getPath(attributes, ["ag", "metrics"]);
  // A span that reported only a cumulative figure (the legacy `acc`) is taken to report its own.
  for (const name of ["tokens", "costs"]) {
    const m = isObject(metrics) ? metrics[name] : undefined;
    if (isObject(m) && m.incremental === undefined && isObject(m.cumulative)) m.incremental = { ...m.cumulative };
  }
  const errors = isObject(metrics) ? metrics.errors : undefined;
  const ownErrors = exceptionEvents > 0 ? exceptionEvents : isError ? 1 : 0;
  if (isObject(errors) && typeof errors.incremental === "number") {
    // Kept as sent.
  } else if (isObject(errors) && typeof errors.cumulative === "number") {
    errors.incremental = errors.cumulative;
  } else if (ownErrors > 0) {
    setPath(attributes, ["ag", "metrics", "errors", "incremental"], ownErrors);
  }
}

/** This span's own tokens, costs and errors, read from its normalised attributes. */
export function ownMetrics(attributes: JsonObject): OwnMetrics {
  const m = getPath(attributes, ["ag", "metrics"]);
  if (!isObject(m)) return {};
  return {
    tokens: amounts(getPath(m, ["tokens", "incremental"])),
    costs: amounts(getPath(m, ["costs", "incremental"])),
    errors:
      typeof getPath(m, ["errors", "incremental"]) === "number"
        ? (getPath(m, ["errors", "incremental"]) as number)
        : undefined,
  };
}

function amounts(value: unknown): Amounts | undefined {
  if (!isObject(value)) return undefined;
  const out: Amounts = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === "number" && Number.isFinite(v)) out[k] = v;
  return Object.keys(out).length > 0 ? out : undefined;
}
