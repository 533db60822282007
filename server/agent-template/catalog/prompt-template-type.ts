import { z } from "zod";
import type { JsonSchema } from "./json-schema";
import { modelCatalogType } from "./model-type";
import { toCatalogJsonSchema } from "./to-catalog-json-schema";

/** Roles a prompt message may take: a prompt is written, so tool traffic has no place in it. */
export const PROMPT_ROLES = ["system", "developer", "user", "assistant"] as const;

/**
 * A prompt: messages with `{{name}}` placeholders and the model settings (the interface contract, the
 * application commit payload's `data.parameters.prompt`).
 */
export const promptTemplateSchema = z
  .object({
    messages: z
      .array(
        z.object({
          role: z.enum(PROMPT_ROLES).describe("Author of the message."),
          content: z.string().describe("Text; may hold {{name}} placeholders."),
        }),
      )
      .describe("The prompt's messages, in order."),
    template_format: z
      .enum(["curly", "fstring", "jinja2"])
      .default("curly")
      .describe("How placeholders are written: {{name}} (curly), {name} (fstring) or Jinja2."),
    input_keys: z
      .array(z.string())
      .optional()
      .describe("The placeholders the prompt expects; when given, inputs are checked against them."),
    llm_config: z
      .object({
        model: z.string().min(1).describe("Model id, `<provider>/<model>` (see the model catalog type)."),
        temperature: z.number().min(0).max(2).optional(),
        max_tokens: z.number().int().min(1).optional(),
        top_p: z.number().min(0).max(1).optional(),
        frequency_penalty: z.number().min(-2).max(2).optional(),
        presence_penalty: z.number().min(-2).max(2).optional(),
        response_format: z
          .record(z.string(), z.unknown())
          .optional()
          .describe("Provider response format, e.g. {type: json_schema, json_schema: {...}}."),
      })
      .describe("Model settings."),
  })
  .meta({
    title: "Prompt template",
    description: "A chat prompt with placeholders and its model settings (catalog type prompt-template).",
  });

let generated: JsonSchema | undefined;

/** JSON Schema of the `prompt-template` catalog type; `llm_config.model` carries the model type's choices. */
export function promptTemplateCatalogType(): JsonSchema {
  if (!generated) {
    const schema = toCatalogJsonSchema(promptTemplateSchema) as {
      properties: { llm_config: { properties: Record<string, unknown> } };
    };
    const model = schema.properties.llm_config.properties.model as Record<string, unknown>;
    const { examples, "x-choices": choices } = modelCatalogType() as Record<string, unknown>;
    Object.assign(model, { "x-catalog-type": "model", "x-ag-type": "model", examples, "x-choices": choices });
    generated = schema as JsonSchema;
  }
  return structuredClone(generated);
}
