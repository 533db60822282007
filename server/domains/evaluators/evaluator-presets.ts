import { z } from "zod";
import { EVALUATOR_TEMPLATES } from "./evaluator-templates";

/** A template with its parameters filled in for a common check: a starting point to commit as is. */
export interface EvaluatorPreset {
  key: string;
  name: string;
  description: string;
  template_key: string;
  parameters: Record<string, unknown>;
}

const judge = (criterion: string) => [
  {
    role: "system",
    content: `You grade an AI answer for ${criterion}. Reply with JSON {"score": <number from 0 to 1>}.`,
  },
  { role: "user", content: "Question: {{inputs}}\nAnswer: {{outputs}}\nReference answer: {{correct_answer}}" },
];

export const EVALUATOR_PRESETS: EvaluatorPreset[] = [
  {
    key: "exact_match_case_insensitive",
    name: "Exact match, ignoring case",
    description: "The output equals the expected answer up to letter case.",
    template_key: "auto_exact_match",
    parameters: { correct_answer_key: "correct_answer", case_sensitive: false },
  },
  {
    key: "json_object_output",
    name: "Output is a JSON object",
    description: "The output starts with `{` and ends with `}`.",
    template_key: "auto_regex_test",
    parameters: { regex_pattern: "^\\s*\\{[\\s\\S]*\\}\\s*$", regex_should_match: true, case_sensitive: true },
  },
  {
    key: "close_paraphrase",
    name: "Close paraphrase",
    description: "The output is at least 80% similar to the expected answer.",
    template_key: "auto_similarity_match",
    parameters: { correct_answer_key: "correct_answer", similarity_threshold: 0.8 },
  },
  {
    key: "hallucination",
    name: "Hallucination",
    description: "A judge model checks that the answer states nothing the reference answer does not support.",
    template_key: "auto_ai_critique",
    parameters: {
      prompt_template: judge("faithfulness to the reference answer (1 = nothing unsupported)"),
      model: "openai/gpt-5-mini",
      threshold: 0.5,
    },
  },
  {
    key: "answer_relevance",
    name: "Answer relevance",
    description: "A judge model checks that the answer addresses the question.",
    template_key: "auto_ai_critique",
    parameters: {
      prompt_template: judge("relevance to the question (1 = fully on point)"),
      model: "openai/gpt-5-mini",
      threshold: 0.5,
    },
  },
];

/** The wire form: the revision `data` to commit (`uri` of the template and these parameters). */
export const evaluatorPresetWire = z.strictObject({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  template_key: z.string(),
  data: z.strictObject({ uri: z.string(), parameters: z.record(z.string(), z.unknown()) }),
});

export function evaluatorPresetToWire(p: EvaluatorPreset) {
  const uri = EVALUATOR_TEMPLATES.find((t) => t.key === p.template_key)!.uri;
  return {
    key: p.key,
    name: p.name,
    description: p.description,
    template_key: p.template_key,
    data: { uri, parameters: p.parameters },
  };
}
