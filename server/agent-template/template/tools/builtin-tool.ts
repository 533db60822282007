import { z } from "zod";
import { closedObject } from "../closed-object";
import { BUILTIN_TOOL_NAMES } from "./builtin-tool-names";
import { toolCommonFields } from "./common-fields";

export const builtinToolSchema = closedObject({
  type: z.literal("builtin"),
  name: z.enum(BUILTIN_TOOL_NAMES).describe("Built-in tool name; present = the agent has it, absent = it does not."),
  ...toolCommonFields,
}).describe("A tool the harness provides.");
