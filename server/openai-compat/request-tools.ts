import { z } from "zod";
import type { AgentTemplate } from "@/server/agent-template";

const parametersSchema = z.record(z.string(), z.unknown());

/** Chat completions: `{type: "function", function: {name, description, parameters}}`. */
export const chatToolSchema = z.object({
  type: z.literal("function"),
  function: z.object({
    name: z.string().min(1).max(128),
    description: z.string().nullish(),
    parameters: parametersSchema.nullish(),
    strict: z.boolean().nullish(),
  }),
});

/** Responses: `{type: "function", name, description, parameters}` (OpenAI's hosted tools are not served here). */
export const responsesToolSchema = z.object({
  type: z.literal("function"),
  name: z.string().min(1).max(128),
  description: z.string().nullish(),
  parameters: parametersSchema.nullish(),
  strict: z.boolean().nullish(),
});

/** `tool_choice`: the model decides; forcing or forbidding a call is not a setting the agent has. */
export const toolChoiceSchema = z.literal("auto", {
  error: 'tool_choice: only "auto" is served (the agent decides when to call tools); remove tool_choice',
});

export interface FunctionTool {
  name: string;
  description?: string | null;
  parameters?: Record<string, unknown> | null;
}

/**
 * The request's own tools, offered to the model beside the agent's as `client` tools: a call to
 * one pauses the turn and comes back to the caller as an OpenAI tool call.
 */
export function asClientTools(tools: FunctionTool[]): AgentTemplate["tools"] {
  return tools.map((tool) => ({
    type: "client" as const,
    name: tool.name,
    description: tool.description ?? null,
    input_schema: tool.parameters ?? { type: "object", properties: {} },
    permission: null,
    render: null,
  }));
}
