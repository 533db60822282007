import { z } from "zod";
import { closedObject } from "../closed-object";
import { fieldsParsed } from "../fields-parsed";
import { nonEmptyText } from "../text";
import { descriptionField, inputSchemaField, toolCommonFields } from "./common-fields";

const REFERENCE_AXES = ["variant", "environment"] as const;

const BY_ENVIRONMENT = { type: "object", properties: { ref_by: { const: "environment" } }, required: ["ref_by"] };

export const referenceToolSchema = closedObject({
  type: z.literal("reference"),
  ref_by: z.enum(REFERENCE_AXES).default("variant").describe("Axis that selects the workflow revision."),
  slug: nonEmptyText().describe("Workflow slug."),
  environment: nonEmptyText()
    .nullable()
    .default(null)
    .describe("Environment slug; required when ref_by is `environment`, rejected otherwise."),
  version: nonEmptyText()
    .nullable()
    .default(null)
    .describe("Pins a revision; valid only with ref_by `variant`; null = latest revision."),
  name: nonEmptyText().nullable().default(null).describe("Model-visible name; defaults to slug."),
  description: descriptionField(),
  input_schema: inputSchemaField(),
  ...toolCommonFields,
})
  .superRefine(
    (tool, ctx) => {
      if (tool.ref_by === "environment" && tool.environment === null) {
        ctx.addIssue({ code: "custom", path: ["environment"], message: 'is required when ref_by is "environment"' });
      }
      if (tool.ref_by === "variant" && tool.environment !== null) {
        ctx.addIssue({
          code: "custom",
          path: ["environment"],
          message: 'is only valid with ref_by "environment"; remove it or set ref_by to "environment"',
        });
      }
      if (tool.ref_by === "environment" && tool.version !== null) {
        ctx.addIssue({
          code: "custom",
          path: ["version"],
          message:
            'pins a revision of a variant and is only valid with ref_by "variant"; the environment decides the revision',
        });
      }
    },
    { when: fieldsParsed("ref_by", "environment", "version") },
  )
  .meta({
    if: BY_ENVIRONMENT,
    then: { required: ["environment"], properties: { environment: { type: "string" }, version: { type: "null" } } },
    else: { properties: { environment: { type: "null" } } },
  })
  .describe("Another workflow exposed as a tool, run server-side.");
