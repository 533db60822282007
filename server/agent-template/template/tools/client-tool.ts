import { z } from "zod";
import { closedObject } from "../closed-object";
import { nonEmptyText } from "../text";
import { descriptionField, inputSchemaField, toolCommonFields } from "./common-fields";

export const clientToolSchema = closedObject({
  type: z.literal("client"),
  name: nonEmptyText().describe("Model-visible tool name."),
  description: descriptionField(),
  input_schema: inputSchemaField(),
  ...toolCommonFields,
}).describe("A tool fulfilled by the calling client.");
