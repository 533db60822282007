import { canonicalJson } from "../canonical-json";
import { invalidParameter } from "../evaluator-failure";
import { isRecord, testcaseInputs } from "../evaluator-values";
import type { EvaluatorCall, EvaluatorHandler } from "../evaluator-types";
import { jsonDiffScore } from "../json-diff-score";
import { parsePath, selectPath } from "../json-path";
import { levenshteinSimilarity } from "../levenshtein";
import { checkThreshold, enumParam } from "../parameters";
import { compileUserPattern, searches } from "../safe-regex";
import { sequenceRatio } from "../sequence-matcher";
import { wordCosine } from "../word-cosine";

const MATCHES = ["valid", "exact", "starts_with", "ends_with", "contains", "regex", "similarity", "diff"] as const;
type Match = (typeof MATCHES)[number];
const SIMILARITIES = { jaccard: sequenceRatio, levenshtein: levenshteinSimilarity, cosine: wordCosine } as const;
const MAX_DEPTH = 8;

interface NodeResult {
  success: boolean;
  score: number;
  error?: string;
  [child: string]: unknown;
}

/** What a node reads: a selector (`$…` JSONPath or `/…` pointer) into the request, else a literal. */
function resolve(value: unknown, request: Record<string, unknown>): { found: boolean; value?: unknown } {
  if (typeof value === "string" && (value.startsWith("$") || value.startsWith("/")))
    return selectPath(request, parsePath(value, "matcher reference"));
  return { found: true, value };
}

const asText = (value: unknown) => (typeof value === "string" ? value : (JSON.stringify(value) ?? ""));

function asJsonValue(value: unknown): { ok: boolean; value?: unknown } {
  if (typeof value !== "string") return { ok: true, value };
  try {
    return { ok: true, value: JSON.parse(value) };
  } catch {
    return { ok: false };
  }
}

function leaf(node: Record<string, unknown>, where: string, request: Record<string, unknown>): NodeResult {
  const match = enumParam(node, "match", MATCHES, "exact") as Match;
  const mode = enumParam(node, "mode", ["text", "json"] as const, "text");
  const caseSensitive = node.case_sensitive ?? true;
  const fold = caseSensitive === false ? (s: string) => s.toLowerCase() : (s: string) => s;
  const threshold = node.threshold === undefined ? 0.5 : checkThreshold(node.threshold, `${where}.threshold`);
  const target = resolve(node.target ?? "$.outputs", request);
  if (!target.found)
    return {
      success: false,
      score: 0,
      error: `target ${JSON.stringify(node.target)} is not in the request (it has inputs, outputs, trace)`,
    };
  const references = (): unknown[] => {
    const raw = node.references ?? (node.reference === undefined ? undefined : [node.reference]);
    if (!Array.isArray(raw) || raw.length === 0)
      throw invalidParameter(`${where} (match ${match}) needs reference or references`);
    return raw.map((r) => {
      const hit = resolve(r, request);
      if (!hit.found) throw new NodeError(`reference ${JSON.stringify(r)} is not in the request`);
      return hit.value;
    });
  };
  const binary = (success: boolean): NodeResult => ({ success, score: success ? 1 : 0 });
  try {
    if (mode === "json") {
      const parsed = asJsonValue(target.value);
      if (match === "valid") return binary(parsed.ok);
      if (!parsed.ok) return { success: false, score: 0, error: "the target is not valid JSON" };
      if (match === "exact")
        return binary(references().some((r) => canonicalJson(asJsonValue(r).value) === canonicalJson(parsed.value)));
      if (match === "diff") {
        const expected = asJsonValue(references()[0]).value;
        if (!isRecord(expected)) throw invalidParameter(`${where}: the diff reference must be a JSON object`);
        const diff = enumParam(node, "diff", ["full", "schema", "strict"] as const, "full");
        const score = jsonDiffScore(expected, parsed.value, {
          schemaOnly: diff === "schema",
          predictKeys: diff === "strict",
          lowerKeys: caseSensitive === false,
        });
        return { success: score >= threshold, score };
      }
    }
    const text = fold(asText(target.value));
    switch (match) {
      case "valid":
        return binary(text.trim() !== "");
      case "exact":
        return binary(references().some((r) => fold(asText(r)) === text));
      case "starts_with":
      case "ends_with":
      case "contains": {
        const test = (r: unknown) => {
          const needle = fold(asText(r));
          return match === "starts_with"
            ? text.startsWith(needle)
            : match === "ends_with"
              ? text.endsWith(needle)
              : text.includes(needle);
        };
        const every = enumParam(node, "contains", ["all", "any"] as const, "all") === "all";
        return binary(every ? references().every(test) : references().some(test));
      }
      case "regex":
        return binary(
          references().some((r) =>
            searches(
              compileUserPattern(asText(r), `${where}.reference`, caseSensitive !== false),
              asText(target.value),
            ),
          ),
        );
      case "similarity": {
        const measure =
          SIMILARITIES[enumParam(node, "similarity", ["jaccard", "levenshtein", "cosine"] as const, "jaccard")];
        const score = Math.max(...references().map((r) => measure(text, fold(asText(r)))));
        return { success: score >= threshold, score };
      }
      case "diff":
        throw invalidParameter(`${where}: match diff compares JSON; set mode to json`);
    }
  } catch (error) {
    if (error instanceof NodeError) return { success: false, score: 0, error: error.message };
    throw error;
  }
}

/** A problem with this cell's data (not the configuration): the node fails, the tree goes on. */
class NodeError extends Error {}

function weightOf(node: Record<string, unknown>, where: string): number {
  const weight = node.weight ?? 1;
  if (typeof weight !== "number" || !(weight >= 0))
    throw invalidParameter(`${where}.weight must be a number of 0 or more; got ${JSON.stringify(weight)}`);
  return weight;
}

function checkMatchers(list: unknown, where: string): Record<string, unknown>[] {
  if (!Array.isArray(list) || list.length === 0)
    throw invalidParameter(`${where} must be a non-empty list of matchers, each {key, target, match, reference, ...}`);
  const keys = new Set<string>();
  return list.map((node, i) => {
    if (!isRecord(node) || typeof node.key !== "string" || node.key === "")
      throw invalidParameter(`${where}[${i}] must be an object with a non-empty key`);
    if (keys.has(node.key))
      throw invalidParameter(`${where}[${i}].key "${node.key}" is used twice; keys name each result`);
    if (["score", "success", "error"].includes(node.key))
      throw invalidParameter(`${where}[${i}].key "${node.key}" is reserved for the result itself`);
    if (node.matchers !== undefined && node.match !== undefined)
      throw invalidParameter(
        `${where}[${i}] has both match and matchers; a matcher either checks (match) or groups (matchers)`,
      );
    keys.add(node.key);
    return node;
  });
}

/** Combines child results: weighted mean, min or max score; all, any or a score threshold for success. */
function combine(
  results: NodeResult[],
  weights: number[],
  scoring: "weighted" | "min" | "max",
  succeeding: "all" | "any" | "threshold",
  threshold: number,
) {
  const scores = results.map((r) => r.score);
  const total = weights.reduce((a, b) => a + b, 0);
  const score =
    scoring === "min"
      ? Math.min(...scores)
      : scoring === "max"
        ? Math.max(...scores)
        : total === 0
          ? 0
          : scores.reduce((sum, s, i) => sum + s * weights[i], 0) / total;
  const success =
    succeeding === "all"
      ? results.every((r) => r.success)
      : succeeding === "any"
        ? results.some((r) => r.success)
        : score >= threshold;
  return { score, success };
}

function evaluateNode(
  node: Record<string, unknown>,
  where: string,
  request: Record<string, unknown>,
  depth: number,
): NodeResult {
  if (node.matchers === undefined) return leaf(node, where, request);
  if (depth >= MAX_DEPTH) throw invalidParameter(`${where}: matchers nest deeper than ${MAX_DEPTH} levels`);
  return group(node, `${where}.matchers`, request, depth + 1, "weighted", "all", 1);
}

function group(
  node: Record<string, unknown>,
  where: string,
  request: Record<string, unknown>,
  depth: number,
  scoring: "weighted" | "min" | "max",
  succeeding: "all" | "any" | "threshold",
  threshold: number,
): NodeResult {
  const children = checkMatchers(node.matchers, where);
  const results = children.map((child, i) => evaluateNode(child, `${where}[${i}]`, request, depth));
  const out: NodeResult = {
    ...combine(
      results,
      children.map((c, i) => weightOf(c, `${where}[${i}]`)),
      scoring,
      succeeding,
      threshold,
    ),
  };
  children.forEach((child, i) => (out[child.key as string] = results[i]));
  return out;
}

/**
 * `match`: a tree of matchers over the request `{inputs, outputs, trace}`. Each leaf checks one
 * target against references and gives `{success, score, error?}`; groups combine their children
 * (weighted mean, all must succeed); the root combines with `score` and `success` as set.
 */
export const matchTree: EvaluatorHandler = (call: EvaluatorCall) => {
  const { parameters, request } = call;
  const scoring = enumParam(parameters, "score", ["weighted", "min", "max"] as const, "weighted");
  const succeeding = enumParam(parameters, "success", ["all", "any", "threshold"] as const, "all");
  const threshold = parameters.threshold === undefined ? 1 : checkThreshold(parameters.threshold, "threshold");
  const view = {
    inputs: testcaseInputs(request.inputs),
    outputs: request.outputs ?? null,
    trace: request.trace ?? null,
  };
  return { outputs: group(parameters, "matchers", view, 0, scoring, succeeding, threshold) };
};
