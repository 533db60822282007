import { estimateCostUsd, PROVIDER_IDS } from "@/server/agent-template";
import { getPath, isObject, setPath, type JsonObject } from "./attributes";

/**
 * Per-span metrics under `ag.metrics`: `duration.cumulative` (ms), `errors`, `tokens` and `costs`,
 * each with `incremental` (this span's own) and `cumulative` (itself plus every descendant,
 * filled by the roll-up in the worker).
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

  const tokens = getPath(attributes, ["ag", "metrics", "tokens", "incremental"]);
  const costs = getPath(attributes, ["ag", "metrics", "costs", "incremental"]);
  if (isObject(tokens) && costs === undefined) {
    const cost = estimateCost(attributes, tokens);
    if (cost) setPath(attributes, ["ag", "metrics", "costs", "incremental"], cost);
  }
}

/** List-price cost of the span's tokens when its model has a curated price. */
function estimateCost(attributes: JsonObject, tokens: JsonObject): Amounts | undefined {
  const model =
    str(getPath(attributes, ["ag", "meta", "response", "model"])) ??
    str(getPath(attributes, ["ag", "meta", "request", "model"]));
  if (!model) return undefined;
  const system = str(getPath(attributes, ["ag", "meta", "system"]));
  const input = typeof tokens.prompt === "number" ? tokens.prompt : 0;
  const output = typeof tokens.completion === "number" ? tokens.completion : 0;
  const candidates = system ? [system, ...PROVIDER_IDS] : PROVIDER_IDS;
  for (const provider of candidates) {
    const [p, m] = model.includes("/") && !system ? model.split("/", 2) : [provider, model];
    const promptCost = estimateCostUsd(p, m, { input, output: 0 });
    if (promptCost === undefined) continue;
    const completionCost = estimateCostUsd(p, m, { input: 0, output })!;
    return { prompt: promptCost, completion: completionCost, total: promptCost + completionCost };
  }
  return undefined;
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

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
