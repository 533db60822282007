import { describe, expect, it } from "vitest";
import { evaluatorTemplateToWire, getEvaluatorTemplate } from "@/server/domains/evaluators/evaluator-templates";
import { shownParameters } from "@/components/evaluators/schema-fields";
import type { SchemaNode } from "@/components/evaluators/types";

describe("shownParameters", () => {
  it("shows the similarity evaluator's threshold once; its alias only when an evaluator sets it", () => {
    // The schema the playground reads: the catalog's wire form.
    const schema = evaluatorTemplateToWire(getEvaluatorTemplate("auto_similarity_match")!).data.schemas
      .parameters as SchemaNode;
    const names = (parameters: Record<string, unknown>) => shownParameters(schema, parameters).map(([n]) => n);
    expect(names({}).filter((n) => n.includes("threshold"))).toEqual(["similarity_threshold"]);
    expect(names({ threshold: 0.7 })).toContain("threshold");
  });

  it("leaves the judge's connection to the model field", () => {
    const schema: SchemaNode = { properties: { model: { type: "string" }, connection: { type: "string" } } };
    expect(shownParameters(schema, {}).map(([n]) => n)).toEqual(["model"]);
  });
});
