import { z } from "zod";
import { builtinToolSchema } from "./builtin-tool";
import { BUILTIN_TOOL_NAMES } from "./builtin-tool-names";
import { clientToolSchema } from "./client-tool";
import { codeToolSchema } from "./code-tool";
import { gatewayToolSchema } from "./gateway-tool";
import { platformToolSchema } from "./platform-tool";
import { referenceToolSchema } from "./reference-tool";

export const toolEntrySchema = z.discriminatedUnion(
  "type",
  [builtinToolSchema, gatewayToolSchema, codeToolSchema, clientToolSchema, referenceToolSchema, platformToolSchema],
  {
    // zod types this map as union-only, but the union also reports a non-object entry through it.
    error: (issue: z.core.$ZodRawIssue) =>
      issue.code === "invalid_type" && typeof issue.input === "string"
        ? `a tool entry is an object with "type", e.g. {"type": "builtin", "name": "${exampleName(issue.input)}"}`
        : undefined,
  },
);

function exampleName(sent: string): string {
  return (BUILTIN_TOOL_NAMES as readonly string[]).includes(sent) ? sent : "read";
}

export type ToolEntry = z.output<typeof toolEntrySchema>;
export type ToolType = ToolEntry["type"];
