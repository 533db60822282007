import { describe, expect, it } from "vitest";
import { EVALUATOR_PRESETS } from "@/server/domains/evaluators/evaluator-presets";
import { EVALUATOR_TEMPLATES } from "@/server/domains/evaluators/evaluator-templates";
import { isRunnableEvaluatorUri } from "@/server/evaluations/evaluators";
import { evaluate, outputsOf } from "./run";

describe("the evaluator catalog and the executors", () => {
  it("every template of the catalog names an evaluator that runs", () => {
    for (const template of EVALUATOR_TEMPLATES) expect(isRunnableEvaluatorUri(template.uri), template.uri).toBe(true);
  });

  it("the presets that need no model run with their stored parameters", async () => {
    const run = (key: string, inputs: Record<string, unknown>, outputs: unknown) => {
      const preset = EVALUATOR_PRESETS.find((p) => p.key === key)!;
      return outputsOf(evaluate(`svc:builtin:${preset.template_key}:v0`, preset.parameters, inputs, outputs));
    };
    expect(await run("exact_match_case_insensitive", { correct_answer: "Paris" }, "PARIS")).toEqual({ success: true });
    expect(await run("json_object_output", {}, ' {"a": 1} ')).toEqual({ success: true });
    expect(
      await run("close_paraphrase", { correct_answer: "The capital is Paris" }, "The capital is Paris."),
    ).toMatchObject({ success: true });
  });
});
