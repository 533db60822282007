import { z } from "zod";
import { promptTemplateSchema, toCatalogJsonSchema, type JsonSchema } from "@/server/agents";

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

const correctAnswerKey = z.string().min(1).default("correct_answer").describe("Testcase column holding the expected answer.");
const success = z.strictObject({ success: z.boolean() });
const score = z.strictObject({ score: z.number().min(0).max(1), success: z.boolean().optional() });

const template = (key: string, name: string, description: string, parameters: z.ZodType, outputs: z.ZodType): EvaluatorTemplate => ({
  key,
  name,
  description,
  uri: `svc:builtin:${key}:v0`,
  parameters,
  outputs,
});

/** Keys follow the reference's built-in evaluators, so its clients find the same ones. */
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
        .refine((p) => isRegex(p), "not a valid regular expression")
        .describe("JavaScript regular expression, without slashes."),
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
    }),
    score,
  ),
  template(
    "auto_similarity_match",
    "Similarity",
    "Scores the textual similarity of the output to the expected answer; succeeds at or above the threshold.",
    z.strictObject({ correct_answer_key: correctAnswerKey, similarity_threshold: z.number().min(0).max(1).default(0.5) }),
    score,
  ),
  template(
    "auto_ai_critique",
    "LLM-as-a-judge",
    "Asks a model to grade the output with a prompt; the prompt sees {{inputs}}, {{outputs}} and the expected answer.",
    z.strictObject({
      prompt_template: promptTemplateSchema.shape.messages.min(1).describe("The judge's messages."),
      model: z.string().min(1).default("openai/gpt-5-mini").describe("Judge model, `<provider>/<model>` (catalog type model)."),
      correct_answer_key: correctAnswerKey.optional(),
      json_schema: z.record(z.string(), z.unknown()).optional().describe("JSON Schema the judge's answer must follow; default {score: number}."),
      threshold: z.number().min(0).max(1).default(0.5),
    }),
    score,
  ),
  template(
    "auto_custom_code_run",
    "Code",
    "Runs your function `evaluate(inputs, outputs, trace)` and takes the score it returns.",
    z.strictObject({
      code: z.string().min(1).describe("Source defining evaluate(inputs, outputs, trace) -> number between 0 and 1."),
      runtime: z.enum(["python", "javascript", "typescript"]).default("python"),
      correct_answer_key: correctAnswerKey.optional(),
      threshold: z.number().min(0).max(1).default(0.5),
    }),
    score,
  ),
];

function isRegex(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
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
  data: z.strictObject({ uri: z.string(), schemas: z.strictObject({ parameters: z.record(z.string(), z.unknown()), outputs: z.record(z.string(), z.unknown()) }) }),
});

export function evaluatorTemplateToWire(t: EvaluatorTemplate) {
  if (!schemas.has(t.key)) schemas.set(t.key, { parameters: toCatalogJsonSchema(t.parameters), outputs: toCatalogJsonSchema(t.outputs) });
  return { key: t.key, name: t.name, description: t.description, data: { uri: t.uri, schemas: structuredClone(schemas.get(t.key)!) } };
}
