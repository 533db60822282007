import { z } from "zod";
import { NotFoundError } from "@/server/core/errors";
import { many, manySchema, one, oneSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { evaluatorPresetToWire, evaluatorPresetWire, EVALUATOR_PRESETS } from "./evaluator-presets";
import { evaluatorTemplateToWire, evaluatorTemplateWire, EVALUATOR_TEMPLATES, getEvaluatorTemplate } from "./evaluator-templates";

/** The built-in evaluators: templates (with their parameters schemas) and ready-made presets. */
export const evaluatorCatalogRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/evaluators/catalog/templates",
    auth: "api_key",
    tag: "catalog",
    summary: "The built-in evaluator templates, each with the revision data to start from and its parameters and outputs schemas",
    response: manySchema("templates", evaluatorTemplateWire),
    handler: async () => many("templates", EVALUATOR_TEMPLATES.map(evaluatorTemplateToWire)),
  }),
  defineRoute({
    method: "GET",
    path: "/api/evaluators/catalog/templates/{key}",
    auth: "api_key",
    tag: "catalog",
    summary: "One built-in evaluator template",
    params: z.object({ key: z.string() }),
    response: oneSchema("template", evaluatorTemplateWire),
    handler: async ({ params }) => {
      const template = getEvaluatorTemplate(params.key);
      if (!template) throw new NotFoundError(`Unknown evaluator template "${params.key}"; known: ${EVALUATOR_TEMPLATES.map((t) => t.key).join(", ")}`);
      return one("template", evaluatorTemplateToWire(template));
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/evaluators/catalog/presets",
    auth: "api_key",
    tag: "catalog",
    summary: "Ready-made evaluators (?template_key= narrows to one template): the revision data to commit",
    query: z.strictObject({ template_key: z.string().optional() }),
    response: manySchema("presets", evaluatorPresetWire),
    handler: async ({ query }) =>
      many("presets", EVALUATOR_PRESETS.filter((p) => !query.template_key || p.template_key === query.template_key).map(evaluatorPresetToWire)),
  }),
];
