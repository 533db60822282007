import { z } from "zod";
import { closedObject } from "../closed-object";
import { nonEmptyText } from "../text";
import { descriptionField, inputSchemaField, toolCommonFields } from "./common-fields";

const CODE_RUNTIMES = ["python", "node"] as const;

export const codeToolSchema = closedObject({
  type: z.literal("code"),
  name: nonEmptyText().describe("Model-visible tool name."),
  description: descriptionField(),
  runtime: z.enum(CODE_RUNTIMES).default("python").describe("Script runtime."),
  script: nonEmptyText().describe("Script source."),
  input_schema: inputSchemaField(),
  secrets: z.array(nonEmptyText()).default([]).describe("Names of secrets injected into the script environment."),
  ...toolCommonFields,
}).describe("A script executed by the runner.");
