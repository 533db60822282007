import { closedObject } from "./closed-object";
import { DEFAULT_MODEL } from "./builtin-defaults";
import { extrasField } from "./extras";
import { fieldsParsed } from "./fields-parsed";
import { llmConnectionSchema } from "./llm-connection";
import { SPLITTABLE_MODEL, splitModel } from "./split-model";
import { nonEmptyText } from "./text";

export const llmSchema = closedObject({
  model: nonEmptyText()
    .default(DEFAULT_MODEL)
    .describe(
      "Model id in the provider's namespace. Without a provider, a `provider/model` string splits on the first `/`.",
    ),
  provider: nonEmptyText()
    .nullable()
    .default(null)
    .describe("Provider id. When unset, resolution infers it from a matching stored connection."),
  connection: llmConnectionSchema.nullable().default(null),
  extras: extrasField("Model knobs passed through unchanged (for example reasoning_effort)."),
})
  .superRefine(
    (llm, ctx) => {
      if (llm.provider === null && llm.model !== "" && !SPLITTABLE_MODEL.test(llm.model)) {
        ctx.addIssue({
          code: "custom",
          path: ["model"],
          message: `"${llm.model}" splits on its first "/" into an empty provider or model; write "provider/model" (e.g. "openai/gpt-5-mini") or set llm.provider`,
        });
      }
    },
    { when: fieldsParsed("model", "provider") },
  )
  .meta({
    if: { type: "object", properties: { provider: { type: "string" } }, required: ["provider"] },
    else: { properties: { model: { type: "string", pattern: SPLITTABLE_MODEL.source } } },
  })
  .transform(splitModel)
  .describe("Model, provider and credential connection.");
