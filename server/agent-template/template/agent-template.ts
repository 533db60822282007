import { z } from "zod";
import { closedObject } from "./closed-object";
import { harnessSchema } from "./harness";
import { instructionsSchema } from "./instructions";
import { llmSchema } from "./llm";
import { mcpServerSchema } from "./mcp-server";
import { runnerSchema } from "./runner";
import { sandboxSchema } from "./sandbox";
import { skillSchema } from "./skill";
import { toolEntrySchema } from "./tools";

/**
 * The agent template: the one JSON object stored at `data.parameters.agent`. Every field is
 * optional and parsing returns the fully defaulted template; unknown keys are rejected at every
 * level except the free-form `extras`, `render`, `input_schema` and header maps.
 */
export const agentTemplateSchema = closedObject({
  instructions: instructionsSchema.prefault({}),
  llm: llmSchema.prefault({}),
  tools: z.array(toolEntrySchema).default([]).describe("Tool entries; an empty list grants no built-ins."),
  mcps: z.array(mcpServerSchema).default([]).describe("MCP server declarations."),
  skills: z.array(skillSchema).default([]).describe("Inline skill packages."),
  harness: harnessSchema.prefault({}),
  runner: runnerSchema.prefault({}),
  sandbox: sandboxSchema.prefault({}),
}).meta({ title: "Agent template", description: "Configuration of one agent (catalog type agent-template)." });

/** The fully defaulted template, as parsing returns it. */
export type AgentTemplate = z.output<typeof agentTemplateSchema>;

/** What a caller may send: every field optional. */
export type AgentTemplateInput = z.input<typeof agentTemplateSchema>;
