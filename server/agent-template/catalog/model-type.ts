import type { JsonSchema } from "./json-schema";
import { CURATED_MODELS } from "./models";
import { PROVIDER_IDS } from "@/shared/providers";

/**
 * The `model` catalog type: a `<provider>/<model>` string. The curated models are choices for a
 * picker (grouped by provider in `x-choices`), not an enum: any id the provider accepts works.
 */
export function modelCatalogType(): JsonSchema {
  const choices = Object.fromEntries(
    PROVIDER_IDS.map((provider) => [provider, CURATED_MODELS[provider].map((m) => `${provider}/${m.id}`)]),
  );
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "Model",
    description:
      "A model id, `<provider>/<model>`. The choices are the curated models of each provider; other ids the provider accepts work too.",
    type: "string",
    examples: Object.values(choices).flat(),
    "x-choices": choices,
  } as JsonSchema;
}
