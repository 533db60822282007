import { jsonSchema, tool, type JSONSchema7 } from "ai";
import type { ToolFactory } from "./tool-types";

/** A tool the caller fulfils: no `execute`, so the turn pauses at its call (the interface contract client tools). */
export const clientToolFactory: ToolFactory = (entry) => {
  if (entry.type !== "client") throw new Error(`clientToolFactory got a ${entry.type} entry`);
  return {
    name: entry.name,
    kind: "client",
    render: entry.render ?? undefined,
    tool: tool({
      description: entry.description ?? undefined,
      inputSchema: jsonSchema(entry.input_schema as JSONSchema7),
    }),
  };
};
