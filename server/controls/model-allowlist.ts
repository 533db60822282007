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
