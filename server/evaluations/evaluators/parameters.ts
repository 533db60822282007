import { invalidParameter } from "./evaluator-failure";

type Params = Record<string, unknown>;

const shown = (value: unknown) => (typeof value === "string" ? `"${value}"` : (JSON.stringify(value) ?? String(value)));

/** A string parameter; absent (or null) gives the fallback, or an error when there is none. */
export function stringParam(params: Params, name: string, fallback?: string): string {
  const value = params[name];
  if (value === undefined || value === null) {
    if (fallback !== undefined) return fallback;
    throw invalidParameter(`parameter ${name} is required and missing; set data.parameters.${name}`);
  }
  if (typeof value !== "string") throw invalidParameter(`parameter ${name} must be a string; got ${shown(value)}`);
  return value;
}

export function optionalStringParam(params: Params, name: string): string | undefined {
  return params[name] === undefined || params[name] === null ? undefined : stringParam(params, name);
}

export function boolParam(params: Params, name: string, fallback: boolean): boolean {
  const value = params[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "boolean")
    throw invalidParameter(`parameter ${name} must be true or false; got ${shown(value)}`);
  return value;
}

/** One of a fixed set of words. */
export function enumParam<T extends string>(params: Params, name: string, allowed: readonly T[], fallback: T): T {
  const value = params[name] ?? fallback;
  if (!allowed.includes(value as T))
    throw invalidParameter(`parameter ${name} must be one of ${allowed.join(", ")}; got ${shown(value)}`);
  return value as T;
}

export function stringListParam(params: Params, name: string): string[] {
  const value = params[name];
  if (value === undefined || value === null)
    throw invalidParameter(
      `parameter ${name} is required and missing; set data.parameters.${name} to a list of strings`,
    );
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw invalidParameter(`parameter ${name} must be a list of strings, e.g. ["a", "b"]; got ${shown(value)}`);
  }
  return value as string[];
}

export const DEFAULT_THRESHOLD = 0.5;

/**
 * The success threshold: a number greater than 0 and at most 1, 0.5 when absent. The first of
 * `names` that is set wins (the similarity evaluator also reads `similarity_threshold`). Unlike
 * the reference implementation, 1 is accepted: JSON has no separate integer type.
 */
export function thresholdParam(params: Params, names: string[] = ["threshold"]): number {
  const name = names.find((n) => params[n] !== undefined && params[n] !== null);
  if (!name) return DEFAULT_THRESHOLD;
  return checkThreshold(params[name], name);
}

export function checkThreshold(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > 1) {
    throw invalidParameter(
      `parameter ${name} must be a number greater than 0 and at most 1 (e.g. 0.5); got ${shown(value)}`,
    );
  }
  return value;
}
