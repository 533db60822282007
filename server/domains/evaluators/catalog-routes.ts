import { z } from "zod";
import { NotFoundError } from "@/server/core/errors";
import { many, manySchema, one, oneSchema } from "@/server/http/envelope";
import { defineRoute } from "@/server/http/route";
import { nothingSchema, orNothing } from "@/server/versioning";
import { evaluatorPresetToWire, evaluatorPresetWire, EVALUATOR_PRESETS } from "./evaluator-presets";
import {
  evaluatorTemplateToWire,
  evaluatorTemplateWire,
  EVALUATOR_TEMPLATES,
  getEvaluatorTemplate,
} from "./evaluator-templates";

function templateOrThrow(key: string) {
  const template = getEvaluatorTemplate(key);
  if (!template)
    throw new NotFoundError(
      `Unknown evaluator template "${key}"; known: ${EVALUATOR_TEMPLATES.map((t) => t.key).join(", ")}`,
    );
  return template;
}

const presetsOf = (templateKey: string) => EVALUATOR_PRESETS.filter((p) => p.template_key === templateKey);

/**
 * The REST catalog names a built-in by the compat API's `agenta:builtin:<key>:v0`, which its
 * clients compare; a revision may store either prefix and runs the same (evaluator-uri.ts).
 */
function withCompatUri<T extends { data: { uri: string } }>(wire: T): T {
  return { ...wire, data: { ...wire.data, uri: wire.data.uri.replace(/^svc:builtin:/, "agenta:builtin:") } };
}
const templateWire = (t: Parameters<typeof evaluatorTemplateToWire>[0]) => withCompatUri(evaluatorTemplateToWire(t));
const presetWire = (p: Parameters<typeof evaluatorPresetToWire>[0]) => withCompatUri(evaluatorPresetToWire(p));

/**
 * A template's presets, and one of them, under the template as the compat API serves them; its
 * clients read them with GET or POST (no body), so both methods answer.
 */
const templatePresetRoutes = (["GET", "POST"] as const).flatMap((method) => [
  defineRoute({
    method,
    path: "/api/evaluators/catalog/templates/{key}/presets",
    auth: "api_key",
    role: "viewer",
    tag: "catalog",
    summary:
      "The presets of one built-in evaluator template: the revision data to commit (none for an unknown template)",
    params: z.object({ key: z.string() }),
    response: manySchema("presets", evaluatorPresetWire).extend({ detail: z.string().optional() }),
    handler: async ({ params }) => {
      const found = await orNothing(async () =>
        many("presets", presetsOf(templateOrThrow(params.key).key).map(presetWire)),
      );
      return "presets" in found ? found : { ...found, presets: [] };
    },
  }),
  defineRoute({
    method,
    path: "/api/evaluators/catalog/templates/{key}/presets/{preset}",
    auth: "api_key",
    role: "viewer",
    tag: "catalog",
    summary: "One preset of a built-in evaluator template ({count: 0} when there is none)",
    params: z.object({ key: z.string(), preset: z.string() }),
    response: z.union([oneSchema("preset", evaluatorPresetWire), nothingSchema]),
    handler: async ({ params }) =>
      orNothing(async () => {
        const presets = presetsOf(templateOrThrow(params.key).key);
        const preset = presets.find((p) => p.key === params.preset);
        if (!preset) {
          throw new NotFoundError(
            `Template "${params.key}" has no preset "${params.preset}"; its presets: ${presets.map((p) => p.key).join(", ") || "none"}`,
          );
        }
        return one("preset", presetWire(preset));
      }),
  }),
]);

/** The built-in evaluators: templates (with their parameters schemas) and ready-made presets. */
export const evaluatorCatalogRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/evaluators/catalog/templates",
    auth: "api_key",
    tag: "catalog",
    summary:
      "The built-in evaluator templates, each with the revision data to start from and its parameters and outputs schemas",
    response: manySchema("templates", evaluatorTemplateWire),
    handler: async () => many("templates", EVALUATOR_TEMPLATES.map(templateWire)),
  }),
  defineRoute({
    method: "GET",
    path: "/api/evaluators/catalog/templates/{key}",
    auth: "api_key",
    tag: "catalog",
    summary: "One built-in evaluator template ({count: 0} when there is none)",
    params: z.object({ key: z.string() }),
    response: z.union([oneSchema("template", evaluatorTemplateWire), nothingSchema]),
    handler: async ({ params }) => orNothing(async () => one("template", templateWire(templateOrThrow(params.key)))),
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
      many(
        "presets",
        EVALUATOR_PRESETS.filter((p) => !query.template_key || p.template_key === query.template_key).map(presetWire),
      ),
  }),
  ...templatePresetRoutes,
];
