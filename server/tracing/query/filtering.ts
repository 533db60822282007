import { BadRequestError } from "@/server/core/errors";
import { linearPatternError } from "@/server/core/linear-pattern";
import { isObject } from "../attributes";
import { parseSpanId, parseTraceId } from "../ids";
import { SPAN_KINDS, SPAN_TYPES, STATUS_CODES, TRACE_TYPES } from "../span-record";
import { microsToIso, parseTimestamp } from "../timestamps";
import { pgArray, type SqlParams } from "./sql-params";

/**
 * The reference implementation's filtering language, validated and turned into SQL over `spans`:
 * `{operator: and|or|not|nand|nor, conditions: [Condition | Filtering]}`, where a Condition is
 * `{field, key?, value?, operator = "is", options?: {case_sensitive, exact_match, all}}`.
 * Unlike the reference implementation, an unknown field is a 400 (a silently ignored filter returns
 * more than was asked for).
 */
const OPERATOR_GROUPS = {
  comparison: ["is", "is_not"],
  numeric: ["eq", "neq", "gt", "lt", "gte", "lte", "btwn"],
  string: ["startswith", "endswith", "contains", "matches", "like"],
  list: ["in", "not_in"],
  dict: ["has", "has_not"],
  existence: ["exists", "not_exists"],
} as const;
type Group = keyof typeof OPERATOR_GROUPS;
const ALL_OPERATORS = Object.values(OPERATOR_GROUPS).flat() as string[];
const LOGICAL = ["and", "or", "not", "nand", "nor"];

type FieldKind = "id" | "enum" | "string" | "time" | "attributes" | "collection" | "content";
interface FieldSpec {
  kind: FieldKind;
  column: string;
  groups: Group[];
  values?: readonly string[];
  idKind?: "trace" | "span";
}

const FIELDS: Record<string, FieldSpec> = {
  trace_id: { kind: "id", column: "trace_id", groups: ["comparison", "list"], idKind: "trace" },
  span_id: { kind: "id", column: "span_id", groups: ["comparison", "list"], idKind: "span" },
  parent_id: { kind: "id", column: "parent_id", groups: ["comparison", "list", "existence"], idKind: "span" },
  trace_type: { kind: "enum", column: "trace_type", groups: ["comparison", "list"], values: TRACE_TYPES },
  span_type: { kind: "enum", column: "span_type", groups: ["comparison", "list"], values: SPAN_TYPES },
  span_kind: { kind: "enum", column: "span_kind", groups: ["comparison", "list"], values: SPAN_KINDS },
  status_code: { kind: "enum", column: "status_code", groups: ["comparison", "list"], values: STATUS_CODES },
  span_name: { kind: "string", column: "span_name", groups: ["comparison", "numeric", "string", "list", "existence"] },
  status_message: {
    kind: "string",
    column: "status_message",
    groups: ["comparison", "numeric", "string", "list", "existence"],
  },
  session_id: {
    kind: "string",
    column: "session_id",
    groups: ["comparison", "numeric", "string", "list", "existence"],
  },
  user_id: { kind: "string", column: "user_id", groups: ["comparison", "numeric", "string", "list", "existence"] },
  agent_id: { kind: "string", column: "agent_id", groups: ["comparison", "numeric", "string", "list", "existence"] },
  start_time: { kind: "time", column: "start_time", groups: ["comparison", "numeric", "existence"] },
  end_time: { kind: "time", column: "end_time", groups: ["comparison", "numeric", "existence"] },
  created_at: { kind: "time", column: "created_at", groups: ["comparison", "numeric", "existence"] },
  updated_at: { kind: "time", column: "updated_at", groups: ["comparison", "numeric", "existence"] },
  attributes: {
    kind: "attributes",
    column: "attributes",
    groups: ["comparison", "numeric", "string", "list", "dict", "existence"],
  },
  links: { kind: "collection", column: "links", groups: ["list", "dict", "existence"] },
  references: { kind: "collection", column: `"references"`, groups: ["list", "dict", "existence"] },
  events: { kind: "collection", column: "events", groups: ["list", "dict", "existence"] },
  content: { kind: "content", column: "attributes", groups: [] },
};

export interface Condition {
  field: string;
  key?: string;
  value?: unknown;
  operator?: string;
  options?: { case_sensitive?: boolean; exact_match?: boolean; all?: boolean };
}

export interface Filtering {
  operator?: string;
  conditions?: (Condition | Filtering)[];
}

/** SQL for a filtering tree (a boolean expression over the `spans` row), or `true` when empty. */
export function filteringToSql(filtering: unknown, params: SqlParams, path = "filtering"): string {
  if (filtering === undefined || filtering === null) return "true";
  if (!isObject(filtering)) fail(`'${path}' must be an object with operator and conditions.`);
  const operator = (filtering.operator ?? "and") as string;
  if (!LOGICAL.includes(operator)) fail(`'${operator}' is not a logical operator; use one of ${LOGICAL.join(", ")}.`);
  const conditions = filtering.conditions ?? [];
  if (!Array.isArray(conditions)) fail(`'${path}.conditions' must be a list.`);
  if (operator === "not" && conditions.length !== 1) fail(`'not' takes exactly one condition.`);
  const parts = conditions.map((c, i) => {
    const at = `${path}.conditions[${i}]`;
    if (isObject(c) && "field" in c) return conditionToSql(c as unknown as Condition, params);
    if (isObject(c) && ("conditions" in c || "operator" in c)) return filteringToSql(c, params, at);
    return fail(`'${at}' must be a condition (with field) or a nested filtering.`);
  });
  if (parts.length === 0) return operator === "not" || operator === "nand" || operator === "nor" ? "false" : "true";
  const joined = parts.map((p) => `(${p})`).join(operator === "or" || operator === "nor" ? " or " : " and ");
  return operator === "not" || operator === "nand" || operator === "nor" ? `not (${joined})` : joined;
}

/**
 * The trace and session ids a filtering requires: each list comes from one condition that every
 * match must meet (`trace_id` or `session_id` with `is` or `in`, under `and`s only), so a match's
 * spans lie in the time range of those traces or sessions (store/span-bounds.ts). Run after
 * filteringToSql has validated the tree.
 */
export function requiredIds(filtering: unknown): { traceIds: string[][]; sessionIds: string[][] } {
  const out = { traceIds: [] as string[][], sessionIds: [] as string[][] };
  const walk = (node: unknown) => {
    if (!isObject(node) || (node.operator ?? "and") !== "and" || !Array.isArray(node.conditions)) return;
    for (const c of node.conditions as unknown[]) {
      if (!isObject(c)) continue;
      if (!("field" in c)) {
        walk(c);
        continue;
      }
      const operator = c.operator ?? "is";
      const values = operator === "is" ? [c.value] : operator === "in" && Array.isArray(c.value) ? c.value : undefined;
      if (!values) continue;
      if (c.field === "trace_id") {
        const ids = values.map((v) => parseTraceId(v));
        if (ids.every((id): id is string => typeof id === "string")) out.traceIds.push(ids);
      } else if (c.field === "session_id" && values.every((v) => typeof v === "string")) {
        out.sessionIds.push(values as string[]);
      }
    }
  };
  walk(filtering);
  return out;
}

function conditionToSql(c: Condition, params: SqlParams): string {
  if (typeof c.field !== "string") fail(`'field' must be a string.`);
  const spec = FIELDS[c.field];
  if (!spec) fail(`'${c.field}' is not a field that can be filtered; use one of ${Object.keys(FIELDS).join(", ")}.`);
  const operator = c.operator ?? (spec.kind === "content" ? "contains" : "is");
  if (!ALL_OPERATORS.includes(operator))
    fail(`'${operator}' is not an operator; use one of ${ALL_OPERATORS.join(", ")}.`);
  if (spec.kind === "content") {
    if (operator !== "contains") fail(`'content' only supports the contains operator.`);
    if (typeof c.value !== "string") fail(`'content' needs a string value.`);
    return `to_tsvector('simple', attributes) @@ plainto_tsquery('simple', ${params.add(c.value)})`;
  }
  const group = (Object.keys(OPERATOR_GROUPS) as Group[]).find((g) =>
    (OPERATOR_GROUPS[g] as readonly string[]).includes(operator),
  )!;
  if (!spec.groups.includes(group)) fail(`'${c.field}' only supports ${describeGroups(spec.groups)} operators.`);
  switch (spec.kind) {
    case "id":
      return idCondition(spec, c, operator, params);
    case "enum":
      return enumCondition(spec, c, operator, params);
    case "string":
      return scalarCondition(spec.column, c, operator, params, (v) => textValue(c.field, v), "text");
    case "time":
      return scalarCondition(spec.column, c, operator, params, (v) => timeValue(c.field, v), "timestamptz");
    case "attributes":
      return attributeCondition(c, operator, params);
    default:
      return collectionCondition(spec, c, operator, params);
  }
}

function describeGroups(groups: Group[]): string {
  return groups.length === 1 ? groups[0] : `${groups.slice(0, -1).join(", ")} and ${groups[groups.length - 1]}`;
}

function idCondition(spec: FieldSpec, c: Condition, operator: string, params: SqlParams): string {
  if (operator === "exists") return `${spec.column} is not null`;
  if (operator === "not_exists") return `${spec.column} is null`;
  const parse = (v: unknown) => {
    const id = spec.idKind === "trace" ? parseTraceId(v) : parseSpanId(v);
    if (!id) fail(`'${c.field}' value ${JSON.stringify(v)} is not a valid id.`);
    return id;
  };
  if (operator === "is") return `${spec.column} = ${params.add(parse(c.value), "::uuid")}`;
  if (operator === "is_not") return `${spec.column} is distinct from ${params.add(parse(c.value), "::uuid")}`;
  const list = listValue(c).map(parse);
  const sql = `${spec.column} = any(${params.add(pgArray(list), "::uuid[]")})`;
  return operator === "in" ? sql : `not coalesce(${sql}, false)`;
}

function enumCondition(spec: FieldSpec, c: Condition, operator: string, params: SqlParams): string {
  const parse = (v: unknown) => {
    if (typeof v !== "string")
      fail(`'${c.field}' value ${JSON.stringify(v)} must be one of ${spec.values!.join(", ")}.`);
    const upper = v.toUpperCase();
    const found = spec.values!.find(
      (allowed) => allowed === v || allowed === upper || allowed.endsWith(`_${upper}`) || allowed === v.toLowerCase(),
    );
    if (!found) fail(`'${c.field}' value '${v}' must be one of ${spec.values!.join(", ")}.`);
    return found;
  };
  if (operator === "is") return `${spec.column} = ${params.add(parse(c.value))}`;
  if (operator === "is_not") return `${spec.column} <> ${params.add(parse(c.value))}`;
  const sql = `${spec.column} = any(${params.add(pgArray(listValue(c).map(parse)), "::text[]")})`;
  return operator === "in" ? sql : `not (${sql})`;
}

const NUMERIC_SQL: Record<string, string> = { eq: "=", neq: "<>", gt: ">", lt: "<", gte: ">=", lte: "<=" };

/** Comparison, numeric, string, list and existence operators on one scalar SQL expression. */
function scalarCondition(
  expr: string,
  c: Condition,
  operator: string,
  params: SqlParams,
  parse: (v: unknown) => unknown,
  cast: string,
): string {
  switch (operator) {
    case "exists":
      return `${expr} is not null`;
    case "not_exists":
      return `${expr} is null`;
    case "is":
      return `${expr} = ${params.add(parse(c.value), `::${cast}`)}`;
    case "is_not":
      return `${expr} is distinct from ${params.add(parse(c.value), `::${cast}`)}`;
    case "btwn": {
      const [low, high] = pairValue(c);
      return `${expr} between ${params.add(parse(low), `::${cast}`)} and ${params.add(parse(high), `::${cast}`)}`;
    }
    case "in":
    case "not_in": {
      const sql = `${expr} = any(${params.add(pgArray(listValue(c).map((v) => parse(v))), `::${cast}[]`)})`;
      return operator === "in" ? sql : `not coalesce(${sql}, false)`;
    }
    default:
      if (NUMERIC_SQL[operator]) return `${expr} ${NUMERIC_SQL[operator]} ${params.add(parse(c.value), `::${cast}`)}`;
      return stringCondition(expr, c, operator, params);
  }
}

function stringCondition(expr: string, c: Condition, operator: string, params: SqlParams): string {
  if (typeof c.value !== "string") fail(`'${c.field}' with '${operator}' needs a string value.`);
  const sensitive = c.options?.case_sensitive === true;
  const like = sensitive ? "like" : "ilike";
  const v = c.value;
  switch (operator) {
    case "startswith":
      return `${expr} ${like} ${params.add(`${escapeLike(v)}%`)}`;
    case "endswith":
      return `${expr} ${like} ${params.add(`%${escapeLike(v)}`)}`;
    case "contains":
      return c.options?.exact_match
        ? `${expr} ${sensitive ? "=" : "ilike"} ${params.add(sensitive ? v : escapeLike(v))}`
        : `${expr} ${like} ${params.add(`%${escapeLike(v)}%`)}`;
    case "like":
      return `${expr} ${like} ${params.add(v)}`;
    case "matches":
      // RE2's syntax is the safe subset of PostgreSQL's: no backreferences, which could make a
      // match (run in-process on PGlite) exponential.
      if (linearPatternError(v) !== undefined)
        fail(
          `'${c.field}' value '${v}' is not a valid regular expression (RE2 syntax, without backreferences or lookaround).`,
        );
      return `${expr} ${sensitive ? "~" : "~*"} ${params.add(v)}`;
    default:
      return fail(`'${operator}' is not a string operator.`);
  }
}

function attributeCondition(c: Condition, operator: string, params: SqlParams): string {
  if (typeof c.key !== "string" || c.key.trim() === "")
    fail(`'attributes' needs a key (a dotted path such as ag.meta.request.model).`);
  const path = c.key.split(".").filter((p) => p !== "");
  // Every unused placeholder would leave a parameter without a type: the path is added on first use.
  let pathSql: string | undefined;
  const pathParam = () => (pathSql ??= params.add(pgArray(path), "::text[]"));
  const node = () => `(attributes #> ${pathParam()})`;
  const asText = () => `(attributes #>> ${pathParam()})`;
  switch (operator) {
    case "exists":
      return `${node()} is not null`;
    case "not_exists":
      return `${node()} is null`;
    case "is":
    case "is_not": {
      const contained = `attributes @> ${params.add(JSON.stringify(nest(path, c.value ?? null)), "::jsonb")}`;
      return operator === "is" ? contained : `not (${contained})`;
    }
    case "has":
    case "has_not": {
      const sql = `coalesce(${node()} @> ${params.add(JSON.stringify(c.value ?? null), "::jsonb")}, false)`;
      return operator === "has" ? sql : `not ${sql}`;
    }
    case "in":
    case "not_in": {
      const values = listValue(c).map((v) => JSON.stringify(v));
      const sql = `coalesce(${node()} = any(${params.add(pgArray(values), "::jsonb[]")}), false)`;
      return operator === "in" ? sql : `not ${sql}`;
    }
    default: {
      if (operator in NUMERIC_SQL || operator === "btwn") {
        const sample = operator === "btwn" ? pairValue(c)[0] : c.value;
        if (typeof sample === "number") {
          const numeric = `(case when jsonb_typeof(${node()}) = 'number' then (${node()})::text::float8 end)`;
          return scalarCondition(numeric, c, operator, params, (v) => numberValue(c.field, v), "float8");
        }
        return (
          `${node()} is not null and ` +
          scalarCondition(asText(), c, operator, params, (v) => textValue(c.field, v), "text")
        );
      }
      return `${node()} is not null and ` + stringCondition(asText(), c, operator, params);
    }
  }
}

function collectionCondition(spec: FieldSpec, c: Condition, operator: string, params: SqlParams): string {
  const column = spec.column;
  if (operator === "exists") return `${column} is not null`;
  if (operator === "not_exists") return `${column} is null`;
  if (operator === "has" || operator === "has_not") {
    if (typeof c.key !== "string" || !c.key.startsWith("attributes."))
      fail(`'${c.field}' with '${operator}' needs a key of the form attributes.<name>.`);
    const contained = `coalesce(${column} @> ${params.add(JSON.stringify([nest(c.key.split("."), c.value ?? null)]), "::jsonb")}, false)`;
    return operator === "has" ? contained : `not ${contained}`;
  }
  const partials = listValue(c).map((v) => {
    if (!isObject(v)) fail(`'${c.field}' with '${operator}' takes objects such as {"trace_id": ...} or {"slug": ...}.`);
    return normaliseIds(v);
  });
  const each = partials.map((p) => `coalesce(${column} @> ${params.add(JSON.stringify([p]), "::jsonb")}, false)`);
  const joined = each.length === 0 ? "false" : each.join(c.options?.all ? " and " : " or ");
  return operator === "in" ? `(${joined})` : `not (${joined})`;
}

/** Link and reference ids are stored in hex form; a filter may give them in any accepted form. */
function normaliseIds(partial: Record<string, unknown>): Record<string, unknown> {
  const out = { ...partial };
  if (out.trace_id !== undefined) out.trace_id = parseTraceId(out.trace_id)?.replaceAll("-", "") ?? out.trace_id;
  if (out.span_id !== undefined) out.span_id = parseSpanId(out.span_id)?.replaceAll("-", "").slice(-16) ?? out.span_id;
  return out;
}

function nest(path: string[], value: unknown): unknown {
  return path.reduceRight<unknown>((acc, key) => ({ [key]: acc }), value);
}

function listValue(c: Condition): unknown[] {
  if (!Array.isArray(c.value)) fail(`'${c.field}' with '${c.operator}' needs a list value.`);
  return c.value;
}

function pairValue(c: Condition): [unknown, unknown] {
  if (!Array.isArray(c.value) || c.value.length !== 2) fail(`'${c.field}' with 'btwn' needs a list of two values.`);
  return [c.value[0], c.value[1]];
}

function textValue(field: string, v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return fail(`'${field}' needs a string value.`);
}

function numberValue(field: string, v: unknown): number {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  return fail(`'${field}' needs a number value.`);
}

function timeValue(field: string, v: unknown): string {
  const us = parseTimestamp(v);
  if (us === undefined) fail(`'${field}' value ${JSON.stringify(v)} is not a timestamp.`);
  return microsToIso(us);
}

function escapeLike(v: string): string {
  return v.replace(/[\\%_]/g, (m) => `\\${m}`);
}

function fail(message: string): never {
  throw new BadRequestError(message, "invalid_filtering");
}
