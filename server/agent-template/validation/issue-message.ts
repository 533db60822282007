import type { z } from "zod";
import { describeValue } from "./describe-value";

const NOUNS: Record<string, string> = {
  string: "a string",
  number: "a number",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  record: "an object",
};

const listOf = (values: readonly unknown[]) => values.map(String).join(", ");

/**
 * zod error map for the whole template parse: plain-language messages for the generic issue
 * codes. Rules with their own wording set it on the schema, which takes precedence over this map.
 */
export function issueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type": {
      const noun = NOUNS[issue.expected] ?? issue.expected;
      return issue.input === undefined ? `is required (${noun})` : `must be ${noun}; got ${describeValue(issue.input)}`;
    }
    case "invalid_value":
      if (issue.input === undefined) return `is required: one of ${listOf(issue.values)}`;
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}; got ${describeValue(issue.input)}`
        : `must be one of ${listOf(issue.values)}; got ${describeValue(issue.input)}`;
    case "too_small":
      return issue.origin === "array"
        ? `must have at least ${issue.minimum} items`
        : `must be at least ${issue.minimum} characters`;
    case "too_big":
      return issue.origin === "array"
        ? `must have at most ${issue.maximum} items`
        : `must be at most ${issue.maximum} characters`;
    case "invalid_format":
      return issue.pattern ? `must match the pattern ${issue.pattern}` : `must be a valid ${issue.format}`;
    case "invalid_key":
      return issue.issues[0]?.message ?? "is not an allowed key";
    case "invalid_union":
      return issue.discriminator ? discriminatorMessage(issue) : "does not match any of the allowed shapes";
    default:
      return undefined;
  }
}

interface DiscriminatorIssue {
  input: unknown;
  discriminator?: string;
  options?: readonly unknown[];
}

function discriminatorMessage(issue: DiscriminatorIssue): string {
  const options = listOf(issue.options ?? []);
  const entry = issue.input as Record<string, unknown> | undefined;
  const sent = entry?.[issue.discriminator ?? ""];
  return sent === undefined
    ? `is required: one of ${options}`
    : `must be one of ${options}; got ${describeValue(sent)}`;
}
