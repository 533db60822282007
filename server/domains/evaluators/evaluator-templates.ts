import { z } from "zod";
import { promptTemplateSchema, toCatalogJsonSchema, type JsonSchema } from "@/server/agent-template";
import { linearPatternError } from "@/server/core/linear-pattern";

/** A built-in evaluator: what it checks, the parameters it takes and what it reports. */
export interface EvaluatorTemplate {
  key: string;
  name: string;
  description: string;
  /** `svc:builtin:<key>:v0`: what an evaluator revision's `data.uri` names to use this template. */
  uri: string;
  parameters: z.ZodType;
  outputs: z.ZodType;
}

const correctAnswerKey = z
  .string()
  .min(1)
  .default("correct_answer")
  .describe("Testcase column holding the expected answer.");
const success = z.strictObject({ success: z.boolean() });
const score = z.strictObject({ score: z.number().min(0).max(1), success: z.boolean().optional() });
const threshold = z
  .number()
  .gt(0)
  .max(1)
  .default(0.5)
  .describe("Success when the score reaches this (greater than 0, at most 1).");
const caseSensitive = z.boolean().default(true);
/** Outputs whose keys the user decides (a judge's schema, a webhook's answer, a matcher tree). */
const verdict = z.looseObject({ score: z.unknown().optional(), success: z.boolean().optional() });

const template = (
  key: string,
  name: string,
  description: string,
  parameters: z.ZodType,
  outputs: z.ZodType,
): EvaluatorTemplate => ({
  key,
  name,
  description,
  uri: `svc:builtin:${key}:v0`,
  parameters,
  outputs,
});

/** Keys follow the compat API's built-in evaluators, so its clients find the same ones. */
export const EVALUATOR_TEMPLATES: EvaluatorTemplate[] = [
  template(
    "auto_exact_match",
    "Exact match",
    "Succeeds when the output equals the expected answer.",
    z.strictObject({ correct_answer_key: correctAnswerKey, case_sensitive: z.boolean().default(true) }),
    success,
  ),
  template(
    "auto_regex_test",
    "Regex",
    "Succeeds when the output matches (or, with regex_should_match false, does not match) a regular expression.",
    z.strictObject({
      regex_pattern: z
        .string()
        .min(1)
        .refine(
          (p) => linearPatternError(p) === undefined,
          "not a valid regular expression (RE2 syntax: no backreferences or lookaround)",
        )
        .describe("Regular expression without slashes, RE2 syntax (matched in linear time)."),
      regex_should_match: z.boolean().default(true),
      case_sensitive: z.boolean().default(true),
    }),
    success,
  ),
  template(
    "auto_json_diff",
    "JSON match",
    "Scores how much of the expected JSON the output reproduces, key by key.",
    z.strictObject({
      correct_answer_key: correctAnswerKey,
      compare_schema_only: z.boolean().default(false).describe("Compare keys and value types, not values."),
      predict_keys: z.boolean().default(false).describe("Penalise keys the expected answer does not have."),
      case_insensitive_keys: z.boolean().default(false),
      threshold,
    }),
    score,
  ),
  template(
    "auto_similarity_match",
    "Similarity",
    "Scores the textual similarity of the output to the expected answer; succeeds at or above the threshold.",
    z.strictObject({
      correct_answer_key: correctAnswerKey,
      similarity_threshold: z
        .number()
        .gt(0)
        .max(1)
        .default(0.5)
        .describe("Same as threshold (the compat API's older name)."),
      // The common name, accepted as an alias; marked deprecated so forms show one threshold.
      threshold: threshold.optional().meta({ deprecated: true }),
      case_sensitive: caseSensitive,
    }),
    score,
  ),
  template(
    "auto_ai_critique",
    "LLM-as-a-judge",
    "Asks a model to grade the output with a prompt; the prompt sees {{inputs}}, {{outputs}} and the expected answer.",
    z.strictObject({
      prompt_template: promptTemplateSchema.shape.messages.min(1).describe("The judge's messages."),
      model: z
        .string()
        .min(1)
        .default("openai/gpt-5-mini")
        .describe("Judge model, `<provider>/<model>` (catalog type model)."),
      correct_answer_key: correctAnswerKey.optional(),
      connection: z
        .string()
        .min(1)
        .optional()
        .describe(
          "Slug of the stored provider connection to use; default: the project's connection for the model's provider.",
        ),
      json_schema: z
        .record(z.string(), z.unknown())
        .optional()
        .describe("JSON Schema the judge's answer must follow (or {name, schema, strict}); default {score: number}."),
      response_type: z
        .enum(["json_schema", "json_object", "text"])
        .optional()
        .describe("Default json_schema (text for version 2 and 3)."),
      template_format: z
        .enum(["mustache", "curly", "fstring"])
        .optional()
        .describe(
          "Placeholder syntax: {{name}} (mustache, curly) or {name} (fstring); default by version, else mustache.",
        ),
      version: z
        .string()
        .optional()
        .describe("The compat API's template version: picks the default template_format and response_type."),
      threshold,
    }),
    verdict,
  ),
  template(
    "auto_custom_code_run",
    "Code",
    "Runs your function `evaluate(inputs, outputs, trace)` and takes the score it returns.",
    z.strictObject({
      code: z.string().min(1).describe("Source defining evaluate(inputs, outputs, trace) -> number between 0 and 1."),
      runtime: z
        .enum(["python", "javascript"])
        .default("python")
        .describe("python (CPython in the sandbox) or javascript (QuickJS)."),
      version: z
        .enum(["1", "2", "3"])
        .default("3")
        .describe(
          "1: evaluate(app_params, inputs, output, correct_answer); 2 and 3: evaluate(inputs, outputs, trace).",
        ),
      correct_answer_key: correctAnswerKey.optional(),
      threshold,
    }),
    verdict,
  ),
  template(
    "trajectory_match",
    "Tool-call trajectory",
    "Scores the tool calls of an agent run against the expected calls in a testcase column: the same calls in order (exact), the expected ones in order with others between (in_order), or all of them in any order (any_order).",
    z.strictObject({
      expected_tool_calls_key: z
        .string()
        .min(1)
        .default("expected_tool_calls")
        .describe(
          'Testcase column with the expected calls: a list of tool names or {"name", "input"} objects (or its JSON text).',
        ),
      mode: z.enum(["exact", "in_order", "any_order"]).default("in_order"),
      compare_arguments: z
        .boolean()
        .default(false)
        .describe("Also require the argument fields an expected call gives (fields it leaves out are free)."),
      threshold: z.number().gt(0).max(1).default(1).describe("Success when the score reaches this."),
    }),
    z.strictObject({
      score: z.number().min(0).max(1),
      success: z.boolean(),
      diff: z.string().describe("Every call: kept, `- ` expected but not made, `+ ` made but not expected."),
    }),
  ),
  ...textTests(),
  template(
    "field_match_test",
    "JSON field match",
    "Succeeds when one field of the JSON output equals the expected answer.",
    z.strictObject({
      json_field: z.string().min(1).describe("Dot path, JSONPath ($.a[0]) or JSON pointer (/a/0)."),
      correct_answer_key: correctAnswerKey,
    }),
    success,
  ),
  template(
    "json_multi_field_match",
    "JSON fields match",
    "Scores each listed field of the JSON output 1 or 0 against the expected JSON, and the fraction that matched.",
    z.strictObject({
      fields: z.array(z.string().min(1)).min(1).describe("Dot paths, JSONPaths or JSON pointers."),
      correct_answer_key: correctAnswerKey,
    }),
    z.record(z.string(), z.number()),
  ),
  template(
    "auto_levenshtein_distance",
    "Levenshtein",
    "Scores 1 − edit distance / longer length between the output and the expected answer.",
    z.strictObject({ correct_answer_key: correctAnswerKey, threshold, case_sensitive: caseSensitive }),
    score,
  ),
  template(
    "auto_semantic_similarity",
    "Semantic similarity",
    "Scores the cosine similarity of the embeddings of the output and the expected answer, through the project's provider connection.",
    z.strictObject({
      correct_answer_key: correctAnswerKey,
      embedding_model: z
        .string()
        .min(1)
        .default("text-embedding-3-small")
        .describe("An OpenAI embedding model, or `provider/model`."),
      connection: z.string().min(1).optional().describe("Slug of the stored provider connection to use."),
      threshold,
    }),
    score,
  ),
  template(
    "auto_webhook_test",
    "Webhook",
    "POSTs {inputs, output} to your HTTPS endpoint, which answers with a score (number), success (boolean) or an object.",
    z.strictObject({ webhook_url: z.string().regex(/^https:\/\/\S+$/, "must be an https URL"), threshold }),
    verdict,
  ),
  template(
    "match",
    "Matchers",
    "A tree of checks (exact, contains, regex, similarity, JSON diff, ...) over the inputs, outputs and trace, combined into one score.",
    z.strictObject({
      matchers: z
        .array(z.record(z.string(), z.unknown()))
        .min(1)
        .describe("Nodes {key, target, mode, match, reference(s), ...} or groups {key, matchers}."),
      score: z.enum(["weighted", "min", "max"]).default("weighted"),
      success: z.enum(["all", "any", "threshold"]).default("all"),
      threshold: z.number().gt(0).max(1).default(1),
    }),
    verdict,
  ),
];

/** The string tests the compat API keeps as archived built-ins: one template each. */
function textTests(): EvaluatorTemplate[] {
  const single = (key: string, name: string, parameter: string, what: string) =>
    template(
      key,
      name,
      `Succeeds when the output ${what}.`,
      z.strictObject({ [parameter]: z.string().min(1), case_sensitive: caseSensitive }),
      success,
    );
  const list = (key: string, name: string, what: string) =>
    template(
      key,
      name,
      `Succeeds when the output contains ${what} of the substrings.`,
      z.strictObject({ substrings: z.array(z.string().min(1)).min(1), case_sensitive: caseSensitive }),
      success,
    );
  return [
    single("auto_contains", "Contains", "substring", "contains the substring"),
    single("auto_starts_with", "Starts with", "prefix", "starts with the prefix"),
    single("auto_ends_with", "Ends with", "suffix", "ends with the suffix"),
    list("auto_contains_any", "Contains any", "any"),
    list("auto_contains_all", "Contains all", "all"),
    template(
      "auto_contains_json",
      "Contains JSON",
      "Succeeds when the output holds a JSON object (from its first { to its last }).",
      z.strictObject({}),
      success,
    ),
  ];
}

export function getEvaluatorTemplate(key: string): EvaluatorTemplate | undefined {
  return EVALUATOR_TEMPLATES.find((t) => t.key === key);
}

export function evaluatorTemplateByUri(uri: string): EvaluatorTemplate | undefined {
  return EVALUATOR_TEMPLATES.find((t) => t.uri === uri);
}

const schemas = new Map<string, { parameters: JsonSchema; outputs: JsonSchema }>();

/** The wire form: the revision `data` an evaluator of this template starts from, with its schemas. */
export const evaluatorTemplateWire = z.strictObject({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  data: z.strictObject({
    uri: z.string(),
    schemas: z.strictObject({
      parameters: z.record(z.string(), z.unknown()),
      outputs: z.record(z.string(), z.unknown()),
    }),
  }),
});

export function evaluatorTemplateToWire(t: EvaluatorTemplate) {
  if (!schemas.has(t.key))
    schemas.set(t.key, { parameters: toCatalogJsonSchema(t.parameters), outputs: toCatalogJsonSchema(t.outputs) });
  return {
    key: t.key,
    name: t.name,
    description: t.description,
    data: { uri: t.uri, schemas: structuredClone(schemas.get(t.key)!) },
  };
}
