import { aiCritique } from "./builtin/ai-critique";
import { exactMatch } from "./builtin/exact-match";
import { fieldMatch, jsonMultiFieldMatch } from "./builtin/json-field-match";
import { jsonDiff } from "./builtin/json-diff";
import { matchTree } from "./builtin/match-tree";
import { regexTest } from "./builtin/regex-test";
import { semanticSimilarity } from "./builtin/semantic-similarity";
import { trajectoryMatch } from "./builtin/trajectory-match";
import { contains, containsAll, containsAny, containsJson, endsWith, startsWith } from "./builtin/string-tests";
import { levenshteinMatch, similarityMatch } from "./builtin/text-similarity";
import { customCode, customCodeRun } from "./custom/custom-code";
import { mock } from "./custom/mock";
import { customHook, webhookTest } from "./custom/webhook-evaluators";
import type { EvaluatorHandler } from "./evaluator-types";

/** Built-in evaluators by key (`svc:builtin:<key>:v0`). */
export const BUILTIN_EVALUATORS: Record<string, EvaluatorHandler> = {
  auto_exact_match: exactMatch,
  auto_starts_with: startsWith,
  auto_ends_with: endsWith,
  auto_contains: contains,
  auto_contains_any: containsAny,
  auto_contains_all: containsAll,
  auto_contains_json: containsJson,
  auto_regex_test: regexTest,
  field_match_test: fieldMatch,
  json_multi_field_match: jsonMultiFieldMatch,
  auto_json_diff: jsonDiff,
  auto_similarity_match: similarityMatch,
  auto_levenshtein_distance: levenshteinMatch,
  auto_semantic_similarity: semanticSimilarity,
  auto_ai_critique: aiCritique,
  auto_custom_code_run: customCodeRun,
  match: matchTree,
  trajectory_match: trajectoryMatch,
  auto_webhook_test: webhookTest,
};

/** Custom evaluators by key (`svc:custom:<key>:v0`); `feedback` is human-only and never runs. */
export const CUSTOM_EVALUATORS: Record<string, EvaluatorHandler> = {
  mock,
  code: customCode,
  hook: customHook,
};

/**
 * Built-ins that compute in this process from the testcase and the output alone: no model, no
 * network, no sandbox, nothing to wait for or retry. The engine scores an invocation with these
 * as soon as it has the output, and records the scores with it (see the worker).
 */
export const IN_PROCESS_BUILTINS = new Set([
  "auto_exact_match",
  "auto_starts_with",
  "auto_ends_with",
  "auto_contains",
  "auto_contains_any",
  "auto_contains_all",
  "auto_contains_json",
  "auto_regex_test",
  "field_match_test",
  "json_multi_field_match",
  "auto_json_diff",
  "auto_similarity_match",
  "auto_levenshtein_distance",
  "match",
  "trajectory_match",
]);
