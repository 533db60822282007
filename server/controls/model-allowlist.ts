import { globMatch } from "@/server/core/glob-match";

/** A list of model patterns and whose it is, as a refusal names it. */
export interface AllowlistRule {
  /** "the project's model allowlist", "API key abc's model allowlist". */
  owner: string;
  patterns: string[];
}

/**
 * The first rule that does not allow `provider/model`, or undefined. Patterns are globs over
 * `provider/model` (`anthropic/*`, `openai/gpt-5-mini`; `*` stops at `/`, `**` does not). Every
 * rule must allow the model: a key's list narrows the project's, it cannot widen it.
 */
export function refusingRule(model: string, rules: AllowlistRule[]): AllowlistRule | undefined {
  return rules.find((rule) => !rule.patterns.some((pattern) => globMatch(model, pattern)));
}

/**
 * Why each of `models` (`provider/model`) is refused to a run with no API key (the playground's,
 * an automation's): the project's list, or nothing; the model picker marks them before a run is.
 */
export function refusedByProject(
  models: string[],
  projectLists: { patterns: string[] }[],
): Record<string, AllowlistRule> {
  const rules = projectLists.map((row) => ({ owner: "the project's model allowlist", patterns: row.patterns }));
  const refused: Record<string, AllowlistRule> = {};
  for (const model of models) {
    const rule = refusingRule(model, rules);
    if (rule) refused[model] = rule;
  }
  return refused;
}
