import { BadRequestError } from "@/server/core/errors";
import {
  filteringToSql,
  rollupDimensionsSql,
  SPAN_DIMENSIONS,
  spanDimensionsSql,
  type SqlParams,
} from "@/server/tracing";

/**
 * The filtering of trace queries, with the roll-up's dimensions (agent, model, provider,
 * environment, revision, api_key, user, trace_type) as extra fields. A filter on dimensions only
 * is answered from the roll-ups; any other field (attributes, span names, ...) needs a scan of
 * the spans, where it means exactly what it means in a trace query.
 */
const DIMENSION_FIELDS = [...SPAN_DIMENSIONS, "trace_type"] as const;
type DimensionField = (typeof DIMENSION_FIELDS)[number];
const DIMENSION_OPERATORS = ["is", "is_not", "in", "not_in", "exists", "not_exists"];
const LOGICAL = ["and", "or", "not", "nand", "nor"];

/** The SQL of each dimension field on either source. */
export function dimensionColumns(target: "rollup" | "scan"): Record<DimensionField, string> {
  if (target === "rollup") return { ...rollupDimensionsSql("r"), trace_type: "r.trace_type" };
  return { ...spanDimensionsSql("s"), trace_type: "s.trace_type" };
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isDimension = (field: unknown): field is DimensionField =>
  typeof field === "string" && (DIMENSION_FIELDS as readonly string[]).includes(field);

/** True when some condition's field passes `test`. */
export function someConditionField(filtering: unknown, test: (field: unknown) => boolean): boolean {
  if (!isObject(filtering)) return false;
  if ("field" in filtering) return test(filtering.field);
  const conditions = Array.isArray(filtering.conditions) ? filtering.conditions : [];
  return conditions.some((c) => someConditionField(c, test));
}

/** True when some condition is on a field the roll-ups do not keep. */
export function filterNeedsScan(filtering: unknown): boolean {
  return someConditionField(filtering, (field) => !isDimension(field));
}

/** A boolean SQL expression over the source's rows (`r` roll-ups, `s` spans), or a 400. */
export function filterSql(
  filtering: unknown,
  params: SqlParams,
  target: "rollup" | "scan",
  path = "filtering",
): string {
  if (filtering === undefined || filtering === null) return "true";
  if (!isObject(filtering)) fail(`'${path}' must be an object with operator and conditions.`);
  if ("field" in filtering) return conditionSql(filtering, params, target, path);
  const operator = (filtering.operator ?? "and") as string;
  if (!LOGICAL.includes(operator)) fail(`'${operator}' is not a logical operator; use one of ${LOGICAL.join(", ")}.`);
  const conditions = filtering.conditions ?? [];
  if (!Array.isArray(conditions)) fail(`'${path}.conditions' must be a list.`);
  if (operator === "not" && conditions.length !== 1) fail(`'not' takes exactly one condition.`);
  const parts = conditions.map((c, i) => filterSql(c, params, target, `${path}.conditions[${i}]`));
  const negated = operator === "not" || operator === "nand" || operator === "nor";
  if (parts.length === 0) return negated ? "false" : "true";
  const joined = parts.map((p) => `(${p})`).join(operator === "or" || operator === "nor" ? " or " : " and ");
  return negated ? `not (${joined})` : joined;
}

function conditionSql(c: Record<string, unknown>, params: SqlParams, target: "rollup" | "scan", path: string): string {
  if (!isDimension(c.field)) {
    if (target === "rollup") throw new Error(`filter field ${String(c.field)} reached the roll-up source`);
    // Not a dimension: a trace-query condition, compiled (and checked) by tracing.
    return filteringToSql({ operator: "and", conditions: [c] }, params, path);
  }
  const column = dimensionColumns(target)[c.field];
  const operator = (c.operator ?? "is") as string;
  if (!DIMENSION_OPERATORS.includes(operator))
    fail(`'${c.field}' supports the operators ${DIMENSION_OPERATORS.join(", ")}; '${operator}' is not one of them.`);
  switch (operator) {
    case "exists":
      return `${column} <> ''`;
    case "not_exists":
      return `${column} = ''`;
    case "is":
    case "is_not": {
      if (typeof c.value !== "string" || c.value === "") fail(`'${path}.value' must be a non-empty string.`);
      return `${column} ${operator === "is" ? "=" : "<>"} ${params.add(c.value, "::text")}`;
    }
    default: {
      const values = c.value;
      if (!Array.isArray(values) || values.length === 0 || values.some((v) => typeof v !== "string"))
        fail(`'${path}.value' must be a non-empty list of strings for '${operator}'.`);
      const list = `${params.add(JSON.stringify(values), "::jsonb")}`;
      const test = `${column} in (select jsonb_array_elements_text(${list}))`;
      return operator === "in" ? test : `not (${test})`;
    }
  }
}

function fail(detail: string): never {
  throw new BadRequestError(detail, "invalid_filtering");
}
