import { z } from "zod";
import { closedObject } from "../closed-object";
import { nonEmptyText } from "../text";
import { toolCommonFields } from "./common-fields";

/** The built-in integrations gateway, used when an entry names no provider. */
export const DEFAULT_GATEWAY_PROVIDER = "composio";

export const gatewayToolSchema = closedObject({
  type: z.literal("gateway"),
  provider: nonEmptyText().default(DEFAULT_GATEWAY_PROVIDER).describe("Which gateway serves the action."),
  integration: nonEmptyText().describe("Connected app."),
  action: nonEmptyText().describe("The single action exposed."),
  connection: nonEmptyText().describe("Account connection the action runs as."),
  name: nonEmptyText().nullable().default(null).describe("Model-visible tool name."),
  ...toolCommonFields,
}).describe("One action from a built-in integration.");
